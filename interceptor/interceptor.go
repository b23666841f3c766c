package interceptor

import (
	"context"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/propagation"
	"github.com/durable-go/sdk/workflow"
)

// Interceptor intercepts a client and the workers made from it: it is
// both a ClientInterceptor and a WorkerInterceptor. Give it to
// client.Options.Interceptors. Implementations embed InterceptorBase.
type Interceptor = internal.Interceptor

// InterceptorBase intercepts nothing: it is a ClientInterceptorBase and a
// WorkerInterceptorBase, whose methods return the next interceptor
// unchanged. Embed it in an Interceptor and override what you need.
type InterceptorBase = internal.InterceptorBase

// WorkerInterceptor wraps the workflows and activities that a worker
// runs. Give it to worker.Options.Interceptors (or
// worker.WorkflowReplayerOptions.Interceptors); implementations embed
// WorkerInterceptorBase.
//
//   - InterceptActivity(ctx, next) is called for each activity attempt,
//     before the activity runs; it returns the ActivityInboundInterceptor
//     to call instead of next (next itself to intercept nothing).
//   - InterceptWorkflow(ctx, next) is called once per workflow run, when
//     the run starts on the worker (or is replayed into its cache); it
//     returns the WorkflowInboundInterceptor to call instead of next.
//   - InterceptNexusOperation(ctx, next) is called once per Nexus task,
//     before the operation's handler runs; it returns the
//     NexusOperationInboundInterceptor to call instead of next.
type WorkerInterceptor = internal.WorkerInterceptor

// WorkerInterceptorBase intercepts nothing: its InterceptActivity and
// InterceptWorkflow return next, and its InterceptNexusOperation wraps
// next in a NexusOperationInboundInterceptorBase. Embed it in a
// WorkerInterceptor.
type WorkerInterceptorBase = internal.WorkerInterceptorBase

// ClientInterceptor wraps a client's calls. Give it to
// client.Options.Interceptors; implementations embed
// ClientInterceptorBase.
//
//   - InterceptClient(next) is called once, when the client is made; it
//     returns the ClientOutboundInterceptor to call instead of next.
type ClientInterceptor = internal.ClientInterceptor

// ClientInterceptorBase intercepts nothing: its InterceptClient returns
// next. Embed it in a ClientInterceptor.
type ClientInterceptorBase = internal.ClientInterceptorBase

// Header returns the header of the call ctx belongs to, to read or write:
// in a client interceptor's ExecuteWorkflow, SignalWorkflow,
// SignalWithStartWorkflow, QueryWorkflow, UpdateWorkflow and
// UpdateWithStartWorkflow (the header sent), and in an
// activity inbound interceptor's ExecuteActivity (the header received).
// It is nil elsewhere.
func Header(ctx context.Context) map[string]*commonpb.Payload { return propagation.Header(ctx) }

// WorkflowHeader returns the header of the workflow call ctx belongs to,
// to read or write: in a workflow inbound interceptor's ExecuteWorkflow,
// HandleSignal and HandleQuery (the header received), and in a workflow
// outbound interceptor's ExecuteActivity and NewContinueAsNewError (the
// header sent). It is nil elsewhere.
func WorkflowHeader(ctx workflow.Context) map[string]*commonpb.Payload {
	return propagation.WorkflowHeader(ctx)
}
