package worker_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/devserver"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// stepsAcrossRestart runs an activity, sleeps, and runs another, so a
// server restart lands in the middle.
func stepsAcrossRestart(ctx workflow.Context, n int) (int, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	if err := workflow.ExecuteActivity(ctx, Increment, n).Get(ctx, &n); err != nil {
		return 0, err
	}
	if err := workflow.Sleep(ctx, 3*time.Second); err != nil {
		return 0, err
	}
	err := workflow.ExecuteActivity(ctx, Increment, n).Get(ctx, &n)
	return n, err
}

// TestServerRestartWhileWorking stops the server while a worker polls and
// workflows are in flight, and starts it again on the same address and
// database: the worker reconnects by itself and every workflow completes
// with its result.
func TestServerRestartWhileWorking(t *testing.T) {
	if testing.Short() {
		t.Skip("restarts a server")
	}
	db := filepath.Join(t.TempDir(), "temporal.db")
	opts := devserver.Options{DBFilename: db}
	server, err := devserver.Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = server.Stop() }()
	c, err := client.Dial(client.Options{HostPort: server.HostPort()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tq := unique(t, "tq")
	w := worker.New(c, tq, worker.Options{})
	w.RegisterWorkflow(stepsAcrossRestart)
	w.RegisterActivity(Increment)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var runs []client.WorkflowRun
	for i := range 5 {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: fmt.Sprintf("%s-%d", unique(t, "wf"), i), TaskQueue: tq}, stepsAcrossRestart, i*10)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, run)
	}
	time.Sleep(time.Second) // first activities done, timers running
	if err := server.Stop(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second) // the worker polls a dead server
	opts.HostPort = server.HostPort()
	server, err = devserver.Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	for i, run := range runs {
		var n int
		if err := run.Get(ctx, &n); err != nil {
			t.Fatalf("workflow %d: %v", i, err)
		}
		if n != i*10+2 {
			t.Fatalf("workflow %d: result %d, want %d", i, n, i*10+2)
		}
	}
}

var stopStarted = make(chan struct{}, 1)

// untilStopped runs its first attempt until its context ends (the worker
// stops); a retry completes at once and says which attempt it is.
func untilStopped(ctx context.Context) (string, error) {
	attempt := activity.GetInfo(ctx).Attempt
	if attempt == 1 {
		stopStarted <- struct{}{}
		<-ctx.Done()
		return "", ctx.Err()
	}
	return fmt.Sprintf("attempt %d", attempt), nil
}

func retriedElsewhere(ctx workflow.Context) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var s string
	err := workflow.ExecuteActivity(ctx, untilStopped).Get(ctx, &s)
	return s, err
}

// TestWorkerStoppedMidActivityLosesNothing stops a worker while its
// activity runs: the activity is retried on another worker and the
// workflow completes.
func TestWorkerStoppedMidActivityLosesNothing(t *testing.T) {
	c := dial(t)
	ctx := testCtx(t)
	tq := unique(t, "tq")
	register := func(w worker.Worker) {
		w.RegisterWorkflow(retriedElsewhere)
		w.RegisterActivity(untilStopped)
	}
	first := worker.New(c, tq, worker.Options{Identity: "first"})
	register(first)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, retriedElsewhere)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-stopStarted:
	case <-ctx.Done():
		t.Fatal("the activity never started")
	}
	first.Stop()
	second := worker.New(c, tq, worker.Options{Identity: "second"})
	register(second)
	if err := second.Start(); err != nil {
		t.Fatal(err)
	}
	defer second.Stop()
	var s string
	if err := run.Get(ctx, &s); err != nil || s != "attempt 2" {
		t.Fatalf("the retry must complete the workflow: %q, %v", s, err)
	}
}

var gracefulStarted = make(chan struct{}, 1)

// finishesInASecond takes a second unless canceled.
func finishesInASecond(ctx context.Context) (string, error) {
	gracefulStarted <- struct{}{}
	select {
	case <-time.After(time.Second):
		return "finished", nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func gracefulWorkflow(ctx workflow.Context) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var s string
	err := workflow.ExecuteActivity(ctx, finishesInASecond).Get(ctx, &s)
	return s, err
}

// TestGracefulStopLetsActivitiesFinish stops a worker whose activity is
// running: with a stop timeout longer than the activity, Stop waits for it,
// and its result is reported.
func TestGracefulStopLetsActivitiesFinish(t *testing.T) {
	c := dial(t)
	ctx := testCtx(t)
	tq := unique(t, "tq")
	w := worker.New(c, tq, worker.Options{WorkerStopTimeout: 10 * time.Second})
	w.RegisterWorkflow(gracefulWorkflow)
	w.RegisterActivity(finishesInASecond)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, gracefulWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	<-gracefulStarted
	stopped := time.Now()
	w.Stop()
	if waited := time.Since(stopped); waited < 500*time.Millisecond {
		t.Fatalf("Stop returned after %v, before the running activity finished", waited)
	}
	// A new worker finishes the workflow with the result the stopped one
	// reported.
	second := worker.New(c, tq, worker.Options{})
	second.RegisterWorkflow(gracefulWorkflow)
	second.RegisterActivity(finishesInASecond)
	if err := second.Start(); err != nil {
		t.Fatal(err)
	}
	defer second.Stop()
	var s string
	if err := run.Get(ctx, &s); err != nil || s != "finished" {
		t.Fatalf("result %q, %v", s, err)
	}
}
