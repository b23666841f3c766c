package testenv

import (
	"fmt"
	"slices"

	"github.com/nexus-rpc/sdk-go/nexus"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/workerimpl"
)

// The test environments run the worker plugins of their worker options as
// a worker runs them: ConfigureWorker when the options are set (a
// failure panics, as worker.New does), the registration callbacks on each
// registration, and StartWorker and StopWorker around each run of
// workflow or activity code. The worker in between is the environment's:
// StartWorker hooks that register workflows and activities register them
// with the environment.

// configurePlugins runs the plugins of options on them; options may be set
// once when they have plugins.
func (e *TestWorkflowEnvironment) configurePlugins(options *internal.WorkerOptions) {
	e.mu.Lock()
	taskQueue, configured := e.startOptions.TaskQueue, e.plugins.Configured()
	e.mu.Unlock()
	if configured {
		panic("SetWorkerOptions: the worker options' plugins were applied already; set the options once")
	}
	if taskQueue == "" {
		taskQueue = testTaskQueue
	}
	configureTestPlugins(&e.plugins, taskQueue, options)
}

// startPlugins runs the plugins' StartWorker hooks and returns the stop
// that runs their StopWorker hooks.
func (e *TestWorkflowEnvironment) startPlugins() (stop func(), err error) {
	if !e.plugins.Configured() {
		return func() {}, nil
	}
	if _, err := e.plugins.Start(e, func() error { return nil }); err != nil {
		return nil, err
	}
	return func() { e.plugins.Stop(e.suite.logger, func() {}) }, nil
}

func (t *TestActivityEnvironment) configurePlugins(options *internal.WorkerOptions) {
	t.mu.Lock()
	configured := t.plugins.Configured()
	t.mu.Unlock()
	if configured {
		panic("SetWorkerOptions: the worker options' plugins were applied already; set the options once")
	}
	configureTestPlugins(&t.plugins, testTaskQueue, options)
}

// configuredWorkerOptions are the worker options, their plugins applied,
// for a test workflow environment that runs activities for this one.
func (t *TestActivityEnvironment) configuredWorkerOptions() internal.WorkerOptions {
	o := t.workerOptions
	o.Plugins = nil
	return o
}

// withPlugins runs an activity between the plugins' StartWorker and
// StopWorker hooks.
func (t *TestActivityEnvironment) withPlugins(run func() (converter.EncodedValue, error)) (converter.EncodedValue, error) {
	if !t.plugins.Configured() {
		return run()
	}
	if _, err := t.plugins.Start(activityEnvRegistry{t}, func() error { return nil }); err != nil {
		return nil, err
	}
	defer t.plugins.Stop(t.suite.logger, func() {})
	return run()
}

// activityEnvRegistry is what StartWorker hooks of an activity
// environment register with: activities for the environment to run, and
// workflows, which it keeps beside them.
type activityEnvRegistry struct{ t *TestActivityEnvironment }

func (r activityEnvRegistry) RegisterWorkflowWithOptions(w any, options internal.RegisterWorkflowOptions) {
	r.t.registerWorkflow(w, options)
}

func (r activityEnvRegistry) RegisterDynamicWorkflow(w any, options internal.DynamicRegisterWorkflowOptions) {
	r.t.registerDynamicWorkflow(w, options)
}

func (r activityEnvRegistry) RegisterActivityWithOptions(a any, options internal.RegisterActivityOptions) {
	r.t.RegisterActivityWithOptions(a, options)
}

func (r activityEnvRegistry) RegisterDynamicActivity(a any, options internal.DynamicRegisterActivityOptions) {
	r.t.RegisterDynamicActivity(a, options)
}

// RegisterNexusService tells the plugins' registration callback of the
// service, and keeps nothing: activities call no Nexus operations. As in
// go.temporal.io/sdk, the registration does not fail.
func (r activityEnvRegistry) RegisterNexusService(s *nexus.Service) {
	if on := r.t.plugins.RegistryHooks().OnRegisterNexusService; on != nil {
		on(s)
	}
}

// configureTestPlugins applies options' plugins to options, panicking on
// failure as worker.New does.
func configureTestPlugins(set *workerimpl.PluginSet, taskQueue string, options *internal.WorkerOptions) {
	if len(options.Plugins) == 0 {
		return
	}
	if err := internal.CheckPlugins("worker.Options.Plugins", options.Plugins); err != nil {
		panic("SetWorkerOptions: " + err.Error())
	}
	if err := set.Configure(slices.Clone(options.Plugins), taskQueue, options); err != nil {
		panic(fmt.Errorf("SetWorkerOptions: %w", err))
	}
}
