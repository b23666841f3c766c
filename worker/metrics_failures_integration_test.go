package worker_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// failsOnce panics in its first workflow task (the task fails and is
// retried), then fails the workflow, with a benign error if asked.
var failsOncePanicked atomic.Bool

func failsOnce(ctx workflow.Context, benign bool) error {
	if failsOncePanicked.CompareAndSwap(false, true) { //workflowcheck:ignore the test fails one task on purpose
		panic("the first attempt of this task fails")
	}
	if benign {
		return temporal.NewApplicationErrorWithOptions("expected", "Expected", temporal.ApplicationErrorOptions{
			Category: temporal.ApplicationErrorCategoryBenign, NonRetryable: true})
	}
	return temporal.NewNonRetryableApplicationError("broken", "Broken", nil)
}

// TestMetricsOfAFailedTaskAndAFailedWorkflow: a workflow task that panics
// counts one temporal_workflow_task_execution_failed with failure_reason
// WorkflowError; the workflow's failure counts temporal_workflow_failed,
// unless the error is benign.
func TestMetricsOfAFailedTaskAndAFailedWorkflow(t *testing.T) {
	c, metrics := dialWithMetrics(t)
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) { w.RegisterWorkflow(failsOnce) })
	wf := tagged("task_queue", tq, "workflow_type", "failsOnce")

	for _, benign := range []bool{false, true} {
		failsOncePanicked.Store(false)
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, failsOnce, benign)
		if err != nil {
			t.Fatal(err)
		}
		var appErr *temporal.ApplicationError
		if err := run.Get(ctx, nil); !errors.As(err, &appErr) {
			t.Fatalf("the workflow ended with %v, want its application error", err)
		}
	}
	waitClosed(t, metrics, wf, 2)
	failures := metrics.CounterSeries("temporal_workflow_task_execution_failed")
	assertSeries(t, failures, "temporal_workflow_task_execution_failed", tagged("task_queue", tq, "workflow_type", "failsOnce", "failure_reason", "WorkflowError"))
	assertCounter(t, metrics, "temporal_workflow_task_execution_failed", wf, 2)
	assertCounter(t, metrics, "temporal_workflow_failed", wf, 1) // the benign failure is not counted
	assertCounter(t, metrics, "temporal_workflow_completed", nil, 0)
	assertTimerCount(t, metrics, "temporal_workflow_endtoend_latency", wf, 2)
	// Each run's failed task, then its retry: four tasks, all timed.
	assertTimerCount(t, metrics, "temporal_workflow_task_execution_latency", wf, 4)
}

// changesOnce schedules an activity instead of starting its timer once,
// when told to, while replaying: its commands then contradict history.
var changeOnce atomic.Bool

func changesOnce(ctx workflow.Context) error {
	if changeOnce.CompareAndSwap(true, false) { //workflowcheck:ignore the test breaks determinism on purpose
		ctx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Second})
		return workflow.ExecuteActivity(ctx, "NotThere").Get(ctx, nil)
	}
	workflow.NewTimer(ctx, time.Hour)
	workflow.GetSignalChannel(ctx, "go").Receive(ctx, nil)
	return nil
}

// TestMetricsOfANondeterministicTask: a replay whose commands contradict
// history fails its task with failure_reason NonDeterminismError.
func TestMetricsOfANondeterministicTask(t *testing.T) {
	c, metrics := dialWithMetrics(t)
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) { w.RegisterWorkflow(changesOnce) })
	changeOnce.Store(false)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, changesOnce)
	if err != nil {
		t.Fatal(err)
	}
	completedTasks(t, c, run.GetID(), 1)
	worker.PurgeStickyWorkflowCache() // the next task replays from the start
	changeOnce.Store(true)
	if err := c.SignalWorkflow(ctx, run.GetID(), "", "go", nil); err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	nondeterminism := tagged("task_queue", tq, "workflow_type", "changesOnce", "failure_reason", "NonDeterminismError")
	assertSeries(t, metrics.CounterSeries("temporal_workflow_task_execution_failed"), "temporal_workflow_task_execution_failed", nondeterminism)
	assertCounter(t, metrics, "temporal_workflow_task_execution_failed", nondeterminism, 1)
}

func waitsForGo(ctx workflow.Context) error {
	workflow.GetMetricsHandler(ctx).Counter("steps").Inc(1)
	workflow.GetSignalChannel(ctx, "go").Receive(ctx, nil)
	workflow.GetMetricsHandler(ctx).Counter("steps").Inc(1)
	return nil
}

