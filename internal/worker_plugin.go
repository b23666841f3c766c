package internal

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
)

// workerPlugins is a worker's plugin state: the plugins that apply to it
// (the client's worker plugins, then its own), the callbacks they set on
// registrations, and the once-only start and stop they wrap.
type workerPlugins struct {
	list          []WorkerPlugin
	instanceKey   string
	registryHooks WorkerPluginConfigureWorkerRegistryOptions

	startOnce sync.Once
	startErr  error
	stopOnce  sync.Once
	stopped   atomic.Bool
}

// configureThroughPlugins runs each plugin's ConfigureWorker on the
// worker's options, in order. worker.New returns no error, so a plugin's
// error is a panic, as in go.temporal.io/sdk.
func (w *AggregatedWorker) configureThroughPlugins() {
	if err := checkPlugins("worker.Options.Plugins", w.options.Plugins); err != nil {
		panic("worker.New: " + err.Error())
	}
	p := &w.plugins
	p.list = slices.Concat(w.client.workerPlugins, w.options.Plugins)
	p.instanceKey = newClientUUID()
	for _, plugin := range p.list {
		err := plugin.ConfigureWorker(context.Background(), WorkerPluginConfigureWorkerOptions{
			WorkerInstanceKey:     p.instanceKey,
			TaskQueue:             w.taskQueue,
			WorkerOptions:         &w.options,
			WorkerRegistryOptions: &p.registryHooks,
		})
		if err != nil {
			panic(fmt.Errorf("worker.New: worker plugin %q failed to configure the worker: %w", plugin.Name(), err))
		}
	}
}

// Start begins polling; it returns once the worker runs. It fails if
// nothing is registered. The worker's plugins wrap it (StartWorker). Only
// the first call starts the worker; later calls return its outcome.
func (w *AggregatedWorker) Start() error {
	if w.plugins.stopped.Load() {
		return errors.New("worker: Start after Stop: a stopped worker cannot start again; create a new one with worker.New")
	}
	w.plugins.startOnce.Do(func() { w.plugins.startErr = w.startThroughPlugins() })
	return w.plugins.startErr
}

func (w *AggregatedWorker) startThroughPlugins() error {
	started := false
	start := func(context.Context, WorkerPluginStartWorkerOptions) error {
		started = true
		return w.startRuntime()
	}
	hooked := chainHooks(w.plugins.list, start, func(p WorkerPlugin, ctx context.Context, o WorkerPluginStartWorkerOptions, next func(context.Context, WorkerPluginStartWorkerOptions) error) error {
		return p.StartWorker(ctx, o, next)
	})
	err := hooked(context.Background(), WorkerPluginStartWorkerOptions{WorkerInstanceKey: w.plugins.instanceKey, WorkerRegistry: w})
	switch {
	case err != nil && started:
		// A plugin failed after the worker started: the caller, told that
		// Start failed, will not stop it.
		w.stopRuntime()
		return err
	case err != nil:
		return err
	case !started:
		return fmt.Errorf("worker: not started: a StartWorker hook of the worker plugins %q returned without calling next; it must call next or return an error", pluginNames(w.plugins.list))
	}
	return nil
}

// Stop stops polling and waits for running tasks (see WorkerStopTimeout).
// The worker's plugins wrap it (StopWorker). Only the first call stops the
// worker; calls at the same time wait for it.
func (w *AggregatedWorker) Stop() {
	w.plugins.stopOnce.Do(func() {
		w.plugins.stopped.Store(true)
		stopped := false
		stop := func(context.Context, WorkerPluginStopWorkerOptions) error {
			stopped = true
			w.stopRuntime()
			return nil
		}
		hooked := chainHooks(w.plugins.list, stop, func(p WorkerPlugin, ctx context.Context, o WorkerPluginStopWorkerOptions, next func(context.Context, WorkerPluginStopWorkerOptions) error) error {
			p.StopWorker(ctx, o, func(ctx context.Context, o WorkerPluginStopWorkerOptions) { _ = next(ctx, o) })
			return nil
		})
		_ = hooked(context.Background(), WorkerPluginStopWorkerOptions{WorkerInstanceKey: w.plugins.instanceKey})
		if !stopped {
			w.client.logger.Warn("a StopWorker hook of the worker plugins returned without calling next; stopping the worker anyway",
				"TaskQueue", w.taskQueue, "Plugins", pluginNames(w.plugins.list))
			w.stopRuntime()
		}
	})
}
