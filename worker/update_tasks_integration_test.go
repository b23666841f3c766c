package worker_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
)

// An update usually starts a speculative workflow task, whose events the
// server keeps only if the task records something (it accepts the update):
// until then they are in the task alone, not in the history a worker can
// fetch. These tests run updates where the worker has no state for the
// run, and must build it from fetched history and the task's own events.

func registerAccounts(w worker.Worker) {
	w.RegisterWorkflow(AccountWorkflow)
	w.RegisterActivity(Greet)
}

// sendDeposit sends a deposit update and returns the new balance.
func sendDeposit(ctx context.Context, c client.Client, workflowID, updateID string, amount int) (int, error) {
	handle, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: workflowID, UpdateID: updateID,
		UpdateName: DepositUpdateName, Args: []any{amount}, WaitForStage: client.WorkflowUpdateStageCompleted})
	if err != nil {
		return 0, err
	}
	var balance int
	err = handle.Get(ctx, &balance)
	return balance, err
}

// awaitWorkflowTaskCompleted waits until the run's history records a
// completed workflow task.
func awaitWorkflowTaskCompleted(t *testing.T, c client.Client, run client.WorkflowRun) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, ev := range serverHistory(t, c, run).GetEvents() {
			if ev.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED {
				return
			}
		}
	}
	t.Fatalf("workflow %s: no workflow task completed", run.GetID())
}

// TestUpdatesToARunDroppedFromTheCache sends updates to a run that the
// sticky cache no longer holds: its speculative workflow task comes to the
// worker's sticky queue with the new events only, and the worker replays
// the run from fetched history, which lacks the task's events.
func TestUpdatesToARunDroppedFromTheCache(t *testing.T) {
	c := dial(t)
	ctx := testCtx(t)
	taskQueue, _ := startWorker(t, c, worker.Options{}, registerAccounts)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "account"), TaskQueue: taskQueue}, AccountWorkflow, 10)
	if err != nil {
		t.Fatal(err)
	}
	awaitWorkflowTaskCompleted(t, c, run)

	worker.PurgeStickyWorkflowCache()
	if _, err := sendDeposit(ctx, c, run.GetID(), "refused", -1); err == nil || err.Error() != "cannot deposit -1: amounts must be positive" {
		t.Fatalf("an update the validator rejects, to a run not cached: %v", err)
	}
	worker.PurgeStickyWorkflowCache()
	if balance, err := sendDeposit(ctx, c, run.GetID(), "accepted", 5); err != nil || balance != 15 {
		t.Fatalf("an update to a run not cached: %d, %v; want 15", balance, err)
	}
	if err := c.SignalWorkflow(ctx, run.GetID(), "", CloseSignalName, nil); err != nil {
		t.Fatal(err)
	}
	var balance int
	if err := run.Get(ctx, &balance); err != nil || balance != 15 {
		t.Fatalf("the workflow returned %d, %v; want 15", balance, err)
	}
}

// TestUpdatesWithoutStickyExecution sends an update as soon as each
// workflow starts, to a worker without a sticky cache. An update that
// arrives while the first workflow task runs comes in a task the server
// hands back with that task's completion, with the new events only, as to
// a sticky worker: the worker goes on from the run it just ran.
func TestUpdatesWithoutStickyExecution(t *testing.T) {
	worker.SetStickyWorkflowCacheSize(0)
	t.Cleanup(func() { worker.SetStickyWorkflowCacheSize(10000) })
	c := dial(t)
	ctx := testCtx(t)
	taskQueue, _ := startWorker(t, c, worker.Options{}, registerAccounts)
	for i := range 10 {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "account"), TaskQueue: taskQueue}, AccountWorkflow, i)
		if err != nil {
			t.Fatal(err)
		}
		if balance, err := sendDeposit(ctx, c, run.GetID(), fmt.Sprint("deposit-", i), 5); err != nil || balance != i+5 {
			t.Fatalf("workflow %d: %d, %v; want %d", i, balance, err, i+5)
		}
		if err := c.SignalWorkflow(ctx, run.GetID(), "", CloseSignalName, nil); err != nil {
			t.Fatal(err)
		}
		if err := run.Get(ctx, nil); err != nil {
			t.Fatal(err)
		}
	}
}

