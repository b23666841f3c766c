package workflow

import (
	"time"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/temporal"
)

// ActivityOptions configure the activities that a workflow schedules with
// ExecuteActivity. Attach them to a Context with WithActivityOptions (or
// one at a time with WithTaskQueue, WithStartToCloseTimeout, ...); every
// activity scheduled with that context, or a context derived from it, uses
// them. StartToCloseTimeout or ScheduleToCloseTimeout must be set.
//
//   - TaskQueue: the task queue whose workers run the activity. Default:
//     the workflow's own task queue.
//   - ScheduleToCloseTimeout: the most time the activity may take in all,
//     from being scheduled to its last attempt's end, retries and waits
//     between them included. Default: unlimited (the workflow's run
//     timeout bounds it).
//   - ScheduleToStartTimeout: the most time each attempt may wait in the
//     task queue for a worker to take it. It is not retried: it fails the
//     activity. Default: ScheduleToCloseTimeout. Set it only to notice
//     that no worker serves the queue.
//   - StartToCloseTimeout: the most time one attempt may run once a worker
//     took it; the attempt then fails with a timeout and is retried. Set it
//     a little longer than the longest run you expect. Default:
//     ScheduleToCloseTimeout.
//   - HeartbeatTimeout: the longest silence allowed between two
//     activity.RecordHeartbeat calls of a running attempt; the attempt then
//     fails with a heartbeat timeout and is retried. Needed for the
//     activity to learn of its cancellation. Default: 0, no heartbeat
//     needed.
//   - WaitForCancellation: when the activity is canceled, wait until it
//     ends (canceled, completed or failed) before its Future is ready with
//     that outcome. Default: false, the Future is ready at once with a
//     *temporal.CanceledError, and the activity's end is not waited for.
//   - ActivityID: the activity's ID, unique among the run's open
//     activities. Default: the command's sequence number in the run ("5").
//   - RetryPolicy: how failed attempts are retried. Default (nil): the
//     server's policy, every 1s doubling up to 100s, without limit until a
//     timeout above stops it or the error is non-retryable.
//   - DisableEagerExecution: do not ask the server to hand the activity
//     straight back to this worker when it has a free slot (eager
//     execution; see worker.Options.DisableEagerActivities). Default:
//     false, eager execution is requested.
//   - VersioningIntent: for build-ID versioning, deprecated; leave it
//     unset.
//   - Summary: a short text the UI shows for the activity.
//   - Priority: the activity's priority and fairness within its task
//     queue (see temporal.Priority). Default: the workflow's.
//   - EventGroups: more event groups for the activity's commands, besides
//     the Context's (see WithEventGroups). Default: none.
//
// For example:
//
//	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
//		StartToCloseTimeout: 30 * time.Second,
//		HeartbeatTimeout:    5 * time.Second,
//		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 5},
//	})
type ActivityOptions = internal.ActivityOptions

// ExecuteActivity schedules an activity and returns at once a Future of its
// result. activity is the activity function, whose name is the activity
// type (the function is not called here: a worker of the task queue runs
// it), or the activity type's name as a string. For a method of a struct
// registered as activities, pass the method expression on a nil pointer:
//
//	var a *Activities
//	future := workflow.ExecuteActivity(ctx, a.Charge, order)
//
// args are the activity's arguments after its context; they are encoded
// with the data converter. As in go.temporal.io/sdk, arguments that do not
// fit an activity function's parameters do not stop the call: the worker
// logs a warning and schedules the activity, which drops extra arguments,
// takes zero values for missing ones, and fails when it cannot decode one
// (workflowcheck reports such calls before they run). The ActivityOptions
// of ctx apply (see WithActivityOptions);
// without StartToCloseTimeout or ScheduleToCloseTimeout the Future fails
// at once with an error saying so.
//
// Get the result with Future.Get, which blocks the calling coroutine:
//
//	var receipt Receipt
//	if err := future.Get(ctx, &receipt); err != nil {
//		return err
//	}
//
// When the activity fails for good (retries exhausted, a non-retryable
// error, a timeout), the Future's error is an *temporal.ActivityError
// naming the activity, whose cause (errors.As, or errors.Unwrap) says why:
// an *temporal.ApplicationError with the error the activity returned, a
// *temporal.TimeoutError, a *temporal.CanceledError or a
// *temporal.PanicError.
//
// Canceling ctx (see WithCancel) cancels the activity: the server tells
// the activity at its next heartbeat. The Future is ready at once with a
// *temporal.CanceledError; with ActivityOptions.WaitForCancellation, it
// waits instead for the activity's own end and has its outcome.
func ExecuteActivity(ctx Context, activity any, args ...any) Future {
	return internal.ExecuteActivity(ctx, activity, args...)
}

// WithActivityOptions returns a child of ctx whose activities (ExecuteActivity)
// use options, in place of any options ctx carried. Zero fields take their
// defaults (see ActivityOptions).
func WithActivityOptions(ctx Context, options ActivityOptions) Context {
	return internal.WithActivityOptions(ctx, options)
}

// GetActivityOptions returns the activity options that ctx carries, the
// zero ActivityOptions when none were set.
func GetActivityOptions(ctx Context) ActivityOptions { return internal.GetActivityOptions(ctx) }

// WithTaskQueue returns a child of ctx whose activities are scheduled on the
// task queue name, keeping ctx's other activity options.
func WithTaskQueue(ctx Context, name string) Context { return internal.WithTaskQueue(ctx, name) }

// WithScheduleToCloseTimeout returns a child of ctx whose activities have
// the schedule-to-close timeout d: the most time an activity may take, all
// retries included (ActivityOptions.ScheduleToCloseTimeout).
func WithScheduleToCloseTimeout(ctx Context, d time.Duration) Context {
	return internal.WithScheduleToCloseTimeout(ctx, d)
}

// WithScheduleToStartTimeout returns a child of ctx whose activities have
// the schedule-to-start timeout d: the most time an attempt may wait for a
// worker (ActivityOptions.ScheduleToStartTimeout).
func WithScheduleToStartTimeout(ctx Context, d time.Duration) Context {
	return internal.WithScheduleToStartTimeout(ctx, d)
}

// WithStartToCloseTimeout returns a child of ctx whose activities have the
// start-to-close timeout d: the most time one attempt may run
// (ActivityOptions.StartToCloseTimeout).
func WithStartToCloseTimeout(ctx Context, d time.Duration) Context {
	return internal.WithStartToCloseTimeout(ctx, d)
}

// WithHeartbeatTimeout returns a child of ctx whose activities have the
// heartbeat timeout d: the longest silence allowed between heartbeats
// (ActivityOptions.HeartbeatTimeout).
func WithHeartbeatTimeout(ctx Context, d time.Duration) Context {
	return internal.WithHeartbeatTimeout(ctx, d)
}

// WithWaitForCancellation returns a child of ctx whose canceled activities
// are waited for (wait true) or not (ActivityOptions.WaitForCancellation).
func WithWaitForCancellation(ctx Context, wait bool) Context {
	return internal.WithWaitForCancellation(ctx, wait)
}

// WithRetryPolicy returns a child of ctx whose activities retry as
// retryPolicy says (ActivityOptions.RetryPolicy).
func WithRetryPolicy(ctx Context, retryPolicy temporal.RetryPolicy) Context {
	return internal.WithRetryPolicy(ctx, retryPolicy)
}

// WithPriority returns a child of ctx whose activities have priority
// (ActivityOptions.Priority).
func WithPriority(ctx Context, priority temporal.Priority) Context {
	return internal.WithPriority(ctx, priority)
}
