package client

import (
	"github.com/durable-go/sdk/internal/clientapi"
)

// StartWorkflowOptions configure a workflow that Client.ExecuteWorkflow
// (or SignalWithStartWorkflow, NewWithStartWorkflowOperation) starts.
// TaskQueue is required.
//
//   - ID: the workflow ID, which the workflow is signaled, queried and
//     found by. Choose a business ID ("order-42"): a running workflow's
//     ID is unique in its namespace. Default: a random UUID.
//   - TaskQueue: the task queue the workflow's workers poll. Required.
//   - WorkflowExecutionTimeout: the most time the workflow may take in
//     all, retries, cron runs and continue-as-new included. Default:
//     unlimited.
//   - WorkflowRunTimeout: the most time one run may take. Default:
//     WorkflowExecutionTimeout.
//   - WorkflowTaskTimeout: the most time a worker may take to process one
//     workflow task. Default: 10s.
//   - WorkflowIDConflictPolicy: what happens when a workflow with the ID
//     is running: fail (the default, which ExecuteWorkflow reports by
//     returning the running workflow's run, see the next option), use the
//     running one, or terminate it and start anew.
//   - WorkflowIDReusePolicy: whether the ID may be used again once a
//     workflow with it has closed. Default: allowed.
//   - WorkflowExecutionErrorWhenAlreadyStarted: make ExecuteWorkflow
//     return *serviceerror.WorkflowExecutionAlreadyStarted when the ID is
//     in use, rather than the running workflow's run.
//   - RetryPolicy: retry the workflow when it fails (see
//     temporal.RetryPolicy). Default (nil): no retries.
//   - CronSchedule: start a new run on a cron schedule ("*/5 * * * *");
//     schedules (Client.ScheduleClient) are usually the better choice.
//   - Memo: data stored and shown with the workflow, not searchable.
//   - SearchAttributes: untyped search attributes by name. Deprecated:
//     use TypedSearchAttributes.
//   - TypedSearchAttributes: the workflow's search attributes, to list
//     workflows by (temporal.NewSearchAttributes).
//   - EnableEagerStart: ask the server to hand the first workflow task
//     straight back to a worker of this client, if one polls the task
//     queue with a free slot, saving a round trip. Not for
//     SignalWithStartWorkflow.
//   - StartDelay: postpone the first workflow task by this much; a signal
//     sent with SignalWithStartWorkflow does not cut it short.
//   - StaticSummary: a one-line summary the UI shows.
//   - StaticDetails: a longer description the UI shows.
//   - Priority: the workflow's priority and fairness in its task queue.
//   - VersioningOverride: which worker deployment version runs the
//     workflow, whatever its code declares.
//
// For example:
//
//	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
//		ID:        "order-" + order.ID,
//		TaskQueue: "orders",
//	}, OrderWorkflow, order)
type StartWorkflowOptions = clientapi.StartWorkflowOptions

// WorkflowRun is a handle on a workflow run, as Client.ExecuteWorkflow and
// Client.GetWorkflow return it.
//
//   - GetID returns the workflow ID.
//   - GetRunID returns the run ID; after Get has followed the workflow to a
//     later run (continue-as-new, retry, cron), that run's.
//   - GetFirstExecutionRunID returns the run ID of the first run of the
//     chain, when the server told it; empty otherwise.
//   - Get(ctx, valuePtr) waits until the workflow closes, following it
//     through continue-as-new, retries and cron runs to its last run, and
//     decodes its result into valuePtr (nil discards it). A workflow that
//     did not complete gives a *temporal.WorkflowExecutionError whose
//     cause says why: the workflow's error, a *temporal.CanceledError, a
//     *temporal.TerminatedError or a *temporal.TimeoutError. ctx bounds
//     the wait, not the workflow.
//   - GetWithOptions is Get with WorkflowRunGetOptions.
type WorkflowRun = clientapi.WorkflowRun

// WorkflowRunGetOptions configure WorkflowRun.GetWithOptions.
//
//   - DisableFollowingRuns: report on this run only, even when it
//     continued as new or was retried.
type WorkflowRunGetOptions = clientapi.WorkflowRunGetOptions

