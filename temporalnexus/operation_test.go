package temporalnexus

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/nexus-rpc/sdk-go/nexus"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/workflow"
)

// TestWorkflowRunTokenIsTheOfficialOne checks the token's bytes: the
// server and go.temporal.io/sdk's handlers read it.
func TestWorkflowRunTokenIsTheOfficialOne(t *testing.T) {
	token, err := workflowRunOperationToken("ns", "wf-1")
	if err != nil {
		t.Fatal(err)
	}
	data, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || string(data) != `{"t":1,"ns":"ns","wid":"wf-1"}` {
		t.Fatalf("token %q decodes to %s, %v", token, data, err)
	}
	parsed, err := parseWorkflowRunOperationToken(token)
	if err != nil || parsed.WorkflowID != "wf-1" || parsed.Namespace != "ns" {
		t.Errorf("parsed %+v, %v", parsed, err)
	}
	any, err := parseOperationToken(token)
	if err != nil || any.Kind != tokenKindWorkflowRun {
		t.Errorf("parsed as any token: %+v, %v", any, err)
	}
	for _, bad := range []string{"", "!!", base64.RawURLEncoding.EncodeToString([]byte(`{"t":1,"ns":"ns"}`)),
		base64.RawURLEncoding.EncodeToString([]byte(`{"v":1,"t":1,"ns":"ns","wid":"w"}`)),
		base64.RawURLEncoding.EncodeToString([]byte(`{"t":3,"ns":"ns","wid":"w","uid":"u"}`))} {
		if _, err := parseWorkflowRunOperationToken(bad); err == nil {
			t.Errorf("token %q was accepted as a workflow-run token", bad)
		}
	}
}

func testWorkflow(workflow.Context, string) (string, error) { return "", nil }

func testOptions(context.Context, string, nexus.StartOperationOptions) (client.StartWorkflowOptions, error) {
	return client.StartWorkflowOptions{}, nil
}

func TestWorkflowRunOperationOptionsAreChecked(t *testing.T) {
	handler := func(context.Context, string, nexus.StartOperationOptions) (WorkflowHandle[string], error) {
		return nil, nil
	}
	for _, tc := range []struct {
		options WorkflowRunOperationOptions[string, string]
		want    string
	}{
		{WorkflowRunOperationOptions[string, string]{Workflow: testWorkflow, GetOptions: testOptions}, "Name is required"},
		{WorkflowRunOperationOptions[string, string]{Name: "__temporal_x", Workflow: testWorkflow, GetOptions: testOptions}, "reserved prefix"},
		{WorkflowRunOperationOptions[string, string]{Name: "op"}, "either GetOptions and Workflow, or Handler"},
		{WorkflowRunOperationOptions[string, string]{Name: "op", Workflow: testWorkflow}, "both Workflow and GetOptions"},
		{WorkflowRunOperationOptions[string, string]{Name: "op", Workflow: testWorkflow, GetOptions: testOptions, Handler: handler}, "mutually exclusive"},
	} {
		if _, err := NewWorkflowRunOperationWithOptions(tc.options); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.options.Name, err, tc.want)
		}
	}
	op, err := NewWorkflowRunOperationWithOptions(WorkflowRunOperationOptions[string, string]{Name: "op", Handler: handler})
	if err != nil || op.Name() != "op" {
		t.Errorf("a Handler operation: %v, %v", op, err)
	}
	defer func() {
		if recover() == nil {
			t.Error("NewWorkflowRunOperation with a reserved name did not panic")
		}
	}()
	NewWorkflowRunOperation("__temporal_op", testWorkflow, testOptions)
}

func TestTemporalOperation(t *testing.T) {
	if _, err := NewTemporalOperation(TemporalOperationOptions[string, string]{Name: "op"}); err == nil || !strings.Contains(err.Error(), "Start is required") {
		t.Errorf("no Start: %v", err)
	}
	if r, err := NewSyncResult("v").handlerResult(); err != nil || r.(*nexus.HandlerStartOperationResultSync[string]).Value != "v" {
		t.Errorf("sync result: %v, %v", r, err)
	}
	if r, err := NewAsyncResult[string]("tok").handlerResult(); err != nil || r.(*nexus.HandlerStartOperationResultAsync).OperationToken != "tok" {
		t.Errorf("async result: %v, %v", r, err)
	}
	if _, err := (TemporalOperationResult[string]{}).handlerResult(); err == nil {
		t.Error("an empty result was accepted")
	}
	op := MustNewTemporalOperation(TemporalOperationOptions[string, string]{Name: "op",
		Start: func(context.Context, NexusClient, string, StartTemporalOperationOptions) (TemporalOperationResult[string], error) {
			return NewSyncResult("x"), nil
		}})
	cancelUpdate := op.(*temporalOperation[string, string]).options.CancelWorkflowUpdate
	if err := cancelUpdate(context.Background(), nil, CancelTemporalUpdateWorkflowOptions{}, nexus.CancelOperationOptions{}); err != ErrCannotCancelWorkflowUpdate {
		t.Errorf("canceling an update by default: %v, want ErrCannotCancelWorkflowUpdate", err)
	}
	// A token that is not one fails the cancel as a bad request.
	var herr *nexus.HandlerError
	if err := op.Cancel(context.Background(), "not a token", nexus.CancelOperationOptions{}); !errors.As(err, &herr) || herr.Type != nexus.HandlerErrorTypeBadRequest {
		t.Errorf("an invalid token: %v, want BAD_REQUEST", err)
	}
}
