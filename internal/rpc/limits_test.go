package rpc

import (
	"context"
	"errors"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
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
	wantMessage(t, err, "Blob data size exceeds limit: over the server's limit on the payloads of one field, dynamic config limit.blobSize.error (2 MiB by default); the request carries 3.0 MiB of payloads")
}
