package failure

import (
	"errors"
	"fmt"
	"reflect"
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

type myError struct{ code int }

func (e *myError) Error() string { return fmt.Sprintf("my error %d", e.code) }

func jsonPayloads(items ...string) *commonpb.Payloads {
	ps := &commonpb.Payloads{}
	for _, item := range items {
		ps.Payloads = append(ps.Payloads, &commonpb.Payload{
			Metadata: map[string][]byte{converter.MetadataEncoding: []byte(converter.MetadataEncodingJSON)},
			Data:     []byte(item),
		})
	}
	return ps
}

func appInfo(info *failurepb.ApplicationFailureInfo) *failurepb.Failure_ApplicationFailureInfo {
	return &failurepb.Failure_ApplicationFailureInfo{ApplicationFailureInfo: info}
}

// goFailure builds a failure as the Go SDKs write it; info is one of the
// Failure_*FailureInfo oneof wrappers.
func goFailure(message string, info any, cause *failurepb.Failure) *failurepb.Failure {
	f := &failurepb.Failure{Source: "GoSDK", Message: message, Cause: cause}
	reflect.ValueOf(f).Elem().FieldByName("FailureInfo").Set(reflect.ValueOf(info))
	return f
}

func TestErrorToFailureShape(t *testing.T) {
	root := errors.New("root cause")
	rootFailure := goFailure("root cause", appInfo(&failurepb.ApplicationFailureInfo{}), nil)
	tests := []struct {
		name string
		err  error
		want *failurepb.Failure
	}{
		{
			"application error with details",
			NewApplicationError("msg", "MyType", "d1", 2),
			goFailure("msg", appInfo(&failurepb.ApplicationFailureInfo{Type: "MyType", Details: jsonPayloads(`"d1"`, "2")}), nil),
		},
		{
			"non-retryable application error with cause",
			NewNonRetryableApplicationError("msg", "T", root),
			goFailure("msg", appInfo(&failurepb.ApplicationFailureInfo{Type: "T", NonRetryable: true}), rootFailure),
		},
		{
			"application error with every option",
			NewApplicationErrorWithOptions("msg", "T", ApplicationErrorOptions{
				NextRetryDelay: 3 * time.Second, Category: ApplicationErrorCategoryBenign, Details: []any{true},
			}),
			goFailure("msg", appInfo(&failurepb.ApplicationFailureInfo{
				Type: "T", NextRetryDelay: durationpb.New(3 * time.Second),
				Category: enumspb.APPLICATION_ERROR_CATEGORY_BENIGN, Details: jsonPayloads("true"),
			}), nil),
		},
		{
			"canceled with details",
			NewCanceledError("why"),
			goFailure("canceled", &failurepb.Failure_CanceledFailureInfo{CanceledFailureInfo: &failurepb.CanceledFailureInfo{
				Details: jsonPayloads(`"why"`),
			}}, nil),
		},
		{
			"canceled with message and cause",
			NewCanceledErrorWithOptions(CanceledErrorOptions{Message: "stop", Cause: root}),
			goFailure("stop", &failurepb.Failure_CanceledFailureInfo{CanceledFailureInfo: &failurepb.CanceledFailureInfo{}}, rootFailure),
		},
		{
			"timeout with heartbeat details",
			NewTimeoutError("timed out", enumspb.TIMEOUT_TYPE_HEARTBEAT, root, 7),
			goFailure("timed out", &failurepb.Failure_TimeoutFailureInfo{TimeoutFailureInfo: &failurepb.TimeoutFailureInfo{
				TimeoutType: enumspb.TIMEOUT_TYPE_HEARTBEAT, LastHeartbeatDetails: jsonPayloads("7"),
			}}, rootFailure),
		},
		{
			"panic",
			NewPanicError("oops", "goroutine 1"),
			func() *failurepb.Failure {
				f := goFailure("oops", appInfo(&failurepb.ApplicationFailureInfo{Type: "PanicError"}), nil)
				f.StackTrace = "goroutine 1"
				return f
			}(),
		},
		{
			"workflow panic",
			NewWorkflowPanicError(fmt.Errorf("bad %d", 1), "stack"),
			func() *failurepb.Failure {
				f := goFailure("bad 1", appInfo(&failurepb.ApplicationFailureInfo{Type: "PanicError", NonRetryable: true}), nil)
				f.StackTrace = "stack"
				return f
			}(),
		},
		{
			"terminated",
			NewTerminatedError(),
			goFailure("terminated", &failurepb.Failure_TerminatedFailureInfo{TerminatedFailureInfo: &failurepb.TerminatedFailureInfo{}}, nil),
		},
		{
			"server error",
			NewServerError("server", true, root),
			goFailure("server", &failurepb.Failure_ServerFailureInfo{ServerFailureInfo: &failurepb.ServerFailureInfo{NonRetryable: true}}, rootFailure),
		},
		{
			"activity error",
			NewActivityError(5, 6, "worker@host", "Charge", "act-1", enumspb.RETRY_STATE_MAXIMUM_ATTEMPTS_REACHED, root),
			goFailure("activity error", &failurepb.Failure_ActivityFailureInfo{ActivityFailureInfo: &failurepb.ActivityFailureInfo{
				ScheduledEventId: 5, StartedEventId: 6, Identity: "worker@host",
				ActivityType: &commonpb.ActivityType{Name: "Charge"}, ActivityId: "act-1",
				RetryState: enumspb.RETRY_STATE_MAXIMUM_ATTEMPTS_REACHED,
			}}, rootFailure),
		},
		{
			"child workflow error",
			NewChildWorkflowExecutionError("ns", "wid", "rid", "Child", 3, 4, enumspb.RETRY_STATE_NON_RETRYABLE_FAILURE, root),
			goFailure("child workflow execution error", &failurepb.Failure_ChildWorkflowExecutionFailureInfo{
				ChildWorkflowExecutionFailureInfo: &failurepb.ChildWorkflowExecutionFailureInfo{
					Namespace: "ns", WorkflowExecution: &commonpb.WorkflowExecution{WorkflowId: "wid", RunId: "rid"},
					WorkflowType: &commonpb.WorkflowType{Name: "Child"}, InitiatedEventId: 3, StartedEventId: 4,
					RetryState: enumspb.RETRY_STATE_NON_RETRYABLE_FAILURE,
				},
			}, rootFailure),
		},
		{
			"custom Go error is typed by its Go type name",
			&myError{code: 3},
			goFailure("my error 3", appInfo(&failurepb.ApplicationFailureInfo{Type: "myError"}), nil),
		},
		{
			"fmt wrapping keeps the chain, each message once",
			fmt.Errorf("context: %w", &myError{code: 1}),
			goFailure("context", appInfo(&failurepb.ApplicationFailureInfo{Type: "wrapError"}),
				goFailure("my error 1", appInfo(&failurepb.ApplicationFailureInfo{Type: "myError"}), nil)),
		},
		{
			"workflow execution error is a plain application failure",
			NewWorkflowExecutionError("wid", "rid", "Wf", root),
			goFailure("workflow execution error (type: Wf, workflowID: wid, runID: rid)",
				appInfo(&failurepb.ApplicationFailureInfo{Type: "WorkflowExecutionError"}), rootFailure),
		},
	}
	fc := NewDefaultFailureConverter(DefaultFailureConverterOptions{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fc.ErrorToFailure(tt.err)
			if !proto.Equal(got, tt.want) {
				t.Errorf("ErrorToFailure:\n got %v\nwant %v", got, tt.want)
			}
		})
	}
	if fc.ErrorToFailure(nil) != nil {
		t.Error("nil error gave a failure")
	}
	// A chain of wraps, decoded, says each message once.
	chain := fmt.Errorf("unable to decode the input: %w", fmt.Errorf("argument 1 (string): %w", &myError{code: 2}))
	if got := fc.FailureToError(fc.ErrorToFailure(chain)).Error(); strings.Count(got, "my error 2") != 1 || strings.Count(got, "argument 1") != 1 {
		t.Errorf("a decoded chain of wraps repeats itself: %s", got)
	}
}

