package internal

import (
	"time"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/internal/searchattr"
	"github.com/durable-go/sdk/log"
)

// WorkflowInboundInterceptorBase passes every call on to Next: embed it
// and override the methods that matter.
type WorkflowInboundInterceptorBase struct {
	Next WorkflowInboundInterceptor
}

var _ WorkflowInboundInterceptor = &WorkflowInboundInterceptorBase{}

// Init calls Next.Init.
func (w *WorkflowInboundInterceptorBase) Init(outbound WorkflowOutboundInterceptor) error {
	return w.Next.Init(outbound)
}

// ExecuteWorkflow calls Next.ExecuteWorkflow.
func (w *WorkflowInboundInterceptorBase) ExecuteWorkflow(ctx Context, in *ExecuteWorkflowInput) (any, error) {
	return w.Next.ExecuteWorkflow(ctx, in)
}

// HandleSignal calls Next.HandleSignal.
func (w *WorkflowInboundInterceptorBase) HandleSignal(ctx Context, in *HandleSignalInput) error {
	return w.Next.HandleSignal(ctx, in)
}

// ValidateUpdate calls Next.ValidateUpdate.
func (w *WorkflowInboundInterceptorBase) ValidateUpdate(ctx Context, in *UpdateInput) error {
	return w.Next.ValidateUpdate(ctx, in)
}

// ExecuteUpdate calls Next.ExecuteUpdate.
func (w *WorkflowInboundInterceptorBase) ExecuteUpdate(ctx Context, in *UpdateInput) (any, error) {
	return w.Next.ExecuteUpdate(ctx, in)
}

// HandleQuery calls Next.HandleQuery.
func (w *WorkflowInboundInterceptorBase) HandleQuery(ctx Context, in *HandleQueryInput) (any, error) {
	return w.Next.HandleQuery(ctx, in)
}

func (*WorkflowInboundInterceptorBase) mustEmbedWorkflowInboundInterceptorBase() {}

// WorkflowOutboundInterceptorBase passes every call on to Next: embed it
// and override the methods that matter.
type WorkflowOutboundInterceptorBase struct {
	Next WorkflowOutboundInterceptor
}

var _ WorkflowOutboundInterceptor = &WorkflowOutboundInterceptorBase{}

// Go calls Next.Go.
func (w *WorkflowOutboundInterceptorBase) Go(ctx Context, name string, f func(ctx Context)) Context {
	return w.Next.Go(ctx, name, f)
}

// Await calls Next.Await.
func (w *WorkflowOutboundInterceptorBase) Await(ctx Context, condition func() bool) error {
	return w.Next.Await(ctx, condition)
}

// AwaitWithTimeout calls Next.AwaitWithTimeout.
func (w *WorkflowOutboundInterceptorBase) AwaitWithTimeout(ctx Context, timeout time.Duration, condition func() bool) (bool, error) {
	return w.Next.AwaitWithTimeout(ctx, timeout, condition)
}

// AwaitWithOptions calls Next.AwaitWithOptions.
func (w *WorkflowOutboundInterceptorBase) AwaitWithOptions(ctx Context, options AwaitOptions, condition func() bool) (bool, error) {
	return w.Next.AwaitWithOptions(ctx, options, condition)
}

// ExecuteChildWorkflow calls Next.ExecuteChildWorkflow.
func (w *WorkflowOutboundInterceptorBase) ExecuteChildWorkflow(ctx Context, childWorkflowType string, args ...any) ChildWorkflowFuture {
	return w.Next.ExecuteChildWorkflow(ctx, childWorkflowType, args...)
}

// ExecuteNexusOperation calls Next.ExecuteNexusOperation.
func (w *WorkflowOutboundInterceptorBase) ExecuteNexusOperation(ctx Context, input ExecuteNexusOperationInput) NexusOperationFuture {
	return w.Next.ExecuteNexusOperation(ctx, input)
}

// RequestCancelNexusOperation calls Next.RequestCancelNexusOperation.
func (w *WorkflowOutboundInterceptorBase) RequestCancelNexusOperation(ctx Context, input RequestCancelNexusOperationInput) {
	w.Next.RequestCancelNexusOperation(ctx, input)
}

