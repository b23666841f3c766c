package internal

import (
	"context"
	"fmt"

	"github.com/nexus-rpc/sdk-go/nexus"

	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/log"
)

// Plugins let a library configure the clients, workers and replayers of
// the programs that use it (adding interceptors, converters, registrations)
// and run code around their lifecycle. client.Options.Plugins,
// worker.Options.Plugins and worker.WorkflowReplayerOptions.Plugins take
// them; a client plugin that is also a worker plugin applies to every
// worker made from that client too.
//
// Hooks of several plugins nest: each "Configure" hook runs in the order
// the plugins are listed, and each hook that gets a next function
// (NewClient, StartWorker, StopWorker, ReplayWorkflow) wraps those of the
// plugins after it, so the first plugin's hook runs first and returns
// last.

// ClientPlugin configures clients and wraps their creation
// (client.Plugin). Implementations embed ClientPluginBase, which supplies
// the hooks they leave out; temporal.SimplePlugin covers the common cases.
type ClientPlugin interface {
	// Name identifies the plugin in errors and logs.
	Name() string
	// ConfigureClient may change the options of a client being created,
	// before they are validated and defaults are filled in.
	ConfigureClient(ctx context.Context, options ClientPluginConfigureClientOptions) error
	// NewClient wraps the creation (and, unless lazy, the connection
	// check) of a client whose options are final. It must call next, or
	// return an error.
	NewClient(ctx context.Context, options ClientPluginNewClientOptions, next func(context.Context, ClientPluginNewClientOptions) error) error

	// Only ClientPluginBase (or this package) implements it, so that
	// hooks added later have a default.
	embedsClientPluginBase()
}

// ClientPluginBase is embedded by client plugins: its hooks change nothing
// and call next (client.PluginBase).
type ClientPluginBase struct{}

// ConfigureClient implements ClientPlugin: it leaves the options alone.
func (ClientPluginBase) ConfigureClient(context.Context, ClientPluginConfigureClientOptions) error {
	return nil
}

// NewClient implements ClientPlugin: it calls next.
func (ClientPluginBase) NewClient(ctx context.Context, options ClientPluginNewClientOptions, next func(context.Context, ClientPluginNewClientOptions) error) error {
	return next(ctx, options)
}

func (ClientPluginBase) embedsClientPluginBase() {}

// ClientPluginBase is embedded in other packages' plugins; this says, to
// tools that read one package at a time, that its seal is used.
var _ interface{ embedsClientPluginBase() } = ClientPluginBase{}

// ClientPluginConfigureClientOptions are the arguments of
// ClientPlugin.ConfigureClient (client.PluginConfigureClientOptions).
type ClientPluginConfigureClientOptions struct {
	// ClientOptions are the options of the client being created; the
	// plugin changes them in place. Their Plugins field must stay as it is.
	ClientOptions *ClientOptions
}

// ClientPluginNewClientOptions are the arguments of ClientPlugin.NewClient
// (client.PluginNewClientOptions).
type ClientPluginNewClientOptions struct {
	// ClientOptions are the final options of the client being created.
	// Change options in ConfigureClient, not here.
	ClientOptions ClientOptions
	// Lazy is true when the client is created by NewLazyClient, which does
	// not contact the server.
	Lazy bool
	// FromExisting is the client whose connection the new one shares
	// (NewClientFromExisting), or nil.
	FromExisting Client
}

// WorkerPlugin configures workers and replayers and wraps their runs
// (worker.Plugin). Implementations embed WorkerPluginBase, which supplies
// the hooks they leave out; temporal.SimplePlugin covers the common cases.
type WorkerPlugin interface {
	// Name identifies the plugin in errors and logs.
	Name() string
	// ConfigureWorker may change the options of a worker being created by
	// worker.New, and set callbacks that see each registration. worker.New
	// panics with the error it returns, as it returns no error.
	ConfigureWorker(ctx context.Context, options WorkerPluginConfigureWorkerOptions) error
	// StartWorker wraps Worker.Start (and the start of Worker.Run), which
	// runs it once. It must call next, or return an error.
	StartWorker(ctx context.Context, options WorkerPluginStartWorkerOptions, next func(context.Context, WorkerPluginStartWorkerOptions) error) error
	// StopWorker wraps the stop of the worker (Worker.Stop, or the end of
	// Worker.Run), which runs it once. next stops polling and waits for
	// running tasks; the hook must call it, and must not call Worker.Stop,
	// which would wait for the hook itself.
	StopWorker(ctx context.Context, options WorkerPluginStopWorkerOptions, next func(context.Context, WorkerPluginStopWorkerOptions))
	// ConfigureWorkflowReplayer may change the options of a replayer being
	// created, and set callbacks that see each registration.
	ConfigureWorkflowReplayer(ctx context.Context, options WorkerPluginConfigureWorkflowReplayerOptions) error
	// ReplayWorkflow wraps each replay of one history. It must call next,
	// or return an error.
	ReplayWorkflow(ctx context.Context, options WorkerPluginReplayWorkflowOptions, next func(context.Context, WorkerPluginReplayWorkflowOptions) error) error

	// Only WorkerPluginBase (or this package) implements it, so that
	// hooks added later have a default.
	embedsWorkerPluginBase()
}

