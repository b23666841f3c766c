package worker_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// queryableWorkflow counts "inc" signals until it gets "stop", answering
// the "count" query meanwhile.
func queryableWorkflow(ctx workflow.Context) (int, error) {
	count := 0
	if err := workflow.SetQueryHandler(ctx, "count", func() (int, error) { return count, nil }); err != nil {
		return 0, err
	}
	inc := workflow.GetSignalChannel(ctx, "inc")
	stop := workflow.GetSignalChannel(ctx, "stop")
	done := false
	for !done {
		sel := workflow.NewSelector(ctx)
		sel.AddReceive(inc, func(c workflow.ReceiveChannel, _ bool) {
			var n int
			c.Receive(ctx, &n)
			count += n
		})
		sel.AddReceive(stop, func(c workflow.ReceiveChannel, _ bool) {
			c.Receive(ctx, nil)
			done = true
		})
		sel.Select(ctx)
	}
	return count, nil
}

func TestSignalsAndQueries(t *testing.T) {
	c := dial(t)
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) { w.RegisterWorkflow(queryableWorkflow) })
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, queryableWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{2, 3} {
		if err := c.SignalWorkflow(ctx, run.GetID(), "", "inc", n); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "the count query to see both signals", func() bool {
		v, err := c.QueryWorkflow(ctx, run.GetID(), "", "count")
		var n int
		return err == nil && v.Get(&n) == nil && n == 5
	})
	v, err := c.QueryWorkflow(ctx, run.GetID(), "", "__stack_trace")
	if err != nil {
		t.Fatal(err)
	}
	var stack string
	if err := v.Get(&stack); err != nil || !strings.Contains(stack, "coroutine root") || !strings.Contains(stack, "queryableWorkflow") {
		t.Fatalf("__stack_trace must show the root coroutine in queryableWorkflow, got %q (%v)", stack, err)
	}
	if _, err := c.QueryWorkflow(ctx, run.GetID(), "", "nope"); err == nil || !strings.Contains(err.Error(), "unknown queryType nope") {
		t.Fatalf("an unknown query must name itself and the known ones, got %v", err)
	}
	if err := c.SignalWorkflow(ctx, run.GetID(), "", "stop", nil); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := run.Get(ctx, &n); err != nil || n != 5 {
		t.Fatalf("result %d, %v", n, err)
	}
}

// heartbeatUntilCanceled heartbeats until its context is canceled, then
// returns the context's error.
func heartbeatUntilCanceled(ctx context.Context) error {
	for {
		activity.RecordHeartbeat(ctx, "working")
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// cancelActivityWorkflow starts a heartbeating activity and cancels it
// after a second, waiting for the activity to acknowledge.
func cancelActivityWorkflow(ctx workflow.Context) (string, error) {
	actCtx, cancel := workflow.WithCancel(ctx)
	actCtx = workflow.WithActivityOptions(actCtx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute, HeartbeatTimeout: 2 * time.Second, WaitForCancellation: true,
	})
	f := workflow.ExecuteActivity(actCtx, heartbeatUntilCanceled)
	if err := workflow.Sleep(ctx, time.Second); err != nil {
		return "", err
	}
	cancel()
	err := f.Get(ctx, nil)
	var actErr *temporal.ActivityError
	if errors.As(err, &actErr) && temporal.IsCanceledError(err) {
		return "activity canceled", nil
	}
	return "", err
}

func TestActivityHeartbeatsAndIsCanceled(t *testing.T) {
	c := dial(t)
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) {
		w.RegisterWorkflow(cancelActivityWorkflow)
		w.RegisterActivity(heartbeatUntilCanceled)
	})
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, cancelActivityWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	var s string
	if err := run.Get(ctx, &s); err != nil || s != "activity canceled" {
		t.Fatalf("result %q, %v", s, err)
	}
	events := history(t, c, run.GetID())
	if countEvents(events, enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED) != 1 || countEvents(events, enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCELED) != 1 {
		t.Fatal("history must show the cancel request and the activity's acknowledgement")
	}
}

var pendingTokens = make(chan []byte, 1)

// completedLater hands its task token to the test and returns
// ErrResultPending: the test completes it through the client.
func completedLater(ctx context.Context) (string, error) {
	pendingTokens <- activity.GetInfo(ctx).TaskToken
	return "", activity.ErrResultPending
}

