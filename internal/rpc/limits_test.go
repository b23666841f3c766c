package rpc

import (
	"context"
	"errors"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestServerLimitErrorsNameTheLimit(t *testing.T) {
	cases := []struct{ says, want string }{
		{"Blob data size exceeds limit.", "Blob data size exceeds limit: over the server's limit on the payloads of one field, dynamic config limit.blobSize.error (2 MiB by default)"},
		{"BadScheduleActivityAttributes: CompleteWorkflowExecutionCommandAttributes.Result exceeds size limit.", "dynamic config limit.blobSize.error"},
		{"Heartbeat details exceed size limit.", "dynamic config limit.blobSize.error"},
		{"ContinueAsNewWorkflowExecutionCommandAttributes. Memo exceeds size limit.", "dynamic config limit.memoSize.error"},
		{"Memo size exceeds limit.", "dynamic config limit.memoSize.error"},
		{"Workflow history size exceeds limit.", "dynamic config limit.historySize.error (50 MiB by default)"},
		{"Workflow history count exceeds limit.", "dynamic config limit.historyCount.error (51,200 by default)"},
		{"Workflow was terminated by an operator", ""},
	}
	for _, c := range cases {
		got := ExplainServerLimit(c.says)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("ExplainServerLimit(%q) = %q, want it to hold %q", c.says, got, c.want)
		}
	}
}

// TestRefusedPayloadSaysHowLargeItWas: the server's refusal of a payload
// over its limit stays an InvalidArgument, and says which limit, and how
// large the request's payloads were.
func TestRefusedPayloadSaysHowLargeItWas(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{})
	f.failNext("StartWorkflowExecution", serviceerror.NewInvalidArgument("Blob data size exceeds limit."))
	input := &commonpb.Payloads{Payloads: []*commonpb.Payload{{Data: make([]byte, 3<<20)}}}

	_, err := c.WorkflowService().StartWorkflowExecution(context.Background(), &workflowservice.StartWorkflowExecutionRequest{Input: input})

	var invalid *serviceerror.InvalidArgument
	if !errors.As(err, &invalid) {
		t.Fatalf("got %T, want *serviceerror.InvalidArgument", err)
	}
	wantMessage(t, err, "Blob data size exceeds limit: over the server's limit on the payloads of one field, dynamic config limit.blobSize.error (2 MiB by default); the request carries 3.0 MiB of payloads; keep large data out of payloads: store it elsewhere (a blob store, a database) and pass its key")
}

// TestAMessageOverGRPCsLimitSaysWhichAndWhatToDo: gRPC's refusal of a
// message over a size limit says which message, which limit and what to
// do (issue 32 item 6: it was gRPC's bare "received message larger than
// max (5243038 vs. 4194304)"), for a request the server refuses, a request
// this client refuses to send, and an answer this client refuses. Like
// go.temporal.io/sdk's error for it, the error is no serviceerror, and its
// gRPC code is ResourceExhausted.
func TestAMessageOverGRPCsLimitSaysWhichAndWhatToDo(t *testing.T) {
	large := &workflowservice.StartWorkflowExecutionRequest{Input: &commonpb.Payloads{Payloads: []*commonpb.Payload{{Data: make([]byte, 2<<20)}}}}
	check := func(what string, err error, want string) {
		t.Helper()
		var tooLarge *MessageTooLargeError
		var exhausted *serviceerror.ResourceExhausted
		if !errors.As(err, &tooLarge) || errors.As(err, &exhausted) || status.Code(err) != codes.ResourceExhausted || serviceerror.ToStatus(err).Code() != codes.ResourceExhausted {
			t.Errorf("%s: %T %v; want a MessageTooLargeError, no serviceerror, of code ResourceExhausted", what, err, err)
		}
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v\nwant it to start %s", what, err, want)
		}
		if IsRetryable(err, false) {
			t.Errorf("%s: retryable", what)
		}
	}

	server := startFakeServer(t, grpc.MaxRecvMsgSize(1<<20))
	_, err := dialFake(t, server, Options{}).WorkflowService().StartWorkflowExecution(context.Background(), large)
	check("a request the server refuses", err,
		"the StartWorkflowExecution request (2.0 MiB, 2.0 MiB of it payloads) is over the server's limit on a gRPC message of 1.0 MiB (grpc: received message larger than max (2097167 vs. 1048576)); keep large data out of payloads: store it elsewhere (a blob store, a database) and pass its key")

	f := startFakeServer(t)
	_, err = dialFake(t, f, Options{MaxMessageSize: 1 << 20}).WorkflowService().StartWorkflowExecution(context.Background(), large)
	check("a request this client does not send", err,
		"the StartWorkflowExecution request (2.0 MiB, 2.0 MiB of it payloads) is over this client's limit on a gRPC message of 1.0 MiB, ConnectionOptions.MaxPayloadSize (trying to send message larger than max (2097167 vs. 1048576)); keep large data out of payloads")
	wantCalls(t, f, "StartWorkflowExecution", 0)

	f.set(func(f *fakeServer) { f.historyPayload = 2 << 20 })
	_, err = dialFake(t, f, Options{MaxMessageSize: 1 << 20, Retry: fastRetries}).WorkflowService().GetWorkflowExecutionHistory(context.Background(),
		&workflowservice.GetWorkflowExecutionHistoryRequest{Namespace: "default"})
	check("an answer this client refuses", err,
		"the answer to GetWorkflowExecutionHistory is over this client's limit on a gRPC message of 1.0 MiB (grpc: received message larger than max (")
	wantCalls(t, f, "GetWorkflowExecutionHistory", 1)
}
