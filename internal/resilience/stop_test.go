package resilience

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// stuckActivity is an activity whose first attempt ignores its context:
// it tells the test it runs, then waits for release whatever happens to
// its context, and reports that context's cause on causes.
type stuckActivity struct {
	started chan struct{}
	release chan struct{}
	causes  chan error
}

func (s *stuckActivity) IgnoresCancel(ctx context.Context) (string, error) {
	if activity.GetInfo(ctx).Attempt > 1 {
		return "a later attempt", nil
	}
	close(s.started)
	<-s.release
	s.causes <- context.Cause(ctx)
	return "the first attempt", nil
}

func RunsAStuckActivity(ctx workflow.Context) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 5 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: 100 * time.Millisecond},
	})
	var out string
	err := workflow.ExecuteActivity(ctx, "IgnoresCancel").Get(ctx, &out)
	return out, err
}

// TestStopReturnsWhileAnActivityIgnoresItsContext stops a worker while an
// activity's code ignores its canceled context, as go.temporal.io/sdk's
// worker does with its default WorkerStopTimeout (0): Stop cancels the
// activity's context with ErrWorkerShutdown and returns, naming the
// activity in a warning. The only goroutine the worker leaves is the one
// that runs the activity's code, which is the user's from then on; once
// that code returns and its result is reported, none is left. The
// workflow completes on a worker started afterwards.
func TestStopReturnsWhileAnActivityIgnoresItsContext(t *testing.T) {
	logs := &lineLogger{}
	c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), Logger: logs})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	before := settledGoroutines()
	tq := unique(t, "tq")
	stuck := &stuckActivity{started: make(chan struct{}), release: make(chan struct{}), causes: make(chan error, 1)}
	register := func(w worker.Worker) {
		w.RegisterWorkflow(RunsAStuckActivity)
		w.RegisterActivity(stuck)
	}
	w := worker.New(c, tq, worker.Options{})
	register(w)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	id := unique(t, "wf")
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: tq}, RunsAStuckActivity)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-stuck.started:
	case <-ctx.Done():
		t.Fatal("the activity did not start")
	}

	stopped := make(chan struct{})
	go func() {
		w.Stop()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-time.After(30 * time.Second):
		close(stuck.release)
		t.Fatal("Stop did not return while the activity's code ignored its canceled context")
	}
	warning := "the worker stopped with activities still running"
	if logs.count(warning) != 1 || logs.count("IgnoresCancel (activity ID 5, workflow ID "+id) != 1 {
		t.Errorf("want one warning naming the activity still running; the worker logged:\n%s", strings.Join(logs.all(), "\n"))
	}
	if logs.count("INFO Started Worker") != 1 || logs.count("INFO Stopped Worker Namespace=default TaskQueue="+tq) != 1 {
		t.Errorf("want the worker's start and stop logged; the worker logged:\n%s", strings.Join(logs.all(), "\n"))
	}
	// What the worker leaves running is the goroutine of the activity's
	// code, and nothing else.
	waitGoroutines(t, before+1, 5*time.Second)

	close(stuck.release)
	if cause := <-stuck.causes; !errors.Is(cause, worker.ErrWorkerShutdown) {
		t.Errorf("the activity's context ended with %v, want worker.ErrWorkerShutdown", cause)
	}
	// Its result is reported (the server still takes it: the attempt has
	// not timed out), and then nothing of the worker runs.
	waitGoroutines(t, before, 10*time.Second)

	restarted := worker.New(c, tq, worker.Options{})
	register(restarted)
	if err := restarted.Start(); err != nil {
		t.Fatal(err)
	}
	defer restarted.Stop()
	var out string
	if err := run.Get(ctx, &out); err != nil || out != "the first attempt" {
		t.Errorf("the workflow returned %q, %v; want the first attempt's result, reported after Stop", out, err)
	}
}

// TestActivityReturningAfterStopAndCloseEndsQuietly stops the worker and
// closes its client while an activity's code ignores its canceled
// context: when the code returns, its report fails on the closed
// connection, which the worker logs, and its goroutine ends; nothing
// panics or races.
func TestActivityReturningAfterStopAndCloseEndsQuietly(t *testing.T) {
	starter := dialDirect(t)
	// Before the worker's client: it is closed before the end.
	before := settledGoroutines()
	logs := &lineLogger{}
	c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), Logger: logs})
	if err != nil {
		t.Fatal(err)
	}
	tq := unique(t, "tq")
	stuck := &stuckActivity{started: make(chan struct{}), release: make(chan struct{}), causes: make(chan error, 1)}
	w := worker.New(c, tq, worker.Options{})
	w.RegisterWorkflow(RunsAStuckActivity)
	w.RegisterActivity(stuck)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run, err := starter.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, RunsAStuckActivity)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = starter.TerminateWorkflow(context.Background(), run.GetID(), "", "the test is over") }()
	select {
	case <-stuck.started:
	case <-ctx.Done():
		t.Fatal("the activity did not start")
	}
	stopped := make(chan struct{})
	go func() {
		w.Stop()
		c.Close()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-time.After(30 * time.Second):
		close(stuck.release)
		t.Fatal("Stop did not return while the activity's code ignored its canceled context")
	}
	close(stuck.release)
	<-stuck.causes
	waitUntil(t, 10*time.Second, "the failed report logged", func() bool {
		return logs.count("reporting an activity's outcome failed") == 1
	})
	waitGoroutines(t, before, 10*time.Second)
}
