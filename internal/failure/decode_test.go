package failure

import (
	"errors"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/durable-go/sdk/converter"
)

type detail struct {
	Reason string
	Code   int
}

// roundTrip encodes err, decodes the failure, and checks that encoding the
// decoded error again gives the same failure.
func roundTrip(t *testing.T, err error) error {
	t.Helper()
	fc := GetDefaultFailureConverter()
	f := fc.ErrorToFailure(err)
	back := fc.FailureToError(f)
	if again := fc.ErrorToFailure(back); !proto.Equal(again, f) {
		t.Errorf("re-encoding is lossy:\n got %v\nwant %v", again, f)
	}
	return back
}

func TestApplicationErrorRoundTrip(t *testing.T) {
	in := NewApplicationErrorWithOptions("declined", "CardDeclined", ApplicationErrorOptions{
		NonRetryable:   true,
		Details:        []any{detail{Reason: "limit", Code: 51}, "second"},
		NextRetryDelay: 2 * time.Second,
		Category:       ApplicationErrorCategoryBenign,
		Cause:          errors.New("bank said no"),
	})
	back := roundTrip(t, in)
	var app *ApplicationError
	if !errors.As(back, &app) {
		t.Fatalf("decoded %T", back)
	}
	if app.Message() != "declined" || app.Type() != "CardDeclined" || !app.NonRetryable() ||
		app.NextRetryDelay() != 2*time.Second || app.Category() != ApplicationErrorCategoryBenign {
		t.Errorf("attributes = %q %q %v %v %v", app.Message(), app.Type(), app.NonRetryable(), app.NextRetryDelay(), app.Category())
	}
	if back.Error() != in.Error() {
		t.Errorf("Error() = %q, want %q", back.Error(), in.Error())
	}
	var d detail
	var s string
	if !app.HasDetails() || app.Details(&d, &s) != nil || d != (detail{"limit", 51}) || s != "second" {
		t.Errorf("details = %+v %q", d, s)
	}
	var n int
	if err := app.Details(&n); err == nil || !containsAll(err.Error(), `"json/plain"`, "into int") {
		t.Errorf("details into wrong type: %v", err)
	}
	var cause *ApplicationError
	if !errors.As(app.Unwrap(), &cause) || cause.Message() != "bank said no" || cause.Type() != "" {
		t.Errorf("cause = %v", app.Unwrap())
	}
	if app.Failure() == nil || app.Failure().GetApplicationFailureInfo().GetType() != "CardDeclined" {
		t.Errorf("Failure() = %v", app.Failure())
	}
}

func TestCanceledAndTimeoutRoundTrip(t *testing.T) {
	back := roundTrip(t, NewCanceledError(detail{Reason: "user"}))
	var canceled *CanceledError
	var d detail
	if !errors.As(back, &canceled) || canceled.Error() != "canceled" || canceled.Details(&d) != nil || d.Reason != "user" {
		t.Errorf("canceled = %v, %+v", back, d)
	}

	back = roundTrip(t, NewTimeoutError("activity timeout", enumspb.TIMEOUT_TYPE_HEARTBEAT, NewApplicationError("last", "T"), 40, "progress"))
	var timeout *TimeoutError
	if !errors.As(back, &timeout) {
		t.Fatalf("decoded %T", back)
	}
	var n int
	var s string
	if timeout.TimeoutType() != enumspb.TIMEOUT_TYPE_HEARTBEAT || timeout.Message() != "activity timeout" ||
		!timeout.HasLastHeartbeatDetails() || timeout.LastHeartbeatDetails(&n, &s) != nil || n != 40 || s != "progress" {
		t.Errorf("timeout = %v %d %q", back, n, s)
	}
	if back.Error() != "activity timeout (type: Heartbeat): last (type: T, retryable: true)" {
		t.Errorf("Error() = %q", back.Error())
	}
	if !IsApplicationError(back) {
		t.Error("cause lost")
	}
}

