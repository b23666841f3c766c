package workflow

import "github.com/durable-go/sdk/internal"

// LocalActivityOptions configure local activities: ScheduleToCloseTimeout
// or StartToCloseTimeout (one is required; each defaults to the other),
// RetryPolicy and Summary.
type LocalActivityOptions = internal.LocalActivityOptions

// ExecuteLocalActivity runs a short activity in the worker that runs the
// workflow, inside the workflow task, without a round trip through a task
// queue; history records its outcome as a marker, so replay does not run
// it again. activity is a function (which need not be registered) or the
// name of a registered activity. Retries with backoffs up to the workflow
// task timeout happen in the worker; longer ones wait on a workflow timer.
// The future's error is the activity's own (not an ActivityError), a
// timeout or a cancellation.
//
// Use local activities for calls of a few seconds at most; long ones keep
// the workflow task open and belong in ExecuteActivity.
func ExecuteLocalActivity(ctx Context, activity any, args ...any) Future {
	return internal.ExecuteLocalActivity(ctx, activity, args...)
}

// WithLocalActivityOptions returns a context whose local activities use
// options.
func WithLocalActivityOptions(ctx Context, options LocalActivityOptions) Context {
	return internal.WithLocalActivityOptions(ctx, options)
}

// GetLocalActivityOptions returns the local activity options ctx carries.
func GetLocalActivityOptions(ctx Context) LocalActivityOptions {
	return internal.GetLocalActivityOptions(ctx)
}
