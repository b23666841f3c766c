package interceptor_test

import (
	"context"
	"fmt"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/interceptor"
	"github.com/durable-go/sdk/workflow"
)

// requestIDKey is the header field and context key of a request ID.
const requestIDKey = "request-id"

type requestIDContextKey struct{}

// requestIDInterceptor sends the request ID of the caller's context with
// every workflow start, and gives it to the workflow as a context value.
type requestIDInterceptor struct {
	interceptor.InterceptorBase
}

func (*requestIDInterceptor) InterceptClient(next interceptor.ClientOutboundInterceptor) interceptor.ClientOutboundInterceptor {
	return &requestIDClient{ClientOutboundInterceptorBase: interceptor.ClientOutboundInterceptorBase{Next: next}}
}

func (*requestIDInterceptor) InterceptWorkflow(_ workflow.Context, next interceptor.WorkflowInboundInterceptor) interceptor.WorkflowInboundInterceptor {
	return &requestIDWorkflow{WorkflowInboundInterceptorBase: interceptor.WorkflowInboundInterceptorBase{Next: next}}
}

type requestIDClient struct {
	interceptor.ClientOutboundInterceptorBase
}

func (c *requestIDClient) ExecuteWorkflow(ctx context.Context, in *interceptor.ClientExecuteWorkflowInput) (client.WorkflowRun, error) {
	if id, ok := ctx.Value(requestIDContextKey{}).(string); ok {
		p, err := converter.GetDefaultDataConverter().ToPayload(id)
		if err != nil {
			return nil, err
		}
		interceptor.Header(ctx)[requestIDKey] = p
	}
	return c.Next.ExecuteWorkflow(ctx, in)
}

type requestIDWorkflow struct {
	interceptor.WorkflowInboundInterceptorBase
}

func (w *requestIDWorkflow) ExecuteWorkflow(ctx workflow.Context, in *interceptor.ExecuteWorkflowInput) (any, error) {
	if p, ok := interceptor.WorkflowHeader(ctx)[requestIDKey]; ok {
		var id string
		if err := converter.GetDefaultDataConverter().FromPayload(p, &id); err != nil {
			return nil, err
		}
		ctx = workflow.WithValue(ctx, requestIDContextKey{}, id)
	}
	return w.Next.ExecuteWorkflow(ctx, in)
}

// An Interceptor given to a client intercepts the client's calls and the
// workflows of the workers made from it: here it carries a request ID from
// the code that starts a workflow into the workflow.
func Example() {
	var i interceptor.Interceptor = &requestIDInterceptor{}
	options := client.Options{Interceptors: []interceptor.ClientInterceptor{i}}
	_, alsoForWorkers := options.Interceptors[0].(interceptor.WorkerInterceptor)
	fmt.Println("intercepts workers too:", alsoForWorkers)
	fmt.Println("header outside an intercepted call:", interceptor.Header(context.Background()))
	// Output:
	// intercepts workers too: true
	// header outside an intercepted call: map[]
}
