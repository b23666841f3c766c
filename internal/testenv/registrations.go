package testenv

import (
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/workerimpl"
)

// registrations are a test environment's registry of functions and the
// plugins of its worker options, whose callbacks see each registration
// before it is made, as on a worker. Both environments embed it: its
// Register methods are theirs, and the StartWorker hooks of an activity
// environment's plugins register workflows through it too.
type registrations struct {
	registry *registry.Registry
	plugins  workerimpl.PluginSet // the worker options' plugins; plugins.go
}

// RegisterActivity registers an activity function, or a struct's methods.
func (r *registrations) RegisterActivity(a any) {
	r.RegisterActivityWithOptions(a, internal.RegisterActivityOptions{})
}

// RegisterActivityWithOptions registers activities with options. As in
// go.temporal.io/sdk's test environment (and unlike on a worker), an
// activity registered again replaces the first: DisableAlreadyRegisteredCheck
// is implied. A workflow registered twice is refused, as there.
func (r *registrations) RegisterActivityWithOptions(a any, options internal.RegisterActivityOptions) {
	if on := r.plugins.RegistryHooks().OnRegisterActivity; on != nil {
		on(a, options)
	}
	if err := r.registry.RegisterActivity(a, options.Name, true, options.SkipInvalidStructFunctions); err != nil {
		panic(err)
	}
}

// RegisterDynamicActivity registers the activity that runs every activity
// type not registered by name.
func (r *registrations) RegisterDynamicActivity(fn any, options internal.DynamicRegisterActivityOptions) {
	if on := r.plugins.RegistryHooks().OnRegisterDynamicActivity; on != nil {
		on(fn, options)
	}
	if err := r.registry.RegisterDynamicActivity(fn); err != nil {
		panic(err)
	}
}

// registerWorkflow registers a workflow function with options.
func (r *registrations) registerWorkflow(w any, options internal.RegisterWorkflowOptions) {
	if on := r.plugins.RegistryHooks().OnRegisterWorkflow; on != nil {
		on(w, options)
	}
	if err := r.registry.RegisterWorkflow(w, options.Name, options.DisableAlreadyRegisteredCheck); err != nil {
		panic(err)
	}
}

// registerDynamicWorkflow registers the workflow that runs every workflow
// type not registered by name.
func (r *registrations) registerDynamicWorkflow(fn any, options internal.DynamicRegisterWorkflowOptions) {
	if on := r.plugins.RegistryHooks().OnRegisterDynamicWorkflow; on != nil {
		on(fn, options)
	}
	if err := r.registry.RegisterDynamicWorkflow(fn); err != nil {
		panic(err)
	}
}
