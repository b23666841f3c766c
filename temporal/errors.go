package temporal

import (
	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/internal/failure"
)

type (
	// ApplicationError is an error raised by workflow or activity code, with
	// a type, a retryability flag and optional details. Other Go errors
	// become ApplicationErrors typed by their Go type name.
	ApplicationError = failure.ApplicationError

	// ApplicationErrorOptions are the optional attributes of an
	// ApplicationError, for NewApplicationErrorWithOptions.
	ApplicationErrorOptions = failure.ApplicationErrorOptions

	// ApplicationErrorCategory classifies an application error for logging
	// and metrics.
	ApplicationErrorCategory = failure.ApplicationErrorCategory

	// CanceledError reports that an operation was canceled.
	CanceledError = failure.CanceledError

	// CanceledErrorOptions are the attributes of a CanceledError, for
	// NewCanceledErrorWithOptions.
	CanceledErrorOptions = failure.CanceledErrorOptions

	// TimeoutError reports that an activity, child workflow or workflow ran
	// out of time; TimeoutType says which timeout fired.
	TimeoutError = failure.TimeoutError

	// TerminatedError reports that a workflow was terminated.
	TerminatedError = failure.TerminatedError

	// PanicError reports a panic in activity code, with its stack trace.
	PanicError = failure.PanicError

	// ServerError is an error reported by the Temporal server.
	ServerError = failure.ServerError

	// ActivityError is what a workflow receives when an activity fails; its
	// cause is the activity's error.
	ActivityError = failure.ActivityError

	// ChildWorkflowExecutionError is what a workflow receives when a child
	// workflow fails; its cause is the child's error.
	ChildWorkflowExecutionError = failure.ChildWorkflowExecutionError

	// ChildWorkflowExecutionAlreadyStartedError is the cause of a
	// ChildWorkflowExecutionError when the child's workflow ID is in use.
	ChildWorkflowExecutionAlreadyStartedError = failure.ChildWorkflowExecutionAlreadyStartedError

	// WorkflowExecutionError is what a client receives when a workflow
	// fails; its cause is the workflow's error.
	WorkflowExecutionError = failure.WorkflowExecutionError

	// UnknownExternalWorkflowExecutionError reports that the workflow to
	// signal or cancel does not exist.
	UnknownExternalWorkflowExecutionError = failure.UnknownExternalWorkflowExecutionError

	// NamespaceNotFoundError is the cause of a failure due to an unknown
	// namespace.
	NamespaceNotFoundError = failure.NamespaceNotFoundError

	// QueryRejectedError reports that a query was rejected because of the
	// workflow's status.
	QueryRejectedError = failure.QueryRejectedError
)

const (
	// ApplicationErrorCategoryUnspecified is an ordinary error.
	ApplicationErrorCategoryUnspecified = failure.ApplicationErrorCategoryUnspecified
	// ApplicationErrorCategoryBenign is an error expected in normal
	// operation: logged at a lower level and not counted as a failure.
	ApplicationErrorCategoryBenign = failure.ApplicationErrorCategoryBenign
)

// ErrNoData is returned by Details and similar methods when there is
// nothing to decode.
var ErrNoData = failure.ErrNoData

// NewApplicationError returns a retryable ApplicationError with a message, a
// type (which retry policies can list as non-retryable) and details.
func NewApplicationError(message, errType string, details ...any) error {
	return failure.NewApplicationError(message, errType, details...)
}

// NewApplicationErrorWithCause is NewApplicationError with a cause.
func NewApplicationErrorWithCause(message, errType string, cause error, details ...any) error {
	return failure.NewApplicationErrorWithCause(message, errType, cause, details...)
}

// NewNonRetryableApplicationError returns an ApplicationError that is never
// retried, whatever the retry policy.
func NewNonRetryableApplicationError(message, errType string, cause error, details ...any) error {
	return failure.NewNonRetryableApplicationError(message, errType, cause, details...)
}

// NewApplicationErrorWithOptions returns an ApplicationError with all its
// optional attributes given in options.
func NewApplicationErrorWithOptions(message, errType string, options ApplicationErrorOptions) error {
	return failure.NewApplicationErrorWithOptions(message, errType, options)
}

// NewCanceledError returns a CanceledError with details. Return it from an
// activity to report that it honoured a cancellation request.
func NewCanceledError(details ...any) error {
	return failure.NewCanceledError(details...)
}

// NewCanceledErrorWithOptions returns a CanceledError with a message, details
// and cause.
func NewCanceledErrorWithOptions(options CanceledErrorOptions) error {
	return failure.NewCanceledErrorWithOptions(options)
}

// NewTimeoutError returns a TimeoutError of the given type, wrapping the
// last attempt's error. It is meant for tests that mock activities.
func NewTimeoutError(timeoutType enumspb.TimeoutType, lastErr error, details ...any) error {
	return failure.NewTimeoutError("Test timeout", timeoutType, lastErr, details...)
}

// NewHeartbeatTimeoutError returns a heartbeat TimeoutError with the given
// last heartbeat details. It is meant for tests that mock activities.
func NewHeartbeatTimeoutError(details ...any) error {
	return failure.NewHeartbeatTimeoutError(details...)
}

// IsApplicationError reports whether err is or wraps an ApplicationError.
func IsApplicationError(err error) bool { return failure.IsApplicationError(err) }

// IsCanceledError reports whether err is or wraps a CanceledError.
func IsCanceledError(err error) bool { return failure.IsCanceledError(err) }

// IsTimeoutError reports whether err is or wraps a TimeoutError.
func IsTimeoutError(err error) bool { return failure.IsTimeoutError(err) }

// IsTerminatedError reports whether err is or wraps a TerminatedError.
func IsTerminatedError(err error) bool { return failure.IsTerminatedError(err) }

// IsPanicError reports whether err is or wraps a PanicError.
func IsPanicError(err error) bool { return failure.IsPanicError(err) }

// IsWorkflowExecutionAlreadyStartedError reports whether err says a workflow
// with the same ID is already running, when starting a workflow or a child.
func IsWorkflowExecutionAlreadyStartedError(err error) bool {
	return failure.IsWorkflowExecutionAlreadyStartedError(err)
}
