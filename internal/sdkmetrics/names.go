// Package sdkmetrics names the metrics the SDK itself emits, their tags and
// the tag values, as Temporal's "SDK metrics" reference documents them and
// as go.temporal.io/sdk emits them, so that existing dashboards and alerts
// work unchanged, and declares the Handler they are emitted through. Every
// emitter (the client's gRPC layer, the worker runtime, the activity
// executor) takes its names from here.
package sdkmetrics

import (
	"strconv"

	"google.golang.org/grpc/codes"
)

// Prefix starts the name of every SDK metric.
const Prefix = "temporal_"

// Request metrics of the client's gRPC calls. Long polls (task queue polls,
// history reads that wait for new events, update waits) are counted apart
// from ordinary requests, because their latency is the server's wait, not
// a sign of trouble.
const (
	// Request counts calls, once per call whatever its retries.
	Request = Prefix + "request"
	// RequestFailure counts calls that ended in an error.
	RequestFailure = Request + "_failure"
	// RequestLatency times calls, retries included.
	RequestLatency = Request + "_latency"
	// RequestResourceExhausted counts calls that failed with
	// RESOURCE_EXHAUSTED, tagged with the server's cause.
	RequestResourceExhausted = Request + "_resource_exhausted"

	// LongRequest, LongRequestFailure, LongRequestLatency and
	// LongRequestResourceExhausted are the same for long polls.
	LongRequest                  = Prefix + "long_request"
	LongRequestFailure           = LongRequest + "_failure"
	LongRequestLatency           = LongRequest + "_latency"
	LongRequestResourceExhausted = LongRequest + "_resource_exhausted"

	// AttemptSuffix ends the names of the same metrics counted per
	// attempt, each retry included (temporal_request_attempt, ...).
	AttemptSuffix = "_attempt"
)

// Worker metrics. Timers are histograms in seconds once a contrib handler
// exports them; counters count, gauges hold the latest value.
const (
	// WorkerStart counts worker starts, tagged with worker_type.
	WorkerStart = Prefix + "worker_start"
	// PollerStart counts poller goroutines started, tagged with worker_type.
	PollerStart = Prefix + "poller_start"
	// NumPollers is the number of polls in flight, tagged with poller_type.
	NumPollers = Prefix + "num_pollers"
	// WorkerTaskSlotsAvailable and WorkerTaskSlotsUsed are the task slots
	// free and holding a task, tagged with worker_type.
	WorkerTaskSlotsAvailable = Prefix + "worker_task_slots_available"
	WorkerTaskSlotsUsed      = Prefix + "worker_task_slots_used"

	// WorkflowTaskQueuePollEmpty counts workflow task polls that timed out
	// without a task; WorkflowTaskQueuePollSucceed those that brought one
	// (tagged with its workflow_type).
	WorkflowTaskQueuePollEmpty   = Prefix + "workflow_task_queue_poll_empty"
	WorkflowTaskQueuePollSucceed = Prefix + "workflow_task_queue_poll_succeed"
	// WorkflowTaskScheduleToStartLatency is the time a workflow task waited
	// in its queue.
	WorkflowTaskScheduleToStartLatency = Prefix + "workflow_task_schedule_to_start_latency"
	// WorkflowTaskExecutionLatency is the time from receiving a workflow
	// task to answering it.
	WorkflowTaskExecutionLatency = Prefix + "workflow_task_execution_latency"
	// WorkflowTaskReplayLatency is the part of a workflow task spent
	// replaying history already processed.
	WorkflowTaskReplayLatency = Prefix + "workflow_task_replay_latency"
	// WorkflowTaskExecutionFailed counts failed workflow tasks, tagged with
	// failure_reason.
	WorkflowTaskExecutionFailed = Prefix + "workflow_task_execution_failed"

	// WorkflowCompleted, WorkflowFailed, WorkflowCanceled and
	// WorkflowContinueAsNew count workflows closed by this worker, once the
	// server accepted the closing command; a failure with a benign
	// application error is not counted as failed.
	WorkflowCompleted     = Prefix + "workflow_completed"
	WorkflowFailed        = Prefix + "workflow_failed"
	WorkflowCanceled      = Prefix + "workflow_canceled"
	WorkflowContinueAsNew = Prefix + "workflow_continue_as_new"
	// WorkflowEndToEndLatency is the time from a run's start to its close.
	WorkflowEndToEndLatency = Prefix + "workflow_endtoend_latency"

	// StickyCacheHit counts workflow tasks that continued a cached run;
	// StickyCacheMiss those that held only new events but found no run
	// cached, and replayed the whole history.
	StickyCacheHit  = Prefix + "sticky_cache_hit"
	StickyCacheMiss = Prefix + "sticky_cache_miss"
	// StickyCacheTotalForcedEviction counts runs dropped from the cache
	// while still open and healthy: to make room, or because their state
	// fell behind history. Closed runs, failed tasks and
	// PurgeStickyWorkflowCache do not count.
	StickyCacheTotalForcedEviction = Prefix + "sticky_cache_total_forced_eviction"
	// StickyCacheSize is the number of runs cached.
	StickyCacheSize = Prefix + "sticky_cache_size"

	// ActivityPollNoTask counts activity polls that timed out without a task.
	ActivityPollNoTask = Prefix + "activity_poll_no_task"
	// ActivityScheduleToStartLatency is the time an activity attempt waited
	// in its queue.
	ActivityScheduleToStartLatency = Prefix + "activity_schedule_to_start_latency"
	// ActivityExecutionLatency is the time an attempt's code ran.
	ActivityExecutionLatency = Prefix + "activity_execution_latency"
	// ActivityExecutionFailed counts failed attempts, tagged with
	// failure_reason; benign application errors are not counted.
	ActivityExecutionFailed = Prefix + "activity_execution_failed"
	// ActivitySucceedEndToEndLatency is the time from an activity's first
	// scheduling to its successful completion, retries included.
	ActivitySucceedEndToEndLatency = Prefix + "activity_succeed_endtoend_latency"
	// UnregisteredActivityInvocation counts tasks of activity types the
	// worker does not have.
	UnregisteredActivityInvocation = Prefix + "unregistered_activity_invocation"
	// ActivityTaskError counts activity attempts that panicked.
	ActivityTaskError = Prefix + "activity_task_error"
)

