package internal

import (
	"cmp"
	"time"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/internal/binarychecksum"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/policy"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/log"
)

// WorkflowInfo describes the running workflow (workflow.Info).
type WorkflowInfo struct {
	WorkflowExecution        clientapi.WorkflowExecution
	OriginalRunID            string
	FirstRunID               string
	WorkflowType             clientapi.WorkflowType
	TaskQueueName            string
	WorkflowExecutionTimeout time.Duration
	WorkflowRunTimeout       time.Duration
	WorkflowTaskTimeout      time.Duration
	Namespace                string
	Attempt                  int32
	WorkflowStartTime        time.Time
	CronSchedule             string
	ContinuedExecutionRunID  string
	ParentWorkflowNamespace  string
	ParentWorkflowExecution  *clientapi.WorkflowExecution
	RootWorkflowExecution    *clientapi.WorkflowExecution
	Memo                     *commonpb.Memo
	SearchAttributes         *commonpb.SearchAttributes
	RetryPolicy              *policy.RetryPolicy
	Priority                 policy.Priority
	BinaryChecksum           string

	currentHistoryLength int
	// workerBuildID is the build ID of the worker that runs the run
	// (GetCurrentBuildID).
	workerBuildID string
	// taskStarted is what the current workflow task's WorkflowTaskStarted
	// says: the server's suggestions and the history's size.
	taskStarted *engine.TaskStarted
}

// ContinueAsNewSuggestedReason says why the server suggests continuing as
// new (workflow.ContinueAsNewSuggestedReason); the values are the API's.
type ContinueAsNewSuggestedReason int

// The reasons the server gives.
const (
	ContinueAsNewSuggestedReasonUnspecified          = iota
	ContinueAsNewSuggestedReasonHistorySizeTooLarge  = 1
	ContinueAsNewSuggestedReasonTooManyHistoryEvents = 2
	ContinueAsNewSuggestedReasonTooManyUpdates       = 3
)

// GetContinueAsNewSuggested reports whether the server suggests that the
// workflow continue as new (its history grows large), as of the current
// workflow task.
func (i *WorkflowInfo) GetContinueAsNewSuggested() bool {
	return i.taskStarted != nil && i.taskStarted.SuggestContinueAsNew
}

// GetContinueAsNewSuggestedReasons says why the server suggests continuing
// as new.
func (i *WorkflowInfo) GetContinueAsNewSuggestedReasons() []ContinueAsNewSuggestedReason {
	var reasons []ContinueAsNewSuggestedReason
	if i.taskStarted == nil {
		return nil
	}
	for _, r := range i.taskStarted.SuggestContinueAsNewReasons {
		reasons = append(reasons, ContinueAsNewSuggestedReason(r))
	}
	return reasons
}

// GetCurrentHistorySize returns the size of the history in bytes as of the
// current workflow task.
func (i *WorkflowInfo) GetCurrentHistorySize() int {
	if i.taskStarted == nil {
		return 0
	}
	return int(i.taskStarted.HistorySizeBytes)
}

// GetTargetWorkerDeploymentVersionChanged reports whether the server says
// the workflow's target worker deployment version changed.
func (i *WorkflowInfo) GetTargetWorkerDeploymentVersionChanged() bool {
	return i.taskStarted != nil && i.taskStarted.TargetWorkerDeploymentVersionChanged
}

// GetBinaryChecksum returns the binary checksum that the worker which
// completed the current workflow task recorded or, when it recorded none
// (a live task, or a server with build-ID versioning, which is sent none),
// this process's (see worker.SetBinaryChecksum).
func (i *WorkflowInfo) GetBinaryChecksum() string {
	if i.BinaryChecksum == "" {
		return binarychecksum.Get()
	}
	return i.BinaryChecksum
}

// GetCurrentBuildID returns the build ID of the worker that ran the
// current workflow task, as go.temporal.io/sdk reports it: when the task
// is replayed, the one the history recorded as the task before it
// completed; in a live task, this worker's (its deployment version's, its
// BuildID, or the binary checksum), unless the worker replayed the run's
// earlier tasks first (it had not cached the run), in which case the last
// replayed task's. "" in the replayer's and the test environment's live
// tasks without replay.
func (i *WorkflowInfo) GetCurrentBuildID() string {
	if i.taskStarted != nil && i.taskStarted.BuildIDRecorded {
		return i.taskStarted.RecordedBuildID
	}
	return i.workerBuildID
}

// GetCurrentHistoryLength returns the number of events in history as of
// the current workflow task.
func (i *WorkflowInfo) GetCurrentHistoryLength() int { return i.currentHistoryLength }

func executionOf(e *commonpb.WorkflowExecution) *clientapi.WorkflowExecution {
	if e == nil {
		return nil
	}
	return &clientapi.WorkflowExecution{ID: e.GetWorkflowId(), RunID: e.GetRunId()}
}

// GetInfo returns information about the running workflow.
func GetInfo(ctx Context) *WorkflowInfo { return runOf(ctx).outbound.GetInfo(ctx) }

// workflowInfo is GetInfo at the end of the interceptor chain.
func (r *workflowRun) workflowInfo() *WorkflowInfo {
	r.info.currentHistoryLength = int(r.exec.LastStartedEventID())
	r.info.taskStarted = &r.exec.Info().TaskStarted
	r.info.BinaryChecksum = cmp.Or(r.info.taskStarted.RecordedBinaryChecksum, r.config.binaryChecksum)
	r.info.workerBuildID = r.config.buildID
	return r.info
}

// GetLogger returns a logger that adds the workflow's identity to every
// message and stays silent while the workflow replays history (unless the
// worker enables logging in replay).
func GetLogger(ctx Context) log.Logger { return runOf(ctx).outbound.GetLogger(ctx) }

// GetMetricsHandler returns the metrics handler of the worker's client,
// tagged with the workflow's identity; it records nothing while the
// workflow replays history.
func GetMetricsHandler(ctx Context) sdkmetrics.Handler {
	return runOf(ctx).outbound.GetMetricsHandler(ctx)
}

// IsReplaying reports whether the workflow code is re-running a workflow
// task that history already recorded. Use it only to skip side effects
// such as logging or metrics, never to change what the workflow does.
func IsReplaying(ctx Context) bool { return runOf(ctx).outbound.IsReplaying(ctx) }

// Now returns the workflow's current time: the time its current workflow
// task started. It is the same on every replay; use it instead of
// time.Now.
func Now(ctx Context) time.Time { return runOf(ctx).outbound.Now(ctx) }
