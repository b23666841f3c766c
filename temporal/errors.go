package temporal

import (
	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/internal/failure"
)

// ApplicationError is an error of the application's own: one that
// workflow or activity code returned. Any other Go error that an activity
// or a workflow returns reaches the caller as an ApplicationError whose
// Type is the error's Go type name ("MyError"), so return one of these
// (NewApplicationError, NewNonRetryableApplicationError, ...) to choose the
// type, mark the error non-retryable, or attach details.
//
// Its methods: Message returns the message alone (Error adds the type and
// cause); Type returns the error type, which RetryPolicy's
// NonRetryableErrorTypes matches; NonRetryable reports whether the error
// stops retries whatever the policy; HasDetails and Details(&v, ...)
// report and decode the attached details (ErrNoData when there are none);
// NextRetryDelay returns the delay before the next attempt the error
// asked for (zero: the policy decides); Category returns its
// ApplicationErrorCategory; Unwrap returns its cause.
type ApplicationError = failure.ApplicationError

// ApplicationErrorOptions are the optional attributes of an
// ApplicationError, for NewApplicationErrorWithOptions.
//
//   - NonRetryable: never retry the failed activity or workflow, whatever
//     its RetryPolicy says.
//   - Cause: the error that led to this one; it crosses the wire too.
//   - Details: values the error's handler can decode with Details.
//   - NextRetryDelay: the delay before the next attempt, in place of the
//     retry policy's; zero keeps the policy's. Servers older than 1.24.2
//     ignore it.
//   - Category: how the error is logged and counted (see
//     ApplicationErrorCategoryBenign).
type ApplicationErrorOptions = failure.ApplicationErrorOptions

// ApplicationErrorCategory classifies an application error for logging
// and metrics.
type ApplicationErrorCategory = failure.ApplicationErrorCategory

// CanceledError reports that an operation was canceled: an activity, a
// child workflow, a timer, or the workflow itself. Return one from an
// activity (NewCanceledError, or the activity context's error) to report
// that it stopped because of a cancellation request.
//
// Its methods: HasDetails and Details(&v, ...) report and decode the
// details it carries (ErrNoData when there are none); Unwrap returns its
// cause.
type CanceledError = failure.CanceledError

// CanceledErrorOptions are the attributes of a CanceledError, for
// NewCanceledErrorWithOptions.
//
//   - Message: the error's message. Default: "canceled".
//   - Details: values the error's handler can decode with Details.
//   - Cause: the error that led to the cancellation.
type CanceledErrorOptions = failure.CanceledErrorOptions

// TimeoutError reports that an activity, child workflow or workflow ran
// out of time. TimeoutType says which timeout fired (start-to-close,
// schedule-to-start, schedule-to-close, heartbeat); Message returns the
// message alone; Unwrap returns the cause, such as the failure of the last
// attempt before the time ran out. For a heartbeat timeout,
// HasLastHeartbeatDetails and LastHeartbeatDetails(&v, ...) report and
// decode the details of the activity's last heartbeat, to resume from.
type TimeoutError = failure.TimeoutError

// TerminatedError reports that a workflow was terminated
// (client.Client.TerminateWorkflow, or by the server), without a chance
// to run any more code.
type TerminatedError = failure.TerminatedError

// PanicError reports a panic in activity code, which the worker caught
// and turned into a retryable failure. Error returns the panic's value;
// StackTrace returns where it happened.
type PanicError = failure.PanicError

// ServerError is an error that the Temporal server reported in a failure.
// Message returns the message alone; Unwrap returns its cause.
type ServerError = failure.ServerError

// ActivityError is what a workflow receives from an activity that failed
// for good: Unwrap (or errors.As) gives its cause, an *ApplicationError,
// *TimeoutError, *CanceledError or *PanicError.
//
// Its methods say which activity it was: ActivityType, ActivityID,
// ScheduledEventID and StartedEventID (the history events of its
// scheduling and last start), Identity (the worker of the last attempt),
// and RetryState (why it is not retried any more: attempts exhausted, a
// non-retryable error, a timeout, ...).
type ActivityError = failure.ActivityError

// ChildWorkflowExecutionError is what a workflow receives from a child
// workflow that failed, timed out, was canceled or terminated: Unwrap (or
// errors.As) gives its cause.
//
// Its methods say which child it was: Namespace, WorkflowID, RunID,
// WorkflowType, InitiatedEventID and StartedEventID (the history events of
// its start), and RetryState (why it is not retried any more).
type ChildWorkflowExecutionError = failure.ChildWorkflowExecutionError

// NexusOperationError is what a workflow receives from a Nexus operation
// that failed, was canceled or timed out: Cause (and Unwrap, errors.As)
// says why: an ApplicationError (the handler's failure), a CanceledError,
// a TimeoutError, or a *nexus.HandlerError when the handler refused the
// request. Its fields say which operation it was: Endpoint, Service,
// Operation, OperationToken (empty if it never started asynchronously)
// and ScheduledEventID (its NexusOperationScheduled event); Message is its
// own message, and Failure the failure it was decoded from.
type NexusOperationError = failure.NexusOperationError

