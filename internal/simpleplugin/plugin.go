// Package simpleplugin is temporal.SimplePlugin, a client and worker
// plugin built from options. It uses exported names of package internal
// only (internal.PluginSeal gives it the plugin interfaces' unexported
// methods), and only the temporal package imports it.
package simpleplugin

import (
	"context"
	"errors"
	"slices"

	"github.com/nexus-rpc/sdk-go/nexus"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
)

// SimplePlugin is a client and worker plugin built from options: it sets
// converters, adds interceptors and context propagators, and runs code
// before and after each worker run or replay (temporal.SimplePlugin). Make
// one with NewSimplePlugin.
type SimplePlugin struct {
	//lint:ignore U1000 its methods, promoted, make SimplePlugin a ClientPlugin and a WorkerPlugin
	pluginSeal
	options SimplePluginOptions
}

// pluginSeal makes SimplePlugin a ClientPlugin and a WorkerPlugin, whose
// hooks it implements each itself.
type pluginSeal = internal.PluginSeal

var (
	_ internal.ClientPlugin = (*SimplePlugin)(nil)
	_ internal.WorkerPlugin = (*SimplePlugin)(nil)
)

// SimplePluginOptions configure a SimplePlugin
// (temporal.SimplePluginOptions). Each field is optional but Name.
type SimplePluginOptions struct {
	// Name names the plugin; required.
	Name string
	// Version is the plugin's version, optional. go.temporal.io/sdk reports
	// it beside the name in its worker heartbeats, which this SDK does not
	// send yet; here Version returns it.
	Version string
	// DataConverter replaces the data converter of the clients and
	// replayers the plugin configures (whatever the user or an earlier
	// plugin set). Workers use their client's.
	DataConverter converter.DataConverter
	// FailureConverter replaces the failure converter of the clients and
	// replayers the plugin configures.
	FailureConverter converter.FailureConverter
	// ContextPropagators are added after those the clients and replayers
	// already have.
	ContextPropagators []internal.ContextPropagator
	// ClientInterceptors are added after the client's interceptors. Those
	// that are also WorkerInterceptors reach the client's workers as any
	// client interceptor does, and are added to replayers too.
	ClientInterceptors []internal.ClientInterceptor
	// WorkerInterceptors are added after the interceptors of the workers
	// and replayers the plugin configures.
	WorkerInterceptors []internal.WorkerInterceptor
	// ConfigureClient, ConfigureWorker and ConfigureWorkflowReplayer run
	// after the fields above have been applied, for anything else.
	ConfigureClient           func(context.Context, internal.ClientPluginConfigureClientOptions) error
	ConfigureWorker           func(context.Context, internal.WorkerPluginConfigureWorkerOptions) error
	ConfigureWorkflowReplayer func(context.Context, internal.WorkerPluginConfigureWorkflowReplayerOptions) error
	// RunContextBefore runs as a worker starts, before it polls, and
	// before each replay of a replayer; it may register workflows and
	// activities. An error fails the start or the replay.
	RunContextBefore func(context.Context, SimplePluginRunContextBeforeOptions) error
	// RunContextAfter runs as a worker stops, before polling ends (Stop
	// returns after it and the stop), and after each replay. It must not
	// call Stop of the worker, which waits for it.
	RunContextAfter func(context.Context, SimplePluginRunContextAfterOptions)
}

// SimplePluginRunContextBeforeOptions are the arguments of
// SimplePluginOptions.RunContextBefore
// (temporal.SimplePluginRunContextBeforeOptions).
type SimplePluginRunContextBeforeOptions struct {
	// InstanceKey identifies the worker or replayer, as in its plugins'
	// other hooks.
	InstanceKey string
	// WorkflowReplayer is true before a replay, false as a worker starts.
	WorkflowReplayer bool
	// Registry registers workflows and activities with the worker or
	// replayer. A replayer ignores activities.
	Registry interface {
		RegisterWorkflowWithOptions(any, internal.RegisterWorkflowOptions)
		RegisterDynamicWorkflow(any, internal.DynamicRegisterWorkflowOptions)
		RegisterActivityWithOptions(any, internal.RegisterActivityOptions)
		RegisterDynamicActivity(any, internal.DynamicRegisterActivityOptions)
		RegisterNexusService(*nexus.Service)
	}
}

