package worker_test

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// Replays of runs written on the dev server: the sticky cache, stuck
// runs, and the results of failed and canceled workflows.

var awaitsSignalStarts atomic.Int32

// awaitsSignal waits for a "go" signal and greets the name it carries.
func awaitsSignal(ctx workflow.Context) (string, error) {
	awaitsSignalStarts.Add(1) //workflowcheck:ignore the test counts how often replays run this code
	var name string
	workflow.GetSignalChannel(ctx, "go").Receive(ctx, &name)
	return "hello " + name, nil
}

// TestReplayLeavesTheStickyCacheAlone replays a run, under its own IDs,
// while a worker of the same process holds it in its sticky cache: the
// worker's next task must continue the cached run, not replay it.
func TestReplayLeavesTheStickyCacheAlone(t *testing.T) {
	c := dial(t)
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) { w.RegisterWorkflow(awaitsSignal) })
	awaitsSignalStarts.Store(0)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, awaitsSignal)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the first workflow task", func() bool {
		return countEvents(history(t, c, run.GetID()), enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) >= 1
	})

	r := worker.NewWorkflowReplayer()
	r.RegisterWorkflow(awaitsSignal)
	exec := workflow.Execution{ID: run.GetID(), RunID: run.GetRunID()}
	res, err := r.ReplayWorkflowHistoryWithResult(nil, &historypb.History{Events: history(t, c, run.GetID())},
		worker.ReplayWorkflowHistoryOptions{OriginalExecution: exec})
	if err != nil || res.IsWorkflowCompleted() || !strings.Contains(res.StackTrace, "awaitsSignal") {
		t.Fatalf("the replay must leave the code waiting for the signal: %v, %+v", err, res)
	}
	if err := r.ReplayWorkflowExecution(ctx, c.WorkflowService(), nil, "default", exec); err != nil {
		t.Fatal(err)
	}
	if n := awaitsSignalStarts.Load(); n != 3 {
		t.Fatalf("the worker and two replays run the code; it started %d times", n)
	}

	if err := c.SignalWorkflow(ctx, run.GetID(), run.GetRunID(), "go", "cache"); err != nil {
		t.Fatal(err)
	}
	var greeting string
	if err := run.Get(ctx, &greeting); err != nil || greeting != "hello cache" {
		t.Fatalf("result %q, %v", greeting, err)
	}
	if n := awaitsSignalStarts.Load(); n != 3 {
		t.Fatalf("the worker replayed the run from the start after the replays (the code started %d times): they disturbed its cached run", n)
	}
	var last *historypb.WorkflowTaskScheduledEventAttributes
	for _, ev := range history(t, c, run.GetID()) {
		if a := ev.GetWorkflowTaskScheduledEventAttributes(); a != nil {
			last = a
		}
	}
	if last.GetTaskQueue().GetKind() != enumspb.TASK_QUEUE_KIND_STICKY {
		t.Fatalf("the signal's task must go to the worker's sticky queue, it went to %v", last.GetTaskQueue())
	}
}

// stuckAfterGreet panics after its first activity, so its run is stuck:
// every attempt of its second workflow task fails.
func stuckAfterGreet(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	var greeting string
	if err := workflow.ExecuteActivity(ctx, Greet, name).Get(ctx, &greeting); err != nil {
		return "", err
	}
	panic("cannot handle " + greeting)
}

// fixedAfterGreet is stuckAfterGreet fixed: it shouts the greeting.
func fixedAfterGreet(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	var greeting, shouted string
	if err := workflow.ExecuteActivity(ctx, Greet, name).Get(ctx, &greeting); err != nil {
		return "", err
	}
	err := workflow.ExecuteActivity(ctx, Shout, greeting).Get(ctx, &shouted)
	return shouted, err
}

