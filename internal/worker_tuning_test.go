package internal

import (
	"context"
	"strings"
	"testing"

	"github.com/durable-go/sdk/internal/tuning"
)

func TestContradictoryTuningOptionsPanic(t *testing.T) {
	tuner, _ := tuning.NewFixedSizeTuner(tuning.FixedSizeTunerOptions{})
	zero := 0
	for _, c := range []struct {
		opts WorkerOptions
		want string
	}{
		{WorkerOptions{Tuner: tuner, MaxConcurrentActivityExecutionSize: 5}, "Tuner"},
		{WorkerOptions{MaxConcurrentWorkflowTaskPollers: 4, WorkflowTaskPollerBehavior: tuning.NewPollerBehaviorAutoscaling(tuning.PollerBehaviorAutoscalingOptions{})}, "WorkflowTaskPollerBehavior"},
		{WorkerOptions{MaxConcurrentActivityTaskPollers: 4, ActivityTaskPollerBehavior: tuning.NewPollerBehaviorSimpleMaximum(tuning.PollerBehaviorSimpleMaximumOptions{})}, "ActivityTaskPollerBehavior"},
		{WorkerOptions{MaxConcurrentWorkflowTaskPollers: 1}, "cannot be 1"},
		{WorkerOptions{MaxConcurrentWorkflowTaskExecutionSize: 1}, "cannot be 1"},
		{WorkerOptions{ActivityTaskPollerBehavior: tuning.NewPollerBehaviorAutoscaling(tuning.PollerBehaviorAutoscalingOptions{MinimumNumberOfPollers: 10, MaximumNumberOfPollers: 5})}, "exceeds"},
		{WorkerOptions{MaxEagerActivityReservationsPerWorkflowTask: &zero}, "DisableEagerActivities"},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), c.want) {
					t.Errorf("options %+v: panic %v, want one naming %q", c.opts, r, c.want)
				}
			}()
			checkTuning(c.opts)
		}()
	}
	checkTuning(WorkerOptions{Tuner: tuner, MaxConcurrentWorkflowTaskPollers: 4, ActivityTaskPollerBehavior: tuning.NewPollerBehaviorAutoscaling(tuning.PollerBehaviorAutoscalingOptions{})})
}

func TestTuningOptionsAreCheckedAsPluginsLeaveThem(t *testing.T) {
	f := startFakeClientFrontend(t)
	tuner, _ := tuning.NewFixedSizeTuner(tuning.FixedSizeTunerOptions{NumActivitySlots: 3})
	setsTuner := &tunerPlugin{tuner: tuner}
	w := NewWorker(f.client(t, ClientSettings{}), "tq", WorkerOptions{Plugins: []WorkerPlugin{setsTuner}})
	if w.options.Tuner != tuner {
		t.Fatal("the worker does not have the tuner its plugin set")
	}
	defer func() {
		if r, _ := recover().(string); !strings.Contains(r, "Tuner") {
			t.Errorf("panic %q, want one naming Tuner", r)
		}
	}()
	NewWorker(f.client(t, ClientSettings{}), "tq", WorkerOptions{MaxConcurrentActivityExecutionSize: 5, Plugins: []WorkerPlugin{setsTuner}})
	t.Error("a plugin's tuner and the program's MaxConcurrentActivityExecutionSize together: no panic")
}

type tunerPlugin struct {
	WorkerPluginBase
	tuner tuning.WorkerTuner
}

func (*tunerPlugin) Name() string { return "tuning" }

func (p *tunerPlugin) ConfigureWorker(_ context.Context, o WorkerPluginConfigureWorkerOptions) error {
	o.WorkerOptions.Tuner = p.tuner
	return nil
}
