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
	return w.run.signalExternal(ctx, workflowID, runID, signalName, arg, false)
}

func (w *workflowRoot) SignalChildWorkflow(ctx Context, workflowID, signalName string, arg any) Future {
	return w.run.signalExternal(ctx, workflowID, "", signalName, arg, true)
}

func (w *workflowRoot) RequestCancelExternalWorkflow(ctx Context, workflowID, runID string) Future {
	return w.run.requestCancelExternal(ctx, workflowID, runID)
}

func (w *workflowRoot) GetInfo(Context) *WorkflowInfo { return w.run.workflowInfo() }

func (w *workflowRoot) SetUpdateHandler(ctx Context, updateName string, handler any, options UpdateHandlerOptions) error {
	return w.run.setUpdateHandler(ctx, updateName, handler, options)
}

func (w *workflowRoot) GetCurrentUpdateInfo(ctx Context) *UpdateInfo { return currentUpdateInfo(ctx) }

func (w *workflowRoot) GetTypedSearchAttributes(Context) searchattr.SearchAttributes {
	return w.run.typedSearchAttributes()
}

func (w *workflowRoot) GetLogger(Context) log.Logger { return &w.run.logger }

func (w *workflowRoot) GetMetricsHandler(Context) sdkmetrics.Handler { return w.run.metrics }

func (w *workflowRoot) Now(Context) time.Time { return w.run.exec.Now().UTC() }

func (w *workflowRoot) NewTimer(ctx Context, d time.Duration) Future {
	return w.run.newTimer(ctx, d, "")
}

func (w *workflowRoot) NewTimerWithOptions(ctx Context, d time.Duration, options TimerOptions) Future {
	return w.run.newTimer(ctx, d, options.Summary)
}

func (w *workflowRoot) Sleep(ctx Context, d time.Duration) error {
	return w.run.newTimer(ctx, d, "Sleep").Get(ctx, nil)
}

func (w *workflowRoot) GetSignalChannel(_ Context, signalName string) ReceiveChannel {
	return w.run.signalChannel(signalName, SignalChannelOptions{})
}

func (w *workflowRoot) GetSignalChannelWithOptions(_ Context, signalName string, options SignalChannelOptions) ReceiveChannel {
	return w.run.signalChannel(signalName, options)
}

func (w *workflowRoot) SideEffect(ctx Context, f func(ctx Context) any) converter.EncodedValue {
	return w.run.sideEffect(ctx, f)
}

func (w *workflowRoot) SideEffectWithOptions(ctx Context, _ SideEffectOptions, f func(ctx Context) any) converter.EncodedValue {
	return w.run.sideEffect(ctx, f)
}

func (w *workflowRoot) MutableSideEffect(ctx Context, id string, f func(ctx Context) any, equals func(a, b any) bool) converter.EncodedValue {
	return w.run.mutableSideEffect(ctx, id, f, equals)
}

func (w *workflowRoot) MutableSideEffectWithOptions(ctx Context, id string, _ MutableSideEffectOptions, f func(ctx Context) any, equals func(a, b any) bool) converter.EncodedValue {
	return w.run.mutableSideEffect(ctx, id, f, equals)
}

func (w *workflowRoot) GetVersion(_ Context, changeID string, minSupported, maxSupported Version) Version {
	return Version(w.run.exec.GetVersion(changeID, int(minSupported), int(maxSupported)))
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
	return w.run.newContinueAsNewError(ctx, wfn, args)
}

func (w *workflowRoot) UpsertSearchAttributes(_ Context, attributes map[string]any) error {
	return w.run.upsertUntypedSearchAttributes(attributes)
}

func (w *workflowRoot) UpsertTypedSearchAttributes(_ Context, attributes ...searchattr.SearchAttributeUpdate) error {
	return w.run.upsertTypedSearchAttributes(attributes)
}

func (w *workflowRoot) UpsertMemo(_ Context, memo map[string]any) error {
	return w.run.upsertMemo(memo)
}
