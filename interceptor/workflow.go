package interceptor

import "github.com/durable-go/sdk/internal"

// WorkflowInboundInterceptor sees what arrives at a workflow run. Make one
// in WorkerInterceptor.InterceptWorkflow; embed
// WorkflowInboundInterceptorBase. Its code runs as workflow code: it must
// be deterministic.
//
//   - Init(outbound) is called first, with the WorkflowOutboundInterceptor
//     that the workflow's calls go to; wrap it to intercept those calls,
//     and pass the result on to the next Init.
//   - ExecuteWorkflow(ctx, in) runs the workflow function with its decoded
//     arguments, in the root coroutine; WorkflowHeader(ctx) is the header
//     the workflow started with.
//   - HandleSignal(ctx, in) delivers a signal to its channel, while
//     history is applied: it must not block. WorkflowHeader(ctx) is the
//     signal's header.
//   - ValidateUpdate(ctx, in) runs an update's validator, read-only; an
//     error rejects the update. It does not run in replay.
//   - ExecuteUpdate(ctx, in) runs an update's handler, in the update's
//     coroutine, and returns its result.
//   - HandleQuery(ctx, in) answers a query with its handler; it must not
//     block or change state. WorkflowHeader(ctx) is the query's header.
//     Built-in queries (__stack_trace, metadata) do not come here.
type WorkflowInboundInterceptor = internal.WorkflowInboundInterceptor

// WorkflowInboundInterceptorBase passes every call on to its Next
// interceptor (it implements WorkflowInboundInterceptor). Embed it, set
// Next, and override what you need.
type WorkflowInboundInterceptorBase = internal.WorkflowInboundInterceptorBase

// ExecuteWorkflowInput is the input of
// WorkflowInboundInterceptor.ExecuteWorkflow.
//
//   - Args: the workflow's arguments, decoded.
type ExecuteWorkflowInput = internal.ExecuteWorkflowInput

// HandleSignalInput is the input of WorkflowInboundInterceptor.HandleSignal.
//
//   - SignalName: the signal's name.
//   - Arg: the signal's argument, still encoded: the code that receives
//     the signal decodes it.
type HandleSignalInput = internal.HandleSignalInput

// HandleQueryInput is the input of WorkflowInboundInterceptor.HandleQuery.
//
//   - QueryType: the query's type.
//   - Args: the query's arguments, decoded for its handler.
type HandleQueryInput = internal.HandleQueryInput

// UpdateInput is the input of WorkflowInboundInterceptor.ValidateUpdate
// and ExecuteUpdate.
//
//   - Name: the update's name.
//   - Args: the update's arguments, decoded for its handler.
type UpdateInput = internal.UpdateInput

// WorkflowOutboundInterceptor sees the calls that workflow code makes to
// the workflow package: each method intercepts the function of that name
// (Go also GoNamed, SetUpdateHandler also its WithOptions form,
// SignalChildWorkflow and SignalChildWorkflowWithOptions the
// ChildWorkflowFuture methods): Go, Await, AwaitWithTimeout,
// AwaitWithOptions, ExecuteActivity, ExecuteLocalActivity,
// ExecuteChildWorkflow, SignalExternalWorkflow,
// SignalExternalWorkflowWithOptions, SignalChildWorkflow,
// SignalChildWorkflowWithOptions, RequestCancelExternalWorkflow,
// RequestCancelExternalWorkflowWithOptions, GetInfo,
// GetTypedSearchAttributes, GetLogger, GetMetricsHandler, Now, NewTimer,
// NewTimerWithOptions, Sleep, GetSignalChannel,
// GetSignalChannelWithOptions, SideEffect, SideEffectWithOptions,
// MutableSideEffect, MutableSideEffectWithOptions, GetVersion,
// GetVersionWithOptions, SetUpdateHandler, GetCurrentUpdateInfo,
// SetQueryHandler, SetQueryHandlerWithOptions, IsReplaying,
// HasLastCompletionResult, GetLastCompletionResult, GetLastError,
// NewContinueAsNewError, NewContinueAsNewErrorWithOptions,
// UpsertSearchAttributes, UpsertTypedSearchAttributes,
// UpsertTypedSearchAttributesWithOptions, UpsertMemo,
// UpsertMemoWithOptions. A call without options reaches only the method
// without options, as in go.temporal.io/sdk v1.51. ExecuteNexusOperation
// intercepts NexusClient.ExecuteOperation, and RequestCancelNexusOperation
// the cancel request sent when a Nexus operation's context is canceled.
// SignalWithStartWorkflow intercepts workflow.SignalWithStartWorkflow (the
// server runs it as a Nexus operation, which ExecuteNexusOperation does
// not see); WorkflowHeader(ctx) is the header of its request.
// Activities and child workflows arrive by type name, their arguments not
// yet encoded. Wrap it in WorkflowInboundInterceptor.Init; embed
// WorkflowOutboundInterceptorBase. Its code runs as workflow code: it
// must be deterministic.
type WorkflowOutboundInterceptor = internal.WorkflowOutboundInterceptor

// WorkflowOutboundInterceptorBase passes every call on to its Next
// interceptor (it implements WorkflowOutboundInterceptor). Embed it, set
// Next, and override what you need.
type WorkflowOutboundInterceptorBase = internal.WorkflowOutboundInterceptorBase

// ExecuteNexusOperationInput is the input of
// WorkflowOutboundInterceptor.ExecuteNexusOperation.
//
//   - Client: the NexusClient the workflow called (its endpoint and
//     service).
//   - Operation: the operation, as the workflow named it (a name, a
//     nexus.Operation or a nexus.OperationReference).
//   - Input: the operation's input, not yet encoded.
//   - Options: the operation's options.
//   - NexusHeader: the header sent to the handler with the request; write
//     to it here.
type ExecuteNexusOperationInput = internal.ExecuteNexusOperationInput

// RequestCancelNexusOperationInput is the input of
// WorkflowOutboundInterceptor.RequestCancelNexusOperation.
//
//   - Client: the NexusClient that started the operation.
//   - Operation: the operation, as the workflow named it.
//   - Token: the operation's token; empty while it has not started
//     asynchronously.
type RequestCancelNexusOperationInput = internal.RequestCancelNexusOperationInput
