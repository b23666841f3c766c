package failure

import (
	"fmt"

	querypb "go.temporal.io/api/query/v1"
)

// TerminatedError reports that a workflow was terminated.
type TerminatedError struct {
	origin
	byServer string // why the server itself terminated the workflow
}

// NewTerminatedError returns a TerminatedError.
func NewTerminatedError() *TerminatedError { return &TerminatedError{} }

// NewServerTerminatedError returns the TerminatedError of a workflow the
// server terminated itself, for reason (a limit it exceeded, say): unlike
// a person's reason for terminating, the server's is the only account of
// what went wrong, so it is part of the message.
func NewServerTerminatedError(reason string) *TerminatedError {
	return &TerminatedError{byServer: reason}
}

// Error returns "terminated", with the server's reason if it was the
// server that terminated the workflow.
func (e *TerminatedError) Error() string {
	if e.byServer != "" {
		return "terminated by the server: " + e.byServer
	}
	return "terminated"
}

// PanicError reports a panic in activity code (or, returned by the workflow,
// a panic it chose to report). Its message is the panic value.
type PanicError struct {
	origin
	value      any
	stackTrace string
}

// NewPanicError returns a PanicError for a recovered panic value and the
// stack trace where it happened.
func NewPanicError(value any, stackTrace string) *PanicError {
	return &PanicError{value: value, stackTrace: stackTrace}
}

// Error returns the panic value, formatted with %v.
func (e *PanicError) Error() string { return fmt.Sprint(e.value) }

// StackTrace returns the stack trace of the panic.
func (e *PanicError) StackTrace() string { return e.stackTrace }

// workflowPanicError is a panic in workflow code, as opposed to a PanicError
// a workflow returns. It is sent as a non-retryable PanicError failure and
// comes back as a PanicError.
type workflowPanicError struct {
	value      any
	stackTrace string
}

// NewWorkflowPanicError returns the error that fails a workflow whose code
// panicked, when the worker's panic policy says to fail the workflow.
func NewWorkflowPanicError(value any, stackTrace string) error {
	return &workflowPanicError{value: value, stackTrace: stackTrace}
}

func (e *workflowPanicError) Error() string { return fmt.Sprint(e.value) }

// StackTrace returns the stack trace of the panic.
func (e *workflowPanicError) StackTrace() string { return e.stackTrace }

// ServerError is an error reported by the Temporal server itself.
type ServerError struct {
	origin
	msg          string
	nonRetryable bool
	cause        error
}

// NewServerError returns a ServerError.
func NewServerError(message string, nonRetryable bool, cause error) error {
	return &ServerError{msg: message, nonRetryable: nonRetryable, cause: cause}
}

// Error returns the message, and the cause if any.
func (e *ServerError) Error() string { return describeChain(e) }

// Message returns the message alone.
func (e *ServerError) Message() string { return e.msg }

// Unwrap returns the cause.
func (e *ServerError) Unwrap() error { return e.cause }

// UnknownExternalWorkflowExecutionError reports that a workflow to signal or
// cancel does not exist.
type UnknownExternalWorkflowExecutionError struct{}

// Error returns a fixed message.
func (*UnknownExternalWorkflowExecutionError) Error() string {
	return "unknown external workflow execution"
}

// NamespaceNotFoundError is the cause of a failure due to a namespace that
// does not exist.
type NamespaceNotFoundError struct{}

// Error returns a fixed message.
func (*NamespaceNotFoundError) Error() string { return "namespace not found" }

// InvalidVersioningOverrideError is the cause of a ChildWorkflowExecutionError
// when the server refused to start the child because its versioning
// override was invalid (ChildWorkflowOptions.VersioningOverride).
type InvalidVersioningOverrideError struct{}

// Error returns a fixed message.
func (*InvalidVersioningOverrideError) Error() string { return "invalid versioning override" }

// ChildWorkflowExecutionAlreadyStartedError is the cause of a
// ChildWorkflowExecutionError when a workflow with the child's ID is already
// running.
type ChildWorkflowExecutionAlreadyStartedError struct{}

// Error returns a fixed message.
func (*ChildWorkflowExecutionAlreadyStartedError) Error() string {
	return "child workflow execution already started"
}

// QueryRejectedError reports that a query was rejected because of the
// workflow's status (see the query reject condition of the request).
type QueryRejectedError struct {
	queryRejected *querypb.QueryRejected
}

// NewQueryRejectedError wraps the server's rejection.
func NewQueryRejectedError(rejected *querypb.QueryRejected) *QueryRejectedError {
	return &QueryRejectedError{queryRejected: rejected}
}

// QueryRejected returns the server's rejection, with the workflow status.
func (e *QueryRejectedError) QueryRejected() *querypb.QueryRejected { return e.queryRejected }

// Error names the workflow status that caused the rejection.
func (e *QueryRejectedError) Error() string {
	return "query rejected: " + e.queryRejected.GetStatus().String()
}
