package nexushandler

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/url"
	"strings"
	"testing"

	"github.com/nexus-rpc/sdk-go/nexus"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	nexuspb "go.temporal.io/api/nexus/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/logging"
	"github.com/durable-go/sdk/internal/workerrt"
)

// testService has an operation for each outcome a handler can give.
func testService(t *testing.T, canceled *string) *nexus.Service {
	t.Helper()
	svc := nexus.NewService("svc")
	svc.MustRegister(
		nexus.NewSyncOperation("greet", func(ctx context.Context, name string, o nexus.StartOperationOptions) (string, error) {
			oc, ok := FromContext(ctx)
			if !ok {
				return "", errors.New("no operation context")
			}
			return "hello " + name + " from " + oc.TaskQueue + " (" + o.RequestID + ")", nil
		}),
		nexus.NewSyncOperation("fail", func(ctx context.Context, kind string, _ nexus.StartOperationOptions) (string, error) {
			switch kind {
			case "bad-request":
				return "", nexus.NewHandlerErrorf(nexus.HandlerErrorTypeBadRequest, "bad %s", "input")
			case "plain":
				return "", errors.New("plain failure")
			case "non-retryable":
				return "", failure.NewNonRetryableApplicationError("stop", "Stop", nil)
			case "operation-failed":
				return "", nexus.NewOperationFailedErrorf("the operation failed")
			case "operation-canceled":
				return "", nexus.NewOperationCanceledErrorf("the operation was canceled")
			case "panic":
				panic("boom")
			case "wait":
				<-ctx.Done()
				return "", ctx.Err()
			}
			return "", errors.New("unknown kind " + kind)
		}),
		&asyncOperation{canceled: canceled},
	)
	return svc
}

// asyncOperation starts asynchronously, with a link, and records cancels.
type asyncOperation struct {
	nexus.UnimplementedOperation[string, string]
	canceled *string
}

func (*asyncOperation) Name() string { return "async" }

func (*asyncOperation) Start(ctx context.Context, input string, _ nexus.StartOperationOptions) (nexus.HandlerStartOperationResult[string], error) {
	u, _ := url.Parse("temporal:///namespaces/ns/workflows/" + input + "/run/history")
	nexus.AddHandlerLinks(ctx, nexus.Link{URL: u, Type: "test.Link"})
	return &nexus.HandlerStartOperationResultAsync{OperationToken: "token-" + input}, nil
}

func (o *asyncOperation) Cancel(_ context.Context, token string, _ nexus.CancelOperationOptions) error {
	if token == "panic" {
		panic(errors.New("cancel panicked"))
	}
	*o.canceled = token
	return nil
}

func newTestHandler(t *testing.T, canceled *string) *TaskHandler {
	t.Helper()
	reg := nexus.NewServiceRegistry()
	reg.MustRegister(testService(t, canceled))
	h, err := reg.NewHandler()
	if err != nil {
		t.Fatal(err)
	}
	return New(Options{
		Handler: h, Namespace: "ns", TaskQueue: "tq", Identity: "me",
		DataConverter:    converter.GetDefaultDataConverter(),
		FailureConverter: failure.GetDefaultFailureConverter(),
		Logger:           logging.NewTextLogger(io.Discard, slog.LevelError),
	})
}

func startTask(t *testing.T, service, operation string, input any, temporalFailures bool, header map[string]string) *workflowservice.PollNexusTaskQueueResponse {
	t.Helper()
	payload, err := converter.GetDefaultDataConverter().ToPayload(input)
	if err != nil {
		t.Fatal(err)
	}
	return &workflowservice.PollNexusTaskQueueResponse{
		TaskToken: []byte("task-token"),
		Request: &nexuspb.Request{
			Header:       header,
			Capabilities: &nexuspb.Request_Capabilities{TemporalFailureResponses: temporalFailures},
			Variant: &nexuspb.Request_StartOperation{StartOperation: &nexuspb.StartOperationRequest{
				Service: service, Operation: operation, RequestId: "req-1", Payload: payload,
			}},
		},
	}
}