// TestARejectedUpdateLeavesTheRunCached sends a cached run updates its
// validator rejects, each followed by one it accepts. The server discards
// a rejected update's speculative workflow task (it recorded nothing), and
// says so in its answer to the completion (ResetHistoryEventId); the next
// task's events take that task's event IDs. Like go.temporal.io/sdk, the
// worker forgets the discarded task and goes on from the cached run, with
// no history to fetch, and tells the server it may discard a task that
// holds events of the last task's commands, so no rejected update leaves
// a workflow task in history.
func TestARejectedUpdateLeavesTheRunCached(t *testing.T) {
	var mu sync.Mutex
	var historyFetches, resets int
	count := func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		err := invoker(ctx, method, req, reply, cc, opts...)
		mu.Lock()
		defer mu.Unlock()
		switch r := reply.(type) {
		case *workflowservice.GetWorkflowExecutionHistoryResponse:
			historyFetches++
		case *workflowservice.RespondWorkflowTaskCompletedResponse:
			if r.GetResetHistoryEventId() != 0 {
				resets++
			}
		}
		return err
	}
	workerClient := dialWith(t, client.Options{ConnectionOptions: client.ConnectionOptions{
		DialOptions: []grpc.DialOption{grpc.WithChainUnaryInterceptor(count)}}})
	c := dial(t)
	ctx := testCtx(t)
	taskQueue, _ := startWorker(t, workerClient, worker.Options{}, registerAccounts)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "account"), TaskQueue: taskQueue}, AccountWorkflow, 10)
	if err != nil {
		t.Fatal(err)
	}
	awaitWorkflowTaskCompleted(t, c, run)
	refuse := func(updateID string) {
		t.Helper()
		if _, err := sendDeposit(ctx, c, run.GetID(), updateID, -1); err == nil || err.Error() != "cannot deposit -1: amounts must be positive" {
			t.Fatalf("an update the validator rejects: %v", err)
		}
	}
	// The first rejected update's task follows a task without commands;
	// the second's holds the events of the accepted update's messages,
	// which the worker has not seen.
	refuse("refused-1")
	if balance, err := sendDeposit(ctx, c, run.GetID(), "accepted-1", 5); err != nil || balance != 15 {
		t.Fatalf("an update after the rejected one: %d, %v; want 15", balance, err)
	}
	refuse("refused-2")
	if balance, err := sendDeposit(ctx, c, run.GetID(), "accepted-2", 5); err != nil || balance != 20 {
		t.Fatalf("an update after the rejected one: %d, %v; want 20", balance, err)
	}
	if err := c.SignalWorkflow(ctx, run.GetID(), "", CloseSignalName, nil); err != nil {
		t.Fatal(err)
	}
	var balance int
	if err := run.Get(ctx, &balance); err != nil || balance != 20 {
		t.Fatalf("the workflow returned %d, %v; want 20", balance, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if resets != 2 {
		t.Fatalf("the server discarded %d workflow tasks, want 2 (the rejected updates'); the test no longer shows what it is about", resets)
	}
	if historyFetches != 0 {
		t.Errorf("the worker fetched history %d times: it replayed the run after the server discarded a task, where it should have gone on from the cache", historyFetches)
	}
	tasks := 0
	for _, ev := range serverHistory(t, c, run).GetEvents() {
		if a := ev.GetWorkflowTaskFailedEventAttributes(); a != nil {
			t.Errorf("workflow task failed at event %d: %s", ev.GetEventId(), a.GetFailure().GetMessage())
		}
		if ev.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED {
			tasks++
		}
	}
	// The first, the two accepted updates', the close signal's: the
	// rejected updates left no workflow task.
	if tasks != 4 {
		t.Errorf("history holds %d completed workflow tasks, want 4", tasks)
	}
}