func TestWrappedChainRoundTrip(t *testing.T) {
	app := NewApplicationError("card declined", "CardDeclined", "detail")
	activity := NewActivityError(5, 6, "id", "Charge", "1", enumspb.RETRY_STATE_MAXIMUM_ATTEMPTS_REACHED, app)
	child := NewChildWorkflowExecutionError("ns", "child-id", "run", "ChildWf", 2, 3, enumspb.RETRY_STATE_NON_RETRYABLE_FAILURE, activity)
	back := roundTrip(t, child)
	if back.Error() != child.Error() {
		t.Errorf("Error():\n got %q\nwant %q", back.Error(), child.Error())
	}
	var c *ChildWorkflowExecutionError
	var a *ActivityError
	var ap *ApplicationError
	if !errors.As(back, &c) || !errors.As(back, &a) || !errors.As(back, &ap) {
		t.Fatalf("chain = %v", back)
	}
	if c.Namespace() != "ns" || c.WorkflowID() != "child-id" || c.RunID() != "run" || c.WorkflowType() != "ChildWf" ||
		c.InitiatedEventID() != 2 || c.StartedEventID() != 3 || c.RetryState() != enumspb.RETRY_STATE_NON_RETRYABLE_FAILURE {
		t.Errorf("child attributes wrong: %v", c)
	}
	if a.ScheduledEventID() != 5 || a.StartedEventID() != 6 || a.Identity() != "id" || a.ActivityType().GetName() != "Charge" ||
		a.ActivityID() != "1" || a.RetryState() != enumspb.RETRY_STATE_MAXIMUM_ATTEMPTS_REACHED {
		t.Errorf("activity attributes wrong: %v", a)
	}
	var s string
	if ap.Type() != "CardDeclined" || ap.Details(&s) != nil || s != "detail" {
		t.Errorf("application error = %v %q", ap, s)
	}
	if c.Unwrap() != error(a) || a.Unwrap() != error(ap) {
		t.Error("Unwrap does not walk the chain")
	}
}

func TestErrorsIsThroughLocalWrappers(t *testing.T) {
	sentinel := errors.New("sentinel")
	err := NewWorkflowExecutionError("w", "r", "T",
		NewChildWorkflowExecutionError("", "c", "r", "C", 1, 2, 0,
			NewActivityError(1, 2, "", "A", "", 0,
				NewTimeoutError("t", enumspb.TIMEOUT_TYPE_START_TO_CLOSE,
					NewCanceledErrorWithOptions(CanceledErrorOptions{Cause: NewServerError("s", false,
						NewApplicationErrorWithCause("a", "T", sentinel))})))))
	if !errors.Is(err, sentinel) {
		t.Error("errors.Is does not reach the root")
	}
	for name, ok := range map[string]bool{
		"timeout": IsTimeoutError(err), "canceled": IsCanceledError(err), "application": IsApplicationError(err),
		"server": isA[*ServerError](err), "activity": isA[*ActivityError](err),
	} {
		if !ok {
			t.Errorf("errors.As misses the %s error", name)
		}
	}
	if IsPanicError(err) || IsTerminatedError(err) {
		t.Error("found errors that are not in the chain")
	}
}

func TestPanicAndTerminatedDecoding(t *testing.T) {
	back := roundTrip(t, NewPanicError("nil map write", "goroutine 7 [running]"))
	var p *PanicError
	if !errors.As(back, &p) || p.Error() != "nil map write" || p.StackTrace() != "goroutine 7 [running]" {
		t.Errorf("panic = %v", back)
	}
	// A workflow panic is sent as a non-retryable PanicError failure and
	// comes back as a PanicError.
	back = GetDefaultFailureConverter().FailureToError(GetDefaultFailureConverter().ErrorToFailure(NewWorkflowPanicError("boom", "s")))
	if !errors.As(back, &p) || p.Error() != "boom" {
		t.Errorf("workflow panic decoded as %v", back)
	}
	back = roundTrip(t, NewTerminatedError())
	if !IsTerminatedError(back) || back.Error() != "terminated" {
		t.Errorf("terminated = %v", back)
	}
	back = roundTrip(t, NewServerError("server", true, nil))
	var se *ServerError
	if !errors.As(back, &se) || se.Message() != "server" || !se.nonRetryable {
		t.Errorf("server error = %v", back)
	}
}