func TestStartSyncOperation(t *testing.T) {
	completed, failed, err := newTestHandler(t, nil).ExecuteNexusTask(startTask(t, "svc", "greet", "ann", true, nil))
	if err != nil || failed != nil {
		t.Fatalf("want a completion, got failed %v, err %v", failed, err)
	}
	if string(completed.GetTaskToken()) != "task-token" || completed.GetNamespace() != "ns" || completed.GetIdentity() != "me" {
		t.Errorf("completion identifies the task as %q/%q/%q", completed.GetTaskToken(), completed.GetNamespace(), completed.GetIdentity())
	}
	var got string
	if err := converter.GetDefaultDataConverter().FromPayload(completed.GetResponse().GetStartOperation().GetSyncSuccess().GetPayload(), &got); err != nil {
		t.Fatal(err)
	}
	if want := "hello ann from tq (req-1)"; got != want {
		t.Errorf("result %q, want %q", got, want)
	}
}

func TestStartAsyncOperation(t *testing.T) {
	completed, failed, err := newTestHandler(t, nil).ExecuteNexusTask(startTask(t, "svc", "async", "wf-1", true, nil))
	if err != nil || failed != nil {
		t.Fatalf("want a completion, got failed %v, err %v", failed, err)
	}
	async := completed.GetResponse().GetStartOperation().GetAsyncSuccess()
	if async.GetOperationToken() != "token-wf-1" {
		t.Errorf("token %q, want token-wf-1", async.GetOperationToken())
	}
	if len(async.GetLinks()) != 1 || async.GetLinks()[0].GetType() != "test.Link" || !strings.Contains(async.GetLinks()[0].GetUrl(), "/workflows/wf-1/") {
		t.Errorf("links %v, want the one the handler added", async.GetLinks())
	}
}

func cancelTask(token string) *workflowservice.PollNexusTaskQueueResponse {
	return &workflowservice.PollNexusTaskQueueResponse{
		TaskToken: []byte("cancel-token"),
		Request: &nexuspb.Request{
			Capabilities: &nexuspb.Request_Capabilities{TemporalFailureResponses: true},
			Variant: &nexuspb.Request_CancelOperation{CancelOperation: &nexuspb.CancelOperationRequest{
				Service: "svc", Operation: "async", OperationToken: token,
			}},
		},
	}
}

func TestCancelOperation(t *testing.T) {
	var canceled string
	completed, failed, err := newTestHandler(t, &canceled).ExecuteNexusTask(cancelTask("token-wf-1"))
	if err != nil || failed != nil {
		t.Fatalf("want a completion, got failed %v, err %v", failed, err)
	}
	if completed.GetResponse().GetCancelOperation() == nil {
		t.Errorf("response %v, want a cancel response", completed.GetResponse())
	}
	if canceled != "token-wf-1" {
		t.Errorf("the operation canceled %q, want token-wf-1", canceled)
	}
}

// TestHandlerErrors checks the failed task each kind of handler error
// gives, as go.temporal.io/sdk's worker reports it.
func TestHandlerErrors(t *testing.T) {
	for _, tc := range []struct {
		kind         string
		wantType     nexus.HandlerErrorType
		wantMessage  string
		wantRetry    enumspb.NexusHandlerErrorRetryBehavior
		wantCauseMsg string
	}{
		{"bad-request", nexus.HandlerErrorTypeBadRequest, "bad input", enumspb.NEXUS_HANDLER_ERROR_RETRY_BEHAVIOR_UNSPECIFIED, ""},
		{"plain", nexus.HandlerErrorTypeInternal, "internal handler error", enumspb.NEXUS_HANDLER_ERROR_RETRY_BEHAVIOR_UNSPECIFIED, "plain failure"},
		{"non-retryable", nexus.HandlerErrorTypeInternal, "handler failed with non-retryable application error", enumspb.NEXUS_HANDLER_ERROR_RETRY_BEHAVIOR_NON_RETRYABLE, "stop"},
		{"panic", nexus.HandlerErrorTypeInternal, "internal handler error", enumspb.NEXUS_HANDLER_ERROR_RETRY_BEHAVIOR_UNSPECIFIED, "panic: boom"},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			completed, failed, err := newTestHandler(t, nil).ExecuteNexusTask(startTask(t, "svc", "fail", tc.kind, true, nil))
			if err != nil || completed != nil {
				t.Fatalf("want a failed task, got completed %v, err %v", completed, err)
			}
			f := failed.GetFailure()
			info := f.GetNexusHandlerFailureInfo()
			if info.GetType() != string(tc.wantType) || f.GetMessage() != tc.wantMessage || info.GetRetryBehavior() != tc.wantRetry {
				t.Errorf("failure %v, want type %s, message %q, retry %v", f, tc.wantType, tc.wantMessage, tc.wantRetry)
			}
			if f.GetCause().GetMessage() != tc.wantCauseMsg {
				t.Errorf("cause %q, want %q", f.GetCause().GetMessage(), tc.wantCauseMsg)
			}
			if string(failed.GetTaskToken()) != "task-token" {
				t.Errorf("task token %q", failed.GetTaskToken())
			}
		})
	}
}

