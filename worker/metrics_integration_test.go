package worker_test

import (
	"context"
	"maps"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/metricstest"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// dialWithMetrics connects a client that records every metric.
func dialWithMetrics(t *testing.T) (client.Client, *metricstest.Handler) {
	t.Helper()
	metrics := metricstest.NewHandler()
	c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), MetricsHandler: metrics})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c, metrics
}

// tagged is the tags of go.temporal.io/sdk's root scope ("none" for what a
// metric does not narrow down) with the given ones set.
func tagged(kv ...string) map[string]string {
	tags := map[string]string{
		"namespace": "default", "client_name": "temporal_go",
		"worker_type": "none", "workflow_type": "none", "activity_type": "none", "task_queue": "none",
	}
	for i := 0; i+1 < len(kv); i += 2 {
		tags[kv[i]] = kv[i+1]
	}
	return tags
}

// assertSeries checks that the metric has exactly one series, with exactly
// those tags.
func assertSeries(t *testing.T, series []metricstest.Series, name string, want map[string]string) {
	t.Helper()
	if len(series) != 1 || !maps.Equal(series[0].Tags, want) {
		t.Errorf("%s series %v, want one tagged %v", name, series, want)
	}
}

func assertCounter(t *testing.T, m *metricstest.Handler, name string, tags map[string]string, want int64) {
	t.Helper()
	if got := m.CounterValue(name, tags); got != want {
		t.Errorf("%s%v = %d, want %d", name, tags, got, want)
	}
}

func assertTimerCount(t *testing.T, m *metricstest.Handler, name string, tags map[string]string, want int) {
	t.Helper()
	durations := m.TimerDurations(name, tags)
	if len(durations) != want {
		t.Errorf("%s%v recorded %d durations, want %d", name, tags, len(durations), want)
	}
	for _, d := range durations {
		if d < 0 || d > time.Minute {
			t.Errorf("%s%v recorded %v", name, tags, d)
		}
	}
}

// waitClosed waits until the worker has recorded n closes of the
// workflow type: the client may see a result before the worker that sent
// it hears back from the server.
func waitClosed(t *testing.T, m *metricstest.Handler, workflowTags map[string]string, n int) {
	t.Helper()
	waitFor(t, "the closes recorded", func() bool {
		return len(m.TimerDurations("temporal_workflow_endtoend_latency", workflowTags)) >= n
	})
}

func gaugeIs(m *metricstest.Handler, name string, tags map[string]string, want float64) bool {
	v, ok := m.GaugeValue(name, tags)
	return ok && v == want
}

// releaseCounted lets countedActivity return.
var releaseCounted = make(chan struct{}, 1)

func countedActivity(ctx context.Context) error {
	activity.GetMetricsHandler(ctx).Counter("calls").Inc(1)
	select {
	case <-releaseCounted:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func countedWorkflow(ctx workflow.Context) error {
	workflow.GetMetricsHandler(ctx).Counter("steps").Inc(1)
	// The activity is polled: one the server hands back eagerly has no
	// schedule-to-start latency (in go.temporal.io/sdk either), and server
	// 1.32 hands this one back eagerly where 1.29 did not.
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second, DisableEagerExecution: true})
	if err := workflow.ExecuteActivity(ctx, countedActivity).Get(ctx, nil); err != nil {
		return err
	}
	workflow.GetSignalChannel(ctx, "go").Receive(ctx, nil)
	workflow.GetMetricsHandler(ctx).Counter("steps").Inc(1)
	return nil
}

// completedTasks waits until the run's history has n completed workflow
// tasks.
func completedTasks(t *testing.T, c client.Client, workflowID string, n int) {
	t.Helper()
	waitFor(t, "completed workflow tasks", func() bool {
		return countEvents(history(t, c, workflowID), enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) >= n
	})
}

