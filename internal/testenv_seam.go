package internal

import (
	"context"
	"time"

	"github.com/nexus-rpc/sdk-go/nexus"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/history"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/internal/workerrt"
	"github.com/durable-go/sdk/log"
)

// The test environment's seam. The test environment
// (testsuite.TestWorkflowEnvironment and TestActivityEnvironment) lives in
// package internal/testenv, which only package testsuite imports, so that
// a program that imports client, worker, workflow or activity links
// neither it nor what it needs (the in-memory server, testify). It runs
// the worker as a worker runs: with this package's worker wiring and
// replayer, which production code keeps unexported. This file is its one
// way in: TestEnvSeam's methods, with TestEnvWiring and TestEnvPlugins
// for what they take; nothing else uses them. Each hands over what only
// this package can do, and says why; what a lower package or an
// exported function does, the test environment calls itself.

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
		PreferredVersion: o.PreferredVersionProvider,
	})
}

// ActivityExecutor is the worker's activity executor, over reg: the
// root's, which runs activities through its interceptors and context.
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
// policy and deadlock timeout. Only the root can: the replayed runs are
// its workflowRun.
func (TestEnvSeam) Replay(reg *registry.Registry, o WorkerOptions, w TestEnvWiring, events []*historypb.HistoryEvent, execution clientapi.WorkflowExecution) error {
	env := runConfigOptions{
		DataConverter:    w.DataConverter,
		FailureConverter: w.FailureConverter,
		Logger:           w.Logger,
		Namespace:        w.Namespace,
		DeadlockTimeout:  o.DeadlockDetectionTimeout,
		FailOnPanic:      o.WorkflowPanicPolicy == FailWorkflow,
		Interceptors:     w.Interceptors,
		Propagators:      w.Propagators,
		Replayer:         true,
	}
	_, err := replayHistory(context.Background(), reg, env, history.Source{Events: events, Original: execution}, false)
	return err
}

// ActivityInfo is what activity.GetInfo returns for task, for the
// listeners that hear of an activity as its code sees it. Only the root
// can: its activity executor builds the info from the task.
func (TestEnvSeam) ActivityInfo(task *workerrt.ActivityTask, namespace string) ActivityInfo {
	return activityInfoOf(task, namespace)
}

// WithHistoryLength is a copy of info whose GetCurrentHistoryLength
// reports length (TestWorkflowEnvironment.SetCurrentHistoryLength). Only
// the root can: the length is unexported, as in go.temporal.io/sdk, so
// that workflow code cannot set it.
func (TestEnvSeam) WithHistoryLength(info *WorkflowInfo, length int) *WorkflowInfo {
	copied := *info
	copied.currentHistoryLength = length
	return &copied
}

// TestEnvPlugins runs the worker plugins of a test environment's worker
// options as a worker runs them (the root's workerPluginSet, whose hooks
// take the root's options). Its zero value has none.
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
func (p *TestEnvPlugins) Start(registry startWorkerRegistry, start func() error) (started bool, err error) {
	return p.set.start(registry, start)
}

// Stop runs stop within the plugins' StopWorker hooks.
func (p *TestEnvPlugins) Stop(logger log.Logger, stop func()) { p.set.stop(logger, stop) }

// NexusMiddleware runs each Nexus operation call through interceptors, as
// a worker runs it. Only the root can: the chain's outbound end, which
// the temporalnexus functions call, is its own.
func (TestEnvSeam) NexusMiddleware(interceptors []WorkerInterceptor) nexus.MiddlewareFunc {
	return nexusMiddleware(interceptors)
}
