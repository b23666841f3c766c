package workflow

import (
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/log"
	"github.com/durable-go/sdk/temporal"
)

type (
	// ActivityOptions configure the activities a workflow schedules.
	ActivityOptions = internal.ActivityOptions
	// Info describes the running workflow.
	Info = internal.WorkflowInfo
	// Execution identifies a workflow run.
	Execution = internal.WorkflowExecution
	// Type names a workflow type.
	Type = internal.WorkflowType
	// Version is a version of workflow code, for GetVersion.
	Version = internal.Version
	// TimerOptions configure a timer.
	TimerOptions = internal.TimerOptions
	// AwaitOptions configure AwaitWithOptions.
	AwaitOptions = internal.AwaitOptions
	// SideEffectOptions configure SideEffectWithOptions.
	SideEffectOptions = internal.SideEffectOptions
	// MutableSideEffectOptions configure MutableSideEffectWithOptions.
	MutableSideEffectOptions = internal.MutableSideEffectOptions
	// SignalChannelOptions configure GetSignalChannelWithOptions.
	SignalChannelOptions = internal.SignalChannelOptions
	// QueryHandlerOptions configure SetQueryHandlerWithOptions.
	QueryHandlerOptions = internal.QueryHandlerOptions
	// ContinueAsNewError continues the workflow as a new run when returned.
	ContinueAsNewError = internal.ContinueAsNewError
	// ContinueAsNewErrorOptions configure NewContinueAsNewErrorWithOptions.
	ContinueAsNewErrorOptions = internal.ContinueAsNewErrorOptions
	// RegisterOptions configure a workflow registration.
	RegisterOptions = internal.RegisterWorkflowOptions

	// DynamicRegisterOptions configure a dynamic workflow's registration
	// (worker.Worker.RegisterDynamicWorkflow).
	DynamicRegisterOptions = internal.DynamicRegisterWorkflowOptions
	// LoadDynamicRuntimeOptionsDetails is what
	// DynamicRegisterOptions.LoadDynamicRuntimeOptions is told of a
	// workflow type.
	LoadDynamicRuntimeOptionsDetails = internal.LoadDynamicRuntimeOptionsDetails
	// DynamicRuntimeOptions are the options
	// DynamicRegisterOptions.LoadDynamicRuntimeOptions picks for a
	// workflow type.
	DynamicRuntimeOptions = internal.DynamicRuntimeWorkflowOptions
	// VersioningBehavior says whether a workflow's runs stay on the worker
	// deployment version they started on; this SDK runs no versioned
	// workers yet and sends none.
	VersioningBehavior = internal.VersioningBehavior
	// ContextPropagator carries values from a caller's context into the
	// workflows and activities it starts, through headers.
	ContextPropagator = internal.ContextPropagator
	// HeaderWriter writes headers.
	HeaderWriter = internal.HeaderWriter
	// HeaderReader reads headers.
	HeaderReader = internal.HeaderReader
	// ContinueAsNewSuggestedReason says why the server suggests that the
	// workflow continue as new (Info.GetContinueAsNewSuggestedReasons).
	ContinueAsNewSuggestedReason = internal.ContinueAsNewSuggestedReason
)

// The reasons the server gives for suggesting to continue as new.
const (
	ContinueAsNewSuggestedReasonUnspecified          = internal.ContinueAsNewSuggestedReasonUnspecified
	ContinueAsNewSuggestedReasonHistorySizeTooLarge  = internal.ContinueAsNewSuggestedReasonHistorySizeTooLarge
	ContinueAsNewSuggestedReasonTooManyHistoryEvents = internal.ContinueAsNewSuggestedReasonTooManyHistoryEvents
	ContinueAsNewSuggestedReasonTooManyUpdates       = internal.ContinueAsNewSuggestedReasonTooManyUpdates
)

// The versioning behaviors.
const (
	VersioningBehaviorUnspecified = internal.VersioningBehaviorUnspecified
	VersioningBehaviorPinned      = internal.VersioningBehaviorPinned
	VersioningBehaviorAutoUpgrade = internal.VersioningBehaviorAutoUpgrade
)

// DefaultVersion is GetVersion's answer for code that ran before a change.
const DefaultVersion Version = internal.DefaultVersion

// ExecuteActivity schedules an activity (a function, or its registered
// name) and returns a Future for its result; the Future's error is an
// *temporal.ActivityError if the activity fails. Canceling ctx cancels it.
func ExecuteActivity(ctx Context, activity any, args ...any) Future {
	return internal.ExecuteActivity(ctx, activity, args...)
}

// WithActivityOptions returns a context whose activities use options.
func WithActivityOptions(ctx Context, options ActivityOptions) Context {
	return internal.WithActivityOptions(ctx, options)
}

// GetActivityOptions returns the activity options ctx carries.
func GetActivityOptions(ctx Context) ActivityOptions { return internal.GetActivityOptions(ctx) }

