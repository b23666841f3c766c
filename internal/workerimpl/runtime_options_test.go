package workerimpl

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/metricstest"
	"github.com/durable-go/sdk/internal/tuning"
	"github.com/durable-go/sdk/internal/workerrt"
)

type runtimeOptionsKey struct{}

// TestRuntimeOptionsCarryTheWorkerOptions: RuntimeOptions, which builds
// the runtime's options of a worker and of the test environment, carries
// every worker option the runtime applies, and keeps what the caller set.
func TestRuntimeOptionsCarryTheWorkerOptions(t *testing.T) {
	background := context.WithValue(context.Background(), runtimeOptionsKey{}, "deps")
	handler := metricstest.NewHandler()
	base := workerrt.Options{TaskQueue: "tq", Identity: "me", Engine: &engine.Options{}, Activities: internal.NewActivityExecutor(nil, internal.ActivityExecutorOptions{})}
	got, err := RuntimeOptions(internal.WorkerOptions{
		MaxConcurrentWorkflowTaskExecutionSize:  7,
		MaxConcurrentActivityExecutionSize:      8,
		MaxConcurrentLocalActivityExecutionSize: 9,
		MaxConcurrentWorkflowTaskPollers:        3,
		MaxConcurrentActivityTaskPollers:        4,
		WorkerActivitiesPerSecond:               5,
		WorkerLocalActivitiesPerSecond:          6,
		TaskQueueActivitiesPerSecond:            7,
		StickyScheduleToStartTimeout:            time.Second,
		WorkerStopTimeout:                       2 * time.Second,
		DefaultHeartbeatThrottleInterval:        3 * time.Second,
		MaxHeartbeatThrottleInterval:            4 * time.Second,
		BackgroundActivityContext:               background,
	}, base, handler)
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"TaskQueue", got.TaskQueue, "tq"},
		{"Identity", got.Identity, "me"},
		{"MaxConcurrentWorkflowTasks", got.MaxConcurrentWorkflowTasks, 7},
		{"MaxConcurrentActivities", got.MaxConcurrentActivities, 8},
		{"MaxConcurrentLocalActivities", got.MaxConcurrentLocalActivities, 9},
		{"WorkflowPollers", got.WorkflowPollers, 3},
		{"ActivityPollers", got.ActivityPollers, 4},
		{"WorkerActivitiesPerSecond", got.WorkerActivitiesPerSecond, 5.0},
		{"WorkerLocalActivitiesPerSecond", got.WorkerLocalActivitiesPerSecond, 6.0},
		{"TaskQueueActivitiesPerSecond", got.TaskQueueActivitiesPerSecond, 7.0},
		{"StickyScheduleToStartTimeout", got.StickyScheduleToStartTimeout, time.Second},
		{"StopTimeout", got.StopTimeout, 2 * time.Second},
		{"DefaultHeartbeatInterval", got.DefaultHeartbeatInterval, 3 * time.Second},
		{"MaxHeartbeatInterval", got.MaxHeartbeatInterval, 4 * time.Second},
		{"BackgroundActivityContext", got.BackgroundActivityContext.Value(runtimeOptionsKey{}), "deps"},
		{"Metrics", got.Metrics == handler, true},
		{"WorkflowSlots", got.WorkflowSlots != nil, true},
		{"ActivitySlots", got.ActivitySlots != nil, true},
		{"LocalActivitySlots", got.LocalActivitySlots != nil, true},
		// A task queue rate limit turns eager activities off.
		{"MaxEagerActivitiesPerTask", got.MaxEagerActivitiesPerTask, 0},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

// TestRuntimeOptionsNameTheQueueOfATunerWithoutSlots: a tuner that lacks
// a slot supplier the runtime needs is an error naming the task queue.
func TestRuntimeOptionsNameTheQueueOfATunerWithoutSlots(t *testing.T) {
	tuner, err := tuning.NewCompositeTuner(tuning.CompositeTunerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = RuntimeOptions(internal.WorkerOptions{Tuner: tuner}, workerrt.Options{TaskQueue: "orders", Engine: &engine.Options{}}, nil)
	if err == nil || !strings.Contains(err.Error(), `"orders"`) || !strings.Contains(err.Error(), "workflow task slot supplier") {
		t.Fatalf("got %v, want an error naming the task queue and the missing supplier", err)
	}
}