// SimplePluginRunContextAfterOptions are the arguments of
// SimplePluginOptions.RunContextAfter
// (temporal.SimplePluginRunContextAfterOptions).
type SimplePluginRunContextAfterOptions struct {
	// InstanceKey identifies the worker or replayer, as in its plugins'
	// other hooks.
	InstanceKey string
}

// NewSimplePlugin returns a plugin that applies options; it fails when
// options.Name is empty.
func NewSimplePlugin(options SimplePluginOptions) (*SimplePlugin, error) {
	if options.Name == "" {
		return nil, errors.New("NewSimplePlugin: SimplePluginOptions.Name is empty; give the plugin a name")
	}
	return &SimplePlugin{options: options}, nil
}

// Name implements ClientPlugin and WorkerPlugin.
func (s *SimplePlugin) Name() string { return s.options.Name }

// Version is SimplePluginOptions.Version.
func (s *SimplePlugin) Version() string { return s.options.Version }

// ConfigureClient implements ClientPlugin: converters, propagators and
// client interceptors, then options.ConfigureClient.
func (s *SimplePlugin) ConfigureClient(ctx context.Context, options internal.ClientPluginConfigureClientOptions) error {
	o := options.ClientOptions
	if s.options.DataConverter != nil {
		o.DataConverter = s.options.DataConverter
	}
	if s.options.FailureConverter != nil {
		o.FailureConverter = s.options.FailureConverter
	}
	o.ContextPropagators = appendToCopy(o.ContextPropagators, s.options.ContextPropagators)
	o.Interceptors = appendToCopy(o.Interceptors, s.options.ClientInterceptors)
	if s.options.ConfigureClient != nil {
		return s.options.ConfigureClient(ctx, options)
	}
	return nil
}

// NewClient implements ClientPlugin: it calls next.
func (*SimplePlugin) NewClient(ctx context.Context, options internal.ClientPluginNewClientOptions, next func(context.Context, internal.ClientPluginNewClientOptions) error) error {
	return next(ctx, options)
}

// ConfigureWorker implements WorkerPlugin: worker interceptors, then
// options.ConfigureWorker.
func (s *SimplePlugin) ConfigureWorker(ctx context.Context, options internal.WorkerPluginConfigureWorkerOptions) error {
	o := options.WorkerOptions
	o.Interceptors = appendToCopy(o.Interceptors, s.options.WorkerInterceptors)
	if s.options.ConfigureWorker != nil {
		return s.options.ConfigureWorker(ctx, options)
	}
	return nil
}

// StartWorker implements WorkerPlugin: RunContextBefore, then next.
func (s *SimplePlugin) StartWorker(ctx context.Context, options internal.WorkerPluginStartWorkerOptions, next func(context.Context, internal.WorkerPluginStartWorkerOptions) error) error {
	if s.options.RunContextBefore != nil {
		err := s.options.RunContextBefore(ctx, SimplePluginRunContextBeforeOptions{
			InstanceKey: options.WorkerInstanceKey,
			Registry:    options.WorkerRegistry,
		})
		if err != nil {
			return err
		}
	}
	return next(ctx, options)
}

// StopWorker implements WorkerPlugin: RunContextAfter, then next.
func (s *SimplePlugin) StopWorker(ctx context.Context, options internal.WorkerPluginStopWorkerOptions, next func(context.Context, internal.WorkerPluginStopWorkerOptions)) {
	if s.options.RunContextAfter != nil {
		s.options.RunContextAfter(ctx, SimplePluginRunContextAfterOptions{InstanceKey: options.WorkerInstanceKey})
	}
	next(ctx, options)
}