// WithTaskQueue sets the task queue of the context's activities.
func WithTaskQueue(ctx Context, name string) Context { return internal.WithTaskQueue(ctx, name) }

// WithScheduleToCloseTimeout sets the context's activities' schedule-to-close timeout.
func WithScheduleToCloseTimeout(ctx Context, d time.Duration) Context {
	return internal.WithScheduleToCloseTimeout(ctx, d)
}

// WithScheduleToStartTimeout sets the context's activities' schedule-to-start timeout.
func WithScheduleToStartTimeout(ctx Context, d time.Duration) Context {
	return internal.WithScheduleToStartTimeout(ctx, d)
}

// WithStartToCloseTimeout sets the context's activities' start-to-close timeout.
func WithStartToCloseTimeout(ctx Context, d time.Duration) Context {
	return internal.WithStartToCloseTimeout(ctx, d)
}

// WithHeartbeatTimeout sets the context's activities' heartbeat timeout.
func WithHeartbeatTimeout(ctx Context, d time.Duration) Context {
	return internal.WithHeartbeatTimeout(ctx, d)
}

// WithWaitForCancellation sets whether canceled activities are waited for.
func WithWaitForCancellation(ctx Context, wait bool) Context {
	return internal.WithWaitForCancellation(ctx, wait)
}

// WithRetryPolicy sets the context's activities' retry policy.
func WithRetryPolicy(ctx Context, retryPolicy temporal.RetryPolicy) Context {
	return internal.WithRetryPolicy(ctx, retryPolicy)
}

// WithPriority sets the context's activities' priority.
func WithPriority(ctx Context, priority temporal.Priority) Context {
	return internal.WithPriority(ctx, priority)
}

// NewTimer returns a Future ready after d of workflow time.
func NewTimer(ctx Context, d time.Duration) Future { return internal.NewTimer(ctx, d) }

// NewTimerWithOptions is NewTimer with options.
func NewTimerWithOptions(ctx Context, d time.Duration, options TimerOptions) Future {
	return internal.NewTimerWithOptions(ctx, d, options)
}

// Sleep pauses the workflow for d of workflow time.
func Sleep(ctx Context, d time.Duration) error { return internal.Sleep(ctx, d) }

// Now returns the workflow's current time, the same on every replay.
func Now(ctx Context) time.Time { return internal.Now(ctx) }

// AwaitWithTimeout waits until condition holds, timeout passes or ctx is
// canceled.
func AwaitWithTimeout(ctx Context, timeout time.Duration, condition func() bool) (bool, error) {
	return internal.AwaitWithTimeout(ctx, timeout, condition)
}

// AwaitWithOptions is AwaitWithTimeout with options.
func AwaitWithOptions(ctx Context, options AwaitOptions, condition func() bool) (bool, error) {
	return internal.AwaitWithOptions(ctx, options, condition)
}

// SideEffect runs f once and records its result; replays return the
// recorded result.
func SideEffect(ctx Context, f func(ctx Context) any) converter.EncodedValue {
	return internal.SideEffect(ctx, f)
}

// SideEffectWithOptions is SideEffect with options.
func SideEffectWithOptions(ctx Context, options SideEffectOptions, f func(ctx Context) any) converter.EncodedValue {
	return internal.SideEffectWithOptions(ctx, options, f)
}

// WorkflowRandomStream is a deterministic pseudorandom source: Read and
// Uint64 (the next 8 bytes, little-endian) take from one byte sequence, in
// any order.
//
// NOTE: Experimental
type WorkflowRandomStream = internal.WorkflowRandomStream

// GetRandomStream returns the run's pseudorandom stream of that name (made
// at the first call, then the same stream, where earlier draws left it).
// Its values depend only on the run and the name, so replay draws them
// again instead of recording them: draws are not in the history, and
// replay must make the same draws in the same order. Do not draw in a
// query handler or an update validator (see IsReadOnly). A reset run
// repeats the draws up to the reset point and then starts new sequences;
// a continued-as-new run gets its own.
//
// The values are go.temporal.io/sdk's, so histories replay across the
// SDKs. Use a name of your own (a package path) so that libraries do not
// share streams by accident.
//
// NOTE: Experimental
func GetRandomStream(ctx Context, name string) WorkflowRandomStream {
	return internal.GetRandomStream(ctx, name)
}

// MutableSideEffect records f's result whenever it changes.
func MutableSideEffect(ctx Context, id string, f func(ctx Context) any, equals func(a, b any) bool) converter.EncodedValue {
	return internal.MutableSideEffect(ctx, id, f, equals)
}

// MutableSideEffectWithOptions is MutableSideEffect with options.
func MutableSideEffectWithOptions(ctx Context, id string, options MutableSideEffectOptions, f func(ctx Context) any, equals func(a, b any) bool) converter.EncodedValue {
	return internal.MutableSideEffectWithOptions(ctx, id, options, f, equals)
}

