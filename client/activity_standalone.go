package client

import (
	"github.com/durable-go/sdk/internal/clientapi"
)

// Standalone activities: activities a client starts by itself, outside any
// workflow (Client.ExecuteActivity), run by any worker that polls their
// task queue and has them registered, and scheduled, retried and timed
// out by the server as a workflow's are. They need a server with
// standalone activities (1.31 and later; activity.enableStandalone, on by
// default in 1.32). Their Pause, Unpause, UpdateOptions and
// RestoreOriginalOptions also need
// history.enableStandaloneActivityOperatorCommands, which durable-devserver
// turns on (the Temporal CLI's dev server 1.29, which
// testsuite.StartDevServer runs, has no standalone activities).

// StartActivityOptions are the options of Client.ExecuteActivity.
//
//   - ID: the activity's ID in the namespace. Required.
//   - TaskQueue: the task queue its worker polls. Required.
//   - ScheduleToCloseTimeout: bounds the activity, retries included. It or
//     StartToCloseTimeout is required.
//   - ScheduleToStartTimeout: bounds the wait of a task in the queue.
//     Default: none.
//   - StartToCloseTimeout: bounds one attempt. It or
//     ScheduleToCloseTimeout is required.
//   - HeartbeatTimeout: the longest time between two heartbeats. Default:
//     none.
//   - ActivityIDConflictPolicy: when an activity with ID is running.
//     Default: the start fails with a
//     *serviceerror.ActivityExecutionAlreadyStarted.
//   - ActivityIDReusePolicy: whether ID may be used again once an activity
//     with it closed. Default: it may.
//   - RetryPolicy: how failed attempts are retried. Default: the server's.
//   - TypedSearchAttributes: attached to the activity, for ListActivities
//     and CountActivities queries.
//   - Summary, StaticDetails: shown in the UI and the CLI.
//   - Priority: orders its tasks relative to others.
//   - StartDelay: postpones the first attempt.
type StartActivityOptions = clientapi.StartActivityOptions

// GetActivityHandleOptions are the arguments of Client.GetActivityHandle.
//
//   - ActivityID: the activity's ID. Required.
//   - RunID: one run of it. Default: its latest.
type GetActivityHandleOptions = clientapi.GetActivityHandleOptions

// ActivityHandle acts on one standalone activity; Client.ExecuteActivity
// and Client.GetActivityHandle return one.
//
//   - GetID, GetRunID: which activity (the run ID is empty for a handle
//     on the latest run).
//   - Get(ctx, valuePtr): waits for the activity to close and decodes its
//     result, or returns its failure (a *temporal.ApplicationError, a
//     *temporal.CanceledError, a *temporal.TerminatedError, a
//     *temporal.TimeoutError).
//   - Describe(ctx, DescribeActivityOptions): its state.
//   - Cancel(ctx, CancelActivityOptions): asks for its cancellation; the
//     running attempt learns it at its next heartbeat.
//   - Terminate(ctx, TerminateActivityOptions): ends it at once.
//   - Pause(ctx, PauseActivityOptions), Unpause(ctx,
//     UnpauseActivityOptions): stop and resume its attempts.
//   - UpdateOptions(ctx, ActivityOptionsUpdate), RestoreOriginalOptions(ctx):
//     change its options, or undo the changes; both return the options
//     after the call.
type ActivityHandle = clientapi.ActivityHandle

// DescribeActivityOptions are the options of ActivityHandle.Describe,
// which choose the payloads that come with the description.
//
//   - IncludeInput: the arguments (ActivityExecutionDescription.GetInput).
//   - IncludeOutcome: the result or failure, once closed (GetResult,
//     GetOutcomeFailure).
//   - IncludeHeartbeatDetails: the last heartbeat's details
//     (GetHeartbeatDetails).
//   - IncludeLastFailure: the last failed attempt's failure
//     (GetLastFailure).
type DescribeActivityOptions = clientapi.DescribeActivityOptions

// CancelActivityOptions are the options of ActivityHandle.Cancel.
//
//   - Reason: why, shown in the description (CanceledReason).
type CancelActivityOptions = clientapi.CancelActivityOptions

// TerminateActivityOptions are the options of ActivityHandle.Terminate.
//
//   - Reason: why; the message of the activity's TerminatedError.
type TerminateActivityOptions = clientapi.TerminateActivityOptions

// PauseActivityOptions are the options of ActivityHandle.Pause.
//
//   - Reason: why.
type PauseActivityOptions = clientapi.PauseActivityOptions

// UnpauseActivityOptions are the options of ActivityHandle.Unpause.
//
//   - Reason: why.
//   - Jitter: when positive, the next attempt waits a random time below
//     it, to spread the load of many activities unpaused at once.
type UnpauseActivityOptions = clientapi.UnpauseActivityOptions

