package workflow

import "github.com/durable-go/sdk/internal"

// LocalActivityOptions configure the local activities that a workflow
// runs with ExecuteLocalActivity; attach them to a Context with
// WithLocalActivityOptions. ScheduleToCloseTimeout or StartToCloseTimeout
// must be set.
//
//   - ScheduleToCloseTimeout: the most time the local activity may take,
//     retries included. Default: StartToCloseTimeout.
//   - StartToCloseTimeout: the most time one attempt may run. Default:
//     ScheduleToCloseTimeout.
//   - RetryPolicy: how failed attempts are retried. Default (nil): every
//     1s doubling up to 100s, until ScheduleToCloseTimeout passes.
//   - Summary: a short text the UI shows for the local activity.
//   - EventGroups: more event groups for the local activity's marker,
//     besides the Context's (see WithEventGroups). Default: none.
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
//
//	ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
//		StartToCloseTimeout: 5 * time.Second,
//	})
//	var rate float64
//	err := workflow.ExecuteLocalActivity(ctx, LookUpRate, currency).Get(ctx, &rate)
func ExecuteLocalActivity(ctx Context, activity any, args ...any) Future {
	return internal.ExecuteLocalActivity(ctx, activity, args...)
}

// WithLocalActivityOptions returns a child of ctx whose local activities
// (ExecuteLocalActivity) use options, in place of any options ctx carried.
func WithLocalActivityOptions(ctx Context, options LocalActivityOptions) Context {
	return internal.WithLocalActivityOptions(ctx, options)
}

// GetLocalActivityOptions returns the local activity options that ctx
// carries, the zero LocalActivityOptions when none were set.
func GetLocalActivityOptions(ctx Context) LocalActivityOptions {
	return internal.GetLocalActivityOptions(ctx)
}
