package rpc

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// The bounded service's calls reach the server with the call's budget as
// their deadline; long polls and GetSystemInfo with their own; the plain
// service's calls with the attempt timeout alone.
func TestBoundedServiceGivesEachCallTheBudgetTheSDKGivesIt(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{Retry: RetryPolicy{AttemptTimeout: 30 * time.Second, LongPollAttemptTimeout: 90 * time.Second}})
	const budget = 3 * time.Second
	bounded := c.BoundedWorkflowService(budget, nil)
	ctx := context.Background()

	calls := []struct {
		name    string
		call    func() error
		method  string
		atMost  time.Duration // of the deadline the server saw, from the call's start
		atLeast time.Duration
	}{
		{"a start through the bounded service", func() error {
			_, err := bounded.StartWorkflowExecution(ctx, &workflowservice.StartWorkflowExecutionRequest{})
			return err
		}, "StartWorkflowExecution", budget, 0},
		{"a start through the plain service", func() error {
			_, err := c.WorkflowService().StartWorkflowExecution(ctx, &workflowservice.StartWorkflowExecutionRequest{})
			return err
		}, "StartWorkflowExecution", 30 * time.Second, 20 * time.Second},
		{"a page of history", func() error {
			_, err := bounded.GetWorkflowExecutionHistory(ctx, &workflowservice.GetWorkflowExecutionHistoryRequest{})
			return err
		}, "GetWorkflowExecutionHistory", budget, 0},
		{"a long poll of history", func() error {
			_, err := bounded.GetWorkflowExecutionHistory(ctx, &workflowservice.GetWorkflowExecutionHistoryRequest{WaitNewEvent: true})
			return err
		}, "GetWorkflowExecutionHistory", 90 * time.Second, 60 * time.Second},
		{"a task poll", func() error {
			_, err := bounded.PollWorkflowTaskQueue(ctx, &workflowservice.PollWorkflowTaskQueueRequest{})
			return err
		}, "PollWorkflowTaskQueue", 90 * time.Second, 60 * time.Second},
		{"GetSystemInfo", func() error {
			_, err := bounded.GetSystemInfo(ctx, &workflowservice.GetSystemInfoRequest{})
			return err
		}, "GetSystemInfo", 30 * time.Second, 20 * time.Second},
	}
	for _, tc := range calls {
		t.Run(tc.name, func(t *testing.T) {
			before := len(f.received())
			start := time.Now()
			must(t, tc.call())
			got := f.received()[before:]
			if len(got) != 1 || shortName(got[0].method) != tc.method {
				t.Fatalf("the server saw %v, want one %s", got, tc.method)
			}
			if got[0].deadline.IsZero() {
				t.Fatalf("%s reached the server without a deadline", tc.method)
			}
			// The server derives its deadline from the time left that the
			// client sends, rounded: allow it a second over.
			left := got[0].deadline.Sub(start)
			if left > tc.atMost+time.Second || left < tc.atLeast {
				t.Errorf("%s reached the server with %v left, want between %v and %v", tc.method, left, tc.atLeast, tc.atMost)
			}
		})
	}
}

// A call whose failures are retryable ends when the budget does, with a
// DeadlineExceeded that quotes the last failure, though the caller's
// context has no deadline.
func TestBoundedServiceEndsRetriesWithTheBudget(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{Retry: RetryPolicy{InitialInterval: 10 * time.Millisecond, MaximumInterval: 20 * time.Millisecond}})
	unavailable := make([]error, 1000)
	for i := range unavailable {
		unavailable[i] = status.Error(codes.Unavailable, "the frontend is restarting")
	}
	f.failNext("StartWorkflowExecution", unavailable...)
	_, err := c.BoundedWorkflowService(300*time.Millisecond, nil).StartWorkflowExecution(context.Background(), &workflowservice.StartWorkflowExecutionRequest{})
	var deadline *serviceerror.DeadlineExceeded
	if !errors.As(err, &deadline) {
		t.Fatalf("got %v (%T), want *serviceerror.DeadlineExceeded", err, err)
	}
	if n := f.count("StartWorkflowExecution"); n < 2 {
		t.Errorf("the call was tried %d times within its budget, want retries", n)
	}
}

func TestBoundedServiceTakesTheDefaultForZero(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{Retry: RetryPolicy{AttemptTimeout: 30 * time.Second}})
	start := time.Now()
	_, err := c.BoundedWorkflowService(0, nil).StartWorkflowExecution(context.Background(), &workflowservice.StartWorkflowExecutionRequest{})
	must(t, err)
	got := f.received()
	if left := got[len(got)-1].deadline.Sub(start); left > DefaultCallTimeout+time.Second || left < DefaultCallTimeout/2 {
		t.Errorf("the call reached the server with %v left, want about DefaultCallTimeout (%v)", left, DefaultCallTimeout)
	}
}