// ConfigureWorkflowReplayer implements WorkerPlugin: converters,
// propagators, the client interceptors that are worker interceptors and
// the worker interceptors, then options.ConfigureWorkflowReplayer.
func (s *SimplePlugin) ConfigureWorkflowReplayer(ctx context.Context, options internal.WorkerPluginConfigureWorkflowReplayerOptions) error {
	o := options.WorkflowReplayerOptions
	if s.options.DataConverter != nil {
		o.DataConverter = s.options.DataConverter
	}
	if s.options.FailureConverter != nil {
		o.FailureConverter = s.options.FailureConverter
	}
	o.ContextPropagators = appendToCopy(o.ContextPropagators, s.options.ContextPropagators)
	var interceptors []internal.WorkerInterceptor
	for _, ci := range s.options.ClientInterceptors {
		if wi, ok := ci.(internal.WorkerInterceptor); ok {
			interceptors = append(interceptors, wi)
		}
	}
	o.Interceptors = appendToCopy(o.Interceptors, append(interceptors, s.options.WorkerInterceptors...))
	if s.options.ConfigureWorkflowReplayer != nil {
		return s.options.ConfigureWorkflowReplayer(ctx, options)
	}
	return nil
}

// ReplayWorkflow implements WorkerPlugin: RunContextBefore, next, then
// RunContextAfter (whether the replay failed or not).
func (s *SimplePlugin) ReplayWorkflow(ctx context.Context, options internal.WorkerPluginReplayWorkflowOptions, next func(context.Context, internal.WorkerPluginReplayWorkflowOptions) error) error {
	if s.options.RunContextBefore != nil {
		err := s.options.RunContextBefore(ctx, SimplePluginRunContextBeforeOptions{
			InstanceKey:      options.WorkflowReplayerInstanceKey,
			WorkflowReplayer: true,
			Registry:         replayerOnlyWorkflows{options.WorkflowReplayRegistry},
		})
		if err != nil {
			return err
		}
	}
	if s.options.RunContextAfter != nil {
		defer s.options.RunContextAfter(ctx, SimplePluginRunContextAfterOptions{InstanceKey: options.WorkflowReplayerInstanceKey})
	}
	return next(ctx, options)
}

// appendToCopy returns list followed by more, in a new array when more is
// not empty: the options' slices may be shared with other clients and
// workers, whose lists must not change.
func appendToCopy[T any](list, more []T) []T {
	if len(more) == 0 {
		return list
	}
	return slices.Concat(list, more)
}

// replayerOnlyWorkflows is a replayer's registry as RunContextBefore sees
// it: workflows register, activities are ignored (replay never runs them).
type replayerOnlyWorkflows struct {
	replayer interface {
		RegisterWorkflowWithOptions(any, internal.RegisterWorkflowOptions)
		RegisterDynamicWorkflow(any, internal.DynamicRegisterWorkflowOptions)
	}
}

func (r replayerOnlyWorkflows) RegisterWorkflowWithOptions(workflow any, options internal.RegisterWorkflowOptions) {
	r.replayer.RegisterWorkflowWithOptions(workflow, options)
}

func (r replayerOnlyWorkflows) RegisterDynamicWorkflow(workflow any, options internal.DynamicRegisterWorkflowOptions) {
	r.replayer.RegisterDynamicWorkflow(workflow, options)
}

func (replayerOnlyWorkflows) RegisterActivityWithOptions(any, internal.RegisterActivityOptions) {}

func (replayerOnlyWorkflows) RegisterDynamicActivity(any, internal.DynamicRegisterActivityOptions) {}

// RegisterNexusService does nothing: replay runs no Nexus operation.
func (replayerOnlyWorkflows) RegisterNexusService(*nexus.Service) {}