// TestReplayStuckRun records a run whose workflow task keeps failing and
// replays it past its last completed task: the broken code fails as on
// the worker, the fixed code shows the command it would send.
func TestReplayStuckRun(t *testing.T) {
	c := dial(t)
	ctx := testCtx(t)
	const name = "StuckGreeting"
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) {
		w.RegisterWorkflowWithOptions(stuckAfterGreet, workflow.RegisterOptions{Name: name})
		w.RegisterActivity(Greet)
	})
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, name, "Temporal")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.TerminateWorkflow(ctx, run.GetID(), "", "test over") })
	var events []*historypb.HistoryEvent
	waitFor(t, "the failed workflow task", func() bool {
		events = history(t, c, run.GetID())
		return countEvents(events, enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED) >= 1
	})
	// The history ends at the first failed task: read later, it may end
	// with a retry's WorkflowTaskStarted, a task the replay would run.
	for i, ev := range events {
		if ev.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED {
			events = events[:i+1]
			break
		}
	}
	h := &historypb.History{Events: events}

	broken := worker.NewWorkflowReplayer()
	broken.RegisterWorkflowWithOptions(stuckAfterGreet, workflow.RegisterOptions{Name: name})
	if err := broken.ReplayWorkflowHistory(nil, h); err != nil {
		t.Fatalf("up to the last completed task the code matches: %v", err)
	}
	err = broken.ReplayWorkflowHistoryWithOptions(nil, h, worker.ReplayWorkflowHistoryOptions{RunPendingWorkflowTask: true})
	if err == nil || !strings.Contains(err.Error(), "cannot handle Hello, Temporal!") {
		t.Fatalf("the pending task must fail as on the worker, got %v", err)
	}

	fixed := worker.NewWorkflowReplayer()
	fixed.RegisterWorkflowWithOptions(fixedAfterGreet, workflow.RegisterOptions{Name: name})
	res, err := fixed.ReplayWorkflowHistoryWithResult(nil, h, worker.ReplayWorkflowHistoryOptions{RunPendingWorkflowTask: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PendingCommands) != 1 || res.PendingCommands[0].GetScheduleActivityTaskCommandAttributes().GetActivityType().GetName() != "Shout" {
		t.Fatalf("the fixed code's pending task schedules Shout, got %v", res.PendingCommands)
	}
	if !strings.Contains(res.StackTrace, "fixedAfterGreet") {
		t.Fatalf("the fixed code waits for Shout; stack:\n%s", res.StackTrace)
	}
}

func failsOutOfStock(ctx workflow.Context) error {
	return temporal.NewApplicationError("out of stock", "StockError")
}

func sleepsUntilCanceled(ctx workflow.Context) error {
	return workflow.Sleep(ctx, time.Hour)
}

// TestReplayReturnsTheWorkflowError replays runs that failed and were
// canceled: the replay returns the error the code returned.
func TestReplayReturnsTheWorkflowError(t *testing.T) {
	c := dial(t)
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) {
		w.RegisterWorkflow(failsOutOfStock)
		w.RegisterWorkflow(sleepsUntilCanceled)
	})
	r := worker.NewWorkflowReplayer()
	r.RegisterWorkflow(failsOutOfStock)
	r.RegisterWorkflow(sleepsUntilCanceled)

	failed, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "failed"), TaskQueue: tq}, failsOutOfStock)
	if err != nil {
		t.Fatal(err)
	}
	if err := failed.Get(ctx, nil); err == nil {
		t.Fatal("the workflow must fail")
	}
	res, err := r.ReplayWorkflowHistoryWithResult(nil, &historypb.History{Events: history(t, c, failed.GetID())}, worker.ReplayWorkflowHistoryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var appErr *temporal.ApplicationError
	if !res.IsWorkflowCompleted() || !errors.As(res.GetWorkflowError(), &appErr) || appErr.Type() != "StockError" {
		t.Fatalf("want the StockError the code returned, got %v", res.GetWorkflowError())
	}
	if err := res.GetWorkflowResult(nil); !errors.As(err, &appErr) {
		t.Fatalf("GetWorkflowResult must return the workflow's error, got %v", err)
	}

	canceled, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "canceled"), TaskQueue: tq}, sleepsUntilCanceled)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the timer", func() bool {
		return countEvents(history(t, c, canceled.GetID()), enumspb.EVENT_TYPE_TIMER_STARTED) >= 1
	})
	if err := c.CancelWorkflow(ctx, canceled.GetID(), ""); err != nil {
		t.Fatal(err)
	}
	if err := canceled.Get(ctx, nil); !temporal.IsCanceledError(err) {
		t.Fatalf("the workflow must end canceled, got %v", err)
	}
	res, err = r.ReplayWorkflowHistoryWithResult(nil, &historypb.History{Events: history(t, c, canceled.GetID())}, worker.ReplayWorkflowHistoryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsWorkflowCompleted() || !temporal.IsCanceledError(res.GetWorkflowError()) {
		t.Fatalf("want a canceled error, got %v", res.GetWorkflowError())
	}
}
