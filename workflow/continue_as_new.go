package workflow

import "github.com/durable-go/sdk/internal"

// ContinueAsNewError, returned by a workflow function, completes the run
// and starts a new run of the workflow with the same workflow ID and a
// fresh, empty history. Make it with NewContinueAsNewError; its fields say
// what the new run gets:
//
//   - WorkflowType: the workflow type of the new run.
//   - Input: the new run's arguments, encoded.
//   - Header: the headers that context propagators and interceptors
//     wrote for the new run.
//   - TaskQueueName: the task queue of the new run.
//   - WorkflowRunTimeout, WorkflowTaskTimeout: the new run's timeouts.
//   - WorkflowExecutionTimeout: not sent; the server keeps the workflow's.
//   - BackoffStartInterval: how long the server waits before starting
//     the new run.
//   - VersioningIntent: for build-ID versioning, deprecated.
//   - RetryPolicy: the new run's retry policy; nil keeps the current one.
//   - InitialVersioningBehavior: which worker deployment version the new
//     run's first task goes to (see ContinueAsNewVersioningBehavior).
type ContinueAsNewError = internal.ContinueAsNewError

// ContinueAsNewErrorOptions configure NewContinueAsNewErrorWithOptions.
//
//   - RetryPolicy: the retry policy of the new run. Default: the current
//     run's.
//   - BackoffStartInterval: how long the server waits before it starts
//     the new run. Default: no wait.
//   - InitialVersioningBehavior: which worker deployment version the new
//     run's first task goes to (ContinueAsNewVersioningBehaviorAutoUpgrade
//     moves a pinned workflow to the current version as it continues).
//     Default: the new run inherits the current run's behavior and
//     version.
//   - EventGroups: more event groups for the command that continues the run,
//     besides the Context's (see WithEventGroups). Default: none.
type ContinueAsNewErrorOptions = internal.ContinueAsNewErrorOptions

// NewContinueAsNewError returns the error that, returned by the workflow
// function, continues the workflow as a new run of wfn (the workflow
// function, or its type name) with args. Continue as new before a run's
// history grows too long: a workflow that loops forever, or handles many
// signals or updates, carries its state over to a new run whose history
// starts empty (Info.GetContinueAsNewSuggested says when the server
// thinks it is time).
//
// The new run has the same workflow ID and keeps the current memo, search
// attributes, retry policy, and the task queue and timeouts that ctx's
// workflow options say (see WithWorkflowTaskQueue, WithWorkflowRunTimeout,
// WithWorkflowTaskTimeout: the current run's by default). It panics when
// wfn is not a workflow or args do not fit its parameters.
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
//
// Wait for running update handlers too (AllHandlersFinished).
func NewContinueAsNewError(ctx Context, wfn any, args ...any) error {
	return internal.NewContinueAsNewError(ctx, wfn, args...)
}

// NewContinueAsNewErrorWithOptions is NewContinueAsNewError with options:
// the new run's RetryPolicy and a BackoffStartInterval before it starts.
func NewContinueAsNewErrorWithOptions(ctx Context, options ContinueAsNewErrorOptions, wfn any, args ...any) error {
	return internal.NewContinueAsNewErrorWithOptions(ctx, options, wfn, args...)
}

// ContinueAsNewVersioningBehavior says which worker deployment version
// the first task of the run a continue-as-new starts goes to.
type ContinueAsNewVersioningBehavior = internal.ContinueAsNewVersioningBehavior

// The continue-as-new versioning behaviors.
const (
	// ContinueAsNewVersioningBehaviorUnspecified: the new run inherits
	// the current run's versioning behavior, and a pinned run's version.
	ContinueAsNewVersioningBehaviorUnspecified = internal.ContinueAsNewVersioningBehaviorUnspecified
	// ContinueAsNewVersioningBehaviorAutoUpgrade: the new run's first
	// task goes to the task queue's current version; the behavior its
	// workflow type reports then holds, so a pinned workflow that
	// continues as new moves to the current version.
	ContinueAsNewVersioningBehaviorAutoUpgrade = internal.ContinueAsNewVersioningBehaviorAutoUpgrade
	// ContinueAsNewVersioningBehaviorUseRampingVersion: the new run's
	// first task goes to the task queue's ramping version, whatever the
	// ramp's percentage (the current version when none ramps).
	ContinueAsNewVersioningBehaviorUseRampingVersion = internal.ContinueAsNewVersioningBehaviorUseRampingVersion
)

// IsContinueAsNewError reports whether err is, or wraps, a
// *ContinueAsNewError.
func IsContinueAsNewError(err error) bool { return internal.IsContinueAsNewError(err) }

// GetLastCompletionResult decodes into d the result of the previous run of
// a cron workflow (or of a workflow started by a schedule), so that each
// run can build on the last one's. It returns an error (temporal.ErrNoData
// for the first run) when there is no such result.
func GetLastCompletionResult(ctx Context, d ...any) error {
	return internal.GetLastCompletionResult(ctx, d...)
}

// HasLastCompletionResult reports whether the previous run of a cron or
// scheduled workflow left a result for GetLastCompletionResult.
func HasLastCompletionResult(ctx Context) bool { return internal.HasLastCompletionResult(ctx) }

// GetLastError returns the failure of the previous run of a retried or
// cron workflow, or nil when that run did not fail or there was none.
func GetLastError(ctx Context) error { return internal.GetLastError(ctx) }