// WorkerPluginBase is embedded by worker plugins: its hooks change nothing
// and call next (worker.PluginBase).
type WorkerPluginBase struct{}

// ConfigureWorker implements WorkerPlugin: it leaves the options alone.
func (WorkerPluginBase) ConfigureWorker(context.Context, WorkerPluginConfigureWorkerOptions) error {
	return nil
}

// StartWorker implements WorkerPlugin: it calls next.
func (WorkerPluginBase) StartWorker(ctx context.Context, options WorkerPluginStartWorkerOptions, next func(context.Context, WorkerPluginStartWorkerOptions) error) error {
	return next(ctx, options)
}

// StopWorker implements WorkerPlugin: it calls next.
func (WorkerPluginBase) StopWorker(ctx context.Context, options WorkerPluginStopWorkerOptions, next func(context.Context, WorkerPluginStopWorkerOptions)) {
	next(ctx, options)
}

// ConfigureWorkflowReplayer implements WorkerPlugin: it leaves the
// options alone.
func (WorkerPluginBase) ConfigureWorkflowReplayer(context.Context, WorkerPluginConfigureWorkflowReplayerOptions) error {
	return nil
}

// ReplayWorkflow implements WorkerPlugin: it calls next.
func (WorkerPluginBase) ReplayWorkflow(ctx context.Context, options WorkerPluginReplayWorkflowOptions, next func(context.Context, WorkerPluginReplayWorkflowOptions) error) error {
	return next(ctx, options)
}

func (WorkerPluginBase) embedsWorkerPluginBase() {}

// WorkerPluginBase is embedded in other packages' plugins; this says, to
// tools that read one package at a time, that its seal is used.
var _ interface{ embedsWorkerPluginBase() } = WorkerPluginBase{}

// PluginSeal gives a plugin type of another package the unexported
// methods of ClientPlugin and WorkerPlugin, and no hook: a type that
// embeds it implements every hook itself, so that a hook added to the
// interfaces must be decided on there (internal/simpleplugin's
// SimplePlugin).
type PluginSeal struct{}

func (PluginSeal) embedsClientPluginBase() {}
func (PluginSeal) embedsWorkerPluginBase() {}

var _ interface {
	embedsClientPluginBase()
	embedsWorkerPluginBase()
} = PluginSeal{}

// WorkerPluginConfigureWorkerOptions are the arguments of
// WorkerPlugin.ConfigureWorker (worker.PluginConfigureWorkerOptions).
type WorkerPluginConfigureWorkerOptions struct {
	// WorkerInstanceKey identifies the worker in all its hooks: a random
	// UUID per worker.
	WorkerInstanceKey string
	// TaskQueue is the worker's task queue.
	TaskQueue string
	// WorkerOptions are the options of the worker being created; the
	// plugin changes them in place. Their Plugins field must stay as it is.
	WorkerOptions *WorkerOptions
	// WorkerRegistryOptions hold callbacks that see each registration
	// with the worker before it happens. A plugin that replaces a callback
	// another set should call the one it replaces.
	WorkerRegistryOptions *WorkerPluginConfigureWorkerRegistryOptions
}

// WorkerPluginConfigureWorkerRegistryOptions are the callbacks that see
// registrations with a worker (worker.PluginConfigureWorkerRegistryOptions).
type WorkerPluginConfigureWorkerRegistryOptions struct {
	// OnRegisterWorkflow sees each workflow registered, and its options.
	OnRegisterWorkflow func(any, RegisterWorkflowOptions)
	// OnRegisterDynamicWorkflow sees the dynamic workflow registered.
	OnRegisterDynamicWorkflow func(any, DynamicRegisterWorkflowOptions)
	// OnRegisterActivity sees each activity (function or struct)
	// registered, and its options.
	OnRegisterActivity func(any, RegisterActivityOptions)
	// OnRegisterDynamicActivity sees the dynamic activity registered.
	OnRegisterDynamicActivity func(any, DynamicRegisterActivityOptions)
	// OnRegisterNexusService sees each Nexus service registered.
	OnRegisterNexusService func(*nexus.Service)
}

// WorkerPluginStartWorkerOptions are the arguments of
// WorkerPlugin.StartWorker (worker.PluginStartWorkerOptions).
type WorkerPluginStartWorkerOptions struct {
	// WorkerInstanceKey identifies the worker, as in ConfigureWorker.
	WorkerInstanceKey string
	// WorkerRegistry is the worker, for plugins that register workflows
	// and activities as it starts. Registrations through it reach the
	// OnRegister callbacks too.
	WorkerRegistry interface {
		RegisterWorkflowWithOptions(any, RegisterWorkflowOptions)
		RegisterDynamicWorkflow(any, DynamicRegisterWorkflowOptions)
		RegisterActivityWithOptions(any, RegisterActivityOptions)
		RegisterDynamicActivity(any, DynamicRegisterActivityOptions)
		RegisterNexusService(*nexus.Service)
	}
}

