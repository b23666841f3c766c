package interceptor

import (
	"github.com/durable-go/sdk/internal/clientapi"
)

// ClientOutboundInterceptor sees the workflow calls of a client. Make one
// in ClientInterceptor.InterceptClient; embed
// ClientOutboundInterceptorBase. Each method intercepts the client method
// of its name, with the call's options filled in:
//
//   - ExecuteWorkflow: Client.ExecuteWorkflow; Header(ctx) is the header
//     the workflow starts with.
//   - SignalWorkflow: Client.SignalWorkflow; Header(ctx) is the signal's.
//   - SignalWithStartWorkflow: Client.SignalWithStartWorkflow; Header(ctx)
//     goes with both the start and the signal.
//   - CancelWorkflow: Client.CancelWorkflow and CancelWorkflowWithOptions.
//   - TerminateWorkflow: Client.TerminateWorkflow and
//     TerminateWorkflowWithOptions.
//   - QueryWorkflow: Client.QueryWorkflow and QueryWorkflowWithOptions;
//     Header(ctx) is the query's.
//   - DescribeWorkflow: Client.DescribeWorkflow.
//   - CreateSchedule: ScheduleClient.Create; Header(ctx) goes with the
//     workflows the schedule starts.
//   - UpdateWorkflow: Client.UpdateWorkflow; Header(ctx) is the update's.
//   - UpdateWithStartWorkflow: Client.UpdateWithStartWorkflow; Header(ctx)
//     goes with both the start and the update.
//   - PollWorkflowUpdate: each wait for an update's outcome.
//   - GetWorkflowRun: Client.GetWorkflow (not the handles that starting a
//     workflow returns); the end of the chain makes no request.
//   - GetWorkflowResult: WorkflowRun.Get and GetWithOptions, once a call,
//     however many runs it follows.
//   - GetWorkflowHistory: Client.GetWorkflowHistory, once, when the
//     iterator is made (not Get's own history reads).
//   - ExecuteNexusOperation: client.NexusClient.ExecuteOperation, a
//     standalone Nexus operation's start.
//   - GetNexusOperationHandle: Client.GetNexusOperationHandle; the end of
//     the chain makes no request.
//   - PollNexusOperationResult: each wait of NexusOperationHandle.Get for
//     the operation's outcome.
//   - DescribeNexusOperation, CancelNexusOperation,
//     TerminateNexusOperation: the NexusOperationHandle methods of those
//     names. (Client.ListNexusOperations and CountNexusOperations do not
//     come through the chain.)
//   - ExecuteActivity: Client.ExecuteActivity, a standalone activity's
//     start; Header(ctx) is the header the activity starts with.
//   - GetActivityHandle: Client.GetActivityHandle; the end of the chain
//     makes no request.
//   - PollActivityResult: each wait of ActivityHandle.Get for the
//     activity's outcome.
//   - DescribeActivity, CancelActivity, TerminateActivity, PauseActivity,
//     UnpauseActivity: the ActivityHandle methods Describe, Cancel,
//     Terminate, Pause and Unpause.
//   - UpdateActivityOptions: ActivityHandle.UpdateOptions and
//     RestoreOriginalOptions. (Client.ListActivities and CountActivities
//     do not come through the chain.)
type ClientOutboundInterceptor = clientapi.ClientOutboundInterceptor

// ClientOutboundInterceptorBase passes every call on to its Next
// interceptor (it implements ClientOutboundInterceptor). Embed it, set
// Next, and override what you need.
type ClientOutboundInterceptorBase = clientapi.ClientOutboundInterceptorBase

// ClientExecuteWorkflowInput is the input of
// ClientOutboundInterceptor.ExecuteWorkflow.
//
//   - Options: the start options, their ID already set.
//   - WorkflowType: the workflow type's name.
//   - Args: the workflow's arguments, not yet encoded.
type ClientExecuteWorkflowInput = clientapi.ClientExecuteWorkflowInput

// ClientSignalWorkflowInput is the input of
// ClientOutboundInterceptor.SignalWorkflow.
//
//   - WorkflowID, RunID: the workflow to signal (RunID empty: its current
//     run).
//   - SignalName: the signal's name.
//   - Arg: the signal's argument, not yet encoded.
type ClientSignalWorkflowInput = clientapi.ClientSignalWorkflowInput

// ClientSignalWithStartWorkflowInput is the input of
// ClientOutboundInterceptor.SignalWithStartWorkflow.
//
//   - SignalName, SignalArg: the signal and its argument.
//   - Options: the start options, their ID already set.
//   - WorkflowType, Args: the workflow to start if it is not running, and
//     its arguments.
type ClientSignalWithStartWorkflowInput = clientapi.ClientSignalWithStartWorkflowInput

