// Package sdkmetrics names the metrics the SDK itself emits, their tags and
// the tag values, as Temporal's "SDK metrics" reference documents them and
// as go.temporal.io/sdk emits them, so that existing dashboards and alerts
// work unchanged. Every emitter (the client's gRPC layer now, the worker
// runtime later) takes its names from here.
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
