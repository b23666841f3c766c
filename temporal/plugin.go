package temporal

import "github.com/durable-go/sdk/internal/simpleplugin"

// SimplePlugin is both a client.Plugin and a worker.Plugin, made from
// SimplePluginOptions by NewSimplePlugin: the easy way for a library to
// hand its users converters, interceptors, context propagators,
// registrations and code that runs around workers and replays. Users add
// it to client.Options.Plugins (it then applies to the client's workers
// too) or to worker.Options.Plugins.
//
// Its methods are the hooks of the two plugin interfaces, which the SDK
// calls: Name returns SimplePluginOptions.Name (and Version its
// Version); ConfigureClient,
// ConfigureWorker and ConfigureWorkflowReplayer apply the options to a
// client's, a worker's or a replayer's options; NewClient passes the new
// client on; StartWorker and StopWorker run RunContextBefore and
// RunContextAfter around a worker's run, and ReplayWorkflow around each
// replay.
type SimplePlugin = simpleplugin.SimplePlugin

// SimplePluginOptions configure NewSimplePlugin.
//
//   - Name: the plugin's name, which errors about it show. Required.
//   - Version: the plugin's version, which SimplePlugin.Version returns
//     (go.temporal.io/sdk reports it in worker heartbeats, which this SDK
//     does not send yet).
//   - DataConverter: replaces the data converter of the clients and
//     replayers the plugin configures (workers use their client's).
//   - FailureConverter: replaces their failure converter.
//   - ContextPropagators: added after those they already have.
//   - ClientInterceptors: added after the client's interceptors; those
//     that are also worker interceptors reach the client's workers, and
//     replayers.
//   - WorkerInterceptors: added after the interceptors of the workers and
//     replayers the plugin configures.
//   - ConfigureClient, ConfigureWorker, ConfigureWorkflowReplayer: run
//     after the fields above were applied, to change anything else of the
//     options.
//   - RunContextBefore: runs as a worker starts, before it polls, and
//     before each replay; it may register workflows and activities. An
//     error fails the start or the replay.
//   - RunContextAfter: runs as a worker stops, before polling ends, and
//     after each replay. It must not call the worker's Stop.
type SimplePluginOptions = simpleplugin.SimplePluginOptions

// SimplePluginRunContextBeforeOptions are what
// SimplePluginOptions.RunContextBefore is given.
//
//   - InstanceKey: identifies the worker or replayer, the same in all
//     its plugins' hooks.
//   - WorkflowReplayer: true before a replay, false as a worker starts.
//   - Registry: registers workflows and activities with the worker or
//     replayer (a replayer ignores activities).
type SimplePluginRunContextBeforeOptions = simpleplugin.SimplePluginRunContextBeforeOptions

// SimplePluginRunContextAfterOptions are what
// SimplePluginOptions.RunContextAfter is given.
//
//   - InstanceKey: identifies the worker or replayer, as in
//     RunContextBefore.
type SimplePluginRunContextAfterOptions = simpleplugin.SimplePluginRunContextAfterOptions

// NewSimplePlugin returns a plugin that applies options. It returns an
// error when options.Name is empty.
func NewSimplePlugin(options SimplePluginOptions) (*SimplePlugin, error) {
	return simpleplugin.NewSimplePlugin(options)
}
