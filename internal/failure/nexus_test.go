package failure

import (
	"errors"
	"testing"

	"github.com/nexus-rpc/sdk-go/nexus"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	"go.temporal.io/api/serviceerror"
	"google.golang.org/protobuf/proto"
)

// A Nexus operation's failure as the server writes it (NexusOperationFailed):
// the operation's info, then the handler's error, then its cause.
func serverNexusFailure() *failurepb.Failure {
	return &failurepb.Failure{
		Message: "nexus operation completed unsuccessfully",
		FailureInfo: &failurepb.Failure_NexusOperationExecutionFailureInfo{NexusOperationExecutionFailureInfo: &failurepb.NexusOperationFailureInfo{
			ScheduledEventId: 5, Endpoint: "ep", Service: "svc", Operation: "op",
			OperationId: "legacy-token", //lint:ignore SA1019 what older servers wrote
		}},
		Cause: &failurepb.Failure{
			Message: "handler error (BAD_REQUEST)",
			FailureInfo: &failurepb.Failure_NexusHandlerFailureInfo{NexusHandlerFailureInfo: &failurepb.NexusHandlerFailureInfo{
				Type: "BAD_REQUEST", RetryBehavior: enumspb.NEXUS_HANDLER_ERROR_RETRY_BEHAVIOR_NON_RETRYABLE,
			}},
			Cause: &failurepb.Failure{Message: "no such order", FailureInfo: &failurepb.Failure_ApplicationFailureInfo{
				ApplicationFailureInfo: &failurepb.ApplicationFailureInfo{Type: "NotFound", NonRetryable: true}}},
		},
	}
}

func TestNexusFailuresDecodeToTheirErrors(t *testing.T) {
	fc := GetDefaultFailureConverter()
	in := serverNexusFailure()
	err := fc.FailureToError(in)
	var opErr *NexusOperationError
	if !errors.As(err, &opErr) {
		t.Fatalf("decoded %T, want *NexusOperationError", err)
	}
	if opErr.Endpoint != "ep" || opErr.Service != "svc" || opErr.Operation != "op" || opErr.ScheduledEventID != 5 ||
		opErr.OperationToken != "legacy-token" || opErr.Message != "nexus operation completed unsuccessfully" {
		t.Errorf("operation error fields = %+v", opErr)
	}
	var handlerErr *nexus.HandlerError
	if !errors.As(err, &handlerErr) {
		t.Fatalf("no *nexus.HandlerError in the chain: %v", err)
	}
	if handlerErr.Type != nexus.HandlerErrorTypeBadRequest || handlerErr.Message != "" ||
		handlerErr.RetryBehavior != nexus.HandlerErrorRetryBehaviorNonRetryable || handlerErr.OriginalFailure == nil {
		t.Errorf("handler error = %+v", handlerErr)
	}
	var app *ApplicationError
	if !errors.As(err, &app) || app.Type() != "NotFound" {
		t.Errorf("no application error cause: %v", err)
	}
	want := `nexus operation completed unsuccessfully (endpoint: "ep", service: "svc", operation: "op", operation token: "legacy-token", scheduledEventID: 5): handler error (BAD_REQUEST)`
	if err.Error() != want {
		t.Errorf("Error() = %q\nwant %q", err.Error(), want)
	}
	if back := fc.ErrorToFailure(err); !proto.Equal(back, in) {
		t.Errorf("re-encoding is lossy:\n got %v\nwant %v", back, in)
	}
	// The handler error alone encodes back to its failure too (from its
	// original failure).
	if back := fc.ErrorToFailure(handlerErr); !proto.Equal(back, in.GetCause()) {
		t.Errorf("handler error re-encodes as %v\nwant %v", back, in.GetCause())
	}
}

