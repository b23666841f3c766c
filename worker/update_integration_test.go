package worker_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

func double(_ context.Context, n int) (int, error) { return 2 * n, nil }

// panicOnce makes the next "add" of 7 panic once, failing its workflow
// task.
var panicOnce atomic.Bool

// cartWorkflow keeps a total that "add" updates raise by twice their
// argument (computed by an activity), until "done" is signaled.
func cartWorkflow(ctx workflow.Context) (int, error) {
	total := 0
	err := workflow.SetUpdateHandlerWithOptions(ctx, "add", func(ctx workflow.Context, n int) (int, error) {
		if n == 13 {
			return 0, errors.New("unlucky number")
		}
		if n == 7 && panicOnce.CompareAndSwap(true, false) { //workflowcheck:ignore the test fails one workflow task, in whichever worker runs it
			panic("the handler broke once")
		}
		if n == 100 { // takes a while: a worker may stop meanwhile
			if err := workflow.Sleep(ctx, 2*time.Second); err != nil {
				return 0, err
			}
		}
		actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
		var doubled int
		if err := workflow.ExecuteActivity(actx, double, n).Get(ctx, &doubled); err != nil {
			return 0, err
		}
		total += doubled
		return total, nil
	}, workflow.UpdateHandlerOptions{
		Validator: func(n int) error {
			if n < 0 {
				return errors.New("negative amounts are refused")
			}
			return nil
		},
		Description: "adds twice the amount",
	})
	if err != nil {
		return 0, err
	}
	if err := workflow.SetQueryHandler(ctx, "total", func() (int, error) { return total, nil }); err != nil {
		return 0, err
	}
	workflow.GetSignalChannel(ctx, "done").Receive(ctx, nil)
	if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
		return 0, err
	}
	return total, nil
}

// sendUpdate sends an update with the client and waits for its outcome.
func sendUpdate(ctx context.Context, c client.Client, workflowID, updateID, name string, arg any) (int, error) {
	handle, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID:   workflowID,
		UpdateID:     updateID,
		UpdateName:   name,
		Args:         []any{arg},
		WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err != nil {
		return 0, err
	}
	var result int
	err = handle.Get(ctx, &result)
	return result, err
}

func TestUpdatesOnADevServer(t *testing.T) {
	c := dial(t)
	register := func(w worker.Worker) {
		w.RegisterWorkflow(cartWorkflow)
		w.RegisterActivity(double)
	}
	ctx := testCtx(t)
	// The first update is sent before any worker runs: it arrives with the
	// workflow's first task, before the code has set its handler.
	taskQueue := unique(t, "tq")
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "cart"), TaskQueue: taskQueue}, cartWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	early := make(chan error, 1)
	go func() {
		got, err := sendUpdate(ctx, c, run.GetID(), "early", "add", 1)
		if err == nil && got != 2 {
			err = errors.New("the early update's result is wrong")
		}
		early <- err
	}()
	time.Sleep(300 * time.Millisecond)
	_, w := startWorkerOn(t, c, taskQueue, register)
	if err := <-early; err != nil {
		t.Fatalf("an update sent before the first task: %v", err)
	}

	check := func(updateID string, arg int, want int, wantErr string) {
		t.Helper()
		got, err := sendUpdate(ctx, c, run.GetID(), updateID, "add", arg)
		switch {
		case wantErr != "" && (err == nil || err.Error() != wantErr):
			t.Fatalf("update %s: got %v, want the error %q", updateID, err, wantErr)
		case wantErr == "" && (err != nil || got != want):
			t.Fatalf("update %s: got %d, %v; want %d", updateID, got, err, want)
		}
	}
	check("a", 2, 6, "")
	check("a", 2, 6, "") // the same update ID again: deduplicated, not run twice
	check("refused", -1, 0, "negative amounts are refused")
	check("unlucky", 13, 0, "unlucky number")
	if _, err := sendUpdate(ctx, c, run.GetID(), "no-handler", "remove", 1); err == nil || err.Error() != "unknown update remove. KnownUpdates=[add]" {
		t.Fatalf("an update without a handler is rejected: %v", err)
	}
	panicOnce.Store(true)
	check("after a failed task", 7, 20, "") // the task fails once, is retried, and nothing is lost

	// A worker stopped mid-update: another one finishes it.
	slow := make(chan error, 1)
	go func() {
		got, err := sendUpdate(ctx, c, run.GetID(), "slow", "add", 100)
		if err == nil && got != 220 {
			err = errors.New("the slow update's result is wrong")
		}
		slow <- err
	}()
	time.Sleep(500 * time.Millisecond)
	w.Stop()
	worker.PurgeStickyWorkflowCache()
	startWorkerOn(t, c, taskQueue, register)
	if err := <-slow; err != nil {
		t.Fatalf("an update whose worker restarted: %v", err)
	}

	if err := c.SignalWorkflow(ctx, run.GetID(), "", "done", nil); err != nil {
		t.Fatal(err)
	}
	var total int
	if err := run.Get(ctx, &total); err != nil || total != 220 {
		t.Fatalf("total %d, %v; want 220", total, err)
	}
	history := serverHistory(t, c, run)
	for _, ev := range history.GetEvents() {
		if a := ev.GetWorkflowExecutionUpdateAcceptedEventAttributes(); a != nil && a.GetProtocolInstanceId() == "refused" {
			t.Fatal("a rejected update must leave no trace in history")
		}
	}
	replayer := worker.NewWorkflowReplayer()
	replayer.RegisterWorkflow(cartWorkflow)
	if err := replayer.ReplayWorkflowHistory(nil, history); err != nil {
		t.Fatalf("the history with updates replays: %v", err)
	}
}