// WorkerPluginStopWorkerOptions are the arguments of
// WorkerPlugin.StopWorker (worker.PluginStopWorkerOptions).
type WorkerPluginStopWorkerOptions struct {
	// WorkerInstanceKey identifies the worker, as in ConfigureWorker.
	WorkerInstanceKey string
}

// WorkerPluginConfigureWorkflowReplayerOptions are the arguments of
// WorkerPlugin.ConfigureWorkflowReplayer
// (worker.PluginConfigureWorkflowReplayerOptions).
type WorkerPluginConfigureWorkflowReplayerOptions struct {
	// WorkflowReplayerInstanceKey identifies the replayer in all its
	// hooks: a random UUID per replayer.
	WorkflowReplayerInstanceKey string
	// WorkflowReplayerOptions are the options of the replayer being
	// created; the plugin changes them in place. Their Plugins field must
	// stay as it is.
	WorkflowReplayerOptions *WorkflowReplayerOptions
	// WorkflowReplayerRegistryOptions hold callbacks that see each
	// registration with the replayer before it happens.
	WorkflowReplayerRegistryOptions *WorkerPluginConfigureWorkflowReplayerRegistryOptions
}

// WorkerPluginConfigureWorkflowReplayerRegistryOptions are the callbacks
// that see registrations with a replayer
// (worker.PluginConfigureWorkflowReplayerRegistryOptions).
type WorkerPluginConfigureWorkflowReplayerRegistryOptions struct {
	// OnRegisterWorkflow sees each workflow registered, and its options.
	OnRegisterWorkflow func(any, RegisterWorkflowOptions)
	// OnRegisterDynamicWorkflow sees the dynamic workflow registered.
	OnRegisterDynamicWorkflow func(any, DynamicRegisterWorkflowOptions)
}

// WorkerPluginReplayWorkflowOptions are the arguments of
// WorkerPlugin.ReplayWorkflow (worker.PluginReplayWorkflowOptions).
type WorkerPluginReplayWorkflowOptions struct {
	// WorkflowReplayerInstanceKey identifies the replayer, as in
	// ConfigureWorkflowReplayer.
	WorkflowReplayerInstanceKey string
	// WorkflowReplayRegistry is the replayer, for plugins that register
	// workflows before a replay. Registrations through it reach the
	// OnRegister callback too.
	WorkflowReplayRegistry interface {
		RegisterWorkflowWithOptions(any, RegisterWorkflowOptions)
		RegisterDynamicWorkflow(any, DynamicRegisterWorkflowOptions)
	}
	// History is the history to replay, all its pages. The replay uses the
	// History, Logger and OriginalExecution that reach the innermost next.
	History *historypb.History
	// Logger is the logger the replay was given (the default logger when
	// it was given nil).
	Logger log.Logger
	// WorkflowServiceClient is the service the history was read from by
	// ReplayWorkflowExecution, else nil.
	WorkflowServiceClient workflowservice.WorkflowServiceClient
	// Namespace is the namespace given to ReplayWorkflowExecution, else
	// "ReplayNamespace".
	Namespace string
	// OriginalExecution is the recorded run's ID as the replay was told
	// it, empty when it was not.
	OriginalExecution clientapi.WorkflowExecution
}

// ChainPluginHooks returns root wrapped in each plugin's hook, the first
// plugin outermost: plugins[0]'s hook runs first and decides whether, and
// when, the hooks after it and then root run. The worker, the replayer
// and the client (internal/clientimpl) run their plugins' hooks with it.
func ChainPluginHooks[P, O any](plugins []P, root func(context.Context, O) error,
	hook func(p P, ctx context.Context, options O, next func(context.Context, O) error) error,
) func(context.Context, O) error {
	call := root
	for i := len(plugins) - 1; i >= 0; i-- {
		plugin, next := plugins[i], call
		call = func(ctx context.Context, options O) error { return hook(plugin, ctx, options, next) }
	}
	return call
}

// PluginNames lists the plugins' names, for errors.
func PluginNames[P interface{ Name() string }](plugins []P) []string {
	names := make([]string, len(plugins))
	for i, p := range plugins {
		names[i] = p.Name()
	}
	return names
}

// CheckPlugins reports a nil entry of a Plugins list, which would
// otherwise panic deep inside a hook.
func CheckPlugins[P comparable](field string, plugins []P) error {
	var none P
	for i, p := range plugins {
		if p == none {
			return fmt.Errorf("%s[%d] is nil: remove it, or put a plugin there", field, i)
		}
	}
	return nil
}
