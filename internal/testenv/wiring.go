package testenv

import (
	"time"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/internal/workerimpl"
	"github.com/durable-go/sdk/internal/workerrt"
	"github.com/durable-go/sdk/log"
)

// wiring is what a test environment runs its worker, its activity
// executor and its replay check with. It builds them as a worker builds
// its own (internal's wiring and workerimpl.RuntimeOptions), so that an
// option the one honours the other honours too.
type wiring struct {
	Service   workerrt.Service
	Namespace string
	TaskQueue string
	// ScheduledTaskQueue: internal.ActivityExecutorOptions'.
	ScheduledTaskQueue func(token []byte) string
	Identity           string
	DataConverter      converter.DataConverter
	FailureConverter   converter.FailureConverter
	Logger             log.Logger
	Metrics            sdkmetrics.Handler
	// Interceptors are the worker's, the environment's own first.
	Interceptors []internal.WorkerInterceptor
	Propagators  []internal.ContextPropagator
	// Now is the environment's virtual clock; WallTime turns one of its
	// instants into wall time.
	Now      func() time.Time
	WallTime func(time.Time) time.Time
	// Cache is the runtime's sticky cache.
	Cache *workerrt.StickyCache
	// WithSessions wraps the worker's activity executor, when sessions are
	// on (nil: they are off).
	WithSessions func(workerrt.ActivityExecutor) (workerrt.ActivityExecutor, error)
}

// runOptions are the options of the test's workflow runs.
func (w wiring) runOptions(o internal.WorkerOptions) internal.RunOptions {
	return internal.RunOptions{
		DataConverter:    w.DataConverter,
		FailureConverter: w.FailureConverter,
		Logger:           w.Logger,
		Metrics:          w.Metrics,
		Namespace:        w.Namespace,
		DeadlockTimeout:  o.DeadlockDetectionTimeout,
		LogDuringReplay:  o.EnableLoggingInReplay,
		FailOnPanic:      o.WorkflowPanicPolicy == internal.FailWorkflow,
		SDKMetadataFlags: true,
		Interceptors:     w.Interceptors,
		Propagators:      w.Propagators,
		Now:              w.Now,
		PreferredVersion: o.PreferredVersionProvider,
	}
}

// replayOptions are the options of the replay check's runs: the test's,
// replaying quietly (no metrics, no logging in replay, no new SDK flags).
func (w wiring) replayOptions(o internal.WorkerOptions) internal.RunOptions {
	return internal.RunOptions{
		DataConverter:    w.DataConverter,
		FailureConverter: w.FailureConverter,
		Logger:           w.Logger,
		Namespace:        w.Namespace,
		DeadlockTimeout:  o.DeadlockDetectionTimeout,
		FailOnPanic:      o.WorkflowPanicPolicy == internal.FailWorkflow,
		Interceptors:     w.Interceptors,
		Propagators:      w.Propagators,
	}
}

// activityExecutor is the worker's activity executor, over reg.
func (w wiring) activityExecutor(reg *registry.Registry) workerrt.ActivityExecutor {
	return internal.NewActivityExecutor(reg, internal.ActivityExecutorOptions{DataConverter: w.DataConverter, Logger: w.Logger,
		Metrics: w.Metrics, Namespace: w.Namespace, TaskQueue: w.TaskQueue, ScheduledTaskQueue: w.ScheduledTaskQueue, Interceptors: w.Interceptors, Propagators: w.Propagators})
}

// runtimeOptions are the options of the test environment's worker
// runtime: the engine and activity executors of reg's functions, and
// what worker options o decide. Eager activities stay off: the in-memory
// server hands no activity back in a workflow task's answer.
func (w wiring) runtimeOptions(reg *registry.Registry, o internal.WorkerOptions) (workerrt.Options, error) {
	opts := workerrt.Options{
		Service:          w.Service,
		Namespace:        w.Namespace,
		TaskQueue:        w.TaskQueue,
		Identity:         w.Identity,
		Logger:           w.Logger,
		FailureConverter: w.FailureConverter,
		Engine:           internal.EngineOptions(reg, w.runOptions(o)),
		Cache:            w.Cache,
		WallTime:         w.WallTime,
		SDKName:          internal.SDKName,
		SDKVersion:       internal.SDKVersion,
	}
	plain := w.activityExecutor(reg)
	activities := plain
	if w.WithSessions != nil {
		var err error
		if activities, err = w.WithSessions(plain); err != nil {
			return workerrt.Options{}, err
		}
	}
	opts.Activities = activities
	opts.LocalActivities = plain
	o.DisableEagerActivities = true
	return workerimpl.RuntimeOptions(o, opts, w.Metrics)
}
