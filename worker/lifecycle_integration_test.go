package worker_test

import (
	"context"
	"fmt"
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

// A worker's life as go.temporal.io/sdk's: it starts with nothing
// registered and runs what is registered later, says when it starts and
// stops, and stops even while an update's activity ignores its canceled
// context.

// stuckOnce is an activity whose first attempt waits for release whatever
// happens to its context; later attempts return at once.
type stuckOnce struct {
	started chan struct{}
	release chan struct{}
}

func (s *stuckOnce) StuckOnce(ctx context.Context) (string, error) {
	if activity.GetInfo(ctx).Attempt > 1 {
		return fmt.Sprintf("attempt %d", activity.GetInfo(ctx).Attempt), nil
	}
	close(s.started)
	<-s.release
	return "attempt 1", nil
}

// UpdateRunsAnActivity runs StuckOnce in the handler of the update
// "run", and returns once the handler has.
func UpdateRunsAnActivity(ctx workflow.Context) (string, error) {
	var result string
	done := false
	err := workflow.SetUpdateHandler(ctx, "run", func(ctx workflow.Context) (string, error) {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			StartToCloseTimeout: 3 * time.Second,
			RetryPolicy:         &temporal.RetryPolicy{InitialInterval: 100 * time.Millisecond},
		})
		err := workflow.ExecuteActivity(ctx, "StuckOnce").Get(ctx, &result)
		done = true
		return result, err
	})
	if err != nil {
		return "", err
	}
	err = workflow.Await(ctx, func() bool { return done })
	return result, err
}

// TestUpdateCompletesAfterTheWorkerRestartsMidUpdate stops the worker
// while an update's handler waits for an activity whose code ignores its
// canceled context: Stop returns, and once a new worker runs, the server
// retries the activity there after its start-to-close timeout, and the
// update and the workflow complete.
func TestUpdateCompletesAfterTheWorkerRestartsMidUpdate(t *testing.T) {
	c := dial(t)
	ctx := testCtx(t)
	stuck := &stuckOnce{started: make(chan struct{}), release: make(chan struct{})}
	defer close(stuck.release) // the first attempt's result is refused then: the activity timed out
	register := func(w worker.Worker) {
		w.RegisterWorkflow(UpdateRunsAnActivity)
		w.RegisterActivity(stuck)
	}
	tq := unique(t, "tq")
	// The run's next task waits this long on the stopped worker's sticky
	// queue before it goes to the task queue.
	first := worker.New(c, tq, worker.Options{StickyScheduleToStartTimeout: time.Second})
	register(first)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, UpdateRunsAnActivity)
	if err != nil {
		t.Fatal(err)
	}
	handle, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: run.GetID(), UpdateName: "run",
		WaitForStage: client.WorkflowUpdateStageAccepted})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-stuck.started:
	case <-ctx.Done():
		t.Fatal("the update's activity did not start")
	}
	stopped := make(chan struct{})
	go func() {
		first.Stop()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-time.After(30 * time.Second):
		t.Fatal("Stop did not return while the update's activity ignored its canceled context")
	}

	startWorkerOn(t, c, tq, register)
	var got string
	if err := handle.Get(ctx, &got); err != nil || got != "attempt 2" {
		t.Fatalf("the update returned %q, %v; want the result of the activity's second attempt, on the restarted worker", got, err)
	}
	if err := run.Get(ctx, &got); err != nil || got != "attempt 2" {
		t.Errorf("the workflow returned %q, %v", got, err)
	}
}

// TestWorkerWithNothingRegisteredRunsWhatIsRegisteredAfterStart starts a
// worker with nothing registered, as go.temporal.io/sdk allows: it polls
// both task queues, and a workflow and an activity registered after
// Start run.
func TestWorkerWithNothingRegisteredRunsWhatIsRegisteredAfterStart(t *testing.T) {
	c := dial(t)
	ctx := testCtx(t)
	tq := unique(t, "tq")
	w := worker.New(c, tq, worker.Options{})
	if err := w.Start(); err != nil {
		t.Fatalf("a worker with nothing registered did not start: %v", err)
	}
	defer w.Stop()
	w.RegisterWorkflow(greetLater)
	w.RegisterActivity(greetActivity)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, greetLater, "late")
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if err := run.Get(ctx, &got); err != nil || got != "hello, late" {
		t.Errorf("the workflow registered after Start returned %q, %v", got, err)
	}
}

func greetLater(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var out string
	err := workflow.ExecuteActivity(ctx, greetActivity, name).Get(ctx, &out)
	return out, err
}

func greetActivity(_ context.Context, name string) (string, error) { return "hello, " + name, nil }

// TestExecuteWorkflowRefusesAnActivity gives ExecuteWorkflow an activity
// function: as go.temporal.io/sdk's client, it returns an error, and no
// workflow starts.
func TestExecuteWorkflowRefusesAnActivity(t *testing.T) {
	c := dial(t)
	ctx := testCtx(t)
	id := unique(t, "wf")
	_, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: unique(t, "tq")}, greetActivity, "ann")
	if err == nil || !strings.Contains(err.Error(), "is it an activity?") {
		t.Fatalf("ExecuteWorkflow of an activity returned %v, want an error that says the function is not a workflow", err)
	}
	if _, err := c.DescribeWorkflowExecution(ctx, id, ""); err == nil {
		t.Error("a workflow was started")
	}
}

// TestRegisteringAWorkflowWithTheWorkflowWorkerDisabledPanics as in
// go.temporal.io/sdk: such a worker runs no workflows.
func TestRegisteringAWorkflowWithTheWorkflowWorkerDisabledPanics(t *testing.T) {
	c := dial(t)
	w := worker.New(c, unique(t, "tq"), worker.Options{DisableWorkflowWorker: true})
	defer func() {
		if r := fmt.Sprint(recover()); !strings.Contains(r, "DisableWorkflowWorker") {
			t.Errorf("RegisterWorkflow panicked with %q, want a panic naming DisableWorkflowWorker", r)
		}
	}()
	w.RegisterWorkflow(greetLater)
}

// TestWorkerLogsItsStartAndStop as go.temporal.io/sdk's does: "Started
// Worker" and "Stopped Worker", tagged with the namespace, the task queue
// and the worker's identity.
func TestWorkerLogsItsStartAndStop(t *testing.T) {
	logs := &lineLogger{}
	c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), Logger: logs})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tq := unique(t, "tq")
	w := worker.New(c, tq, worker.Options{Identity: "logging-worker"})
	w.RegisterWorkflow(greetLater)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	w.Stop()
	tags := " Namespace=default TaskQueue=" + tq + " WorkerID=logging-worker"
	for _, line := range []string{"Started Worker" + tags, "Stopped Worker" + tags} {
		if !logs.has(line) {
			t.Errorf("no line %q; the worker logged:\n%s", line, strings.Join(logs.take(), "\n"))
		}
	}
}
