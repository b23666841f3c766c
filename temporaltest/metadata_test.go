package temporaltest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/temporaltest"
	"github.com/durable-go/sdk/workflow"
)

// Parent starts a child with a summary and waits for it.
func Parent(ctx workflow.Context) error {
	ctx = workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
		WorkflowID: "summarized-child", StaticSummary: "the child", StaticDetails: "what it does",
	})
	return workflow.ExecuteChildWorkflow(ctx, Attributed, "done").Get(ctx, nil)
}

// history reads a run's whole history.
func history(t *testing.T, c client.Client, workflowID, runID string) []*historypb.HistoryEvent {
	t.Helper()
	iter := c.GetWorkflowHistory(context.Background(), workflowID, runID, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var events []*historypb.HistoryEvent
	for iter.HasNext() {
		ev, err := iter.Next()
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, ev)
	}
	return events
}

func decodeString(t *testing.T, p *commonpb.Payload) string {
	t.Helper()
	var s string
	if p == nil {
		return ""
	}
	if err := converter.GetDefaultDataConverter().FromPayload(p, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestAStartsSummaryAndDetailsAreKeptAndDescribed(t *testing.T) {
	_, c := start(t, temporaltest.ServerOptions{})
	startWorker(t, c, "summaries", []any{Parent, Attributed}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "summarized", TaskQueue: "summaries",
		StaticSummary: "a summary", StaticDetails: "some details"}, Parent)
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string][2]string{"summarized": {"a summary", "some details"}, "summarized-child": {"the child", "what it does"}} {
		described, err := c.DescribeWorkflow(ctx, id, "")
		if err != nil {
			t.Fatal(err)
		}
		summary, err := described.GetStaticSummary()
		if err != nil {
			t.Fatal(err)
		}
		details, err := described.GetStaticDetails()
		if err != nil {
			t.Fatal(err)
		}
		if summary != want[0] || details != want[1] {
			t.Errorf("%s is described with summary %q and details %q; want %q", id, summary, details, want)
		}
		metadata := history(t, c, id, "")[0].GetUserMetadata()
		if got := decodeString(t, metadata.GetSummary()); got != want[0] {
			t.Errorf("%s's started event has the summary %q; want %q", id, got, want[0])
		}
	}
}

func TestACancelRequestKeepsItsReasonAndIsMadeOnce(t *testing.T) {
	_, c := start(t, temporaltest.ServerOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "canceled", TaskQueue: "nobody-polls"}, Attributed, "wait")
	if err != nil {
		t.Fatal(err)
	}
	for _, reason := range []string{"customer left", "asked again"} {
		if err := c.CancelWorkflowWithOptions(ctx, client.CancelWorkflowOptions{WorkflowID: run.GetID(), RunID: run.GetRunID(), Reason: reason}); err != nil {
			t.Fatal(err)
		}
	}
	var requested []*historypb.WorkflowExecutionCancelRequestedEventAttributes
	for _, ev := range history(t, c, run.GetID(), run.GetRunID()) {
		if a := ev.GetWorkflowExecutionCancelRequestedEventAttributes(); a != nil {
			requested = append(requested, a)
		}
	}
	if len(requested) != 1 || requested[0].GetCause() != "customer left" {
		t.Errorf("cancel requests in history: %v; want one, with the first request's reason", requested)
	}
	desc, err := c.DescribeWorkflowExecution(ctx, run.GetID(), run.GetRunID())
	if err != nil {
		t.Fatal(err)
	}
	if !desc.GetWorkflowExtendedInfo().GetCancelRequested() {
		t.Error("Describe does not say the cancellation was requested")
	}
	if err := c.TerminateWorkflow(ctx, run.GetID(), run.GetRunID(), "done"); err != nil {
		t.Fatal(err)
	}
	if err := c.CancelWorkflow(ctx, run.GetID(), run.GetRunID()); err != nil {
		t.Errorf("a cancel request of a closed run: %v; want it taken as done, as a server takes it", err)
	}
}

func TestHistoryReadsInReverse(t *testing.T) {
	srv, c := start(t, temporaltest.ServerOptions{})
	startWorker(t, c, "reverse", []any{Everything, Child}, []any{Greet})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "reverse", TaskQueue: "reverse"}, Everything, "Temporal", 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SignalWorkflow(ctx, "reverse", "", "finish", "done"); err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	forward := history(t, c, run.GetID(), run.GetRunID())
	var reversed []int64
	var token []byte
	for {
		resp, err := c.WorkflowService().GetWorkflowExecutionHistoryReverse(ctx, &workflowservice.GetWorkflowExecutionHistoryReverseRequest{
			Namespace: srv.Namespace(), Execution: &commonpb.WorkflowExecution{WorkflowId: run.GetID(), RunId: run.GetRunID()},
			MaximumPageSize: 3, NextPageToken: token,
		})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(resp.GetHistory().GetEvents()); n > 3 || n == 0 {
			t.Fatalf("a page of %d events, asked for 3", n)
		}
		for _, ev := range resp.GetHistory().GetEvents() {
			reversed = append(reversed, ev.GetEventId())
		}
		if token = resp.GetNextPageToken(); len(token) == 0 {
			break
		}
	}
	var want []int64
	for i := len(forward) - 1; i >= 0; i-- {
		want = append(want, forward[i].GetEventId())
	}
	if fmt.Sprint(reversed) != fmt.Sprint(want) {
		t.Errorf("read in reverse: %v; want %v", reversed, want)
	}
}
