package interceptor

import (
	"maps"
	"strings"
	"testing"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// nexusHeaderRecorder keeps the Nexus header each operation is sent with.
type nexusHeaderRecorder struct {
	WorkerInterceptorBase
	headers []map[string]string
}

func (r *nexusHeaderRecorder) InterceptWorkflow(_ workflow.Context, next WorkflowInboundInterceptor) WorkflowInboundInterceptor {
	return &nexusHeaderInbound{WorkflowInboundInterceptorBase: WorkflowInboundInterceptorBase{Next: next}, recorder: r}
}

type nexusHeaderInbound struct {
	WorkflowInboundInterceptorBase
	recorder *nexusHeaderRecorder
}

func (i *nexusHeaderInbound) Init(outbound WorkflowOutboundInterceptor) error {
	return i.Next.Init(&nexusHeaderOutbound{WorkflowOutboundInterceptorBase: WorkflowOutboundInterceptorBase{Next: outbound}, recorder: i.recorder})
}

type nexusHeaderOutbound struct {
	WorkflowOutboundInterceptorBase
	recorder *nexusHeaderRecorder
}

func (o *nexusHeaderOutbound) ExecuteNexusOperation(ctx internal.Context, input ExecuteNexusOperationInput) workflow.NexusOperationFuture {
	o.recorder.headers = append(o.recorder.headers, maps.Clone(map[string]string(input.NexusHeader)))
	return o.Next.ExecuteNexusOperation(ctx, input)
}

func callsNexusOperation(ctx workflow.Context) error {
	return workflow.NewNexusClient("endpoint", "orders").ExecuteOperation(ctx, "reserve", "sku", workflow.NexusOperationOptions{}).Get(ctx, nil)
}

// TestNexusOperationSpanGoesInTheNexusHeader: a workflow's Nexus operation
// is traced as StartNexusOperation:<service>/<operation>, and the span
// goes with the request in its Nexus header, as go.temporal.io/sdk sends
// it. (The test environment does not run the operation: the span is all
// this test needs.)
func TestNexusOperationSpanGoesInTheNexusHeader(t *testing.T) {
	tracer := newFakeTracer()
	recorder := &nexusHeaderRecorder{}
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetWorkerOptions(worker.Options{Interceptors: []WorkerInterceptor{recorder, NewTracingInterceptor(tracer)}})
	env.RegisterWorkflow(callsNexusOperation)
	env.ExecuteWorkflow(callsNexusOperation)
	var names []string
	for _, o := range tracer.started {
		names = append(names, o.Operation+":"+o.Name)
	}
	if !strings.Contains(strings.Join(names, ","), "StartNexusOperation:orders/reserve") {
		t.Fatalf("spans started: %v", names)
	}
	if len(recorder.headers) == 0 || recorder.headers[0]["span"] != "StartNexusOperation:orders/reserve" {
		t.Fatalf("Nexus headers sent: %v", recorder.headers)
	}
}
