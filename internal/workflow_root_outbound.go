package internal

import (
	"time"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/internal/searchattr"
	"github.com/durable-go/sdk/internal/wfsync"
	"github.com/durable-go/sdk/log"
)

// The workflowRoot methods below end the outbound chain: each does what
// the workflow package function of the same name documents. They act on
// the root's run, whatever ctx an interceptor passes on.

func (w *workflowRoot) Go(ctx Context, name string, f func(ctx Context)) Context {
	w.run.spawn(ctx, name, f)
	return ctx
}

func (w *workflowRoot) Await(ctx Context, condition func() bool) error {
	a := wfsync.NewAwaitCheck(ctx, condition)
	if !a.Over() {
		w.run.rt.Dispatcher().Poll("Await", a.Over)
	}
	return a.Result()
}

func (w *workflowRoot) AwaitWithTimeout(ctx Context, timeout time.Duration, condition func() bool) (bool, error) {
	return w.run.awaitWithOptions(ctx, AwaitOptions{Timeout: timeout}, condition)
}

func (w *workflowRoot) AwaitWithOptions(ctx Context, options AwaitOptions, condition func() bool) (bool, error) {
	return w.run.awaitWithOptions(ctx, options, condition)
}

func (w *workflowRoot) ExecuteActivity(ctx Context, activityType string, args ...any) Future {
	return w.run.executeActivity(ctx, activityType, args)
}

func (w *workflowRoot) ExecuteLocalActivity(ctx Context, activityType string, args ...any) Future {
	return w.run.executeLocalActivity(ctx, activityType, args)
}

func (w *workflowRoot) ExecuteChildWorkflow(ctx Context, childWorkflowType string, args ...any) ChildWorkflowFuture {
	return w.run.executeChildWorkflow(ctx, childWorkflowType, args)
}

func (w *workflowRoot) SignalExternalWorkflow(ctx Context, workflowID, runID, signalName string, arg any) Future {
	return w.run.signalExternal(ctx, workflowID, runID, signalName, arg, false, nil)
}

func (w *workflowRoot) SignalExternalWorkflowWithOptions(ctx Context, workflowID, runID, signalName string, arg any, options SignalExternalWorkflowOptions) Future {
	return w.run.signalExternal(ctx, workflowID, runID, signalName, arg, false, options.EventGroups)
}

func (w *workflowRoot) SignalChildWorkflow(ctx Context, workflowID, signalName string, arg any) Future {
	return w.run.signalExternal(ctx, workflowID, "", signalName, arg, true, nil)
}

func (w *workflowRoot) SignalChildWorkflowWithOptions(ctx Context, workflowID, signalName string, arg any, options SignalChildWorkflowOptions) Future {
	return w.run.signalExternal(ctx, workflowID, "", signalName, arg, true, options.EventGroups)
}

func (w *workflowRoot) RequestCancelExternalWorkflow(ctx Context, workflowID, runID string) Future {
	return w.run.requestCancelExternal(ctx, workflowID, runID, nil)
}

func (w *workflowRoot) RequestCancelExternalWorkflowWithOptions(ctx Context, workflowID, runID string, options CancelExternalWorkflowOptions) Future {
	return w.run.requestCancelExternal(ctx, workflowID, runID, options.EventGroups)
}

func (w *workflowRoot) GetInfo(Context) *WorkflowInfo { return w.run.workflowInfo() }

func (w *workflowRoot) SetUpdateHandler(ctx Context, updateName string, handler any, options UpdateHandlerOptions) error {
	return w.run.setUpdateHandler(ctx, updateName, handler, options)
}

func (w *workflowRoot) GetCurrentUpdateInfo(ctx Context) *UpdateInfo { return currentUpdateInfo(ctx) }

func (w *workflowRoot) GetTypedSearchAttributes(Context) searchattr.SearchAttributes {
	return w.run.typedSearchAttributes()
}

func (w *workflowRoot) GetLogger(Context) log.Logger { return w.run.log() }

func (w *workflowRoot) GetMetricsHandler(Context) sdkmetrics.Handler { return w.run.metricsHandler() }

func (w *workflowRoot) Now(Context) time.Time { return w.run.exec.Now().UTC() }

func (w *workflowRoot) NewTimer(ctx Context, d time.Duration) Future {
	return w.run.newTimer(ctx, d, TimerOptions{})
}