// TestStickyCacheMetricsAfterAPurge: the task after
// PurgeStickyWorkflowCache finds no cached run (a miss) and replays the
// history, where the workflow's own metrics stay silent. A purge is no
// forced eviction, as in the official SDK.
func TestStickyCacheMetricsAfterAPurge(t *testing.T) {
	c, metrics := dialWithMetrics(t)
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) { w.RegisterWorkflow(waitsForGo) })
	wf := tagged("task_queue", tq, "workflow_type", "waitsForGo")
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, waitsForGo)
	if err != nil {
		t.Fatal(err)
	}
	completedTasks(t, c, run.GetID(), 1)
	worker.PurgeStickyWorkflowCache()
	if err := c.SignalWorkflow(ctx, run.GetID(), "", "go", nil); err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	waitClosed(t, metrics, wf, 1)
	assertCounter(t, metrics, "temporal_sticky_cache_miss", wf, 1)
	assertCounter(t, metrics, "temporal_sticky_cache_hit", nil, 0)
	assertCounter(t, metrics, "temporal_sticky_cache_total_forced_eviction", nil, 0)
	assertCounter(t, metrics, "steps", wf, 2) // not 3: the replayed first step is silent
	assertCounter(t, metrics, "temporal_workflow_completed", wf, 1)
}

// TestStickyCacheForcedEviction: with room for one run, caching a second
// run evicts the first while it is still open: a forced eviction; the
// first run's next task is then a miss.
func TestStickyCacheForcedEviction(t *testing.T) {
	worker.SetStickyWorkflowCacheSize(1)
	t.Cleanup(func() { worker.SetStickyWorkflowCacheSize(10000) })
	c, metrics := dialWithMetrics(t)
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) { w.RegisterWorkflow(waitsForGo) })
	wf := tagged("task_queue", tq, "workflow_type", "waitsForGo")
	var runs []client.WorkflowRun
	for range 2 {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, waitsForGo)
		if err != nil {
			t.Fatal(err)
		}
		completedTasks(t, c, run.GetID(), 1)
		runs = append(runs, run)
	}
	waitFor(t, "the forced eviction", func() bool {
		return metrics.CounterValue("temporal_sticky_cache_total_forced_eviction", nil) == 1
	})
	assertSeries(t, metrics.CounterSeries("temporal_sticky_cache_total_forced_eviction"), "temporal_sticky_cache_total_forced_eviction", tagged("task_queue", tq))
	if !gaugeIs(metrics, "temporal_sticky_cache_size", wf, 1) {
		t.Error("temporal_sticky_cache_size is not 1")
	}
	if err := c.SignalWorkflow(ctx, runs[0].GetID(), "", "go", nil); err != nil {
		t.Fatal(err)
	}
	if err := runs[0].Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	assertCounter(t, metrics, "temporal_sticky_cache_miss", wf, 1)
	if err := c.TerminateWorkflow(ctx, runs[1].GetID(), "", "done"); err != nil {
		t.Fatal(err)
	}
}

func panickingActivity(context.Context) error { panic("activity bug") }

func benignActivity(context.Context) error {
	return temporal.NewApplicationErrorWithOptions("nothing to do", "Expected", temporal.ApplicationErrorOptions{
		Category: temporal.ApplicationErrorCategoryBenign})
}

// failingActivities runs, once each, an activity that panics, one that
// fails with a benign error and one no worker has.
func failingActivities(ctx workflow.Context) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1}})
	for _, act := range []any{panickingActivity, benignActivity, "NotRegistered"} {
		if err := workflow.ExecuteActivity(ctx, act).Get(ctx, nil); err == nil {
			return errors.New("an activity that must fail succeeded")
		}
	}
	return nil
}

// TestActivityFailureMetrics: a panic counts temporal_activity_task_error
// and a failure; a benign error no failure; an unregistered activity type
// temporal_unregistered_activity_invocation and a failure.
func TestActivityFailureMetrics(t *testing.T) {
	c, metrics := dialWithMetrics(t)
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) {
		w.RegisterWorkflow(failingActivities)
		w.RegisterActivity(panickingActivity)
		w.RegisterActivity(benignActivity)
	})
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, failingActivities)
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	activity := func(name string, kv ...string) map[string]string {
		return tagged(append([]string{"task_queue", tq, "workflow_type", "failingActivities", "activity_type", name}, kv...)...)
	}
	assertSeries(t, metrics.CounterSeries("temporal_activity_task_error"), "temporal_activity_task_error", activity("panickingActivity"))
	assertCounter(t, metrics, "temporal_activity_task_error", nil, 1)
	assertSeries(t, metrics.CounterSeries("temporal_unregistered_activity_invocation"), "temporal_unregistered_activity_invocation", activity("NotRegistered"))
	assertCounter(t, metrics, "temporal_unregistered_activity_invocation", nil, 1)
	failed := metrics.CounterSeries("temporal_activity_execution_failed")
	if len(failed) != 2 {
		t.Errorf("temporal_activity_execution_failed series %v, want the panic's and the unregistered type's", failed)
	}
	assertCounter(t, metrics, "temporal_activity_execution_failed", activity("panickingActivity", "failure_reason", "ActivityError"), 1)
	assertCounter(t, metrics, "temporal_activity_execution_failed", activity("NotRegistered", "failure_reason", "ActivityError"), 1)
	assertCounter(t, metrics, "temporal_activity_execution_failed", activity("benignActivity"), 0)
	assertTimerCount(t, metrics, "temporal_activity_execution_latency", activity("benignActivity"), 1)
}