// SignalWithStartWorkflow calls Next.SignalWithStartWorkflow.
func (w *WorkflowOutboundInterceptorBase) SignalWithStartWorkflow(ctx Context, options SignalWithStartWorkflowOptions, workflowID, signal string, signalArg any, workflowType string, args ...any) Future {
	return w.Next.SignalWithStartWorkflow(ctx, options, workflowID, signal, signalArg, workflowType, args...)
}

// SignalExternalWorkflow calls Next.SignalExternalWorkflow.
func (w *WorkflowOutboundInterceptorBase) SignalExternalWorkflow(ctx Context, workflowID, runID, signalName string, arg any) Future {
	return w.Next.SignalExternalWorkflow(ctx, workflowID, runID, signalName, arg)
}

// SignalExternalWorkflowWithOptions calls
// Next.SignalExternalWorkflowWithOptions.
func (w *WorkflowOutboundInterceptorBase) SignalExternalWorkflowWithOptions(ctx Context, workflowID, runID, signalName string, arg any, options SignalExternalWorkflowOptions) Future {
	return w.Next.SignalExternalWorkflowWithOptions(ctx, workflowID, runID, signalName, arg, options)
}

// SignalChildWorkflowWithOptions calls Next.SignalChildWorkflowWithOptions.
func (w *WorkflowOutboundInterceptorBase) SignalChildWorkflowWithOptions(ctx Context, workflowID, signalName string, arg any, options SignalChildWorkflowOptions) Future {
	return w.Next.SignalChildWorkflowWithOptions(ctx, workflowID, signalName, arg, options)
}

// RequestCancelExternalWorkflowWithOptions calls
// Next.RequestCancelExternalWorkflowWithOptions.
func (w *WorkflowOutboundInterceptorBase) RequestCancelExternalWorkflowWithOptions(ctx Context, workflowID, runID string, options CancelExternalWorkflowOptions) Future {
	return w.Next.RequestCancelExternalWorkflowWithOptions(ctx, workflowID, runID, options)
}

// GetVersionWithOptions calls Next.GetVersionWithOptions.
func (w *WorkflowOutboundInterceptorBase) GetVersionWithOptions(ctx Context, changeID string, minSupported, maxSupported Version, options GetVersionOptions) Version {
	return w.Next.GetVersionWithOptions(ctx, changeID, minSupported, maxSupported, options)
}

// NewContinueAsNewErrorWithOptions calls
// Next.NewContinueAsNewErrorWithOptions.
func (w *WorkflowOutboundInterceptorBase) NewContinueAsNewErrorWithOptions(ctx Context, options ContinueAsNewErrorOptions, wfn any, args ...any) error {
	return w.Next.NewContinueAsNewErrorWithOptions(ctx, options, wfn, args...)
}

// UpsertTypedSearchAttributesWithOptions calls
// Next.UpsertTypedSearchAttributesWithOptions.
func (w *WorkflowOutboundInterceptorBase) UpsertTypedSearchAttributesWithOptions(ctx Context, attributes []searchattr.SearchAttributeUpdate, options UpsertSearchAttributesOptions) error {
	return w.Next.UpsertTypedSearchAttributesWithOptions(ctx, attributes, options)
}

// UpsertMemoWithOptions calls Next.UpsertMemoWithOptions.
func (w *WorkflowOutboundInterceptorBase) UpsertMemoWithOptions(ctx Context, memo map[string]any, options UpsertMemoOptions) error {
	return w.Next.UpsertMemoWithOptions(ctx, memo, options)
}

// SignalChildWorkflow calls Next.SignalChildWorkflow.
func (w *WorkflowOutboundInterceptorBase) SignalChildWorkflow(ctx Context, workflowID, signalName string, arg any) Future {
	return w.Next.SignalChildWorkflow(ctx, workflowID, signalName, arg)
}

