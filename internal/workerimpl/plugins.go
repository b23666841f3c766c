package workerimpl

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/nexus-rpc/sdk-go/nexus"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/uuid"
	"github.com/durable-go/sdk/log"
)

// workerPlugins is a worker's plugin state: the plugins that apply to it
// (the client's worker plugins, then its own), the callbacks they set on
// registrations, and the once-only start and stop they wrap.
type workerPlugins struct {
	PluginSet
	startOnce sync.Once
	startErr  error
	stopOnce  sync.Once
	stopped   atomic.Bool
}

// PluginSet runs the worker plugins of a worker, or of a test
// environment, which runs their hooks as a worker would.
type PluginSet struct {
	list          []internal.WorkerPlugin
	instanceKey   string
	registryHooks internal.WorkerPluginConfigureWorkerRegistryOptions
}

// Configured reports whether there are plugins.
func (s *PluginSet) Configured() bool { return len(s.list) > 0 }

// RegistryHooks are the callbacks the plugins set on registrations.
func (s *PluginSet) RegistryHooks() *internal.WorkerPluginConfigureWorkerRegistryOptions {
	return &s.registryHooks
}

// StartWorkerRegistry is what a StartWorker hook registers
// with (WorkerPluginStartWorkerOptions.WorkerRegistry).
type StartWorkerRegistry = interface {
	RegisterWorkflowWithOptions(any, internal.RegisterWorkflowOptions)
	RegisterDynamicWorkflow(any, internal.DynamicRegisterWorkflowOptions)
	RegisterActivityWithOptions(any, internal.RegisterActivityOptions)
	RegisterDynamicActivity(any, internal.DynamicRegisterActivityOptions)
	RegisterNexusService(*nexus.Service)
}

// configure takes plugins and runs each one's ConfigureWorker on options,
// in order.
func (s *PluginSet) Configure(plugins []internal.WorkerPlugin, taskQueue string, options *internal.WorkerOptions) error {
	s.list = plugins
	s.instanceKey = uuid.New()
	for _, plugin := range s.list {
		err := plugin.ConfigureWorker(context.Background(), internal.WorkerPluginConfigureWorkerOptions{
			WorkerInstanceKey:     s.instanceKey,
			TaskQueue:             taskQueue,
			WorkerOptions:         options,
			WorkerRegistryOptions: &s.registryHooks,
		})
		if err != nil {
			return fmt.Errorf("worker plugin %q failed to configure the worker: %w", plugin.Name(), err)
		}
	}
	return nil
}

// start runs start within the plugins' StartWorker hooks. started says
// whether start ran: a plugin may fail after it.
func (s *PluginSet) Start(registry StartWorkerRegistry, start func() error) (started bool, err error) {
	root := func(context.Context, internal.WorkerPluginStartWorkerOptions) error {
		started = true
		return start()
	}
	hooked := internal.ChainPluginHooks(s.list, root, func(p internal.WorkerPlugin, ctx context.Context, o internal.WorkerPluginStartWorkerOptions, next func(context.Context, internal.WorkerPluginStartWorkerOptions) error) error {
		return p.StartWorker(ctx, o, next)
	})
	err = hooked(context.Background(), internal.WorkerPluginStartWorkerOptions{WorkerInstanceKey: s.instanceKey, WorkerRegistry: registry})
	if err == nil && !started {
		err = fmt.Errorf("worker: not started: a StartWorker hook of the worker plugins %q returned without calling next; it must call next or return an error", internal.PluginNames(s.list))
	}
	return started, err
}

// stop runs stop within the plugins' StopWorker hooks; if a hook does not
// call next, stop runs after them, with a warning.
func (s *PluginSet) Stop(logger log.Logger, stop func()) {
	stopped := false
	root := func(context.Context, internal.WorkerPluginStopWorkerOptions) error {
		stopped = true
		stop()
		return nil
	}
	hooked := internal.ChainPluginHooks(s.list, root, func(p internal.WorkerPlugin, ctx context.Context, o internal.WorkerPluginStopWorkerOptions, next func(context.Context, internal.WorkerPluginStopWorkerOptions) error) error {
		p.StopWorker(ctx, o, func(ctx context.Context, o internal.WorkerPluginStopWorkerOptions) { _ = next(ctx, o) })
		return nil
	})
	_ = hooked(context.Background(), internal.WorkerPluginStopWorkerOptions{WorkerInstanceKey: s.instanceKey})
	if !stopped {
		logger.Warn("a StopWorker hook of the worker plugins returned without calling next; stopping the worker anyway",
			"Plugins", internal.PluginNames(s.list))
		stop()
	}
}

// configureThroughPlugins runs each plugin's ConfigureWorker on the
// worker's options, in order. worker.New returns no error, so a plugin's
// error is a panic, as in go.temporal.io/sdk.
func (w *AggregatedWorker) configureThroughPlugins() {
	if err := internal.CheckPlugins("worker.Options.Plugins", w.options.Plugins); err != nil {
		panic("worker.New: " + err.Error())
	}
	plugins := slices.Concat(w.clientSettings.Plugins, w.options.Plugins)
	if err := w.plugins.Configure(plugins, w.taskQueue, &w.options); err != nil {
		panic(fmt.Errorf("worker.New: %w", err))
	}
}

// Start begins polling; it returns once the worker runs, or with the
// error that kept it from starting (a namespace that does not exist, a
// server that cannot be reached). The worker's plugins wrap it
// (StartWorker). Only the first call starts the worker; later calls
// return its outcome.
func (w *AggregatedWorker) Start() error {
	if w.plugins.stopped.Load() {
		return errors.New("worker: Start after Stop: a stopped worker cannot start again; create a new one with worker.New")
	}
	w.plugins.startOnce.Do(func() {
		started, err := w.plugins.Start(w, w.startRuntime)
		if err != nil && started {
			// A plugin failed after the worker started: the caller, told
			// that Start failed, will not stop it.
			w.stopRuntime()
		}
		w.plugins.startErr = err
	})
	return w.plugins.startErr
}

// Stop stops polling and waits for running tasks (see WorkerStopTimeout).
// The worker's plugins wrap it (StopWorker). Only the first call stops the
// worker; calls at the same time wait for it.
func (w *AggregatedWorker) Stop() {
	w.plugins.stopOnce.Do(func() {
		w.plugins.stopped.Store(true)
		w.plugins.Stop(log.With(w.clientSettings.Logger, "TaskQueue", w.taskQueue), w.stopRuntime)
		w.logger().Info("Stopped Worker")
	})
}
