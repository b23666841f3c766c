package worker

import "github.com/durable-go/sdk/internal"

type (
	// Plugin configures workers and replayers and wraps their start, stop
	// and replays; set it in Options.Plugins or
	// WorkflowReplayerOptions.Plugins. A client.Plugin that is also a
	// Plugin applies to every worker made from its client, before the
	// worker's own. Plugins embed PluginBase; temporal.NewSimplePlugin
	// makes one from options.
	//
	// The Configure hooks run for each plugin in order; the hooks that
	// take a next function nest, the first plugin's outermost. New panics
	// with the error of a ConfigureWorker hook, as it returns none.
	Plugin = internal.WorkerPlugin

	// PluginBase is embedded by worker plugins: hooks a plugin does not
	// define change nothing.
	PluginBase = internal.WorkerPluginBase

	// PluginConfigureWorkerOptions are the arguments of
	// Plugin.ConfigureWorker: the worker's instance key and task queue,
	// the options to change and the registration callbacks to set.
	PluginConfigureWorkerOptions = internal.WorkerPluginConfigureWorkerOptions

	// PluginConfigureWorkerRegistryOptions are callbacks that see each
	// workflow and activity registered with a worker.
	PluginConfigureWorkerRegistryOptions = internal.WorkerPluginConfigureWorkerRegistryOptions

	// PluginStartWorkerOptions are the arguments of Plugin.StartWorker:
	// the worker's instance key, and the worker to register with.
	PluginStartWorkerOptions = internal.WorkerPluginStartWorkerOptions

	// PluginStopWorkerOptions are the arguments of Plugin.StopWorker.
	PluginStopWorkerOptions = internal.WorkerPluginStopWorkerOptions

	// PluginConfigureWorkflowReplayerOptions are the arguments of
	// Plugin.ConfigureWorkflowReplayer: the replayer's instance key, the
	// options to change and the registration callbacks to set.
	PluginConfigureWorkflowReplayerOptions = internal.WorkerPluginConfigureWorkflowReplayerOptions

	// PluginConfigureWorkflowReplayerRegistryOptions are callbacks that
	// see each workflow registered with a replayer.
	PluginConfigureWorkflowReplayerRegistryOptions = internal.WorkerPluginConfigureWorkflowReplayerRegistryOptions

	// PluginReplayWorkflowOptions are the arguments of
	// Plugin.ReplayWorkflow: the history to replay, the replayer to
	// register with, and where the history came from.
	PluginReplayWorkflowOptions = internal.WorkerPluginReplayWorkflowOptions
)
