package internal

import (
	"time"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/internal/searchattr"
	"github.com/durable-go/sdk/log"
)

// WorkflowInboundInterceptor sees what reaches a workflow run from outside:
// its start, signals and queries (interceptor.WorkflowInboundInterceptor).
// Implementations embed WorkflowInboundInterceptorBase. Its methods run as
// workflow code: they must be deterministic.
type WorkflowInboundInterceptor interface {
	// Init is called first, with the outbound interceptor the workflow's
	// calls go to; an implementation may wrap it before passing it on to
	// the next Init.
	Init(outbound WorkflowOutboundInterceptor) error
	// ExecuteWorkflow runs the workflow function, in the root coroutine.
	// WorkflowHeader(ctx) returns the header the workflow was started with.
	ExecuteWorkflow(ctx Context, in *ExecuteWorkflowInput) (any, error)
	// HandleSignal delivers a signal to its channel. It is called while
	// history is applied, outside any coroutine: it must not block.
	// WorkflowHeader(ctx) returns the signal's header.
	HandleSignal(ctx Context, in *HandleSignalInput) error
	// ValidateUpdate runs the update's validator, read-only: an error
	// rejects the update. It does not run in replay.
	ValidateUpdate(ctx Context, in *UpdateInput) error
	// ExecuteUpdate runs the update's handler, in the update's coroutine.
	ExecuteUpdate(ctx Context, in *UpdateInput) (any, error)
	// HandleQuery answers a query with the handler set for it; it must
	// not block or change workflow state. WorkflowHeader(ctx) returns the
	// query's header. Built-in queries (__stack_trace, metadata) do not
	// come here.
	HandleQuery(ctx Context, in *HandleQueryInput) (any, error)

	mustEmbedWorkflowInboundInterceptorBase()
}

// ExecuteWorkflowInput is the input of WorkflowInboundInterceptor.ExecuteWorkflow.
type ExecuteWorkflowInput struct {
	// Args are the workflow's arguments, decoded.
	Args []any
}

// HandleSignalInput is the input of WorkflowInboundInterceptor.HandleSignal.
type HandleSignalInput struct {
	SignalName string
	// Arg is the signal's argument, still encoded: the receiver decodes it.
	Arg *commonpb.Payloads
}

// HandleQueryInput is the input of WorkflowInboundInterceptor.HandleQuery.
type HandleQueryInput struct {
	QueryType string
	// Args are the query's arguments, decoded for its handler.
	Args []any
}