// RequestCancelExternalWorkflow calls Next.RequestCancelExternalWorkflow.
func (w *WorkflowOutboundInterceptorBase) RequestCancelExternalWorkflow(ctx Context, workflowID, runID string) Future {
	return w.Next.RequestCancelExternalWorkflow(ctx, workflowID, runID)
}

// ExecuteLocalActivity calls Next.ExecuteLocalActivity.
func (w *WorkflowOutboundInterceptorBase) ExecuteLocalActivity(ctx Context, activityType string, args ...any) Future {
	return w.Next.ExecuteLocalActivity(ctx, activityType, args...)
}

// ExecuteActivity calls Next.ExecuteActivity.
func (w *WorkflowOutboundInterceptorBase) ExecuteActivity(ctx Context, activityType string, args ...any) Future {
	return w.Next.ExecuteActivity(ctx, activityType, args...)
}

// GetInfo calls Next.GetInfo.
func (w *WorkflowOutboundInterceptorBase) GetInfo(ctx Context) *WorkflowInfo {
	return w.Next.GetInfo(ctx)
}

// GetTypedSearchAttributes calls Next.GetTypedSearchAttributes.
func (w *WorkflowOutboundInterceptorBase) GetTypedSearchAttributes(ctx Context) searchattr.SearchAttributes {
	return w.Next.GetTypedSearchAttributes(ctx)
}

// GetMetricsHandler calls Next.GetMetricsHandler.
func (w *WorkflowOutboundInterceptorBase) GetMetricsHandler(ctx Context) sdkmetrics.Handler {
	return w.Next.GetMetricsHandler(ctx)
}

// GetLogger calls Next.GetLogger.
func (w *WorkflowOutboundInterceptorBase) GetLogger(ctx Context) log.Logger {
	return w.Next.GetLogger(ctx)
}

// Now calls Next.Now.
func (w *WorkflowOutboundInterceptorBase) Now(ctx Context) time.Time {
	return w.Next.Now(ctx)
}

// NewTimer calls Next.NewTimer.
func (w *WorkflowOutboundInterceptorBase) NewTimer(ctx Context, d time.Duration) Future {
	return w.Next.NewTimer(ctx, d)
}

// NewTimerWithOptions calls Next.NewTimerWithOptions.
func (w *WorkflowOutboundInterceptorBase) NewTimerWithOptions(ctx Context, d time.Duration, options TimerOptions) Future {
	return w.Next.NewTimerWithOptions(ctx, d, options)
}

// Sleep calls Next.Sleep.
func (w *WorkflowOutboundInterceptorBase) Sleep(ctx Context, d time.Duration) error {
	return w.Next.Sleep(ctx, d)
}

// GetSignalChannel calls Next.GetSignalChannel.
func (w *WorkflowOutboundInterceptorBase) GetSignalChannel(ctx Context, signalName string) ReceiveChannel {
	return w.Next.GetSignalChannel(ctx, signalName)
}

// GetSignalChannelWithOptions calls Next.GetSignalChannelWithOptions.
func (w *WorkflowOutboundInterceptorBase) GetSignalChannelWithOptions(ctx Context, signalName string, options SignalChannelOptions) ReceiveChannel {
	return w.Next.GetSignalChannelWithOptions(ctx, signalName, options)
}

// SideEffect calls Next.SideEffect.
func (w *WorkflowOutboundInterceptorBase) SideEffect(ctx Context, f func(ctx Context) any) converter.EncodedValue {
	return w.Next.SideEffect(ctx, f)
}

// SideEffectWithOptions calls Next.SideEffectWithOptions.
func (w *WorkflowOutboundInterceptorBase) SideEffectWithOptions(ctx Context, options SideEffectOptions, f func(ctx Context) any) converter.EncodedValue {
	return w.Next.SideEffectWithOptions(ctx, options, f)
}

// MutableSideEffect calls Next.MutableSideEffect.
func (w *WorkflowOutboundInterceptorBase) MutableSideEffect(ctx Context, id string, f func(ctx Context) any, equals func(a, b any) bool) converter.EncodedValue {
	return w.Next.MutableSideEffect(ctx, id, f, equals)
}