func asyncWorkflow(ctx workflow.Context) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var s string
	err := workflow.ExecuteActivity(ctx, completedLater).Get(ctx, &s)
	return s, err
}

func TestAsyncActivityCompletion(t *testing.T) {
	c := dial(t)
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) {
		w.RegisterWorkflow(asyncWorkflow)
		w.RegisterActivity(completedLater)
	})
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, asyncWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	var token []byte
	select {
	case token = <-pendingTokens:
	case <-ctx.Done():
		t.Fatal("the activity never ran")
	}
	if err := c.CompleteActivity(ctx, token, "done later", nil); err != nil {
		t.Fatal(err)
	}
	var s string
	if err := run.Get(ctx, &s); err != nil || s != "done later" {
		t.Fatalf("result %q, %v", s, err)
	}
}

var flakyAttempts atomic.Int32

// flaky fails until its third attempt, then reports the attempt.
func flaky(ctx context.Context) (int32, error) {
	flakyAttempts.Add(1)
	attempt := activity.GetInfo(ctx).Attempt
	if attempt < 3 {
		return 0, errors.New("not yet")
	}
	return attempt, nil
}

// fatal fails with a non-retryable error.
func fatal(ctx context.Context) error {
	return temporal.NewNonRetryableApplicationError("card declined", "CardDeclined", nil, "card-42")
}

func retryWorkflow(ctx workflow.Context) (int32, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 10 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: 100 * time.Millisecond, BackoffCoefficient: 1, MaximumAttempts: 5},
	})
	var attempt int32
	if err := workflow.ExecuteActivity(ctx, flaky).Get(ctx, &attempt); err != nil {
		return 0, err
	}
	return attempt, workflow.ExecuteActivity(ctx, fatal).Get(ctx, nil)
}

func TestActivityRetriedByPolicy(t *testing.T) {
	c := dial(t)
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) {
		w.RegisterWorkflow(retryWorkflow)
		w.RegisterActivity(flaky)
		w.RegisterActivity(fatal)
	})
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, retryWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	err = run.Get(ctx, nil)
	var appErr *temporal.ApplicationError
	if !errors.As(err, &appErr) || appErr.Type() != "CardDeclined" || !appErr.NonRetryable() {
		t.Fatalf("want the non-retryable CardDeclined error through the workflow, got %v", err)
	}
	var detail string
	if err := appErr.Details(&detail); err != nil || detail != "card-42" {
		t.Fatalf("details %q, %v", detail, err)
	}
	if flakyAttempts.Load() != 3 {
		t.Fatalf("flaky ran %d times, want 3", flakyAttempts.Load())
	}
}

// resumesFromHeartbeat records progress, fails its first attempt, and on
// the retry returns the progress the first attempt recorded.
func resumesFromHeartbeat(ctx context.Context) (string, error) {
	if activity.GetInfo(ctx).Attempt == 1 {
		activity.RecordHeartbeat(ctx, "page-7")
		time.Sleep(100 * time.Millisecond)
		return "", errors.New("crashed mid-way")
	}
	if !activity.HasHeartbeatDetails(ctx) {
		return "", errors.New("the retry sees no heartbeat details")
	}
	var progress string
	if err := activity.GetHeartbeatDetails(ctx, &progress); err != nil {
		return "", err
	}
	return "resumed from " + progress, nil
}

func heartbeatRetryWorkflow(ctx workflow.Context) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 10 * time.Second, HeartbeatTimeout: 5 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: 100 * time.Millisecond, MaximumAttempts: 3},
	})
	var s string
	err := workflow.ExecuteActivity(ctx, resumesFromHeartbeat).Get(ctx, &s)
	return s, err
}

func TestRetryReadsTheLastHeartbeatDetails(t *testing.T) {
	c := dial(t)
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) {
		w.RegisterWorkflow(heartbeatRetryWorkflow)
		w.RegisterActivity(resumesFromHeartbeat)
	})
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, heartbeatRetryWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	var s string
	if err := run.Get(ctx, &s); err != nil || s != "resumed from page-7" {
		t.Fatalf("result %q, %v", s, err)
	}
}
