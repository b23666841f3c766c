package testsuite_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/internal/metricstest"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// The test environment's worker takes the worker options a worker takes
// (one constructor builds the runtime's options for both): these tests
// show options it used to drop.

// TestTheEnvironmentsWorkerRecordsWorkerMetrics: with a metrics handler,
// the environment's worker records the worker's own metrics (workflow
// close, activity execution), as a worker does.
func TestTheEnvironmentsWorkerRecordsWorkerMetrics(t *testing.T) {
	handler := metricstest.NewHandler()
	var s testsuite.WorkflowTestSuite
	s.SetMetricsHandler(handler)
	env := s.NewTestWorkflowEnvironment()
	env.RegisterActivityWithOptions(func(context.Context) error { return nil }, activity.RegisterOptions{Name: "Measured"})
	env.RegisterWorkflowWithOptions(func(ctx workflow.Context) error {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
		return workflow.ExecuteActivity(ctx, "Measured").Get(ctx, nil)
	}, workflow.RegisterOptions{Name: "MeasuredWorkflow"})
	env.ExecuteWorkflow("MeasuredWorkflow")
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if n := handler.CounterValue(sdkmetrics.WorkflowCompleted, map[string]string{sdkmetrics.TagWorkflowType: "MeasuredWorkflow"}); n != 1 {
		t.Errorf("%s of MeasuredWorkflow = %d, want 1: %v", sdkmetrics.WorkflowCompleted, n, handler.CounterSeries(sdkmetrics.WorkflowCompleted))
	}
	if d := handler.TimerDurations(sdkmetrics.ActivityExecutionLatency, map[string]string{sdkmetrics.TagActivityType: "Measured"}); len(d) != 1 {
		t.Errorf("%s of Measured recorded %d times, want once", sdkmetrics.ActivityExecutionLatency, len(d))
	}
}

// TestTheEnvironmentsWorkerTakesTheTuner: the tuner of the worker options
// sizes the environment's activity slots: with one, the workflow's two
// activities run one after the other.
func TestTheEnvironmentsWorkerTakesTheTuner(t *testing.T) {
	tuner, err := worker.NewFixedSizeTuner(worker.FixedSizeTunerOptions{NumActivitySlots: 1})
	if err != nil {
		t.Fatal(err)
	}
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetWorkerOptions(worker.Options{Tuner: tuner})
	var mu sync.Mutex
	running, most := 0, 0
	env.RegisterActivityWithOptions(func(context.Context) error {
		mu.Lock()
		running++
		most = max(most, running)
		mu.Unlock()
		time.Sleep(50 * time.Millisecond) // long enough for the other to start, if it may
		mu.Lock()
		running--
		mu.Unlock()
		return nil
	}, activity.RegisterOptions{Name: "Exclusive"})
	env.ExecuteWorkflow(func(ctx workflow.Context) error {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
		first, second := workflow.ExecuteActivity(ctx, "Exclusive"), workflow.ExecuteActivity(ctx, "Exclusive")
		if err := first.Get(ctx, nil); err != nil {
			return err
		}
		return second.Get(ctx, nil)
	})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if most != 1 {
		t.Errorf("%d activities ran at once with one activity slot", most)
	}
}
