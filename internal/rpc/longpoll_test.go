package rpc

import (
	"context"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"
)

func TestIsLongPoll(t *testing.T) {
	ws := "/temporal.api.workflowservice.v1.WorkflowService/"
	for _, tc := range []struct {
		method string
		req    any
		want   bool
	}{
		{"PollWorkflowTaskQueue", &workflowservice.PollWorkflowTaskQueueRequest{}, true},
		{"PollActivityTaskQueue", &workflowservice.PollActivityTaskQueueRequest{}, true},
		{"PollNexusTaskQueue", &workflowservice.PollNexusTaskQueueRequest{}, true},
		{"UpdateWorkflowExecution", &workflowservice.UpdateWorkflowExecutionRequest{}, true},
		{"PollWorkflowExecutionUpdate", &workflowservice.PollWorkflowExecutionUpdateRequest{}, true},
		{"ExecuteMultiOperation", &workflowservice.ExecuteMultiOperationRequest{}, true},
		{"GetWorkflowExecutionHistory", &workflowservice.GetWorkflowExecutionHistoryRequest{WaitNewEvent: true}, true},
		{"GetWorkflowExecutionHistory", &workflowservice.GetWorkflowExecutionHistoryRequest{}, false},
		{"StartWorkflowExecution", &workflowservice.StartWorkflowExecutionRequest{}, false},
		{"RespondWorkflowTaskCompleted", &workflowservice.RespondWorkflowTaskCompletedRequest{}, false},
	} {
		if got := IsLongPoll(ws+tc.method, tc.req); got != tc.want {
			t.Errorf("IsLongPoll(%s, %v) = %v, want %v", tc.method, tc.req, got, tc.want)
		}
	}
}

// wantDeadline checks the time the server was given for its last call.
// The server computes its deadline from the timeout we send, so it lands
// a transmission delay after ours.
func wantDeadline(t *testing.T, f *fakeServer, sent time.Time, want time.Duration, what string) {
	t.Helper()
	c := lastCall(t, f)
	if c.deadline.IsZero() {
		t.Fatalf("%s arrived without a deadline", what)
	}
	if got := c.deadline.Sub(sent); got < want-500*time.Millisecond || got > want+time.Second {
		t.Errorf("%s: server got %v, want about %v", what, got, want)
	}
}

func TestAttemptDeadlines(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{})
	ws := c.WorkflowService()
	bg := context.Background()

	sent := time.Now()
	_, err := ws.GetSystemInfo(bg, &workflowservice.GetSystemInfoRequest{})
	must(t, err)
	wantDeadline(t, f, sent, 10*time.Second, "ordinary call without deadline")

	sent = time.Now()
	_, err = ws.PollWorkflowTaskQueue(bg, &workflowservice.PollWorkflowTaskQueueRequest{Namespace: "default"})
	must(t, err)
	wantDeadline(t, f, sent, 70*time.Second, "task queue poll")

	sent = time.Now()
	_, err = ws.GetWorkflowExecutionHistory(bg, &workflowservice.GetWorkflowExecutionHistoryRequest{Namespace: "default", WaitNewEvent: true})
	must(t, err)
	wantDeadline(t, f, sent, 70*time.Second, "history wait")

	sent = time.Now()
	_, err = ws.GetWorkflowExecutionHistory(bg, &workflowservice.GetWorkflowExecutionHistoryRequest{Namespace: "default"})
	must(t, err)
	wantDeadline(t, f, sent, 10*time.Second, "history page without wait")
}

func TestCallerDeadlineBoundsAttempts(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{})

	sent := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := c.WorkflowService().PollWorkflowTaskQueue(ctx, &workflowservice.PollWorkflowTaskQueueRequest{Namespace: "default"})
	must(t, err)
	wantDeadline(t, f, sent, 2*time.Second, "poll with a 2s caller deadline")

	sent = time.Now()
	long, cancelLong := context.WithTimeout(context.Background(), time.Hour)
	defer cancelLong()
	_, err = c.WorkflowService().StartWorkflowExecution(long, &workflowservice.StartWorkflowExecutionRequest{Namespace: "default"})
	must(t, err)
	wantDeadline(t, f, sent, 10*time.Second, "one attempt never gets more than AttemptTimeout")
}

func TestLongPollOutlivesOrdinaryAttemptTimeout(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{Retry: RetryPolicy{AttemptTimeout: 100 * time.Millisecond, LongPollAttemptTimeout: 5 * time.Second}})
	f.delayNext("PollWorkflowTaskQueue", 500*time.Millisecond)

	_, err := c.WorkflowService().PollWorkflowTaskQueue(context.Background(), &workflowservice.PollWorkflowTaskQueueRequest{Namespace: "default"})

	must(t, err)
	// Answered, not cut short and retried.
	wantCalls(t, f, "PollWorkflowTaskQueue", 1)
}
