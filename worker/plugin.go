package worker

import "github.com/durable-go/sdk/internal"

// Plugin configures workers and replayers and wraps their start, stop and
// replays; set it in Options.Plugins or WorkflowReplayerOptions.Plugins. A
// client.Plugin that is also a Plugin applies to every worker made from
// its client, before the worker's own. Plugins embed PluginBase;
// temporal.NewSimplePlugin makes one from options.
//
// The Configure hooks run for each plugin in order; the hooks that take a
// next function nest, the first plugin's outermost.
//
//   - Name identifies the plugin in errors.
//   - ConfigureWorker may change the options of a worker that New is
//     making, and set callbacks that see each registration. New panics
//     with its error, as New returns none.
//   - StartWorker wraps Worker.Start (and the start of Run); it must call
//     next or return an error.
//   - StopWorker wraps the worker's stop; it must call next, which stops
//     polling and waits for running tasks, and must not call Worker.Stop.
//   - ConfigureWorkflowReplayer may change the options of a replayer being
//     made, and set callbacks that see each registration.
//   - ReplayWorkflow wraps each replay of one history; it must call next
//     or return an error.
type Plugin = internal.WorkerPlugin

// PluginBase is embedded by worker plugins: the hooks a plugin does not
// define change nothing (its ConfigureWorker, StartWorker, StopWorker,
// ConfigureWorkflowReplayer and ReplayWorkflow pass on).
type PluginBase = internal.WorkerPluginBase

// PluginConfigureWorkerOptions are what Plugin.ConfigureWorker is given.
//
//   - WorkerInstanceKey: identifies the worker in all its hooks (a random
//     UUID per worker).
//   - TaskQueue: the worker's task queue.
//   - WorkerOptions: the options of the worker being made, to change in
//     place (leave their Plugins as they are).
//   - WorkerRegistryOptions: callbacks that see each registration with
//     the worker; a plugin that replaces one should call the one it
//     replaces.
type PluginConfigureWorkerOptions = internal.WorkerPluginConfigureWorkerOptions

// PluginConfigureWorkerRegistryOptions are callbacks that see each
// registration with a worker, before it happens: OnRegisterWorkflow,
// OnRegisterDynamicWorkflow, OnRegisterActivity (a function or a struct)
// and OnRegisterDynamicActivity, each with the registration's options,
// and OnRegisterNexusService, with the Nexus service.
type PluginConfigureWorkerRegistryOptions = internal.WorkerPluginConfigureWorkerRegistryOptions

// PluginStartWorkerOptions are what Plugin.StartWorker is given.
//
//   - WorkerInstanceKey: identifies the worker, as in ConfigureWorker.
//   - WorkerRegistry: the worker, to register workflows and activities as
//     it starts (the OnRegister callbacks see them too).
type PluginStartWorkerOptions = internal.WorkerPluginStartWorkerOptions

// PluginStopWorkerOptions are what Plugin.StopWorker is given.
//
//   - WorkerInstanceKey: identifies the worker, as in ConfigureWorker.
type PluginStopWorkerOptions = internal.WorkerPluginStopWorkerOptions

// PluginConfigureWorkflowReplayerOptions are what
// Plugin.ConfigureWorkflowReplayer is given.
//
//   - WorkflowReplayerInstanceKey: identifies the replayer in all its
//     hooks (a random UUID per replayer).
//   - WorkflowReplayerOptions: the options of the replayer being made, to
//     change in place (leave their Plugins as they are).
//   - WorkflowReplayerRegistryOptions: callbacks that see each
//     registration with the replayer.
type PluginConfigureWorkflowReplayerOptions = internal.WorkerPluginConfigureWorkflowReplayerOptions

// PluginConfigureWorkflowReplayerRegistryOptions are callbacks that see
// each registration with a replayer, before it happens:
// OnRegisterWorkflow and OnRegisterDynamicWorkflow, each with the
// registration's options.
type PluginConfigureWorkflowReplayerRegistryOptions = internal.WorkerPluginConfigureWorkflowReplayerRegistryOptions

// PluginReplayWorkflowOptions are what Plugin.ReplayWorkflow is given.
//
//   - WorkflowReplayerInstanceKey: identifies the replayer, as in
//     ConfigureWorkflowReplayer.
//   - WorkflowReplayRegistry: the replayer, to register workflows before
//     the replay.
//   - History: the history to replay, all its pages; the replay uses the
//     History, Logger and OriginalExecution that reach the innermost next.
//   - Logger: the logger the replay was given (a default one for nil).
//   - WorkflowServiceClient: the service ReplayWorkflowExecution read the
//     history from, else nil.
//   - Namespace: the namespace given to ReplayWorkflowExecution, else
//     "ReplayNamespace".
//   - OriginalExecution: the recorded run's IDs as the replay was told
//     them, or empty.
type PluginReplayWorkflowOptions = internal.WorkerPluginReplayWorkflowOptions