// ChildWorkflowExecutionAlreadyStartedError is the error of a child
// workflow that could not start because an open workflow has its workflow
// ID (ChildWorkflowOptions.WorkflowID).
type ChildWorkflowExecutionAlreadyStartedError = failure.ChildWorkflowExecutionAlreadyStartedError

// WorkflowExecutionError is what a client receives from a workflow that
// failed, timed out, was canceled or terminated (client.WorkflowRun.Get):
// its message names the run, and Unwrap (or errors.As) gives its cause,
// such as the *ApplicationError the workflow returned.
type WorkflowExecutionError = failure.WorkflowExecutionError

// UnknownExternalWorkflowExecutionError reports that the workflow to
// signal or cancel (workflow.SignalExternalWorkflow,
// workflow.RequestCancelExternalWorkflow) does not exist or is closed.
type UnknownExternalWorkflowExecutionError = failure.UnknownExternalWorkflowExecutionError

// NamespaceNotFoundError is the cause of a failure due to an unknown
// namespace, such as a child workflow's.
type NamespaceNotFoundError = failure.NamespaceNotFoundError

// InvalidVersioningOverrideError is the cause of a child workflow's
// failure to start when the server refused its versioning override
// (workflow.ChildWorkflowOptions.VersioningOverride).
type InvalidVersioningOverrideError = failure.InvalidVersioningOverrideError

// QueryRejectedError reports that a query was rejected because of the
// workflow's status (client.QueryWorkflowWithOptionsRequest's
// QueryRejectCondition). QueryRejected returns the server's answer, with
// the workflow's status.
type QueryRejectedError = failure.QueryRejectedError

const (
	// ApplicationErrorCategoryUnspecified is an ordinary error, the
	// default.
	ApplicationErrorCategoryUnspecified = failure.ApplicationErrorCategoryUnspecified
	// ApplicationErrorCategoryBenign is an error expected in normal
	// operation (a poll that finds nothing yet, say): logged at a lower
	// level and not counted as a failure in metrics.
	ApplicationErrorCategoryBenign = failure.ApplicationErrorCategoryBenign
)

// ErrNoData is returned by Details and similar methods when there is
// nothing to decode.
var ErrNoData = failure.ErrNoData

// NewApplicationError returns a retryable *ApplicationError with a message,
// a type, which RetryPolicy.NonRetryableErrorTypes can list, and details
// that the error's handler can decode (ApplicationError.Details):
//
//	return temporal.NewApplicationError("card declined", "CardDeclined", declineCode)
func NewApplicationError(message, errType string, details ...any) error {
	return failure.NewApplicationError(message, errType, details...)
}

// NewApplicationErrorWithCause is NewApplicationError with a cause, which
// crosses the wire with the error (errors.Unwrap finds it at the other
// end).
func NewApplicationErrorWithCause(message, errType string, cause error, details ...any) error {
	return failure.NewApplicationErrorWithCause(message, errType, cause, details...)
}

// NewNonRetryableApplicationError returns an *ApplicationError that is
// never retried, whatever the retry policy: the failure is final, for
// errors that another attempt cannot fix (invalid input, say). cause may
// be nil.
func NewNonRetryableApplicationError(message, errType string, cause error, details ...any) error {
	return failure.NewNonRetryableApplicationError(message, errType, cause, details...)
}

// NewPayloadValidationError returns the non-retryable *ApplicationError of
// type "PayloadValidationError", message "Payload validation failed", for
// a payload that fails its validation (a codec or converter that checks
// what it decodes); details, when not nil, is its one detail.
func NewPayloadValidationError(details any) error {
	if details == nil {
		return failure.NewNonRetryableApplicationError("Payload validation failed", "PayloadValidationError", nil)
	}
	return failure.NewNonRetryableApplicationError("Payload validation failed", "PayloadValidationError", nil, details)
}

// NewApplicationErrorWithOptions returns an *ApplicationError with its
// optional attributes (retryability, cause, details, next retry delay,
// category) given in options.
func NewApplicationErrorWithOptions(message, errType string, options ApplicationErrorOptions) error {
	return failure.NewApplicationErrorWithOptions(message, errType, options)
}

// NewCanceledError returns a *CanceledError with details. Return it from
// an activity or workflow to report that it stopped because it was asked
// to cancel.
func NewCanceledError(details ...any) error {
	return failure.NewCanceledError(details...)
}

// NewCanceledErrorWithOptions returns a *CanceledError with the message,
// details and cause of options.
func NewCanceledErrorWithOptions(options CanceledErrorOptions) error {
	return failure.NewCanceledErrorWithOptions(options)
}

// NewTimeoutError returns a *TimeoutError of the given type, wrapping the
// last attempt's error. It is meant for tests, where a mocked activity
// returns it to act out a timeout.
func NewTimeoutError(timeoutType enumspb.TimeoutType, lastErr error, details ...any) error {
	return failure.NewTimeoutError("Test timeout", timeoutType, lastErr, details...)
}

// NewHeartbeatTimeoutError returns a heartbeat *TimeoutError with the
// given last heartbeat details. It is meant for tests, where a mocked
// activity returns it to act out a heartbeat timeout.
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
