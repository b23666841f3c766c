package temporal

import (
	"errors"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"google.golang.org/protobuf/proto"
)

// The facade only forwards; these tests check that each name reaches the
// right implementation, through a round trip over the default converter.

func TestApplicationErrorConstructors(t *testing.T) {
	cause := errors.New("cause")
	tests := []struct {
		name         string
		err          error
		nonRetryable bool
		hasCause     bool
	}{
		{"NewApplicationError", NewApplicationError("m", "T", 1), false, false},
		{"NewApplicationErrorWithCause", NewApplicationErrorWithCause("m", "T", cause, 1), false, true},
		{"NewNonRetryableApplicationError", NewNonRetryableApplicationError("m", "T", cause, 1), true, true},
		{"NewApplicationErrorWithOptions", NewApplicationErrorWithOptions("m", "T", ApplicationErrorOptions{
			NonRetryable: true, Details: []any{1}, NextRetryDelay: time.Second, Category: ApplicationErrorCategoryBenign,
		}), true, false},
	}
	fc := GetDefaultFailureConverter()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			back := fc.FailureToError(fc.ErrorToFailure(tt.err))
			var app *ApplicationError
			if !errors.As(back, &app) || !IsApplicationError(back) {
				t.Fatalf("decoded %T", back)
			}
			var n int
			if app.Type() != "T" || app.NonRetryable() != tt.nonRetryable || (app.Unwrap() != nil) != tt.hasCause ||
				app.Details(&n) != nil || n != 1 {
				t.Errorf("decoded = %v", app)
			}
		})
	}
}

func TestOtherConstructorsAndChecks(t *testing.T) {
	if !IsCanceledError(NewCanceledError()) || !IsCanceledError(NewCanceledErrorWithOptions(CanceledErrorOptions{Message: "x"})) {
		t.Error("canceled")
	}
	timeout := NewTimeoutError(enumspb.TIMEOUT_TYPE_SCHEDULE_TO_CLOSE, errors.New("last"), "d")
	var te *TimeoutError
	var s string
	if !errors.As(timeout, &te) || te.Message() != "Test timeout" || te.TimeoutType() != enumspb.TIMEOUT_TYPE_SCHEDULE_TO_CLOSE ||
		te.LastHeartbeatDetails(&s) != nil || s != "d" || !IsTimeoutError(timeout) {
		t.Errorf("timeout = %v", timeout)
	}
	hb := NewHeartbeatTimeoutError(3)
	if !errors.As(hb, &te) || te.TimeoutType() != enumspb.TIMEOUT_TYPE_HEARTBEAT || te.Message() != "heartbeat timeout" {
		t.Errorf("heartbeat timeout = %v", hb)
	}
	if IsPanicError(hb) || IsTerminatedError(hb) || IsWorkflowExecutionAlreadyStartedError(hb) {
		t.Error("checks match a timeout")
	}
	if !IsWorkflowExecutionAlreadyStartedError(&ChildWorkflowExecutionAlreadyStartedError{}) {
		t.Error("already started")
	}
	if !errors.Is(NewApplicationError("m", "").(*ApplicationError).Details(), ErrNoData) {
		t.Error("ErrNoData")
	}
}

func TestDefaultFailureConverterOptions(t *testing.T) {
	fc := NewDefaultFailureConverter(DefaultFailureConverterOptions{EncodeCommonAttributes: true})
	f := fc.ErrorToFailure(errors.New("secret"))
	if f.GetMessage() != "Encoded failure" || !proto.Equal(fc.ErrorToFailure(fc.FailureToError(f)), f) {
		t.Errorf("failure = %v", f)
	}
}

func TestSearchAttributesFacade(t *testing.T) {
	sa := NewSearchAttributes(
		NewSearchAttributeKeyString("S").ValueSet("s"),
		NewSearchAttributeKeyKeyword("K").ValueSet("k"),
		NewSearchAttributeKeyBool("B").ValueSet(true),
		NewSearchAttributeKeyInt64("I").ValueSet(1),
		NewSearchAttributeKeyFloat64("F").ValueSet(1.5),
		NewSearchAttributeKeyTime("T").ValueSet(time.Unix(0, 0)),
		NewSearchAttributeKeyKeywordList("L").ValueSet([]string{"x"}),
	)
	var key SearchAttributeKey = NewSearchAttributeKeyInt64("I")
	if sa.Size() != 7 || !sa.ContainsKey(key) {
		t.Errorf("size %d", sa.Size())
	}
	if v, ok := sa.GetFloat64(NewSearchAttributeKeyFloat64("F")); !ok || v != 1.5 {
		t.Error("GetFloat64")
	}
}

func TestPolicyFacade(t *testing.T) {
	p := RetryPolicy{MaximumAttempts: 3}
	prio := Priority{PriorityKey: 1}
	if p.MaximumAttempts != 3 || prio.PriorityKey != 1 {
		t.Error("fields")
	}
	if VersioningIntentUnspecified != 0 || VersioningIntentCompatible != 1 || VersioningIntentDefault != 2 ||
		VersioningIntentInheritBuildID != 3 || VersioningIntentUseAssignmentRules != 4 {
		t.Error("versioning intent values")
	}
	if ApplicationErrorCategoryUnspecified != 0 || ApplicationErrorCategoryBenign != 1 {
		t.Error("category values")
	}
}