// TestWorkerMetricsOfAWorkflowRun runs a workflow with an activity and a
// signal (three workflow tasks: the first from the task queue, the next
// two from the sticky queue, each continuing the cached run) and checks
// the worker's SDK metrics and the workflow's and activity's own, by name,
// tags and value.
func TestWorkerMetricsOfAWorkflowRun(t *testing.T) {
	worker.PurgeStickyWorkflowCache()
	c, metrics := dialWithMetrics(t)
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) {
		w.RegisterWorkflow(countedWorkflow)
		w.RegisterActivity(countedActivity)
	})
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, countedWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	wf := tagged("task_queue", tq, "workflow_type", "countedWorkflow")
	act := tagged("task_queue", tq, "workflow_type", "countedWorkflow", "activity_type", "countedActivity")
	activityWorker := tagged("task_queue", tq, "worker_type", "ActivityWorker")
	workflowWorker := tagged("task_queue", tq, "worker_type", "WorkflowWorker")

	// While the activity runs, it holds one of the 1000 activity slots.
	waitFor(t, "the activity", func() bool { return metrics.CounterValue("calls", act) == 1 })
	waitFor(t, "a used activity slot", func() bool {
		return gaugeIs(metrics, "temporal_worker_task_slots_used", activityWorker, 1) &&
			gaugeIs(metrics, "temporal_worker_task_slots_available", activityWorker, 999)
	})
	releaseCounted <- struct{}{}
	completedTasks(t, c, run.GetID(), 2)
	if err := c.SignalWorkflow(ctx, run.GetID(), "", "go", nil); err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	waitClosed(t, metrics, wf, 1)
	waitFor(t, "the slots freed", func() bool {
		return gaugeIs(metrics, "temporal_worker_task_slots_used", workflowWorker, 0) &&
			gaugeIs(metrics, "temporal_worker_task_slots_used", activityWorker, 0)
	})

	// What workflows and activities record carries the root tags.
	assertSeries(t, metrics.CounterSeries("steps"), "steps", wf)
	assertCounter(t, metrics, "steps", wf, 2)
	assertSeries(t, metrics.CounterSeries("calls"), "calls", act)

	// The worker's start and its pollers (2 of each kind by default).
	assertCounter(t, metrics, "temporal_worker_start", workflowWorker, 1)
	assertCounter(t, metrics, "temporal_worker_start", activityWorker, 1)
	assertCounter(t, metrics, "temporal_poller_start", workflowWorker, 2)
	assertCounter(t, metrics, "temporal_poller_start", activityWorker, 2)
	for _, pollerType := range []string{"workflow_task", "workflow_sticky_task", "activity_task"} {
		if _, ok := metrics.GaugeValue("temporal_num_pollers", tagged("task_queue", tq, "poller_type", pollerType)); !ok {
			t.Errorf("no temporal_num_pollers for poller_type %s", pollerType)
		}
	}
	if !gaugeIs(metrics, "temporal_worker_task_slots_available", workflowWorker, 1000) {
		t.Error("temporal_worker_task_slots_available of the workflow worker is not back at 1000")
	}

	// Three workflow tasks polled and run, the last two on the cached run.
	assertSeries(t, metrics.CounterSeries("temporal_workflow_task_queue_poll_succeed"), "temporal_workflow_task_queue_poll_succeed", wf)
	assertCounter(t, metrics, "temporal_workflow_task_queue_poll_succeed", wf, 3)
	assertTimerCount(t, metrics, "temporal_workflow_task_schedule_to_start_latency", wf, 3)
	assertTimerCount(t, metrics, "temporal_workflow_task_execution_latency", wf, 3)
	assertTimerCount(t, metrics, "temporal_workflow_task_replay_latency", wf, 3)
	assertCounter(t, metrics, "temporal_sticky_cache_hit", wf, 2)
	assertCounter(t, metrics, "temporal_sticky_cache_miss", nil, 0)
	assertCounter(t, metrics, "temporal_workflow_task_execution_failed", nil, 0)
	if _, ok := metrics.GaugeValue("temporal_sticky_cache_size", wf); !ok {
		t.Error("no temporal_sticky_cache_size")
	}

	// The close, once.
	assertSeries(t, metrics.CounterSeries("temporal_workflow_completed"), "temporal_workflow_completed", wf)
	assertCounter(t, metrics, "temporal_workflow_completed", wf, 1)
	assertTimerCount(t, metrics, "temporal_workflow_endtoend_latency", wf, 1)
	for _, name := range []string{"temporal_workflow_failed", "temporal_workflow_canceled", "temporal_workflow_continue_as_new"} {
		assertCounter(t, metrics, name, nil, 0)
	}

	// The activity.
	assertSeries(t, metrics.TimerSeries("temporal_activity_schedule_to_start_latency"), "temporal_activity_schedule_to_start_latency", act)
	assertTimerCount(t, metrics, "temporal_activity_schedule_to_start_latency", act, 1)
	assertTimerCount(t, metrics, "temporal_activity_execution_latency", act, 1)
	assertTimerCount(t, metrics, "temporal_activity_succeed_endtoend_latency", act, 1)
	assertCounter(t, metrics, "temporal_activity_execution_failed", nil, 0)

	// The worker's reports name what they report on, as in the official
	// SDK: the workflow type for workflow tasks, and the activity type too
	// for activities.
	assertCounter(t, metrics, "temporal_request", tagged("operation", "RespondWorkflowTaskCompleted", "workflow_type", "countedWorkflow"), 3)
	assertCounter(t, metrics, "temporal_request", tagged("operation", "RespondActivityTaskCompleted",
		"workflow_type", "countedWorkflow", "activity_type", "countedActivity"), 1)
}