// HistoryEventIterator iterates over the events of a workflow run's
// history (Client.GetWorkflowHistory):
//
//	for iter.HasNext() {
//		event, err := iter.Next()
//		if err != nil {
//			return err
//		}
//		...
//	}
//
// HasNext reports whether Next has an event or an error to return; it may
// block to fetch the next page (for a long poll, until new events come).
// Next returns the next event, or the error that ended the iteration.
type HistoryEventIterator = clientapi.HistoryEventIterator

// CancelWorkflowOptions are the arguments of
// Client.CancelWorkflowWithOptions.
//
//   - WorkflowID: the workflow to cancel. Required.
//   - RunID: the run. Default: the current run.
//   - FirstExecutionRunID: when set, the request fails unless the run's
//     chain started with this run.
//   - Reason: why, recorded in the workflow's history.
type CancelWorkflowOptions = clientapi.CancelWorkflowOptions

// TerminateWorkflowOptions are the arguments of
// Client.TerminateWorkflowWithOptions.
//
//   - WorkflowID: the workflow to terminate. Required.
//   - RunID: the run. Default: the current run.
//   - FirstExecutionRunID: when set, the request fails unless the run's
//     chain started with this run.
//   - Reason: why, recorded in the workflow's history.
//   - Details: values recorded with the termination.
type TerminateWorkflowOptions = clientapi.TerminateWorkflowOptions

// QueryWorkflowWithOptionsRequest is the request of
// Client.QueryWorkflowWithOptions.
//
//   - WorkflowID: the workflow to query. Required.
//   - RunID: the run. Default: the current run.
//   - QueryType: the query's name. Required.
//   - Args: the query's arguments.
//   - QueryRejectCondition: reject the query rather than run it when the
//     workflow is closed (NOT_OPEN) or did not complete successfully
//     (NOT_COMPLETED_CLEANLY). Default: never reject.
//   - Header: sent with the query, with what the client's context
//     propagators add.
type QueryWorkflowWithOptionsRequest = clientapi.QueryWorkflowWithOptionsRequest

// QueryWorkflowWithOptionsResponse is the answer of
// Client.QueryWorkflowWithOptions.
//
//   - QueryResult: the query handler's answer, to decode with Get; nil
//     when the query was rejected.
//   - QueryRejected: why the query was rejected, with the workflow's
//     status; nil when it was answered.
type QueryWorkflowWithOptionsResponse = clientapi.QueryWorkflowWithOptionsResponse

// WorkflowExecutionDescription is the answer of Client.DescribeWorkflow:
// the run's WorkflowExecutionMetadata (its fields are this type's), and
// decoders for what the metadata keeps encoded: GetMemoValue(key,
// valuePtr) decodes a memo field, GetStaticSummary and GetStaticDetails
// the workflow's UI summary and details. RawResponse is the server's
// answer it was read from, with what the metadata leaves out (pending
// activities and children, the execution config).
type WorkflowExecutionDescription = clientapi.WorkflowExecutionDescription

// WorkflowExecutionMetadata is what the server knows about a workflow run.
//
//   - WorkflowExecution: the workflow ID and run ID.
//   - WorkflowType: the workflow's type.
//   - TaskQueueName: the workflow's task queue.
//   - Status: whether the run is open, or how it closed.
//   - Memo: the run's memo, still encoded (see
//     WorkflowExecutionDescription.GetMemoValue).
//   - TypedSearchAttributes: the run's search attributes that carry their
//     type.
//   - ParentWorkflowExecution: the parent of a child workflow, or nil.
//   - RootWorkflowExecution: the top of the tree of parents, or nil.
//   - WorkflowStartTime: when the run started.
//   - WorkflowCloseTime: when the run closed; nil while it is open.
//   - ExecutionTime: when the run began (or will begin) executing: later
//     than its start with a start delay or a cron schedule.
//   - HistoryLength: the number of events in the run's history.
type WorkflowExecutionMetadata = clientapi.WorkflowExecutionMetadata
