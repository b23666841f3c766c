package worker_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

func parityGreet(_ context.Context, name string) (string, error) { return "Hello, " + name, nil }

// parityWorkflow touches what the test environment's server must write as
// a real server does: markers, a version, an activity, a timer, an
// activity canceled before it started followed by another command in the
// same task, a memo upsert, a signal.
func parityWorkflow(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var n int
	if err := workflow.SideEffect(ctx, func(workflow.Context) any { return 7 }).Get(&n); err != nil {
		return "", err
	}
	workflow.GetVersion(ctx, "parity", workflow.DefaultVersion, 1)
	var greeting string
	if err := workflow.ExecuteActivity(ctx, parityGreet, name).Get(ctx, &greeting); err != nil {
		return "", err
	}
	if err := workflow.Sleep(ctx, time.Second); err != nil {
		return "", err
	}
	cancelCtx, cancel := workflow.WithCancel(ctx)
	canceled := workflow.ExecuteActivity(workflow.WithScheduleToStartTimeout(cancelCtx, time.Minute), parityGreet, "never")
	cancel()
	// A timer, not an activity, follows the cancellation in the same task:
	// an activity would run while the next task waits to start, and the
	// order of its events would be a matter of timing on either server.
	pause := workflow.NewTimer(ctx, 2*time.Second)
	if err := canceled.Get(ctx, nil); !temporal.IsCanceledError(err) {
		return "", errors.New("the canceled activity did not end canceled")
	}
	if err := pause.Get(ctx, nil); err != nil {
		return "", err
	}
	var late string
	if err := workflow.ExecuteActivity(ctx, parityGreet, "after").Get(ctx, &late); err != nil {
		return "", err
	}
	if err := workflow.UpsertMemo(ctx, map[string]any{"step": "memo"}); err != nil {
		return "", err
	}
	var signal string
	workflow.GetSignalChannel(ctx, "finish").Receive(ctx, &signal)
	return greeting + "/" + late + "/" + signal, nil
}

func eventTypes(h *historypb.History) []enumspb.EventType {
	var types []enumspb.EventType
	for _, ev := range h.GetEvents() {
		types = append(types, ev.GetEventType())
	}
	return types
}

// TestTestEnvironmentWritesTheHistoryADevServerWrites runs one workflow on
// a dev server and in the test environment: the two histories must hold
// the same events, type for type, so that the test server cannot drift
// from the real one.
func TestTestEnvironmentWritesTheHistoryADevServerWrites(t *testing.T) {
	c := dial(t)
	taskQueue, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) {
		w.RegisterWorkflow(parityWorkflow)
		w.RegisterActivity(parityGreet)
	})
	ctx := testCtx(t)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: taskQueue}, parityWorkflow, "ann")
	if err != nil {
		t.Fatal(err)
	}
	// Signal once the workflow waits for it, as the test environment's
	// delayed callback does.
	waitForEvent(t, c, run, enumspb.EVENT_TYPE_WORKFLOW_PROPERTIES_MODIFIED)
	if err := c.SignalWorkflow(ctx, run.GetID(), run.GetRunID(), "finish", "done"); err != nil {
		t.Fatal(err)
	}
	var onServer string
	if err := run.Get(ctx, &onServer); err != nil {
		t.Fatal(err)
	}
	onServerHistory := serverHistory(t, c, run)

	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterActivity(parityGreet)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow("finish", "done") }, time.Hour)
	env.ExecuteWorkflow(parityWorkflow, "ann")
	var inTest string
	if err := env.GetWorkflowResult(&inTest); err != nil {
		t.Fatal(err)
	}
	testHistory, err := env.GetHistory()
	if err != nil {
		t.Fatal(err)
	}
	if inTest != onServer {
		t.Errorf("result %q in the test environment, %q on the server", inTest, onServer)
	}
	if got, want := eventTypes(testHistory), eventTypes(onServerHistory); !slices.Equal(got, want) {
		t.Errorf("the test environment wrote\n%v\nthe dev server wrote\n%v", got, want)
	}
}

func waitForEvent(t *testing.T, c client.Client, run client.WorkflowRun, want enumspb.EventType) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if slices.Contains(eventTypes(serverHistory(t, c, run)), want) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the workflow never reached %v", want)
}

func serverHistory(t *testing.T, c client.Client, run client.WorkflowRun) *historypb.History {
	t.Helper()
	it := c.GetWorkflowHistory(context.Background(), run.GetID(), run.GetRunID(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	h := &historypb.History{}
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		h.Events = append(h.Events, ev)
	}
	return h
}