// ActivityExecutionOptions are the options a standalone activity runs
// with, as ActivityHandle.UpdateOptions and RestoreOriginalOptions return
// them: TaskQueue, ScheduleToCloseTimeout, ScheduleToStartTimeout,
// StartToCloseTimeout, HeartbeatTimeout, StartDelay, RetryPolicy and
// Priority.
type ActivityExecutionOptions = clientapi.ActivityExecutionOptions

// ActivityOptionsUpdate names the options ActivityHandle.UpdateOptions
// changes, one ActivityOptionChange each; a nil field leaves its option
// as it is, and at least one must be set: TaskQueue,
// ScheduleToCloseTimeout, ScheduleToStartTimeout, StartToCloseTimeout,
// HeartbeatTimeout, StartDelay, RetryPolicy, Priority.
type ActivityOptionsUpdate = clientapi.ActivityOptionsUpdate

// ActivityOptionChange is the change of one option in an
// ActivityOptionsUpdate.
//
//   - Value: the option's new value; nil clears the option, so that the
//     server's default applies.
type ActivityOptionChange[T any] = clientapi.ActivityOptionChange[T]

// ActivityExecutionInfo is what visibility knows of a standalone activity:
// an element of ListActivities, and the first part of an
// ActivityExecutionDescription.
//
//   - RawExecutionListInfo: the server's entry (nil in a description).
//   - ActivityID, ActivityRunID, ActivityType: which activity.
//   - ScheduleTime, CloseTime, ExecutionTime, ExecutionDuration: its
//     times.
//   - Status: running, or how it closed.
//   - TypedSearchAttributes: its search attributes.
//   - TaskQueue: where its tasks go.
type ActivityExecutionInfo = clientapi.ClientActivityExecutionInfo

// ActivityExecutionDescription is the answer of ActivityHandle.Describe:
// its ActivityExecutionInfo (embedded, so the field is named
// ClientActivityExecutionInfo, as in go.temporal.io/sdk), and
//
//   - RawResponse: the server's answer.
//   - ScheduleToCloseTimeout, ScheduleToStartTimeout, StartToCloseTimeout,
//     HeartbeatTimeout, StartDelay, RetryPolicy, Priority: its options.
//   - RunState: the state of a running activity (scheduled, started,
//     cancel requested, paused...).
//   - Attempt, LastStartedTime, LastAttemptCompleteTime,
//     NextAttemptScheduleTime, CurrentRetryInterval, ExpirationTime: its
//     attempts.
//   - LastHeartbeatTime, TotalHeartbeatCount: its heartbeats.
//   - LastWorkerIdentity, LastDeploymentVersion: the last worker that ran
//     it.
//   - CanceledReason: the reason of its cancellation.
//
// Its methods decode the payloads asked for with DescribeActivityOptions:
// HasInput and GetInput, HasResult and GetResult, HasOutcomeFailure and
// GetOutcomeFailure, HasHeartbeatDetails and GetHeartbeatDetails,
// HasLastFailure and GetLastFailure (a Get without data returns
// temporal.ErrNoData, or a nil failure); GetSummary and GetStaticDetails
// decode the start's summary and details.
type ActivityExecutionDescription = clientapi.ActivityExecutionDescription

// ListActivitiesOptions are the arguments of Client.ListActivities.
//
//   - Query: a visibility query (https://docs.temporal.io/list-filter).
//     Default: every standalone activity of the namespace.
type ListActivitiesOptions = clientapi.ListActivitiesOptions

// ListActivitiesResult is the answer of Client.ListActivities.
//
//   - Results: the matching activities, fetched page by page as it is
//     iterated; an error ends it.
type ListActivitiesResult = clientapi.ListActivitiesResult

// CountActivitiesOptions are the arguments of Client.CountActivities.
//
//   - Query: a visibility query, which may GROUP BY a field.
type CountActivitiesOptions = clientapi.CountActivitiesOptions

// CountActivitiesResult is the answer of Client.CountActivities.
//
//   - Count: the approximate number of matching activities.
//   - Groups: the counts by group of a query with GROUP BY.
type CountActivitiesResult = clientapi.CountActivitiesResult

// CountActivitiesAggregationGroup is one group of a CountActivitiesResult.
//
//   - GroupValues: the values of the grouped-by fields.
//   - Count: the approximate number of activities in the group.
type CountActivitiesAggregationGroup = clientapi.CountActivitiesAggregationGroup

// CompleteActivityByActivityIDOptions are the arguments of
// Client.CompleteActivityByActivityIDWithOptions.
//
//   - Namespace, ActivityID: identify the standalone activity. Required.
//   - ActivityRunID: its run. Default: its latest.
//   - Result: the activity's result, when Err is nil.
//   - Err: fails the activity; a *temporal.CanceledError or
//     context.Canceled cancels it instead.
//   - WorkflowID, ActivityType, WorkflowType, TaskQueue: only fill the
//     data converter's serialization context.
//   - NexusSerializationContext: when set, the serialization context of
//     the result and failure instead: that of the Nexus operation whose
//     handler started the activity, with which its caller decodes them.
type CompleteActivityByActivityIDOptions = clientapi.CompleteActivityByActivityIDOptions
