package workerimpl

import (
	"fmt"
	"reflect"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/internal/tuning"
	"github.com/durable-go/sdk/internal/workerrt"
	"github.com/durable-go/sdk/log"
)

// defaultMaxEagerActivitiesPerTask is go.temporal.io/sdk's default for
// WorkerOptions.MaxEagerActivityReservationsPerWorkflowTask.
const defaultMaxEagerActivitiesPerTask = 3

// checkTuning panics on options that contradict each other, as
// go.temporal.io/sdk's worker.New does: they are mistakes of the program,
// found when the worker is made.
func checkTuning(o internal.WorkerOptions) {
	if o.Tuner != nil && (o.MaxConcurrentWorkflowTaskExecutionSize != 0 || o.MaxConcurrentActivityExecutionSize != 0 ||
		o.MaxConcurrentLocalActivityExecutionSize != 0 || o.MaxConcurrentNexusTaskExecutionSize != 0) {
		panic("worker.New: set either Tuner or MaxConcurrentWorkflowTaskExecutionSize, MaxConcurrentActivityExecutionSize, MaxConcurrentLocalActivityExecutionSize and MaxConcurrentNexusTaskExecutionSize, not both: the tuner decides how many tasks run at once")
	}
	if o.MaxConcurrentWorkflowTaskPollers != 0 && o.WorkflowTaskPollerBehavior != nil {
		panic("worker.New: set either MaxConcurrentWorkflowTaskPollers or WorkflowTaskPollerBehavior, not both")
	}
	if o.MaxConcurrentActivityTaskPollers != 0 && o.ActivityTaskPollerBehavior != nil {
		panic("worker.New: set either MaxConcurrentActivityTaskPollers or ActivityTaskPollerBehavior, not both")
	}
	if o.MaxConcurrentNexusTaskPollers != 0 && o.NexusTaskPollerBehavior != nil {
		panic("worker.New: set either MaxConcurrentNexusTaskPollers or NexusTaskPollerBehavior, not both")
	}
	// With one poller or one slot, a worker would poll only its sticky
	// queue or only the normal one at a time.
	if o.MaxConcurrentWorkflowTaskPollers == 1 {
		panic("worker.New: MaxConcurrentWorkflowTaskPollers cannot be 1: the worker polls its sticky queue and the task queue, at least one poll each (set 2 or more)")
	}
	if o.MaxConcurrentWorkflowTaskExecutionSize == 1 {
		panic("worker.New: MaxConcurrentWorkflowTaskExecutionSize cannot be 1: the worker polls its sticky queue and the task queue, each poll in a slot of its own (set 2 or more)")
	}
	for _, b := range []tuning.PollerBehavior{o.WorkflowTaskPollerBehavior, o.ActivityTaskPollerBehavior, o.NexusTaskPollerBehavior} {
		if err := tuning.CheckPollerBehavior(b); err != nil {
			panic("worker.New: " + err.Error())
		}
	}
	if n := o.MaxEagerActivityReservationsPerWorkflowTask; n != nil && *n <= 0 {
		panic("worker.New: MaxEagerActivityReservationsPerWorkflowTask must be positive; set DisableEagerActivities to turn eager activities off")
	}
}

// applyTuning sets the runtime's slot suppliers (those of the tuner, or
// fixed ones sized by the MaxConcurrent... options), its pollers and its
// eager activities. Slot suppliers record their metrics with metrics.
func applyTuning(o internal.WorkerOptions, rt *workerrt.Options, metrics sdkmetrics.Handler) error {
	tuner := o.Tuner
	if tuner == nil {
		var err error
		tuner, err = tuning.NewFixedSizeTuner(tuning.FixedSizeTunerOptions{
			NumWorkflowSlots:      o.MaxConcurrentWorkflowTaskExecutionSize,
			NumActivitySlots:      o.MaxConcurrentActivityExecutionSize,
			NumLocalActivitySlots: o.MaxConcurrentLocalActivityExecutionSize,
			NumNexusSlots:         o.MaxConcurrentNexusTaskExecutionSize,
		})
		if err != nil {
			return err
		}
	}
	for _, s := range []struct {
		supplier   tuning.SlotSupplier
		name       string
		workerType string
		into       *workerrt.SlotSupplier
		needed     bool
	}{
		{tuner.GetWorkflowTaskSlotSupplier(), "workflow task", sdkmetrics.WorkerTypeWorkflow, &rt.WorkflowSlots, rt.Engine != nil},
		{tuner.GetActivityTaskSlotSupplier(), "activity", sdkmetrics.WorkerTypeActivity, &rt.ActivitySlots, rt.Activities != nil},
		{tuner.GetLocalActivitySlotSupplier(), "local activity", sdkmetrics.WorkerTypeLocalActivity, &rt.LocalActivitySlots, rt.Engine != nil},
		{tuner.GetNexusSlotSupplier(), "Nexus task", sdkmetrics.WorkerTypeNexus, &rt.NexusSlots, rt.Nexus != nil},
	} {
		if !s.needed {
			continue
		}
		if s.supplier == nil {
			return fmt.Errorf("worker for task queue %q: its tuner has no %s slot supplier (%T returned nil)", rt.TaskQueue, s.name, tuner)
		}
		*s.into = tuning.RuntimeSlots(s.supplier, rt.Logger, slotMetrics(metrics, rt.TaskQueue, s.workerType))
	}
	rt.WorkflowPollers, rt.WorkflowPollerScaling = tuning.Pollers(o.WorkflowTaskPollerBehavior, o.MaxConcurrentWorkflowTaskPollers)
	rt.ActivityPollers, rt.ActivityPollerScaling = tuning.Pollers(o.ActivityTaskPollerBehavior, o.MaxConcurrentActivityTaskPollers)
	rt.NexusPollers, rt.NexusPollerScaling = tuning.Pollers(o.NexusTaskPollerBehavior, o.MaxConcurrentNexusTaskPollers)
	// The server does not rate-limit eager activities, so a task queue
	// rate limit turns them off, as in go.temporal.io/sdk.
	if !o.DisableEagerActivities && o.TaskQueueActivitiesPerSecond == 0 {
		rt.MaxEagerActivitiesPerTask = defaultMaxEagerActivitiesPerTask
		if n := o.MaxEagerActivityReservationsPerWorkflowTask; n != nil {
			rt.MaxEagerActivitiesPerTask = *n
		}
		rt.MaxConcurrentEagerActivities = o.MaxConcurrentEagerActivityExecutionSize
	}
	return nil
}

