package internal

import (
	"context"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/internal/wfsync"
	"github.com/durable-go/sdk/internal/workerrt"
	"github.com/durable-go/sdk/log"
)

// The test environment's seam. The test environment
// (testsuite.TestWorkflowEnvironment and TestActivityEnvironment) lives in
// package internal/testenv, which only package testsuite imports, so that
// a program that imports client, worker, workflow or activity links
// neither it nor what it needs (the in-memory server, testify). It
// drives this package's worker wiring, helpers and replayer, which
// production code keeps unexported (the client's helpers it uses,
// internal/clientimpl exports): this file is its one way in,
// TestEnvSeam's methods, with TestEnvWiring and TestEnvPlugins for what
// they take. Nothing else uses them. Each method hands over an
// unexported helper unchanged, so that the test environment and the
// worker keep sharing one implementation.

// TestEnvSeam gives the test environment what it borrows from this
// package. Its zero value is ready to use.
type TestEnvSeam struct{}

// TestEnvWiring is what a test environment runs its worker, its activity
// executor and its replay check with.
type TestEnvWiring struct {
	Service          workerrt.Service
	Namespace        string
	TaskQueue        string
	Identity         string
	DataConverter    converter.DataConverter
	FailureConverter converter.FailureConverter
	Logger           log.Logger
	Metrics          sdkmetrics.Handler
	// Interceptors are the worker's, the environment's own first.
	Interceptors []WorkerInterceptor
	Propagators  []ContextPropagator
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

// runConfig is the environment of the test's workflow runs.
func (w TestEnvWiring) runConfig(reg *registry.Registry, o WorkerOptions) *runConfig {
	return newRunConfig(reg, runConfigOptions{
		DataConverter:    w.DataConverter,
		FailureConverter: w.FailureConverter,
		Logger:           w.Logger,
		Metrics:          w.Metrics,
		Namespace:        w.Namespace,
		DeadlockTimeout:  o.DeadlockDetectionTimeout,
		LogDuringReplay:  o.EnableLoggingInReplay,
		FailOnPanic:      o.WorkflowPanicPolicy == FailWorkflow,
		SDKMetadataFlags: true,
		Interceptors:     w.Interceptors,
		Propagators:      w.Propagators,
		Now:              w.Now,
	})
}

// ActivityExecutor is the worker's activity executor, over reg.
func (TestEnvSeam) ActivityExecutor(reg *registry.Registry, w TestEnvWiring) workerrt.ActivityExecutor {
	return &activityExecutor{registry: reg, dc: w.DataConverter, logger: w.Logger, metrics: w.Metrics,
		namespace: w.Namespace, taskQueue: w.TaskQueue, interceptors: w.Interceptors, propagators: w.Propagators}
}

// RuntimeOptions are the options of the test environment's worker
// runtime: the engine and activity executors of reg's functions, and
// what worker options o decide, built as a worker builds its own
// (runtimeOptions). Eager activities stay off: the in-memory server
// hands no activity back in a workflow task's answer.
func (s TestEnvSeam) RuntimeOptions(reg *registry.Registry, o WorkerOptions, w TestEnvWiring) (workerrt.Options, error) {
	config := w.runConfig(reg, o)
	opts := workerrt.Options{
		Service:          w.Service,
		Namespace:        w.Namespace,
		TaskQueue:        w.TaskQueue,
		Identity:         w.Identity,
		Logger:           w.Logger,
		FailureConverter: w.FailureConverter,
		Engine:           config.engineOptions(),
		Cache:            w.Cache,
		WallTime:         w.WallTime,
		SDKName:          SDKName,
		SDKVersion:       SDKVersion,
	}
	plain := s.ActivityExecutor(reg, w)
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
	return runtimeOptions(o, opts, w.Metrics)
}

// Replay replays the history of one run of the test (the replay check)
// with a fresh engine, as the test's worker ran it: with reg's
// functions, w's converters, interceptors and namespace, and o's panic
// policy and deadlock timeout.
func (TestEnvSeam) Replay(reg *registry.Registry, o WorkerOptions, w TestEnvWiring, events []*historypb.HistoryEvent, execution WorkflowExecution) error {
	replayer := &WorkflowReplayer{
		registry: reg,
		options: WorkflowReplayerOptions{
			DataConverter:      w.DataConverter,
			FailureConverter:   w.FailureConverter,
			Interceptors:       w.Interceptors,
			ContextPropagators: w.Propagators,
		},
		adjustEnv: func(e *runConfigOptions) {
			e.Namespace = w.Namespace
			e.DeadlockTimeout = o.DeadlockDetectionTimeout
			e.FailOnPanic = o.WorkflowPanicPolicy == FailWorkflow
		},
	}
	_, err := replayer.replayHistory(context.Background(), w.Logger, replaySource{events: events, original: execution}, false)
	return err
}

// ClosesRun reports an event that ends a run.
func (TestEnvSeam) ClosesRun(t enumspb.EventType) bool { return closesRun(t) }

// EncodedValue is the EncodedValue of payloads p.
func (TestEnvSeam) EncodedValue(p *commonpb.Payloads, dc converter.DataConverter) converter.EncodedValue {
	return newEncodedValue(p, dc)
}

// ActivityName is the type name of an activity given as a function or a
// name, as workflow.ExecuteActivity schedules it.
func (TestEnvSeam) ActivityName(reg *registry.Registry, activity any) (string, error) {
	return activityName(reg, activity)
}

// ActivityInfo is what activity.GetInfo returns for task.
func (TestEnvSeam) ActivityInfo(task *workerrt.ActivityTask, namespace string) ActivityInfo {
	return activityInfoOf(task, namespace)
}

// ReadyFuture is a Future settled with value and err.
func (TestEnvSeam) ReadyFuture(value any, err error) Future {
	f := &wfsync.SettableFuture{}
	f.Set(value, err)
	return f
}

// WithHistoryLength is a copy of info whose GetCurrentHistoryLength
// reports length.
func (TestEnvSeam) WithHistoryLength(info *WorkflowInfo, length int) *WorkflowInfo {
	copied := *info
	copied.currentHistoryLength = length
	return &copied
}

// CheckPlugins reports a nil entry of the plugins list named field.
func (TestEnvSeam) CheckPlugins(field string, plugins []WorkerPlugin) error {
	return CheckPlugins(field, plugins)
}

// TestEnvPlugins runs the worker plugins of a test environment's worker
// options as a worker runs them (workerPluginSet). Its zero value has
// none.
type TestEnvPlugins struct{ set workerPluginSet }

// Configure takes plugins and runs each one's ConfigureWorker on options,
// in order.
func (p *TestEnvPlugins) Configure(plugins []WorkerPlugin, taskQueue string, options *WorkerOptions) error {
	return p.set.configure(plugins, taskQueue, options)
}

// Configured reports whether there are plugins.
func (p *TestEnvPlugins) Configured() bool { return len(p.set.list) > 0 }

// RegistryHooks are the callbacks the plugins set on registrations.
func (p *TestEnvPlugins) RegistryHooks() *WorkerPluginConfigureWorkerRegistryOptions {
	return &p.set.registryHooks
}

// Start runs start within the plugins' StartWorker hooks, which register
// with registry; started says whether start ran.
func (p *TestEnvPlugins) Start(registry pluginRegistry, start func() error) (started bool, err error) {
	return p.set.start(registry, start)
}

// Stop runs stop within the plugins' StopWorker hooks.
func (p *TestEnvPlugins) Stop(logger log.Logger, stop func()) { p.set.stop(logger, stop) }
