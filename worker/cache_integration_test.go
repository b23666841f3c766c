package worker_test

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// threeSteps counts how often its code starts: each replay from the start
// of history runs it again.
var threeStepsStarts atomic.Int32

func threeSteps(ctx workflow.Context) (int, error) {
	threeStepsStarts.Add(1) //workflowcheck:ignore the test counts how often replays run this code
	for i := 0; i < 3; i++ {
		if err := workflow.Sleep(ctx, 200*time.Millisecond); err != nil {
			return 0, err
		}
	}
	return 3, nil
}

func TestStickyCacheAvoidsReplay(t *testing.T) {
	c := dial(t)
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) { w.RegisterWorkflow(threeSteps) })
	threeStepsStarts.Store(0)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, threeSteps)
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if n := threeStepsStarts.Load(); n != 1 {
		t.Fatalf("a cached workflow runs its code once over 4 tasks; it started %d times", n)
	}
}

func TestEvictedWorkflowReplaysCorrectly(t *testing.T) {
	c := dial(t)
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) { w.RegisterWorkflow(threeSteps) })
	threeStepsStarts.Store(0)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, threeSteps)
	if err != nil {
		t.Fatal(err)
	}
	// Evict after the first task: the next task must replay from history.
	waitFor(t, "the first timer", func() bool {
		return countEvents(history(t, c, run.GetID()), enumspb.EVENT_TYPE_TIMER_STARTED) >= 1
	})
	worker.PurgeStickyWorkflowCache()
	var n int
	if err := run.Get(ctx, &n); err != nil || n != 3 {
		t.Fatalf("result %d, %v", n, err)
	}
	if starts := threeStepsStarts.Load(); starts < 2 {
		t.Fatalf("an evicted workflow must be replayed, its code started %d times", starts)
	}
	if failed := countEvents(history(t, c, run.GetID()), enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED); failed != 0 {
		t.Fatalf("replay after eviction must not fail any task, %d failed", failed)
	}
}

var panicWorkflowRuns atomic.Int32

// panicky panics on its first run only, so the retried task succeeds.
func panicky(ctx workflow.Context) (string, error) {
	if panicWorkflowRuns.Add(1) == 1 { //workflowcheck:ignore the test panics on the first run only
		panic("first run panics")
	}
	return "recovered", nil
}

func alwaysPanics(ctx workflow.Context) error { panic("broken workflow code") }

func TestWorkflowPanicFailsTheTaskByDefault(t *testing.T) {
	c := dial(t)
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) { w.RegisterWorkflow(panicky) })
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq, WorkflowTaskTimeout: time.Second}, panicky)
	if err != nil {
		t.Fatal(err)
	}
	var s string
	if err := run.Get(ctx, &s); err != nil || s != "recovered" {
		t.Fatalf("the retried task must succeed: %q, %v", s, err)
	}
	events := history(t, c, run.GetID())
	var failed bool
	for _, e := range events {
		if a := e.GetWorkflowTaskFailedEventAttributes(); a != nil {
			failed = a.GetCause() == enumspb.WORKFLOW_TASK_FAILED_CAUSE_WORKFLOW_WORKER_UNHANDLED_FAILURE &&
				strings.Contains(a.GetFailure().GetMessage(), "first run panics") &&
				strings.Contains(a.GetFailure().GetStackTrace(), "panicky")
		}
	}
	if !failed {
		t.Fatal("history must hold the failed task with the panic message and stack")
	}
}

func TestWorkflowPanicFailsTheWorkflowOnRequest(t *testing.T) {
	c := dial(t)
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{WorkflowPanicPolicy: worker.FailWorkflow}, func(w worker.Worker) { w.RegisterWorkflow(alwaysPanics) })
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, alwaysPanics)
	if err != nil {
		t.Fatal(err)
	}
	err = run.Get(ctx, nil)
	var panicErr *temporal.PanicError
	if err == nil || !strings.Contains(err.Error(), "broken workflow code") {
		t.Fatalf("the workflow must fail with the panic, got %v", err)
	}
	_ = panicErr
}

// greetThenWait runs Greet, then waits for a signal.
func greetThenWait(ctx workflow.Context) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	if err := workflow.ExecuteActivity(ctx, Greet, "x").Get(ctx, nil); err != nil {
		return err
	}
	workflow.GetSignalChannel(ctx, "go").Receive(ctx, nil)
	return nil
}

// shoutThenWait is an incompatible change of greetThenWait.
func shoutThenWait(ctx workflow.Context) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	if err := workflow.ExecuteActivity(ctx, Shout, "x").Get(ctx, nil); err != nil {
		return err
	}
	workflow.GetSignalChannel(ctx, "go").Receive(ctx, nil)
	return nil
}

// TestIncompatibleDeployFailsTasksAsNondeterministic deploys changed code
// for a running workflow: its next task, replayed by the new code, fails
// with the nondeterminism cause and a message that names the difference.
func TestIncompatibleDeployFailsTasksAsNondeterministic(t *testing.T) {
	c := dial(t)
	ctx := testCtx(t)
	tq := unique(t, "tq")
	old := worker.New(c, tq, worker.Options{})
	old.RegisterWorkflowWithOptions(greetThenWait, workflow.RegisterOptions{Name: "Deployed"})
	old.RegisterActivity(Greet)
	if err := old.Start(); err != nil {
		t.Fatal(err)
	}
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, "Deployed")
	if err != nil {
		t.Fatal(err)
	}
	defer c.TerminateWorkflow(ctx, run.GetID(), "", "test done")
	waitFor(t, "the activity to complete", func() bool {
		return countEvents(history(t, c, run.GetID()), enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED) == 1
	})
	old.Stop()
	worker.PurgeStickyWorkflowCache()
	_, _ = startWorkerOn(t, c, tq, func(w worker.Worker) {
		w.RegisterWorkflowWithOptions(shoutThenWait, workflow.RegisterOptions{Name: "Deployed"})
		w.RegisterActivity(Shout)
	})
	if err := c.SignalWorkflow(ctx, run.GetID(), "", "go", nil); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the nondeterministic task failure", func() bool {
		for _, e := range history(t, c, run.GetID()) {
			if a := e.GetWorkflowTaskFailedEventAttributes(); a != nil {
				return a.GetCause() == enumspb.WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR &&
					strings.Contains(a.GetFailure().GetMessage(), `activity type differs ("Greet" in history, "Shout" in code)`)
			}
		}
		return false
	})
}

