package internal

import "github.com/durable-go/sdk/internal/base"

// checkWorkerOptionsNotNegative panics, as worker.New does for its other
// configuration mistakes, when a worker option is negative.
func checkWorkerOptionsNotNegative(o WorkerOptions) {
	values := []base.NamedValue{
		base.Number("MaxConcurrentActivityExecutionSize", float64(o.MaxConcurrentActivityExecutionSize)),
		base.Number("WorkerActivitiesPerSecond", o.WorkerActivitiesPerSecond),
		base.Number("TaskQueueActivitiesPerSecond", o.TaskQueueActivitiesPerSecond),
		base.Number("MaxConcurrentLocalActivityExecutionSize", float64(o.MaxConcurrentLocalActivityExecutionSize)),
		base.Number("WorkerLocalActivitiesPerSecond", o.WorkerLocalActivitiesPerSecond),
		base.Number("MaxConcurrentWorkflowTaskExecutionSize", float64(o.MaxConcurrentWorkflowTaskExecutionSize)),
		base.Number("MaxConcurrentWorkflowTaskPollers", float64(o.MaxConcurrentWorkflowTaskPollers)),
		base.Number("MaxConcurrentActivityTaskPollers", float64(o.MaxConcurrentActivityTaskPollers)),
		base.Duration("StickyScheduleToStartTimeout", o.StickyScheduleToStartTimeout),
		base.Duration("DefaultHeartbeatThrottleInterval", o.DefaultHeartbeatThrottleInterval),
		base.Duration("MaxHeartbeatThrottleInterval", o.MaxHeartbeatThrottleInterval),
		base.Duration("WorkerStopTimeout", o.WorkerStopTimeout),
		base.Duration("DeadlockDetectionTimeout", o.DeadlockDetectionTimeout),
		base.Number("MaxConcurrentSessionExecutionSize", float64(o.MaxConcurrentSessionExecutionSize)),
		base.Number("MaxConcurrentEagerActivityExecutionSize", float64(o.MaxConcurrentEagerActivityExecutionSize)),
	}
	if err := base.NegativeOptions("worker.New: worker.Options", values...); err != nil {
		panic(err.Error())
	}
}