func TestFailureToErrorOfOtherKinds(t *testing.T) {
	fc := GetDefaultFailureConverter()
	reset := &failurepb.Failure{
		Message: "reset",
		FailureInfo: &failurepb.Failure_ResetWorkflowFailureInfo{ResetWorkflowFailureInfo: &failurepb.ResetWorkflowFailureInfo{
			LastHeartbeatDetails: jsonPayloads(`"hb"`),
		}},
	}
	var app *ApplicationError
	var s string
	if err := fc.FailureToError(reset); !errors.As(err, &app) || !app.NonRetryable() || app.Type() != "" ||
		app.Details(&s) != nil || s != "hb" {
		t.Errorf("reset failure = %v", err)
	}
	// Nexus operation failures decode as NexusOperationErrors (with an
	// application error cause), and encode back losslessly.
	nexus := &failurepb.Failure{
		Message: "nexus op failed", Source: "TypeScriptSDK",
		FailureInfo: &failurepb.Failure_NexusOperationExecutionFailureInfo{NexusOperationExecutionFailureInfo: &failurepb.NexusOperationFailureInfo{
			Endpoint: "e", Service: "s", Operation: "o",
		}},
		Cause: &failurepb.Failure{Message: "inner"},
	}
	err := fc.FailureToError(nexus)
	var opErr *NexusOperationError
	if !errors.As(err, &opErr) || opErr.Message != "nexus op failed" || opErr.Endpoint != "e" || !errors.As(opErr.Unwrap(), &app) || app.Message() != "inner" {
		t.Errorf("nexus failure = %v", err)
	}
	if !proto.Equal(fc.ErrorToFailure(err), nexus) {
		t.Error("nexus failure not re-encoded losslessly")
	}
	if fc.FailureToError(nil) != nil {
		t.Error("nil failure gave an error")
	}
}

func TestFailureToErrorReadsForeignFailures(t *testing.T) {
	// As another SDK writes them: different source, no Go type names.
	f := &failurepb.Failure{
		Message: "outer", Source: "JavaSDK", StackTrace: "at Foo.bar()",
		FailureInfo: &failurepb.Failure_ApplicationFailureInfo{ApplicationFailureInfo: &failurepb.ApplicationFailureInfo{
			Type: "java.lang.IllegalStateException", NextRetryDelay: durationpb.New(time.Minute),
		}},
	}
	err := GetDefaultFailureConverter().FailureToError(f)
	var app *ApplicationError
	if !errors.As(err, &app) || app.Type() != "java.lang.IllegalStateException" || app.NextRetryDelay() != time.Minute ||
		app.Failure().GetStackTrace() != "at Foo.bar()" {
		t.Errorf("decoded = %v", err)
	}
	// The kept failure is a copy: changing the input does not reach it.
	f.Message = "changed"
	if app.Failure().GetMessage() != "outer" {
		t.Error("decoded error shares the caller's proto")
	}
}

func TestDetailsBeforeEncoding(t *testing.T) {
	err := NewApplicationError("m", "T", 5, detail{Reason: "r"}, nil).(*ApplicationError)
	var n int64 // not the int given: converted like the wire would
	var d detail
	var p *detail
	if e := err.Details(&n, &d, &p); e != nil || n != 5 || d.Reason != "r" || p != nil {
		t.Errorf("details = %d %+v %v, %v", n, d, p, e)
	}
	var a, b, c, extra int
	if e := err.Details(&a, &b, &c, &extra); e == nil {
		t.Error("more targets than details accepted")
	}
	var s string
	if e := err.Details(&s); e == nil {
		t.Error("int detail decoded into a string")
	}
	if e := err.Details(s); !errors.Is(e, converter.ErrValuePtrIsNotPointer) {
		t.Errorf("non-pointer target: %v", e)
	}
	empty := NewApplicationError("m", "T").(*ApplicationError)
	if empty.HasDetails() || !errors.Is(empty.Details(&s), ErrNoData) {
		t.Error("error without details claims some")
	}
	timeout := NewHeartbeatTimeoutError().(*TimeoutError)
	if timeout.HasLastHeartbeatDetails() || !errors.Is(timeout.LastHeartbeatDetails(&s), ErrNoData) {
		t.Error("heartbeat timeout without details claims some")
	}
	canceled := NewCanceledError().(*CanceledError)
	if canceled.HasDetails() || !errors.Is(canceled.Details(&s), ErrNoData) {
		t.Error("canceled error without details claims some")
	}
}

func TestEncodedValuesPassThrough(t *testing.T) {
	payloads := jsonPayloads(`"hb"`)
	values := NewEncodedValues(payloads, nil)
	err := NewTimeoutError("t", enumspb.TIMEOUT_TYPE_HEARTBEAT, nil, values)
	f := GetDefaultFailureConverter().ErrorToFailure(err)
	if f.GetTimeoutFailureInfo().GetLastHeartbeatDetails() != payloads {
		t.Error("encoded details were encoded again")
	}
	if values.Payloads() != payloads || !values.HasValues() {
		t.Error("EncodedValues accessors")
	}
	var _ interface{ Payloads() *commonpb.Payloads } = values
	if NewEncodedValues(nil, nil).Get() != ErrNoData {
		t.Error("empty EncodedValues has data")
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
