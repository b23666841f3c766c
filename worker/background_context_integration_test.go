package worker_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

type dependencyKey struct{}

// A worker's BackgroundActivityContext is the parent of its activities'
// contexts; the activities still running when the stop timeout ends are
// canceled with ErrWorkerShutdown as the cause.
func TestBackgroundActivityContextAndErrWorkerShutdown(t *testing.T) {
	c := dial(t)
	seen := make(chan any, 1)
	causes := make(chan error, 1)
	runsUntilStopped := func(ctx context.Context) error {
		seen <- ctx.Value(dependencyKey{})
		<-ctx.Done()
		causes <- context.Cause(ctx)
		return ctx.Err()
	}
	wf := func(ctx workflow.Context) error {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
		return workflow.ExecuteActivity(ctx, "runsUntilStopped").Get(ctx, nil)
	}
	background := context.WithValue(context.Background(), dependencyKey{}, "the database")
	tq := unique(t, "tq")
	w := worker.New(c, tq, worker.Options{BackgroundActivityContext: background, WorkerStopTimeout: 100 * time.Millisecond})
	w.RegisterWorkflowWithOptions(wf, workflow.RegisterOptions{Name: "backgroundContextWorkflow"})
	w.RegisterActivityWithOptions(runsUntilStopped, activity.RegisterOptions{Name: "runsUntilStopped"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if _, err := c.ExecuteWorkflow(testCtx(t), client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, "backgroundContextWorkflow"); err != nil {
		t.Fatal(err)
	}
	select {
	case v := <-seen:
		if v != "the database" {
			t.Errorf("the activity's context has %v for the key, want the background context's value", v)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the activity did not start")
	}
	w.Stop()
	select {
	case cause := <-causes:
		if !errors.Is(cause, worker.ErrWorkerShutdown) {
			t.Errorf("the activity was canceled with cause %v, want worker.ErrWorkerShutdown", cause)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the activity was not canceled by the worker's stop")
	}
}