// GetVersion returns the version of a code change this run uses.
func GetVersion(ctx Context, changeID string, minSupported, maxSupported Version) Version {
	return internal.GetVersion(ctx, changeID, minSupported, maxSupported)
}

// GetSignalChannel returns the channel of the signals named signalName.
func GetSignalChannel(ctx Context, signalName string) ReceiveChannel {
	return internal.GetSignalChannel(ctx, signalName)
}

// GetSignalChannelWithOptions is GetSignalChannel with options.
func GetSignalChannelWithOptions(ctx Context, signalName string, options SignalChannelOptions) ReceiveChannel {
	return internal.GetSignalChannelWithOptions(ctx, signalName, options)
}

// SetQueryHandler registers handler to answer queries of queryType.
func SetQueryHandler(ctx Context, queryType string, handler any) error {
	return internal.SetQueryHandler(ctx, queryType, handler)
}

// SetQueryHandlerWithOptions is SetQueryHandler with options.
func SetQueryHandlerWithOptions(ctx Context, queryType string, handler any, options QueryHandlerOptions) error {
	return internal.SetQueryHandlerWithOptions(ctx, queryType, handler, options)
}

// GetInfo returns information about the running workflow.
func GetInfo(ctx Context) *Info { return internal.GetInfo(ctx) }

// GetLogger returns the workflow's logger, silent during replay.
func GetLogger(ctx Context) log.Logger { return internal.GetLogger(ctx) }

// IsReplaying reports whether the code is replaying recorded history.
func IsReplaying(ctx Context) bool { return internal.IsReplaying(ctx) }

// NewContinueAsNewError returns the error that continues the workflow as a
// new run of wfn with args; the workflow returns it.
//
// Signals still waiting in their channels are lost with the run (the SDK
// logs a warning naming them). Drain them, and hand them to the next run:
//
//	var pending []string
//	for {
//		var s string
//		if !signals.ReceiveAsync(&s) {
//			break
//		}
//		pending = append(pending, s)
//	}
//	return workflow.NewContinueAsNewError(ctx, MyWorkflow, state, pending)
func NewContinueAsNewError(ctx Context, wfn any, args ...any) error {
	return internal.NewContinueAsNewError(ctx, wfn, args...)
}

// NewContinueAsNewErrorWithOptions is NewContinueAsNewError with options.
func NewContinueAsNewErrorWithOptions(ctx Context, options ContinueAsNewErrorOptions, wfn any, args ...any) error {
	return internal.NewContinueAsNewErrorWithOptions(ctx, options, wfn, args...)
}

// IsContinueAsNewError reports whether err is a ContinueAsNewError.
func IsContinueAsNewError(err error) bool { return internal.IsContinueAsNewError(err) }

// UpsertSearchAttributes adds or replaces search attributes of the run.
func UpsertSearchAttributes(ctx Context, attributes map[string]any) error {
	return internal.UpsertSearchAttributes(ctx, attributes)
}

// UpsertTypedSearchAttributes adds, replaces or removes search attributes.
func UpsertTypedSearchAttributes(ctx Context, updates ...temporal.SearchAttributeUpdate) error {
	return internal.UpsertTypedSearchAttributes(ctx, updates...)
}

// GetTypedSearchAttributes returns the run's search attributes.
func GetTypedSearchAttributes(ctx Context) temporal.SearchAttributes {
	return internal.GetTypedSearchAttributes(ctx)
}

// UpsertMemo adds or replaces memo fields of the run.
func UpsertMemo(ctx Context, memo map[string]any) error { return internal.UpsertMemo(ctx, memo) }

// GetLastCompletionResult decodes the previous cron or retry run's result.
func GetLastCompletionResult(ctx Context, d ...any) error {
	return internal.GetLastCompletionResult(ctx, d...)
}

// HasLastCompletionResult reports whether the previous run left a result.
func HasLastCompletionResult(ctx Context) bool { return internal.HasLastCompletionResult(ctx) }

// GetLastError returns the previous retry or cron run's failure, or nil.
func GetLastError(ctx Context) error { return internal.GetLastError(ctx) }

// GetUnhandledSignalNames lists the signals received by the server but not
// yet by the workflow code.
func GetUnhandledSignalNames(ctx Context) []string { return internal.GetUnhandledSignalNames(ctx) }

// SetCurrentDetails describes what the workflow is doing now, for the UI.
func SetCurrentDetails(ctx Context, details string) { internal.SetCurrentDetails(ctx, details) }

// GetCurrentDetails returns what SetCurrentDetails set.
func GetCurrentDetails(ctx Context) string { return internal.GetCurrentDetails(ctx) }

// GetMetricsHandler returns the worker client's metrics handler, tagged
// with the workflow's type, task queue and namespace; it records nothing
// while the workflow replays history.
func GetMetricsHandler(ctx Context) client.MetricsHandler { return internal.GetMetricsHandler(ctx) }
