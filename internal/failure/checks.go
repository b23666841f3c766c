package failure

import (
	"errors"
	"reflect"
	"slices"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
)

// IsApplicationError reports whether err is or wraps an ApplicationError.
func IsApplicationError(err error) bool { return isA[*ApplicationError](err) }

// IsCanceledError reports whether err is or wraps a CanceledError.
func IsCanceledError(err error) bool { return isA[*CanceledError](err) }

// IsTimeoutError reports whether err is or wraps a TimeoutError.
func IsTimeoutError(err error) bool { return isA[*TimeoutError](err) }

// IsTerminatedError reports whether err is or wraps a TerminatedError.
func IsTerminatedError(err error) bool { return isA[*TerminatedError](err) }

// IsPanicError reports whether err is or wraps a PanicError.
func IsPanicError(err error) bool { return isA[*PanicError](err) }

// IsWorkflowExecutionAlreadyStartedError reports whether err says that a
// workflow with the same ID is already running: the server's
// WorkflowExecutionAlreadyStarted or a ChildWorkflowExecutionAlreadyStartedError.
func IsWorkflowExecutionAlreadyStartedError(err error) bool {
	return isA[*serviceerror.WorkflowExecutionAlreadyStarted](err) ||
		isA[*ChildWorkflowExecutionAlreadyStartedError](err)
}

func isA[T error](err error) bool {
	var target T
	return errors.As(err, &target)
}

// IsRetryable reports whether a failed attempt ending in err may be retried
// under a retry policy whose non-retryable error types are
// nonRetryableTypes. Termination, cancellation and workflow panics never are;
// timeouts only for start-to-close and heartbeat.
func IsRetryable(err error, nonRetryableTypes []string) bool {
	if err == nil || isA[*TerminatedError](err) || isA[*CanceledError](err) || isA[*workflowPanicError](err) {
		return false
	}
	var timeout *TimeoutError
	if errors.As(err, &timeout) {
		return timeout.timeoutType == enumspb.TIMEOUT_TYPE_START_TO_CLOSE ||
			timeout.timeoutType == enumspb.TIMEOUT_TYPE_HEARTBEAT
	}
	errType := errTypeName(err)
	var app *ApplicationError
	if errors.As(err, &app) {
		if app.nonRetryable {
			return false
		}
		errType = app.errType
	}
	return !slices.Contains(nonRetryableTypes, errType)
}

// errTypeName is the failure type of a plain Go error: the name of its type
// without pointers ("MyError" for *MyError). errors.New's type is left
// unnamed, as its name says nothing.
func errTypeName(err error) string {
	t := reflect.TypeOf(err)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == plainErrorType {
		return ""
	}
	return t.Name()
}

var plainErrorType = reflect.TypeOf(errors.New("")).Elem()

// panicErrorType is the application failure type of panics on the wire.
const panicErrorType = "PanicError"
