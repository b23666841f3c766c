package client

import (
	"github.com/durable-go/sdk/internal/clientapi"
)

// CompleteActivityOptions are the arguments of
// Client.CompleteActivityWithOptions.
//
//   - TaskToken: the activity attempt's token (activity.Info.TaskToken).
//     Required.
//   - Result: the activity's result, when Err is nil.
//   - Err: fails the activity; a *temporal.CanceledError or
//     context.Canceled cancels it instead.
//   - Namespace: the activity's namespace. Default: the client's.
//   - WorkflowID, ActivityType, WorkflowType, TaskQueue: only fill the
//     data converter's serialization context.
//   - NexusSerializationContext: for an activity a Nexus operation's
//     handler started, activity.Info.NexusSerializationContext: Result
//     and Err are encoded with it instead, for the operation's caller.
type CompleteActivityOptions = clientapi.CompleteActivityOptions

// CompleteActivityByIDOptions are the arguments of
// Client.CompleteActivityByIDWithOptions.
//
//   - Namespace, WorkflowID, ActivityID: identify the activity. Required.
//   - RunID: the workflow's run. Default: its current run.
//   - Result: the activity's result, when Err is nil.
//   - Err: fails the activity; a *temporal.CanceledError or
//     context.Canceled cancels it instead.
//   - ActivityType, WorkflowType, TaskQueue: only fill the data
//     converter's serialization context.
type CompleteActivityByIDOptions = clientapi.CompleteActivityByIDOptions

// RecordActivityHeartbeatOptions are the arguments of
// Client.RecordActivityHeartbeatWithOptions.
//
//   - TaskToken: the activity attempt's token. Required.
//   - Details: recorded with the heartbeat; a later attempt reads them
//     (activity.GetHeartbeatDetails).
//   - Namespace: the activity's namespace. Default: the client's.
//   - WorkflowID, ActivityType, WorkflowType, TaskQueue: only fill the
//     data converter's serialization context.
//   - NexusSerializationContext: for an activity a Nexus operation's
//     handler started, activity.Info.NexusSerializationContext: Details
//     are encoded with it instead.
type RecordActivityHeartbeatOptions = clientapi.RecordActivityHeartbeatOptions

// RecordActivityHeartbeatByIDOptions are the arguments of
// Client.RecordActivityHeartbeatByIDWithOptions.
//
//   - Namespace: the activity's namespace. Default: the client's.
//   - WorkflowID, ActivityID: identify the activity. Required.
//   - RunID: the workflow's run. Default: its current run.
//   - Details: recorded with the heartbeat.
//   - ActivityType, WorkflowType, TaskQueue: only fill the data
//     converter's serialization context.
type RecordActivityHeartbeatByIDOptions = clientapi.RecordActivityHeartbeatByIDOptions
