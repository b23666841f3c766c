package workerimpl

import (
	"context"
	"strings"
	"testing"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/tuning"
)

func TestContradictoryTuningOptionsPanic(t *testing.T) {
	tuner, _ := tuning.NewFixedSizeTuner(tuning.FixedSizeTunerOptions{})
	zero := 0
	for _, c := range []struct {
		opts internal.WorkerOptions
		want string
	}{
		{internal.WorkerOptions{Tuner: tuner, MaxConcurrentActivityExecutionSize: 5}, "Tuner"},
		{internal.WorkerOptions{MaxConcurrentWorkflowTaskPollers: 4, WorkflowTaskPollerBehavior: tuning.NewPollerBehaviorAutoscaling(tuning.PollerBehaviorAutoscalingOptions{})}, "WorkflowTaskPollerBehavior"},
		{internal.WorkerOptions{MaxConcurrentActivityTaskPollers: 4, ActivityTaskPollerBehavior: tuning.NewPollerBehaviorSimpleMaximum(tuning.PollerBehaviorSimpleMaximumOptions{})}, "ActivityTaskPollerBehavior"},
		{internal.WorkerOptions{MaxConcurrentWorkflowTaskPollers: 1}, "cannot be 1"},
		{internal.WorkerOptions{MaxConcurrentWorkflowTaskExecutionSize: 1}, "cannot be 1"},
		{internal.WorkerOptions{ActivityTaskPollerBehavior: tuning.NewPollerBehaviorAutoscaling(tuning.PollerBehaviorAutoscalingOptions{MinimumNumberOfPollers: 10, MaximumNumberOfPollers: 5})}, "exceeds"},
		{internal.WorkerOptions{MaxEagerActivityReservationsPerWorkflowTask: &zero}, "DisableEagerActivities"},
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
	checkTuning(internal.WorkerOptions{Tuner: tuner, MaxConcurrentWorkflowTaskPollers: 4, ActivityTaskPollerBehavior: tuning.NewPollerBehaviorAutoscaling(tuning.PollerBehaviorAutoscalingOptions{})})
}

func TestTuningOptionsAreCheckedAsPluginsLeaveThem(t *testing.T) {
	f := startFakeClientFrontend(t)
	tuner, _ := tuning.NewFixedSizeTuner(tuning.FixedSizeTunerOptions{NumActivitySlots: 3})
	setsTuner := &tunerPlugin{tuner: tuner}
	w := NewWorker(f.client(t, internal.ClientSettings{}), "tq", internal.WorkerOptions{Plugins: []internal.WorkerPlugin{setsTuner}})
	if w.options.Tuner != tuner {
		t.Fatal("the worker does not have the tuner its plugin set")
	}
	defer func() {
		if r, _ := recover().(string); !strings.Contains(r, "Tuner") {
			t.Errorf("panic %q, want one naming Tuner", r)
		}
	}()
	NewWorker(f.client(t, internal.ClientSettings{}), "tq", internal.WorkerOptions{MaxConcurrentActivityExecutionSize: 5, Plugins: []internal.WorkerPlugin{setsTuner}})
	t.Error("a plugin's tuner and the program's MaxConcurrentActivityExecutionSize together: no panic")
}

type tunerPlugin struct {
	internal.WorkerPluginBase
	tuner tuning.WorkerTuner
}

func (*tunerPlugin) Name() string { return "tuning" }

func (p *tunerPlugin) ConfigureWorker(_ context.Context, o internal.WorkerPluginConfigureWorkerOptions) error {
	o.WorkerOptions.Tuner = p.tuner
	return nil
}