// WorkflowOutboundInterceptor sees the calls workflow code makes through
// the workflow package (interceptor.WorkflowOutboundInterceptor). The last
// one of the chain does the work. Implementations embed
// WorkflowOutboundInterceptorBase; like workflow code, they must be
// deterministic.
type WorkflowOutboundInterceptor interface {
	// Go intercepts workflow.Go and workflow.GoNamed (name is empty for
	// Go), and the start of the root coroutine, named "root". It returns
	// the context the new coroutine runs with.
	Go(ctx Context, name string, f func(ctx Context)) Context
	// Await intercepts workflow.Await.
	Await(ctx Context, condition func() bool) error
	// AwaitWithTimeout intercepts workflow.AwaitWithTimeout.
	AwaitWithTimeout(ctx Context, timeout time.Duration, condition func() bool) (bool, error)
	// AwaitWithOptions intercepts workflow.AwaitWithOptions.
	AwaitWithOptions(ctx Context, options AwaitOptions, condition func() bool) (bool, error)
	// ExecuteActivity intercepts workflow.ExecuteActivity, given the
	// activity's type name. WorkflowHeader(ctx) is the header sent with
	// the activity: write to it here.
	ExecuteActivity(ctx Context, activityType string, args ...any) Future
	// ExecuteLocalActivity intercepts workflow.ExecuteLocalActivity, given
	// the activity's type name. WorkflowHeader(ctx) is the header the local
	// activity receives: write to it here.
	ExecuteLocalActivity(ctx Context, activityType string, args ...any) Future
	// ExecuteChildWorkflow intercepts workflow.ExecuteChildWorkflow, given
	// the child's type name.
	ExecuteChildWorkflow(ctx Context, childWorkflowType string, args ...any) ChildWorkflowFuture
	// SignalExternalWorkflow intercepts workflow.SignalExternalWorkflow.
	SignalExternalWorkflow(ctx Context, workflowID, runID, signalName string, arg any) Future
	// SignalExternalWorkflowWithOptions intercepts
	// workflow.SignalExternalWorkflowWithOptions. WorkflowHeader(ctx) is
	// the header sent with the signal.
	SignalExternalWorkflowWithOptions(ctx Context, workflowID, runID, signalName string, arg any, options SignalExternalWorkflowOptions) Future
	// SignalChildWorkflow intercepts ChildWorkflowFuture.SignalChildWorkflow.
	SignalChildWorkflow(ctx Context, workflowID, signalName string, arg any) Future
	// SignalChildWorkflowWithOptions intercepts
	// ChildWorkflowFuture.SignalChildWorkflowWithOptions.
	SignalChildWorkflowWithOptions(ctx Context, workflowID, signalName string, arg any, options SignalChildWorkflowOptions) Future
	// ExecuteNexusOperation intercepts NexusClient.ExecuteOperation;
	// input.NexusHeader goes to the handler: write to it here.
	ExecuteNexusOperation(ctx Context, input ExecuteNexusOperationInput) NexusOperationFuture
	// RequestCancelNexusOperation intercepts the cancel request of a
	// Nexus operation whose context was canceled (for every cancellation
	// type but Abandon, which sends none).
	RequestCancelNexusOperation(ctx Context, input RequestCancelNexusOperationInput)
	// SignalWithStartWorkflow intercepts workflow.SignalWithStartWorkflow,
	// given the workflow's type name. WorkflowHeader(ctx) is the header
	// sent with the request: write to it here.
	SignalWithStartWorkflow(ctx Context, options SignalWithStartWorkflowOptions, workflowID, signal string, signalArg any, workflowType string, args ...any) Future
	// RequestCancelExternalWorkflow intercepts
	// workflow.RequestCancelExternalWorkflow.
	RequestCancelExternalWorkflow(ctx Context, workflowID, runID string) Future
	// RequestCancelExternalWorkflowWithOptions intercepts
	// workflow.RequestCancelExternalWorkflowWithOptions.
	RequestCancelExternalWorkflowWithOptions(ctx Context, workflowID, runID string, options CancelExternalWorkflowOptions) Future
	// GetInfo intercepts workflow.GetInfo.
	GetInfo(ctx Context) *WorkflowInfo
	// GetTypedSearchAttributes intercepts workflow.GetTypedSearchAttributes.
	GetTypedSearchAttributes(ctx Context) searchattr.SearchAttributes
	// GetLogger intercepts workflow.GetLogger.
	GetLogger(ctx Context) log.Logger
	// GetMetricsHandler intercepts workflow.GetMetricsHandler.
	GetMetricsHandler(ctx Context) sdkmetrics.Handler
	// Now intercepts workflow.Now.
	Now(ctx Context) time.Time
	// NewTimer intercepts workflow.NewTimer.
	NewTimer(ctx Context, d time.Duration) Future
	// NewTimerWithOptions intercepts workflow.NewTimerWithOptions.
	NewTimerWithOptions(ctx Context, d time.Duration, options TimerOptions) Future
	// Sleep intercepts workflow.Sleep.
	Sleep(ctx Context, d time.Duration) error
	// GetSignalChannel intercepts workflow.GetSignalChannel.
	GetSignalChannel(ctx Context, signalName string) ReceiveChannel
	// GetSignalChannelWithOptions intercepts workflow.GetSignalChannelWithOptions.
	GetSignalChannelWithOptions(ctx Context, signalName string, options SignalChannelOptions) ReceiveChannel
	// SideEffect intercepts workflow.SideEffect.
	SideEffect(ctx Context, f func(ctx Context) any) converter.EncodedValue
	// SideEffectWithOptions intercepts workflow.SideEffectWithOptions.
	SideEffectWithOptions(ctx Context, options SideEffectOptions, f func(ctx Context) any) converter.EncodedValue
	// MutableSideEffect intercepts workflow.MutableSideEffect.
	MutableSideEffect(ctx Context, id string, f func(ctx Context) any, equals func(a, b any) bool) converter.EncodedValue
	// MutableSideEffectWithOptions intercepts workflow.MutableSideEffectWithOptions.
	MutableSideEffectWithOptions(ctx Context, id string, options MutableSideEffectOptions, f func(ctx Context) any, equals func(a, b any) bool) converter.EncodedValue
	// GetVersion intercepts workflow.GetVersion.
	GetVersion(ctx Context, changeID string, minSupported, maxSupported Version) Version
	// GetVersionWithOptions intercepts workflow.GetVersionWithOptions.
	GetVersionWithOptions(ctx Context, changeID string, minSupported, maxSupported Version, options GetVersionOptions) Version
	// SetUpdateHandler intercepts workflow.SetUpdateHandler and
	// SetUpdateHandlerWithOptions.
	SetUpdateHandler(ctx Context, updateName string, handler any, options UpdateHandlerOptions) error
	// GetCurrentUpdateInfo intercepts workflow.GetCurrentUpdateInfo.
	GetCurrentUpdateInfo(ctx Context) *UpdateInfo
	// SetQueryHandler intercepts workflow.SetQueryHandler.
	SetQueryHandler(ctx Context, queryType string, handler any) error
	// SetQueryHandlerWithOptions intercepts workflow.SetQueryHandlerWithOptions.
	SetQueryHandlerWithOptions(ctx Context, queryType string, handler any, options QueryHandlerOptions) error
	// IsReplaying intercepts workflow.IsReplaying.
	IsReplaying(ctx Context) bool
	// HasLastCompletionResult intercepts workflow.HasLastCompletionResult.
	HasLastCompletionResult(ctx Context) bool
	// GetLastCompletionResult intercepts workflow.GetLastCompletionResult.
	GetLastCompletionResult(ctx Context, d ...any) error
	// GetLastError intercepts workflow.GetLastError.
	GetLastError(ctx Context) error
	// NewContinueAsNewError intercepts workflow.NewContinueAsNewError.
	// WorkflowHeader(ctx) is the header the new run starts with.
	NewContinueAsNewError(ctx Context, wfn any, args ...any) error
	// NewContinueAsNewErrorWithOptions intercepts
	// workflow.NewContinueAsNewErrorWithOptions. WorkflowHeader(ctx) is the
	// header the new run starts with.
	NewContinueAsNewErrorWithOptions(ctx Context, options ContinueAsNewErrorOptions, wfn any, args ...any) error
	// UpsertSearchAttributes intercepts workflow.UpsertSearchAttributes.
	UpsertSearchAttributes(ctx Context, attributes map[string]any) error
	// UpsertTypedSearchAttributes intercepts workflow.UpsertTypedSearchAttributes.
	UpsertTypedSearchAttributes(ctx Context, attributes ...searchattr.SearchAttributeUpdate) error
	// UpsertTypedSearchAttributesWithOptions intercepts
	// workflow.UpsertTypedSearchAttributesWithOptions.
	UpsertTypedSearchAttributesWithOptions(ctx Context, attributes []searchattr.SearchAttributeUpdate, options UpsertSearchAttributesOptions) error
	// UpsertMemo intercepts workflow.UpsertMemo.
	UpsertMemo(ctx Context, memo map[string]any) error
	// UpsertMemoWithOptions intercepts workflow.UpsertMemoWithOptions.
	UpsertMemoWithOptions(ctx Context, memo map[string]any, options UpsertMemoOptions) error

	mustEmbedWorkflowOutboundInterceptorBase()
}