func TestEncodeCommonAttributes(t *testing.T) {
	fc := NewDefaultFailureConverter(DefaultFailureConverterOptions{EncodeCommonAttributes: true})
	err := NewApplicationErrorWithCause("secret", "T", NewPanicError("inner secret", "stack"))
	f := fc.ErrorToFailure(err)
	for level, cur := range []*failurepb.Failure{f, f.Cause} {
		if cur.Message != "Encoded failure" || cur.StackTrace != "" || cur.EncodedAttributes == nil {
			t.Errorf("level %d not encoded: %v", level, cur)
		}
	}
	if got := string(f.Cause.EncodedAttributes.Data); got != `{"message":"inner secret","stack_trace":"stack"}` {
		t.Errorf("cause attributes = %s", got)
	}
	back := fc.FailureToError(f)
	var app *ApplicationError
	var panicErr *PanicError
	if !errors.As(back, &app) || app.Message() != "secret" || !errors.As(back, &panicErr) ||
		panicErr.Error() != "inner secret" || panicErr.StackTrace() != "stack" {
		t.Errorf("decoded = %v", back)
	}
	if f.Message != "Encoded failure" {
		t.Error("FailureToError changed its input")
	}
}

func TestUnencodableDetailsAreReportedInTheMessage(t *testing.T) {
	f := GetDefaultFailureConverter().ErrorToFailure(NewApplicationError("msg", "T", make(chan int)))
	info := f.GetApplicationFailureInfo()
	if info == nil || info.Details != nil || info.Type != "T" {
		t.Fatalf("failure = %v", f)
	}
	want := "msg (details could not be encoded: values[0]: value of type chan int cannot be encoded"
	if len(f.Message) < len(want) || f.Message[:len(want)] != want {
		t.Errorf("message = %q", f.Message)
	}
}

func TestNilDataConverterMeansDefault(t *testing.T) {
	fc := NewDefaultFailureConverter(DefaultFailureConverterOptions{})
	if fc.dataConverter != converter.GetDefaultDataConverter() {
		t.Error("default data converter not used")
	}
}
