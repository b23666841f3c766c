package workerimpl

import (
	"cmp"
	"errors"
	"fmt"
	"sync"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/nexushandler"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/nexus-rpc/sdk-go/nexus"
)

// nexusServices are the Nexus services registered with a worker, by name.
type nexusServices struct {
	mu       sync.Mutex
	services map[string]*nexus.Service
	order    []*nexus.Service
}

// RegisterNexusService registers a Nexus service (made with
// nexus.NewService, its operations registered): the worker then polls the
// task queue's Nexus tasks and runs its operations. Services are
// registered before the worker starts; registering one after, one without
// a name, or two with the same name panics, as in go.temporal.io/sdk.
func (w *AggregatedWorker) RegisterNexusService(service *nexus.Service) {
	w.mu.Lock()
	started := w.runtime != nil
	w.mu.Unlock()
	if started {
		panic(errors.New("cannot register Nexus services after worker start"))
	}
	if on := w.plugins.registryHooks.OnRegisterNexusService; on != nil {
		on(service)
	}
	if service == nil || service.Name == "" {
		panic(errors.New("tried to register a service with no name"))
	}
	w.nexus.mu.Lock()
	defer w.nexus.mu.Unlock()
	if _, ok := w.nexus.services[service.Name]; ok {
		panic(fmt.Sprintf("service name %q is already registered", service.Name))
	}
	if w.nexus.services == nil {
		w.nexus.services = map[string]*nexus.Service{}
	}
	w.nexus.services[service.Name] = service
	w.nexus.order = append(w.nexus.order, service)
}

// nexusTaskHandler is what runs the worker's Nexus tasks: its services
// behind its interceptors; nil when it has no service.
func (w *AggregatedWorker) nexusTaskHandler() (*nexushandler.TaskHandler, error) {
	w.nexus.mu.Lock()
	services := append([]*nexus.Service(nil), w.nexus.order...)
	w.nexus.mu.Unlock()
	if len(services) == 0 {
		return nil, nil
	}
	reg := nexus.NewServiceRegistry()
	if err := reg.Register(services...); err != nil {
		return nil, fmt.Errorf("worker for task queue %q: its Nexus services: %w", w.taskQueue, err)
	}
	reg.Use(internal.NexusMiddleware(w.interceptors()))
	handler, err := reg.NewHandler()
	if err != nil {
		return nil, fmt.Errorf("worker for task queue %q: its Nexus services: %w", w.taskQueue, err)
	}
	return nexushandler.New(nexushandler.Options{
		Handler:          handler,
		Namespace:        w.clientSettings.Namespace,
		TaskQueue:        w.taskQueue,
		Identity:         cmp.Or(w.options.Identity, w.clientSettings.Identity),
		Client:           w.client,
		DataConverter:    w.clientSettings.DataConverter,
		FailureConverter: w.clientSettings.FailureConverter,
		Logger:           w.clientSettings.Logger,
		Metrics:          w.metricsHandler(),
		ResolveWorkflowName: func(workflow any) (string, error) {
			return nexusWorkflowTypeName(w.registry, workflow)
		},
		ResolveActivityName: w.registry.ActivityName,
	}), nil
}

// nexusWorkflowTypeName is the name a workflow is started by: a string as it
// is, a function by the name it is registered under with reg (its
// function name when it is not registered, or when aliasing is off).
func nexusWorkflowTypeName(reg *registry.Registry, workflow any) (string, error) {
	name := reg.WorkflowTypeOf(workflow)
	if name == "" {
		return "", fmt.Errorf("a workflow must be a function or a non-empty workflow type name, not %T %v", workflow, workflow)
	}
	return name, nil
}