// ClientCancelWorkflowInput is the input of
// ClientOutboundInterceptor.CancelWorkflow.
//
//   - WorkflowID, RunID: the workflow to cancel (RunID empty: its current
//     run).
//   - FirstExecutionRunID: when set, the run must belong to the chain of
//     runs that started with that run.
//   - Reason: why, recorded in history.
type ClientCancelWorkflowInput = clientapi.ClientCancelWorkflowInput

// ClientTerminateWorkflowInput is the input of
// ClientOutboundInterceptor.TerminateWorkflow.
//
//   - WorkflowID, RunID, FirstExecutionRunID: the workflow, as for
//     ClientCancelWorkflowInput.
//   - Reason: why, recorded in history.
//   - Details: values recorded with the termination, not yet encoded.
type ClientTerminateWorkflowInput = clientapi.ClientTerminateWorkflowInput

// ClientQueryWorkflowInput is the input of
// ClientOutboundInterceptor.QueryWorkflow.
//
//   - WorkflowID, RunID: the workflow to query.
//   - QueryType: the query's type.
//   - Args: the query's arguments, not yet encoded.
//   - QueryRejectCondition: the workflow statuses for which the server
//     rejects the query.
type ClientQueryWorkflowInput = clientapi.ClientQueryWorkflowInput

// ClientDescribeWorkflowInput is the input of
// ClientOutboundInterceptor.DescribeWorkflow.
//
//   - WorkflowID, RunID: the workflow to describe.
type ClientDescribeWorkflowInput = clientapi.ClientDescribeWorkflowInput

// ClientDescribeWorkflowOutput is the result of
// ClientOutboundInterceptor.DescribeWorkflow.
//
//   - Response: the workflow's description.
type ClientDescribeWorkflowOutput = clientapi.ClientDescribeWorkflowOutput

// ScheduleClientCreateInput is the input of
// ClientOutboundInterceptor.CreateSchedule.
//
//   - Options: the schedule's options, their ID set.
type ScheduleClientCreateInput = clientapi.ScheduleClientCreateInput

// ClientUpdateWorkflowInput is the input of
// ClientOutboundInterceptor.UpdateWorkflow.
//
//   - UpdateID: the update's ID, already made when the caller left it
//     empty.
//   - WorkflowID, RunID, FirstExecutionRunID: the workflow to update.
//   - UpdateName: the update's name.
//   - Args: the update's arguments, not yet encoded.
//   - WaitForStage: the stage the call waits for (accepted, completed).
type ClientUpdateWorkflowInput = clientapi.ClientUpdateWorkflowInput

// ClientUpdateWithStartWorkflowInput is the input of
// ClientOutboundInterceptor.UpdateWithStartWorkflow.
//
//   - UpdateOptions: the update, its UpdateID already made when the caller
//     left it empty.
//   - StartWorkflowOperation: the workflow to start if it is not running
//     (client.Client.NewWithStartWorkflowOperation).
type ClientUpdateWithStartWorkflowInput = clientapi.ClientUpdateWithStartWorkflowInput

// ClientGetWorkflowRunInput is the input of
// ClientOutboundInterceptor.GetWorkflowRun.
//
//   - WorkflowID, RunID: the workflow of the handle (RunID empty: the run
//     current when the handle is first used).
type ClientGetWorkflowRunInput = clientapi.ClientGetWorkflowRunInput

// ClientGetWorkflowResultInput is the input of
// ClientOutboundInterceptor.GetWorkflowResult. Pass it on, or a copy: it
// carries the handle whose Get made the call.
//
//   - WorkflowID, RunID: the handle's workflow and the run its Get starts
//     from (RunID empty: the current run). Changing them redirects this
//     wait, not the handle.
//   - Options: whether to follow the runs that carry the workflow on.
type ClientGetWorkflowResultInput = clientapi.ClientGetWorkflowResultInput

// ClientGetWorkflowResultOutput is the result of
// ClientOutboundInterceptor.GetWorkflowResult.
//
//   - Result: the workflow's result, nil when it completed without one.
//   - Error: why the workflow did not complete.
type ClientGetWorkflowResultOutput = clientapi.ClientGetWorkflowResultOutput

// ClientGetWorkflowHistoryInput is the input of
// ClientOutboundInterceptor.GetWorkflowHistory.
//
//   - WorkflowID, RunID: the run to read (RunID empty: the current one).
//   - IsLongPoll: wait for new events at the end of the history.
//   - FilterType: all events, or the close event only.
type ClientGetWorkflowHistoryInput = clientapi.ClientGetWorkflowHistoryInput

// ClientGetWorkflowHistoryOutput is the result of
// ClientOutboundInterceptor.GetWorkflowHistory.
//
//   - Iterator: reads the history as it is iterated.
type ClientGetWorkflowHistoryOutput = clientapi.ClientGetWorkflowHistoryOutput
