package converter

import (
	"errors"

	"github.com/durable-go/sdk/internal/codecfail"
)

// WorkflowTaskFailureError, returned by a PayloadCodec's Encode or Decode,
// fails the current workflow task instead of the workflow execution: the
// server retries the task, so a codec that depends on a service that is
// briefly unavailable (a key service, say) delays the workflow rather than
// failing it. The panic policy (worker.Options.WorkflowPanicPolicy) does not
// change this.
//
// While a workflow task is processed it fails the task when the codec
// returns it for the workflow's input or result, a continue-as-new input,
// failure details, an update's result, marker data (side effects, versions,
// local activities), summaries, or the input of an activity, child workflow
// or external signal. A result of an activity, local activity or child
// workflow that the codec cannot decode fails the task from Future.Get,
// even when the workflow would handle the error.
//
// Elsewhere it is an ordinary error: the other workflow APIs that decode
// payloads (EncodedValues, GetLastCompletionResult,
// ApplicationError.Details) return it to the workflow, and signals, update
// arguments, queries and memos are handled as for any codec error. Outside
// workflow tasks (a client, an activity) it is returned as it is. Only the
// error a codec returns counts; workflow code that returns one fails as
// with any error. The test environment does not retry workflow tasks: the
// workflow error it reports wraps this error.
type WorkflowTaskFailureError struct {
	cause error
}

// NewWorkflowTaskFailureError returns a WorkflowTaskFailureError for cause,
// for a PayloadCodec to return. Codec calls count against the workflow
// task's timeout: retry a brief outage within the codec before giving up
// the task with it.
func NewWorkflowTaskFailureError(cause error) error {
	return &WorkflowTaskFailureError{cause: cause}
}

// Error returns the cause's message.
func (e *WorkflowTaskFailureError) Error() string {
	if e.cause == nil {
		return "a payload codec asked to fail the workflow task"
	}
	return e.cause.Error()
}

// Unwrap returns the cause; it is nil when none was given.
func (e *WorkflowTaskFailureError) Unwrap() error { return e.cause }

// markTaskFailure marks an error a codec returned when it asks for a
// workflow task failure, so that the engine honours it (see
// internal/codecfail). It runs only when a codec failed.
func markTaskFailure(err error) error {
	var request *WorkflowTaskFailureError
	if errors.As(err, &request) {
		return codecfail.Mark(err)
	}
	return err
}
