package workflow

import (
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/log"
	"github.com/durable-go/sdk/temporal"
)

// Info describes the running workflow, as GetInfo returns it.
//
//   - WorkflowExecution: the workflow ID and this run's run ID.
//   - OriginalRunID: the run ID this run started with; a reset run keeps
//     the original run's, while WorkflowExecution.RunID is its own.
//   - FirstRunID: the run ID of the first run in the chain of runs that
//     continue one another (continue-as-new, retries, cron).
//   - WorkflowType: the registered name the workflow runs as.
//   - TaskQueueName: the task queue of the run's workflow tasks.
//   - WorkflowExecutionTimeout, WorkflowRunTimeout, WorkflowTaskTimeout:
//     the timeouts the run started with, zero when unlimited.
//   - Namespace: the namespace of the run.
//   - Attempt: 1 for the first attempt, counting up each time the
//     workflow's RetryPolicy retries it.
//   - WorkflowStartTime: when this run started.
//   - CronSchedule: the cron schedule the workflow was started with, or "".
//   - ContinuedExecutionRunID: the run this one continues (by
//     continue-as-new, retry or cron), or "".
//   - ParentWorkflowNamespace, ParentWorkflowExecution: the parent of a
//     child workflow; ParentWorkflowExecution is nil for a workflow
//     without a parent.
//   - RootWorkflowExecution: the top of the tree of parents, or nil.
//   - Memo: the memo the run started with, encoded; GetInfo does not
//     follow UpsertMemo.
//   - SearchAttributes: the search attributes the run started with,
//     encoded; prefer GetTypedSearchAttributes, which also follows
//     upserts.
//   - RetryPolicy: the workflow's retry policy, or nil.
//   - Priority: the priority the run started with.
//   - BinaryChecksum: deprecated; see GetBinaryChecksum.
//
// Its methods answer as of the current workflow task:
// GetCurrentHistoryLength and GetCurrentHistorySize give the history's
// length in events and size in bytes; GetContinueAsNewSuggested reports
// whether the server suggests continuing as new because history grew
// large, and GetContinueAsNewSuggestedReasons says why;
// GetTargetWorkerDeploymentVersionChanged reports whether the server says
// the workflow's target worker deployment version changed;
// GetBinaryChecksum returns the binary checksum recorded by the worker
// that completed the task, or this process's; GetCurrentBuildID returns
// the build ID of the worker that ran the task, as go.temporal.io/sdk
// reports it: this worker's (its deployment version's, its BuildID, or the
// binary checksum); while the task is replayed, the one history recorded
// as the task before it completed; and in a live task that follows
// replayed ones (the worker had not cached the run), the last replayed
// task's.
type Info = internal.WorkflowInfo

// Execution identifies a workflow run: its workflow ID (ID) and its run
// ID (RunID). An empty RunID, where one is asked for, means the latest run
// of the workflow ID.
type Execution = clientapi.WorkflowExecution

// Type is a workflow type: its Name is the name the workflow was
// registered under and is started by.
type Type = clientapi.WorkflowType

// GetInfo returns information about the running workflow: its IDs, type,
// task queue, timeouts, attempt, parent, and the size of its history.
func GetInfo(ctx Context) *Info { return internal.GetInfo(ctx) }

// GetLogger returns the workflow's logger: the worker's
// client.Options.Logger with the workflow's namespace, task queue, type,
// ID and run ID added to every entry. It writes nothing while the workflow
// replays history (unless worker.Options.EnableLoggingInReplay is set), so
// each message appears once however often the code replays.
func GetLogger(ctx Context) log.Logger { return internal.GetLogger(ctx) }

// GetMetricsHandler returns the worker client's metrics handler
// (client.Options.MetricsHandler), tagged with the workflow's type, task
// queue and namespace, for the workflow's own metrics. It records nothing
// while the workflow replays history, so each value counts once.
func GetMetricsHandler(ctx Context) client.MetricsHandler { return internal.GetMetricsHandler(ctx) }

// IsReplaying reports whether the workflow code is re-running, from
// history, a part that already ran. Use it only to skip what must happen
// once, such as logging or metrics of your own; never to change what the
// workflow does, which would break replay.
func IsReplaying(ctx Context) bool { return internal.IsReplaying(ctx) }

// SetCurrentDetails sets a description of what the workflow is doing now
// ("waiting for approval"), which the UI shows (through the workflow's
// metadata query); it may use Temporal's markdown. It is not recorded in
// history.
func SetCurrentDetails(ctx Context, details string) { internal.SetCurrentDetails(ctx, details) }