func (w *workflowRoot) NewTimerWithOptions(ctx Context, d time.Duration, options TimerOptions) Future {
	return w.run.newTimer(ctx, d, options)
}

func (w *workflowRoot) Sleep(ctx Context, d time.Duration) error {
	return w.run.newTimer(ctx, d, TimerOptions{Summary: "Sleep"}).Get(ctx, nil)
}

func (w *workflowRoot) GetSignalChannel(_ Context, signalName string) ReceiveChannel {
	return w.run.requestSignalChannel(signalName)
}

func (w *workflowRoot) GetSignalChannelWithOptions(_ Context, signalName string, options SignalChannelOptions) ReceiveChannel {
	return w.run.signalChannel(signalName, options)
}

func (w *workflowRoot) SideEffect(ctx Context, f func(ctx Context) any) converter.EncodedValue {
	return w.run.sideEffect(ctx, f, nil)
}

func (w *workflowRoot) SideEffectWithOptions(ctx Context, options SideEffectOptions, f func(ctx Context) any) converter.EncodedValue {
	return w.run.sideEffect(ctx, f, options.EventGroups)
}

func (w *workflowRoot) MutableSideEffect(ctx Context, id string, f func(ctx Context) any, equals func(a, b any) bool) converter.EncodedValue {
	return w.run.mutableSideEffect(ctx, id, f, equals, nil)
}

func (w *workflowRoot) MutableSideEffectWithOptions(ctx Context, id string, options MutableSideEffectOptions, f func(ctx Context) any, equals func(a, b any) bool) converter.EncodedValue {
	return w.run.mutableSideEffect(ctx, id, f, equals, options.EventGroups)
}

func (w *workflowRoot) GetVersion(ctx Context, changeID string, minSupported, maxSupported Version) Version {
	return w.run.getVersion(ctx, changeID, minSupported, maxSupported, nil)
}

func (w *workflowRoot) GetVersionWithOptions(ctx Context, changeID string, minSupported, maxSupported Version, options GetVersionOptions) Version {
	return w.run.getVersion(ctx, changeID, minSupported, maxSupported, options.EventGroups)
}

func (w *workflowRoot) SetQueryHandler(_ Context, queryType string, handler any) error {
	return w.run.setQueryHandler(queryType, handler, QueryHandlerOptions{})
}

func (w *workflowRoot) SetQueryHandlerWithOptions(_ Context, queryType string, handler any, options QueryHandlerOptions) error {
	return w.run.setQueryHandler(queryType, handler, options)
}

func (w *workflowRoot) IsReplaying(Context) bool { return w.run.exec.IsReplaying() }

func (w *workflowRoot) HasLastCompletionResult(Context) bool {
	return w.run.hasLastCompletionResult()
}

func (w *workflowRoot) GetLastCompletionResult(_ Context, d ...any) error {
	return w.run.lastCompletionResult(d)
}

func (w *workflowRoot) GetLastError(Context) error { return w.run.lastError() }

func (w *workflowRoot) NewContinueAsNewError(ctx Context, wfn any, args ...any) error {
	return w.run.newContinueAsNewError(ctx, ContinueAsNewErrorOptions{}, wfn, args)
}

func (w *workflowRoot) NewContinueAsNewErrorWithOptions(ctx Context, options ContinueAsNewErrorOptions, wfn any, args ...any) error {
	return w.run.newContinueAsNewError(ctx, options, wfn, args)
}

func (w *workflowRoot) UpsertSearchAttributes(ctx Context, attributes map[string]any) error {
	return w.run.upsertUntypedSearchAttributes(ctx, attributes)
}

func (w *workflowRoot) UpsertTypedSearchAttributes(ctx Context, attributes ...searchattr.SearchAttributeUpdate) error {
	return w.run.upsertTypedSearchAttributes(ctx, attributes, nil)
}

func (w *workflowRoot) UpsertTypedSearchAttributesWithOptions(ctx Context, attributes []searchattr.SearchAttributeUpdate, options UpsertSearchAttributesOptions) error {
	return w.run.upsertTypedSearchAttributes(ctx, attributes, options.EventGroups)
}

func (w *workflowRoot) UpsertMemo(ctx Context, memo map[string]any) error {
	return w.run.upsertMemo(ctx, memo, nil)
}

func (w *workflowRoot) UpsertMemoWithOptions(ctx Context, memo map[string]any, options UpsertMemoOptions) error {
	return w.run.upsertMemo(ctx, memo, options.EventGroups)
}
