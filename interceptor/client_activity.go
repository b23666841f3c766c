package interceptor

import "github.com/durable-go/sdk/internal/clientapi"

// ClientExecuteActivityInput is the input of
// ClientOutboundInterceptor.ExecuteActivity.
//
//   - Options: the start options, as given.
//   - ActivityType: the activity type's name.
//   - Args: the activity's arguments, not yet encoded.
type ClientExecuteActivityInput = clientapi.ClientExecuteActivityInput

// ClientGetActivityHandleInput is the input of
// ClientOutboundInterceptor.GetActivityHandle.
//
//   - ActivityID, RunID: the activity of the handle (RunID empty: its
//     latest run).
type ClientGetActivityHandleInput = clientapi.ClientGetActivityHandleInput

// ClientPollActivityResultInput is the input of
// ClientOutboundInterceptor.PollActivityResult.
//
//   - ActivityID, RunID: the activity waited for.
type ClientPollActivityResultInput = clientapi.ClientPollActivityResultInput

// ClientPollActivityResultOutput is the result of
// ClientOutboundInterceptor.PollActivityResult.
//
//   - Result: the activity's result, when it completed.
//   - Error: its failure, when it did not.
type ClientPollActivityResultOutput = clientapi.ClientPollActivityResultOutput

// ClientDescribeActivityInput is the input of
// ClientOutboundInterceptor.DescribeActivity.
//
//   - ActivityID, RunID: the activity described.
//   - Options: the payloads asked for.
type ClientDescribeActivityInput = clientapi.ClientDescribeActivityInput

// ClientDescribeActivityOutput is the result of
// ClientOutboundInterceptor.DescribeActivity.
//
//   - Description: the activity's description.
type ClientDescribeActivityOutput = clientapi.ClientDescribeActivityOutput

// ClientCancelActivityInput is the input of
// ClientOutboundInterceptor.CancelActivity.
//
//   - ActivityID, RunID: the activity to cancel.
//   - Reason: why.
type ClientCancelActivityInput = clientapi.ClientCancelActivityInput

// ClientTerminateActivityInput is the input of
// ClientOutboundInterceptor.TerminateActivity.
//
//   - ActivityID, RunID: the activity to terminate.
//   - Reason: why.
type ClientTerminateActivityInput = clientapi.ClientTerminateActivityInput

// ClientPauseActivityInput is the input of
// ClientOutboundInterceptor.PauseActivity.
//
//   - ActivityID, RunID: the activity to pause.
//   - Options: the reason.
type ClientPauseActivityInput = clientapi.ClientPauseActivityInput

// ClientUnpauseActivityInput is the input of
// ClientOutboundInterceptor.UnpauseActivity.
//
//   - ActivityID, RunID: the activity to unpause.
//   - Options: the reason and the jitter.
type ClientUnpauseActivityInput = clientapi.ClientUnpauseActivityInput

// ClientUpdateActivityOptionsInput is the input of
// ClientOutboundInterceptor.UpdateActivityOptions.
//
//   - ActivityID, RunID: the activity whose options change.
//   - Update: the changes (UpdateOptions).
//   - RestoreOriginal: undo every change instead (RestoreOriginalOptions);
//     it cannot be combined with Update's changes.
type ClientUpdateActivityOptionsInput = clientapi.ClientUpdateActivityOptionsInput

// ClientUpdateActivityOptionsOutput is the result of
// ClientOutboundInterceptor.UpdateActivityOptions.
//
//   - Options: the activity's options after the call.
type ClientUpdateActivityOptionsOutput = clientapi.ClientUpdateActivityOptionsOutput