// TestHandlerErrorToOlderServer checks the older shape, for a server
// without Temporal failure responses.
func TestHandlerErrorToOlderServer(t *testing.T) {
	_, failed, err := newTestHandler(t, nil).ExecuteNexusTask(startTask(t, "svc", "fail", "bad-request", false, nil))
	if err != nil {
		t.Fatal(err)
	}
	//lint:ignore SA1019 the shape older servers read
	legacy := failed.GetError()
	if failed.GetFailure() != nil || legacy.GetErrorType() != string(nexus.HandlerErrorTypeBadRequest) {
		t.Errorf("failed task %v, want the older handler error BAD_REQUEST", failed)
	}
}

func TestOperationErrors(t *testing.T) {
	h := newTestHandler(t, nil)
	completed, _, err := h.ExecuteNexusTask(startTask(t, "svc", "fail", "operation-failed", true, nil))
	if err != nil {
		t.Fatal(err)
	}
	f := completed.GetResponse().GetStartOperation().GetFailure()
	if f.GetApplicationFailureInfo().GetType() != "OperationError" || !f.GetApplicationFailureInfo().GetNonRetryable() || f.GetMessage() != "the operation failed" {
		t.Errorf("failed operation's failure %v", f)
	}
	completed, _, err = h.ExecuteNexusTask(startTask(t, "svc", "fail", "operation-canceled", true, nil))
	if err != nil {
		t.Fatal(err)
	}
	if f := completed.GetResponse().GetStartOperation().GetFailure(); f.GetCanceledFailureInfo() == nil || f.GetMessage() != "the operation was canceled" {
		t.Errorf("canceled operation's failure %v", f)
	}
	// An older server reads the operation error instead.
	completed, _, err = h.ExecuteNexusTask(startTask(t, "svc", "fail", "operation-failed", false, nil))
	if err != nil {
		t.Fatal(err)
	}
	//lint:ignore SA1019 the shape older servers read
	legacy := completed.GetResponse().GetStartOperation().GetOperationError()
	if legacy.GetOperationState() != string(nexus.OperationStateFailed) {
		t.Errorf("older server's operation error %v, want state failed", completed.GetResponse())
	}
}

func TestPanicInCancelFailsTheTask(t *testing.T) {
	var canceled string
	_, failed, err := newTestHandler(t, &canceled).ExecuteNexusTask(cancelTask("panic"))
	if err != nil {
		t.Fatal(err)
	}
	f := failed.GetFailure()
	if f.GetNexusHandlerFailureInfo().GetType() != string(nexus.HandlerErrorTypeInternal) || f.GetCause().GetMessage() != "cancel panicked" {
		t.Errorf("failure %v, want INTERNAL caused by the panic", f)
	}
}

// TestUnknownServiceOrOperation checks the errors of the nexus-rpc
// registry, which go.temporal.io/sdk's worker sends as they are.
func TestUnknownServiceOrOperation(t *testing.T) {
	h := newTestHandler(t, nil)
	for _, tc := range []struct{ service, operation, want string }{
		{"nope", "greet", `service "nope" not found`},
		{"svc", "nope", `operation "nope" not found`},
	} {
		_, failed, err := h.ExecuteNexusTask(startTask(t, tc.service, tc.operation, "x", true, nil))
		if err != nil {
			t.Fatal(err)
		}
		f := failed.GetFailure()
		if f.GetNexusHandlerFailureInfo().GetType() != string(nexus.HandlerErrorTypeNotFound) || f.GetMessage() != tc.want {
			t.Errorf("%s/%s: failure %v, want NOT_FOUND %q", tc.service, tc.operation, f, tc.want)
		}
	}
}

