package workerimpl

import (
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/optcheck"
)

// checkWorkerOptionsNotNegative panics, as worker.New does for its other
// configuration mistakes, when a worker option is negative.
func checkWorkerOptionsNotNegative(o internal.WorkerOptions) {
	values := []optcheck.NamedValue{
		optcheck.Number("MaxConcurrentActivityExecutionSize", float64(o.MaxConcurrentActivityExecutionSize)),
		optcheck.Number("WorkerActivitiesPerSecond", o.WorkerActivitiesPerSecond),
		optcheck.Number("TaskQueueActivitiesPerSecond", o.TaskQueueActivitiesPerSecond),
		optcheck.Number("MaxConcurrentLocalActivityExecutionSize", float64(o.MaxConcurrentLocalActivityExecutionSize)),
		optcheck.Number("WorkerLocalActivitiesPerSecond", o.WorkerLocalActivitiesPerSecond),
		optcheck.Number("MaxConcurrentWorkflowTaskExecutionSize", float64(o.MaxConcurrentWorkflowTaskExecutionSize)),
		optcheck.Number("MaxConcurrentWorkflowTaskPollers", float64(o.MaxConcurrentWorkflowTaskPollers)),
		optcheck.Number("MaxConcurrentActivityTaskPollers", float64(o.MaxConcurrentActivityTaskPollers)),
		optcheck.Number("MaxConcurrentNexusTaskExecutionSize", float64(o.MaxConcurrentNexusTaskExecutionSize)),
		optcheck.Number("MaxConcurrentNexusTaskPollers", float64(o.MaxConcurrentNexusTaskPollers)),
		optcheck.Duration("StickyScheduleToStartTimeout", o.StickyScheduleToStartTimeout),
		optcheck.Duration("DefaultHeartbeatThrottleInterval", o.DefaultHeartbeatThrottleInterval),
		optcheck.Duration("MaxHeartbeatThrottleInterval", o.MaxHeartbeatThrottleInterval),
		optcheck.Duration("WorkerStopTimeout", o.WorkerStopTimeout),
		optcheck.Duration("DeadlockDetectionTimeout", o.DeadlockDetectionTimeout),
		optcheck.Number("MaxConcurrentSessionExecutionSize", float64(o.MaxConcurrentSessionExecutionSize)),
		optcheck.Number("MaxConcurrentEagerActivityExecutionSize", float64(o.MaxConcurrentEagerActivityExecutionSize)),
	}
	if err := optcheck.Negative("worker.New: worker.Options", values...); err != nil {
		panic(err.Error())
	}
}