// Runs of waitUntilReleased report when they let go of their coroutine:
// the worker closed them, which unwinds the code and runs its deferred
// calls. Each time the code starts (again, when a run is rebuilt from
// history to answer a query) it counts as an instance of its own.
var (
	instances sync.Map // workflow ID -> *atomic.Int32, instances started
	released  sync.Map // workflow ID -> chan int32, instances released
)

func releasedChannel(workflowID string) chan int32 {
	ch, _ := released.LoadOrStore(workflowID, make(chan int32, 8))
	return ch.(chan int32)
}

// waitUntilReleased waits for a signal that never comes.
func waitUntilReleased(ctx workflow.Context) error {
	id := workflow.GetInfo(ctx).WorkflowExecution.ID
	counter, _ := instances.LoadOrStore(id, new(atomic.Int32)) //workflowcheck:ignore the test counts how often the code starts
	instance := counter.(*atomic.Int32).Add(1)                 //workflowcheck:ignore the test counts how often the code starts
	defer func() { releasedChannel(id) <- instance }()         //workflowcheck:ignore the test learns when the worker releases the run
	workflow.GetSignalChannel(ctx, "never").Receive(ctx, nil)
	return nil
}

// startCached starts a waitUntilReleased run and waits until its first
// task is done: the worker has cached it.
func startCached(t *testing.T, c client.Client, opts client.StartWorkflowOptions) client.WorkflowRun {
	t.Helper()
	run, err := c.ExecuteWorkflow(testCtx(t), opts, waitUntilReleased)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the first workflow task", func() bool {
		events := history(t, c, run.GetID())
		return countEvents(events, enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) == 1 &&
			events[len(events)-1].GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED
	})
	return run
}

// wantReleased checks that the first instance of the workflow's code, the
// one the worker cached, was released: already, or within the time given.
func wantReleased(t *testing.T, workflowID, when string, within time.Duration) {
	t.Helper()
	timeout := time.After(within)
	for {
		select {
		case instance := <-releasedChannel(workflowID):
			if instance == 1 {
				return
			}
			continue
		default:
		}
		if within == 0 {
			t.Fatalf("the cached run of %s was not released %s", workflowID, when)
		}
		select {
		case instance := <-releasedChannel(workflowID):
			if instance == 1 {
				return
			}
		case <-timeout:
			t.Fatalf("the cached run of %s was not released %s", workflowID, when)
		}
	}
}

func wantKept(t *testing.T, workflowID, when string) {
	t.Helper()
	select {
	case instance := <-releasedChannel(workflowID):
		t.Fatalf("instance %d of %s was released %s", instance, workflowID, when)
	default:
	}
}

// A workflow closed on the server, where the worker learns nothing of it,
// leaves the cache as soon as the worker can tell: when a query of it
// brings a history that ends with its termination (before the answer goes
// back), when a workflow task of a newer run of its workflow arrives (a
// start that terminated it, here), and when the worker stops.
func TestClosedRunsLeaveTheCache(t *testing.T) {
	c := dial(t)
	ctx := testCtx(t)
	tq, w := startWorker(t, c, worker.Options{}, func(w worker.Worker) { w.RegisterWorkflow(waitUntilReleased) })
	// Another worker keeps running, so that stopping w is not the last
	// stop, which purges the whole cache.
	startWorker(t, c, worker.Options{}, func(w worker.Worker) { w.RegisterWorkflow(waitUntilReleased) })

	terminated := startCached(t, c, client.StartWorkflowOptions{ID: unique(t, "terminated"), TaskQueue: tq})
	if err := c.TerminateWorkflow(ctx, terminated.GetID(), "", "test"); err != nil {
		t.Fatal(err)
	}
	wantKept(t, terminated.GetID(), "before the worker could know of its termination")
	if _, err := c.QueryWorkflow(ctx, terminated.GetID(), "", "__stack_trace"); err != nil {
		t.Fatal(err)
	}
	wantReleased(t, terminated.GetID(), "when a query showed it terminated", 0)

	id := unique(t, "replaced")
	startCached(t, c, client.StartWorkflowOptions{ID: id, TaskQueue: tq})
	if _, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: tq,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_TERMINATE_EXISTING}, waitUntilReleased); err != nil {
		t.Fatal(err)
	}
	wantReleased(t, id, "when its replacement's first task came", 10*time.Second)
	defer c.TerminateWorkflow(ctx, id, "", "test done")

	open := startCached(t, c, client.StartWorkflowOptions{ID: unique(t, "open"), TaskQueue: tq})
	defer c.TerminateWorkflow(ctx, open.GetID(), "", "test done")
	wantKept(t, open.GetID(), "while it is open and its worker runs")
	w.Stop()
	wantReleased(t, open.GetID(), "when its worker stopped", 0)
}
