package internal

import (
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/internal/workerrt"
	"github.com/durable-go/sdk/log"
)

// The wiring of this package's workflow runs and activity executor into
// a worker runtime. Two drivers use it, each one way: the worker
// (internal/workerimpl) and the test environment (internal/testenv); the
// replayer replays with ReplayHistory.

// EngineOptions are the engine options of runs of reg's workflows, made
// with o.
func EngineOptions(reg *registry.Registry, o RunOptions) *engine.Options {
	return newRunConfig(reg, o).engineOptions()
}

// NondeterminismLocator finds the workflow code behind a live task's
// non-determinism error (workerrt.Options.LocateNondeterminism): it
// replays the run with runs of reg's workflows made with o, which should
// be quiet (they redo what the failed task did), and locates each command
// by walking the stack.
func NondeterminismLocator(reg *registry.Registry, o RunOptions) func(src *engine.EventSource, workflowID, runID string, failed error) string {
	return nondeterminismLocator(newRunConfig(reg, o), workflowCodeLocation)
}

// ActivityExecutorOptions are what an activity executor runs reg's
// activities with.
type ActivityExecutorOptions struct {
	DataConverter converter.DataConverter
	Logger        log.Logger
	Metrics       sdkmetrics.Handler
	Namespace     string
	// TaskQueue is the queue the activities are polled from.
	TaskQueue string
	// ScheduledTaskQueue, when set, gives the queue an attempt was
	// scheduled on from its task token, when it differs from TaskQueue
	// (the test environment's worker runs every queue's activities); ""
	// means TaskQueue.
	ScheduledTaskQueue func(token []byte) string
	// Client is what activity.GetClient returns (nil: the test activity
	// environment's activities have none).
	Client       Client
	Interceptors []WorkerInterceptor
	Propagators  []ContextPropagator
}

// NewActivityExecutor runs reg's activities through their interceptors,
// in the context activity.GetInfo and the other activity functions read.
func NewActivityExecutor(reg *registry.Registry, o ActivityExecutorOptions) workerrt.ActivityExecutor {
	return &activityExecutor{registry: reg, dc: o.DataConverter, logger: o.Logger, metrics: o.Metrics,
		namespace: o.Namespace, taskQueue: o.TaskQueue, scheduledTaskQueue: o.ScheduledTaskQueue, client: o.Client,
		interceptors: o.Interceptors, propagators: o.Propagators}
}
