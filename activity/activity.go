package activity

import (
	"context"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/log"
)

// Info describes the running activity attempt, as GetInfo returns it.
//
//   - TaskToken: identifies this attempt to the server; pass it to
//     client.Client.CompleteActivity after returning ErrResultPending.
//   - WorkflowType, WorkflowNamespace, WorkflowExecution: the workflow
//     that scheduled the activity (empty for an activity not scheduled
//     by a workflow).
//   - ActivityID: the activity's ID, unique within its workflow run
//     (workflow.ActivityOptions.ActivityID, or one the SDK chose).
//   - ActivityRunID: the run ID the server gives a standalone activity;
//     empty for the activities of a workflow.
//   - ActivityType: the registered name the activity ran as.
//   - TaskQueue: the task queue the attempt was taken from.
//   - Namespace: the namespace of the worker running the activity.
//   - HeartbeatTimeout, ScheduleToCloseTimeout, StartToCloseTimeout: the
//     timeouts in force for this attempt, zero when unset.
//   - ScheduledTime: when this attempt was scheduled.
//   - StartedTime: when the worker started this attempt.
//   - Deadline: when the attempt times out; ctx's deadline, zero when
//     it has none.
//   - Attempt: 1 for the first attempt, counting up with each retry.
//   - IsLocalActivity: whether the workflow ran it as a local activity
//     (workflow.ExecuteLocalActivity), in the worker, without a task queue.
//   - Priority: the priority it was scheduled with.
//   - RetryPolicy: the retry policy the server applies to the activity,
//     nil when the task carries none.
//   - NexusSerializationContext: for a standalone activity a Nexus
//     operation's handler started (temporalnexus.StartActivity), the
//     operation's context, which its result, failure and heartbeat
//     details are converted with; pass it to the client's
//     CompleteActivity and RecordActivityHeartbeat options when
//     completing it outside the worker. Nil otherwise. Experimental.
//
// Its method IsWorkflowActivity reports whether a workflow scheduled the
// activity (WorkflowExecution is set).
type Info = internal.ActivityInfo

// Type is an activity type: its Name is the name the activity was
// registered under and is scheduled by.
type Type = internal.ActivityType

// GetInfo returns information about the running activity attempt: its IDs,
// its workflow, its timeouts and its attempt number.
func GetInfo(ctx context.Context) Info { return internal.GetActivityInfo(ctx) }

// IsActivity reports whether ctx is the context of a running activity or
// local activity, that is whether the other functions of this package may
// be called with it.
func IsActivity(ctx context.Context) bool { return internal.IsActivity(ctx) }

// GetLogger returns the activity's logger: the worker's client.Options.Logger
// with the activity's ID, type and attempt and its workflow's ID and run ID
// added to every entry.
func GetLogger(ctx context.Context) log.Logger { return internal.GetActivityLogger(ctx) }

// GetMetricsHandler returns the worker client's metrics handler
// (client.Options.MetricsHandler), tagged with the activity's type, task
// queue and namespace, for the activity's own metrics.
func GetMetricsHandler(ctx context.Context) client.MetricsHandler {
	return internal.GetActivityMetricsHandler(ctx)
}

// GetClient returns the client of the worker running the activity, to
// start, signal or query workflows from activity code without dialing
// another connection. Its result has the methods of client.Client and is
// assignable to it (the signature is go.temporal.io/sdk's).
func GetClient(ctx context.Context) internal.Client { return internal.GetActivityClient(ctx) }

// GetWorkerStopChannel returns a channel that is closed when the worker
// running the activity begins to stop. The worker then waits up to its
// worker.Options.WorkerStopTimeout for running activities before it cancels
// their contexts, so a long activity can watch this channel to save its
// progress (RecordHeartbeat) and return in time.
func GetWorkerStopChannel(ctx context.Context) <-chan struct{} {
	return internal.GetWorkerStopChannel(ctx)
}

// ErrResultPending, returned by an activity function (alone or as its
// error), means the activity is not finished although the function
// returned: something else completes it later, with
// client.Client.CompleteActivity and the attempt's Info.TaskToken, or with
// client.Client.CompleteActivityByID. Until then the activity's timeouts
// still run, and the completer can heartbeat it with
// client.Client.RecordActivityHeartbeat. Typical for work done by a person
// or by an outside system that calls back.
var ErrResultPending = internal.ErrResultPending