// MutableSideEffectWithOptions calls Next.MutableSideEffectWithOptions.
func (w *WorkflowOutboundInterceptorBase) MutableSideEffectWithOptions(ctx Context, id string, options MutableSideEffectOptions, f func(ctx Context) any, equals func(a, b any) bool) converter.EncodedValue {
	return w.Next.MutableSideEffectWithOptions(ctx, id, options, f, equals)
}

// GetVersion calls Next.GetVersion.
func (w *WorkflowOutboundInterceptorBase) GetVersion(ctx Context, changeID string, minSupported, maxSupported Version) Version {
	return w.Next.GetVersion(ctx, changeID, minSupported, maxSupported)
}

// SetUpdateHandler calls Next.SetUpdateHandler.
func (w *WorkflowOutboundInterceptorBase) SetUpdateHandler(ctx Context, updateName string, handler any, options UpdateHandlerOptions) error {
	return w.Next.SetUpdateHandler(ctx, updateName, handler, options)
}

// GetCurrentUpdateInfo calls Next.GetCurrentUpdateInfo.
func (w *WorkflowOutboundInterceptorBase) GetCurrentUpdateInfo(ctx Context) *UpdateInfo {
	return w.Next.GetCurrentUpdateInfo(ctx)
}

// SetQueryHandler calls Next.SetQueryHandler.
func (w *WorkflowOutboundInterceptorBase) SetQueryHandler(ctx Context, queryType string, handler any) error {
	return w.Next.SetQueryHandler(ctx, queryType, handler)
}

// SetQueryHandlerWithOptions calls Next.SetQueryHandlerWithOptions.
func (w *WorkflowOutboundInterceptorBase) SetQueryHandlerWithOptions(ctx Context, queryType string, handler any, options QueryHandlerOptions) error {
	return w.Next.SetQueryHandlerWithOptions(ctx, queryType, handler, options)
}

// IsReplaying calls Next.IsReplaying.
func (w *WorkflowOutboundInterceptorBase) IsReplaying(ctx Context) bool {
	return w.Next.IsReplaying(ctx)
}

// HasLastCompletionResult calls Next.HasLastCompletionResult.
func (w *WorkflowOutboundInterceptorBase) HasLastCompletionResult(ctx Context) bool {
	return w.Next.HasLastCompletionResult(ctx)
}

// GetLastCompletionResult calls Next.GetLastCompletionResult.
func (w *WorkflowOutboundInterceptorBase) GetLastCompletionResult(ctx Context, d ...any) error {
	return w.Next.GetLastCompletionResult(ctx, d...)
}

// GetLastError calls Next.GetLastError.
func (w *WorkflowOutboundInterceptorBase) GetLastError(ctx Context) error {
	return w.Next.GetLastError(ctx)
}

// NewContinueAsNewError calls Next.NewContinueAsNewError.
func (w *WorkflowOutboundInterceptorBase) NewContinueAsNewError(ctx Context, wfn any, args ...any) error {
	return w.Next.NewContinueAsNewError(ctx, wfn, args...)
}

// UpsertSearchAttributes calls Next.UpsertSearchAttributes.
func (w *WorkflowOutboundInterceptorBase) UpsertSearchAttributes(ctx Context, attributes map[string]any) error {
	return w.Next.UpsertSearchAttributes(ctx, attributes)
}

// UpsertTypedSearchAttributes calls Next.UpsertTypedSearchAttributes.
func (w *WorkflowOutboundInterceptorBase) UpsertTypedSearchAttributes(ctx Context, attributes ...searchattr.SearchAttributeUpdate) error {
	return w.Next.UpsertTypedSearchAttributes(ctx, attributes...)
}

// UpsertMemo calls Next.UpsertMemo.
func (w *WorkflowOutboundInterceptorBase) UpsertMemo(ctx Context, memo map[string]any) error {
	return w.Next.UpsertMemo(ctx, memo)
}

func (*WorkflowOutboundInterceptorBase) mustEmbedWorkflowOutboundInterceptorBase() {}