// GetCurrentDetails returns what SetCurrentDetails last set, or "".
func GetCurrentDetails(ctx Context) string { return internal.GetCurrentDetails(ctx) }

// UpsertSearchAttributes adds or replaces search attributes of the run,
// which visibility queries (client.Client.ListWorkflow) filter on; each
// attribute must be registered in the namespace. Values are sent as JSON;
// prefer UpsertTypedSearchAttributes, which also tells the server each
// attribute's type. It returns an error when attributes is empty or a
// value cannot be encoded.
//
// Deprecated: use UpsertTypedSearchAttributes.
func UpsertSearchAttributes(ctx Context, attributes map[string]any) error {
	return internal.UpsertSearchAttributes(ctx, attributes)
}

// UpsertTypedSearchAttributes adds, replaces or removes search attributes
// of the run. Make each update from a typed key:
//
//	var CustomerTier = temporal.NewSearchAttributeKeyKeyword("CustomerTier")
//	err := workflow.UpsertTypedSearchAttributes(ctx, CustomerTier.ValueSet("gold"))
//
// ValueUnset removes the attribute. It returns an error when there are no
// updates or a value cannot be encoded.
func UpsertTypedSearchAttributes(ctx Context, updates ...temporal.SearchAttributeUpdate) error {
	return internal.UpsertTypedSearchAttributes(ctx, updates...)
}

// GetTypedSearchAttributes returns the run's search attributes: those it
// started with, as changed by its upserts so far.
func GetTypedSearchAttributes(ctx Context) temporal.SearchAttributes {
	return internal.GetTypedSearchAttributes(ctx)
}

// UpsertMemo adds or replaces fields of the run's memo, data shown with
// the workflow (client.Client.DescribeWorkflowExecution) but not
// searchable; a nil value removes the field. It returns an error when memo
// is empty or a value cannot be encoded.
func UpsertMemo(ctx Context, memo map[string]any) error { return internal.UpsertMemo(ctx, memo) }

// UpsertMemoOptions configure UpsertMemoWithOptions.
//
//   - EventGroups: more event groups for the upsert's command, besides the
//     Context's (see WithEventGroups). Default: none.
type UpsertMemoOptions = internal.UpsertMemoOptions

// UpsertMemoWithOptions is UpsertMemo with options.
func UpsertMemoWithOptions(ctx Context, memo map[string]any, options UpsertMemoOptions) error {
	return internal.UpsertMemoWithOptions(ctx, memo, options)
}

// UpsertSearchAttributesOptions configure
// UpsertTypedSearchAttributesWithOptions.
//
//   - EventGroups: more event groups for the upsert's command, besides the
//     Context's (see WithEventGroups). Default: none.
type UpsertSearchAttributesOptions = internal.UpsertSearchAttributesOptions

// UpsertTypedSearchAttributesWithOptions is UpsertTypedSearchAttributes
// with options.
func UpsertTypedSearchAttributesWithOptions(ctx Context, options UpsertSearchAttributesOptions, updates ...temporal.SearchAttributeUpdate) error {
	return internal.UpsertTypedSearchAttributesWithOptions(ctx, options, updates...)
}

// ContinueAsNewSuggestedReason says why the server suggests that the
// workflow continue as new (Info.GetContinueAsNewSuggestedReasons).
//
// NOTE: Experimental
type ContinueAsNewSuggestedReason = internal.ContinueAsNewSuggestedReason

// The reasons the server gives for suggesting to continue as new.
const (
	// ContinueAsNewSuggestedReasonUnspecified: the server gave no reason.
	ContinueAsNewSuggestedReasonUnspecified = internal.ContinueAsNewSuggestedReasonUnspecified
	// ContinueAsNewSuggestedReasonHistorySizeTooLarge: the history nears
	// the namespace's size limit.
	ContinueAsNewSuggestedReasonHistorySizeTooLarge = internal.ContinueAsNewSuggestedReasonHistorySizeTooLarge
	// ContinueAsNewSuggestedReasonTooManyHistoryEvents: the history nears
	// the namespace's limit on events.
	ContinueAsNewSuggestedReasonTooManyHistoryEvents = internal.ContinueAsNewSuggestedReasonTooManyHistoryEvents
	// ContinueAsNewSuggestedReasonTooManyUpdates: the run nears the limit
	// on updates in one run.
	ContinueAsNewSuggestedReasonTooManyUpdates = internal.ContinueAsNewSuggestedReasonTooManyUpdates
)