// Worker metrics of features this SDK does not have yet. They are emitted
// with these names once the features land: local activities (their
// executor and the workflow task that waits for them), Nexus operations
// (their poller and handler), and the dropping of undecodable signals
// (this SDK fails the workflow task on a signal it cannot decode).
const (
	LocalActivityTotal                  = Prefix + "local_activity_total"
	LocalActivityExecutionCanceled      = Prefix + "local_activity_execution_cancelled"
	LocalActivityExecutionFailed        = Prefix + "local_activity_execution_failed"
	LocalActivityError                  = Prefix + "local_activity_error"
	LocalActivityExecutionLatency       = Prefix + "local_activity_execution_latency"
	LocalActivitySucceedEndToEndLatency = Prefix + "local_activity_succeed_endtoend_latency"

	NexusPollNoTask                 = Prefix + "nexus_poll_no_task"
	NexusTaskScheduleToStartLatency = Prefix + "nexus_task_schedule_to_start_latency"
	NexusTaskExecutionFailed        = Prefix + "nexus_task_execution_failed"
	NexusTaskExecutionLatency       = Prefix + "nexus_task_execution_latency"
	NexusTaskEndToEndLatency        = Prefix + "nexus_task_endtoend_latency"

	CorruptedSignals = Prefix + "corrupted_signals"
)

// Tag names.
const (
	TagNamespace     = "namespace"
	TagClientName    = "client_name"
	TagWorkerType    = "worker_type"
	TagWorkflowType  = "workflow_type"
	TagActivityType  = "activity_type"
	TagTaskQueue     = "task_queue"
	TagOperation     = "operation"
	TagStatusCode    = "status_code"
	TagCause         = "cause"
	TagPollerType    = "poller_type"
	TagFailureReason = "failure_reason"
)

// Tag values.
const (
	// ValueNone stands for a tag that does not apply to a metric.
	ValueNone = "none"
	// ValueClientName is the client_name of Go SDKs.
	ValueClientName = "temporal_go"
	// ValueUnknownNamespace is the namespace of a request that names none.
	ValueUnknownNamespace = "_unknown_"

	// Values of worker_type.
	WorkerTypeWorkflow      = "WorkflowWorker"
	WorkerTypeActivity      = "ActivityWorker"
	WorkerTypeLocalActivity = "LocalActivityWorker"
	WorkerTypeNexus         = "NexusWorker"

	// Values of poller_type.
	PollerTypeWorkflowTask       = "workflow_task"
	PollerTypeWorkflowStickyTask = "workflow_sticky_task"
	PollerTypeActivityTask       = "activity_task"
	PollerTypeNexusTask          = "nexus_task"

	// Values of failure_reason, the same in every SDK.
	FailureReasonWorkflowError       = "WorkflowError"
	FailureReasonActivityError       = "ActivityError"
	FailureReasonNonDeterminismError = "NonDeterminismError"
	FailureReasonPayloadsTooLarge    = "PayloadsTooLarge"
)

// RootTags are the tags every SDK metric starts with: the namespace and
// client name, and "none" for the tags that a metric narrows down later.
func RootTags(namespace string) map[string]string {
	return map[string]string{
		TagNamespace:    namespace,
		TagClientName:   ValueClientName,
		TagWorkerType:   ValueNone,
		TagWorkflowType: ValueNone,
		TagActivityType: ValueNone,
		TagTaskQueue:    ValueNone,
	}
}

// StatusCodeName is the status_code tag of a failed request: the gRPC
// status code in the UPPER_SNAKE_CASE of the gRPC specification, which
// every Temporal SDK uses (grpc-go's String gives CamelCase instead).
func StatusCodeName(c codes.Code) string {
	if int(c) < len(statusCodeNames) {
		return statusCodeNames[c]
	}
	return "CODE(" + strconv.FormatUint(uint64(c), 10) + ")"
}

var statusCodeNames = [...]string{
	codes.OK:                 "OK",
	codes.Canceled:           "CANCELLED",
	codes.Unknown:            "UNKNOWN",
	codes.InvalidArgument:    "INVALID_ARGUMENT",
	codes.DeadlineExceeded:   "DEADLINE_EXCEEDED",
	codes.NotFound:           "NOT_FOUND",
	codes.AlreadyExists:      "ALREADY_EXISTS",
	codes.PermissionDenied:   "PERMISSION_DENIED",
	codes.ResourceExhausted:  "RESOURCE_EXHAUSTED",
	codes.FailedPrecondition: "FAILED_PRECONDITION",
	codes.Aborted:            "ABORTED",
	codes.OutOfRange:         "OUT_OF_RANGE",
	codes.Unimplemented:      "UNIMPLEMENTED",
	codes.Internal:           "INTERNAL",
	codes.Unavailable:        "UNAVAILABLE",
	codes.DataLoss:           "DATA_LOSS",
	codes.Unauthenticated:    "UNAUTHENTICATED",
}
