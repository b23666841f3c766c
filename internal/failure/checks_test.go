package failure

import (
	"errors"
	"fmt"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	querypb "go.temporal.io/api/query/v1"
	"go.temporal.io/api/serviceerror"
)

type valueError struct{}

func (valueError) Error() string { return "value error" }

type genericError[T any] struct{}

func (*genericError[T]) Error() string { return "generic" }

func TestErrTypeName(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{errors.New("x"), ""},
		{&myError{}, "myError"},
		{valueError{}, "valueError"},
		{fmt.Errorf("w: %w", errors.New("x")), "wrapError"},
		{errors.Join(errors.New("a"), errors.New("b")), "joinError"},
		{&genericError[int]{}, "genericError[int]"},
		{NewWorkflowExecutionError("", "", "", nil), "WorkflowExecutionError"},
	}
	for _, tt := range tests {
		if got := errTypeName(tt.err); got != tt.want {
			t.Errorf("errTypeName(%T) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

func TestIsRetryable(t *testing.T) {
	nonRetryable := []string{"myError", "Fatal"}
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"plain error", errors.New("x"), true},
		{"listed Go type", &myError{}, false},
		{"application error", NewApplicationError("m", "Other"), true},
		{"listed application type", NewApplicationError("m", "Fatal"), false},
		{"non-retryable application error", NewNonRetryableApplicationError("m", "Other", nil), false},
		{"canceled", NewCanceledError(), false},
		{"terminated", NewTerminatedError(), false},
		{"workflow panic", NewWorkflowPanicError("p", ""), false},
		{"activity panic", NewPanicError("p", ""), true},
		{"start-to-close timeout", NewTimeoutError("t", enumspb.TIMEOUT_TYPE_START_TO_CLOSE, nil), true},
		{"heartbeat timeout", NewHeartbeatTimeoutError(), true},
		{"schedule-to-close timeout", NewTimeoutError("t", enumspb.TIMEOUT_TYPE_SCHEDULE_TO_CLOSE, nil), false},
	}
	for _, tt := range tests {
		if got := IsRetryable(tt.err, nonRetryable); got != tt.want {
			t.Errorf("%s: IsRetryable = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestIsHelpers(t *testing.T) {
	wrap := func(err error) error { return fmt.Errorf("wrapped: %w", err) }
	if !IsCanceledError(wrap(NewCanceledError())) || IsCanceledError(errors.New("x")) {
		t.Error("IsCanceledError")
	}
	if !IsTimeoutError(wrap(NewHeartbeatTimeoutError())) || IsTimeoutError(NewCanceledError()) {
		t.Error("IsTimeoutError")
	}
	if !IsPanicError(wrap(NewPanicError(1, ""))) || IsPanicError(NewWorkflowPanicError(1, "")) {
		t.Error("IsPanicError")
	}
	if !IsTerminatedError(wrap(NewTerminatedError())) {
		t.Error("IsTerminatedError")
	}
	if !IsApplicationError(wrap(NewApplicationError("m", ""))) || IsApplicationError(&myError{}) {
		t.Error("IsApplicationError")
	}
	started := serviceerror.NewWorkflowExecutionAlreadyStarted("exists", "req", "run")
	if !IsWorkflowExecutionAlreadyStartedError(wrap(started)) ||
		!IsWorkflowExecutionAlreadyStartedError(NewChildWorkflowExecutionError("", "", "", "", 0, 0, 0, &ChildWorkflowExecutionAlreadyStartedError{})) ||
		IsWorkflowExecutionAlreadyStartedError(errors.New("x")) {
		t.Error("IsWorkflowExecutionAlreadyStartedError")
	}
}

func TestFixedMessages(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{&UnknownExternalWorkflowExecutionError{}, "unknown external workflow execution"},
		{&NamespaceNotFoundError{}, "namespace not found"},
		{&InvalidVersioningOverrideError{}, "invalid versioning override"},
		{&ChildWorkflowExecutionAlreadyStartedError{}, "child workflow execution already started"},
		{NewQueryRejectedError(&querypb.QueryRejected{Status: enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED}), "query rejected: Completed"},
		{NewApplicationError("m", ""), "m"},
		{NewApplicationErrorWithCause("m", "T", errors.New("c")), "m (type: T, retryable: true): c"},
		{NewNonRetryableApplicationError("m", "T", nil), "m (type: T, retryable: false)"},
		{NewActivityError(1, 2, "me", "A", "id", 0, nil), "activity error (type: A, scheduledEventID: 1, startedEventID: 2, identity: me)"},
		{NewWorkflowExecutionError("w", "r", "T", nil), "workflow execution error (type: T, workflowID: w, runID: r)"},
		{NewServerError("s", false, errors.New("c")), "s: c"},
		{NewCanceledErrorWithOptions(CanceledErrorOptions{Message: "stop"}), "stop"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("%T.Error() = %q, want %q", tt.err, got, tt.want)
		}
	}
	rejected := &querypb.QueryRejected{Status: enumspb.WORKFLOW_EXECUTION_STATUS_FAILED}
	if NewQueryRejectedError(rejected).QueryRejected() != rejected {
		t.Error("QueryRejected() lost the proto")
	}
}