// sessionActivitySlots is the supplier of the slots of activities that
// run in the worker's sessions.
func (w *AggregatedWorker) sessionActivitySlots() (workerrt.SlotSupplier, error) {
	tuner := w.options.Tuner
	if tuner == nil {
		return nil, nil // fixed, MaxConcurrentActivityExecutionSize
	}
	s := tuner.GetSessionActivitySlotSupplier()
	if s == nil {
		return nil, fmt.Errorf("worker for task queue %q: its tuner has no session activity slot supplier (%T returned nil), which EnableSessionWorker needs", w.taskQueue, tuner)
	}
	return tuning.RuntimeSlots(s, w.clientSettings.Logger, slotMetrics(w.metricsHandler(), w.taskQueue, sdkmetrics.WorkerTypeActivity)), nil
}

// slotMetrics is the handler a slot supplier records its own metrics
// with: the worker's, h, tagged with the task queue and the worker type.
func slotMetrics(h sdkmetrics.Handler, taskQueue, workerType string) sdkmetrics.Handler {
	if sdkmetrics.IsNop(h) {
		return h
	}
	return h.WithTags(map[string]string{sdkmetrics.TagTaskQueue: taskQueue, sdkmetrics.TagWorkerType: workerType})
}

// sysInfoProvider is what measures the host for the worker's heartbeats:
// the options' provider, else the one the tuner's workflow task slot
// supplier measures with (a resource-based tuner's), else none. Two
// different ones panic, as in go.temporal.io/sdk: the heartbeats would
// report what the tuner does not see.
func sysInfoProvider(o internal.WorkerOptions) tuning.SysInfoProvider {
	var tuners tuning.SysInfoProvider
	if o.Tuner != nil {
		if has, ok := o.Tuner.GetWorkflowTaskSlotSupplier().(tuning.HasSysInfoProvider); ok {
			tuners = has.SysInfoProvider()
		}
	}
	switch {
	case o.SysInfoProvider == nil:
		return tuners
	case tuners != nil && !sameProvider(o.SysInfoProvider, tuners):
		panic(fmt.Sprintf("worker.New: Options.SysInfoProvider (%T) is not the provider the Tuner measures with (%T); set only one of them, or the same instance in both", o.SysInfoProvider, tuners))
	}
	return o.SysInfoProvider
}

// sameProvider: a and b are the same instance (a provider of a type that
// cannot be compared is taken to differ from any other).
func sameProvider(a, b tuning.SysInfoProvider) bool {
	return reflect.TypeOf(a) == reflect.TypeOf(b) && reflect.TypeOf(a).Comparable() && a == b
}

// hostUsage reads the host's CPU and memory use from p for a heartbeat;
// a failed reading is 0, with a warning, as in go.temporal.io/sdk.
func hostUsage(p tuning.SysInfoProvider, logger log.Logger) func() (cpu, mem float32) {
	read := func(what string, measure func(*tuning.SysInfoContext) (float64, error)) float32 {
		v, err := measure(&tuning.SysInfoContext{Logger: logger})
		if err != nil {
			logger.Warn("the worker heartbeat reports 0 for the host's "+what+": its SysInfoProvider failed", "Error", err)
			return 0
		}
		return float32(v)
	}
	return func() (cpu, mem float32) {
		return read("CPU use", p.CpuUsage), read("memory use", p.MemoryUsage)
	}
}
