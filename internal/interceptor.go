package internal

import (
	"context"

	"github.com/durable-go/sdk/internal/clientapi"
)

// Interceptor intercepts both clients and workers (interceptor.Interceptor).
// Put one in ClientOptions.Interceptors and it also applies to every
// worker made from that client.
type Interceptor interface {
	ClientInterceptor
	WorkerInterceptor
}

// WorkerInterceptor wraps the workflows and activities a worker runs
// (interceptor.WorkerInterceptor). Implementations embed
// WorkerInterceptorBase, so that methods added later have a default.
type WorkerInterceptor interface {
	// InterceptActivity is called once per activity attempt, before the
	// activity runs, with the next inbound interceptor of the chain; it
	// returns the interceptor to call instead (next, to intercept nothing).
	InterceptActivity(ctx context.Context, next ActivityInboundInterceptor) ActivityInboundInterceptor
	// InterceptWorkflow is called once per workflow run, when the run
	// starts (or is replayed into the cache), with the next inbound
	// interceptor of the chain.
	InterceptWorkflow(ctx Context, next WorkflowInboundInterceptor) WorkflowInboundInterceptor
	// InterceptNexusOperation is called once per Nexus task, before the
	// operation's handler runs, with the next inbound interceptor of the
	// chain.
	InterceptNexusOperation(ctx context.Context, next NexusOperationInboundInterceptor) NexusOperationInboundInterceptor

	mustEmbedWorkerInterceptorBase()
}

// WorkerInterceptorBase intercepts nothing: embed it in a WorkerInterceptor
// and override the methods that matter.
type WorkerInterceptorBase struct{}

var _ WorkerInterceptor = &WorkerInterceptorBase{}

// InterceptActivity returns next: the activity is not intercepted.
func (*WorkerInterceptorBase) InterceptActivity(_ context.Context, next ActivityInboundInterceptor) ActivityInboundInterceptor {
	return next
}

// InterceptWorkflow returns next: the workflow is not intercepted.
func (*WorkerInterceptorBase) InterceptWorkflow(_ Context, next WorkflowInboundInterceptor) WorkflowInboundInterceptor {
	return next
}

// InterceptNexusOperation wraps next in a
// NexusOperationInboundInterceptorBase: the operation is not intercepted.
func (*WorkerInterceptorBase) InterceptNexusOperation(_ context.Context, next NexusOperationInboundInterceptor) NexusOperationInboundInterceptor {
	return &NexusOperationInboundInterceptorBase{Next: next}
}

func (*WorkerInterceptorBase) mustEmbedWorkerInterceptorBase() {}

// ClientInterceptor wraps the calls of a client
// (interceptor.ClientInterceptor). Implementations embed
// ClientInterceptorBase.
type ClientInterceptor interface {
	// InterceptClient is called once, when the client is made, with the
	// next outbound interceptor of the chain; it returns the interceptor
	// to call instead.
	InterceptClient(next clientapi.ClientOutboundInterceptor) clientapi.ClientOutboundInterceptor

	mustEmbedClientInterceptorBase()
}

// ClientInterceptorBase intercepts nothing: embed it in a ClientInterceptor.
type ClientInterceptorBase struct{}

var _ ClientInterceptor = &ClientInterceptorBase{}

// InterceptClient returns next: the client is not intercepted.
func (*ClientInterceptorBase) InterceptClient(next clientapi.ClientOutboundInterceptor) clientapi.ClientOutboundInterceptor {
	return next
}

func (*ClientInterceptorBase) mustEmbedClientInterceptorBase() {}

// InterceptorBase intercepts nothing, on clients and workers alike: embed it
// in an Interceptor.
type InterceptorBase struct {
	ClientInterceptorBase
	WorkerInterceptorBase
}

var _ Interceptor = &InterceptorBase{}