func TestNexusErrorsMadeHereEncode(t *testing.T) {
	fc := GetDefaultFailureConverter()
	handlerErr := &nexus.HandlerError{Type: nexus.HandlerErrorTypeUnavailable, Cause: errors.New("db down"),
		RetryBehavior: nexus.HandlerErrorRetryBehaviorRetryable, StackTrace: "trace"}
	f := fc.ErrorToFailure(handlerErr)
	info := f.GetNexusHandlerFailureInfo()
	if info.GetType() != "UNAVAILABLE" || info.GetRetryBehavior() != enumspb.NEXUS_HANDLER_ERROR_RETRY_BEHAVIOR_RETRYABLE ||
		f.GetMessage() != "handler error (UNAVAILABLE)" || f.GetStackTrace() != "trace" || f.GetCause().GetMessage() != "db down" {
		t.Errorf("handler error failure = %v", f)
	}
	opErr := &NexusOperationError{Message: "m", Endpoint: "e", Service: "s", Operation: "o", OperationToken: "t", ScheduledEventID: 7, Cause: handlerErr}
	f = fc.ErrorToFailure(opErr)
	oi := f.GetNexusOperationExecutionFailureInfo()
	if oi.GetOperationToken() != "t" || oi.GetOperationId() != "t" || oi.GetScheduledEventId() != 7 || f.GetMessage() != opErr.Error() || //lint:ignore SA1019 written for older readers
		f.GetCause().GetNexusHandlerFailureInfo() == nil {
		t.Errorf("operation error failure = %v", f)
	}
}

func TestNexusFailureCarriesTemporalFailure(t *testing.T) {
	in := serverNexusFailure().GetCause()
	in.StackTrace = "at handler"
	nf, err := TemporalFailureToNexusFailure(in)
	if err != nil {
		t.Fatal(err)
	}
	if in.GetMessage() != "handler error (BAD_REQUEST)" || in.GetStackTrace() != "at handler" {
		t.Errorf("the failure changed: %v", in)
	}
	back, err := NexusFailureToTemporalFailure(*nf, false)
	if err != nil || !proto.Equal(back, in) {
		t.Errorf("round trip = %v, %v\nwant %v", back, err, in)
	}
	foreign, err := NexusFailureToTemporalFailure(nexus.Failure{Message: "boom", Metadata: map[string]string{"k": "v"}}, true)
	if err != nil || foreign.GetApplicationFailureInfo().GetType() != "NexusFailure" || foreign.GetApplicationFailureInfo().GetNonRetryable() ||
		foreign.GetMessage() != "boom" || len(foreign.GetApplicationFailureInfo().GetDetails().GetPayloads()) != 1 {
		t.Errorf("foreign failure = %v, %v", foreign, err)
	}
}

func TestHandlerErrorOf(t *testing.T) {
	cases := []struct {
		name      string
		err       error
		typ       nexus.HandlerErrorType
		retryable bool
	}{
		{"handler error", &nexus.HandlerError{Type: nexus.HandlerErrorTypeNotFound}, nexus.HandlerErrorTypeNotFound, false},
		{"non-retryable application error", NewNonRetryableApplicationError("no", "T", nil), nexus.HandlerErrorTypeInternal, false},
		{"retryable application error", NewApplicationError("again", "T"), nexus.HandlerErrorTypeInternal, true},
		{"invalid argument", serviceerror.NewInvalidArgument("bad"), nexus.HandlerErrorTypeBadRequest, false},
		{"unavailable", serviceerror.NewUnavailable("later"), nexus.HandlerErrorTypeUnavailable, true},
		{"already started", serviceerror.NewAlreadyExists("dup"), nexus.HandlerErrorTypeInternal, false},
		{"plain error", errors.New("oops"), nexus.HandlerErrorTypeInternal, true},
	}
	for _, c := range cases {
		he := HandlerErrorOf(c.err)
		if he.Type != c.typ || he.Retryable() != c.retryable {
			t.Errorf("%s: got %s retryable %v, want %s %v", c.name, he.Type, he.Retryable(), c.typ, c.retryable)
		}
	}
	if err, ok := OperationErrorToTemporalError(nexus.NewOperationFailedErrorf("no stock")); !ok || !IsApplicationError(err) {
		t.Errorf("failed operation = %T %v", err, ok)
	}
	if err, ok := OperationErrorToTemporalError(nexus.NewOperationCanceledErrorf("stop")); !ok || !IsCanceledError(err) {
		t.Errorf("canceled operation = %T %v", err, ok)
	}
}