func TestRequestDeadline(t *testing.T) {
	h := newTestHandler(t, nil)
	// The handler waits for its context to end: only the deadline ends it.
	completed, failed, err := h.ExecuteNexusTask(startTask(t, "svc", "fail", "wait", true, map[string]string{"request-timeout": "50ms"}))
	if !errors.Is(err, workerrt.ErrNexusTaskTimeout) || completed != nil || failed != nil {
		t.Fatalf("want ErrNexusTaskTimeout and no report, got %v, %v, %v", completed, failed, err)
	}
	_, failed, err = h.ExecuteNexusTask(startTask(t, "svc", "greet", "x", true, map[string]string{"request-timeout": "soon"}))
	if err != nil || failed.GetFailure().GetNexusHandlerFailureInfo().GetType() != string(nexus.HandlerErrorTypeBadRequest) {
		t.Errorf("an unreadable timeout: %v, %v; want BAD_REQUEST", failed, err)
	}
}

// validatingConverter refuses every payload as invalid, as a codec that
// validates payloads does.
type validatingConverter struct{ converter.DataConverter }

func (validatingConverter) FromPayload(*commonpb.Payload, any) error {
	return failure.NewNonRetryableApplicationError("Payload validation failed", "PayloadValidationError", nil)
}

func TestInvalidInputIsABadRequest(t *testing.T) {
	h := newTestHandler(t, nil)
	h.opts.DataConverter = validatingConverter{converter.GetDefaultDataConverter()}
	_, failed, err := h.ExecuteNexusTask(startTask(t, "svc", "greet", "x", true, nil))
	if err != nil {
		t.Fatal(err)
	}
	f := failed.GetFailure()
	if f.GetNexusHandlerFailureInfo().GetType() != string(nexus.HandlerErrorTypeBadRequest) || f.GetMessage() != "invalid operation input" {
		t.Errorf("failure %v, want BAD_REQUEST invalid operation input", f)
	}
}

func TestUndecodableInputIsABadRequest(t *testing.T) {
	_, failed, err := newTestHandler(t, nil).ExecuteNexusTask(startTask(t, "svc", "greet", 42, true, nil))
	if err != nil {
		t.Fatal(err)
	}
	f := failed.GetFailure()
	if f.GetNexusHandlerFailureInfo().GetType() != string(nexus.HandlerErrorTypeBadRequest) || f.GetMessage() != "cannot deserialize operation input" {
		t.Errorf("failure %v, want BAD_REQUEST cannot deserialize operation input", f)
	}
}

// TestATaskTheWorkerCouldNotRunFailsAsAnInternalHandlerError: the failure
// reported for a task whose input could not be retrieved is an INTERNAL
// handler error saying why, in the shape the server asked for.
func TestATaskTheWorkerCouldNotRunFailsAsAnInternalHandlerError(t *testing.T) {
	h := newTestHandler(t, nil)
	failed, err := h.FailNexusTask(startTask(t, "svc", "greet", "ann", true, nil), errors.New("no driver named \"s3\""))
	if err != nil {
		t.Fatal(err)
	}
	f := failed.GetFailure()
	if f.GetNexusHandlerFailureInfo().GetType() != string(nexus.HandlerErrorTypeInternal) || !strings.Contains(f.GetMessage(), `no driver named "s3"`) ||
		string(failed.GetTaskToken()) != "task-token" || failed.GetNamespace() != "ns" {
		t.Errorf("failed task %v, want an INTERNAL handler error naming the cause", failed)
	}
	failed, err = h.FailNexusTask(startTask(t, "svc", "greet", "ann", false, nil), errors.New("no driver"))
	//lint:ignore SA1019 the shape older servers read
	if legacy := failed.GetError(); err != nil || legacy.GetErrorType() != string(nexus.HandlerErrorTypeInternal) {
		t.Errorf("to an older server: %v, %v; want the older handler error INTERNAL", failed, err)
	}
}
