package internal

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/nexus-rpc/sdk-go/nexus"

	"github.com/durable-go/sdk/internal/nexushandler"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/log"
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
	reg.Use(nexusMiddleware(w.interceptors()))
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

// nexusMiddleware runs each operation call through the worker's
// interceptors: a chain made per task (InterceptNexusOperation), whose
// outbound end is nexusOperationEnvironment, and whose inbound end calls
// the operation.
func nexusMiddleware(interceptors []WorkerInterceptor) nexus.MiddlewareFunc {
	return func(ctx context.Context, next nexus.OperationHandler[any, any]) (nexus.OperationHandler[any, any], error) {
		root := &nexusOperationRoot{operation: next}
		var inbound NexusOperationInboundInterceptor = root
		for i := len(interceptors) - 1; i >= 0; i-- {
			inbound = interceptors[i].InterceptNexusOperation(ctx, inbound)
		}
		if err := inbound.Init(ctx, &nexusOperationEnvironment{}); err != nil {
			return nil, err
		}
		return &interceptedNexusOperation{inbound: inbound, outbound: root.outbound}, nil
	}
}

// interceptedNexusOperation is an operation as its interceptor chain
// runs it: the handler's context carries the chain's outbound end, which
// the temporalnexus functions call.
type interceptedNexusOperation struct {
	nexus.UnimplementedOperation[any, any]
	inbound  NexusOperationInboundInterceptor
	outbound NexusOperationOutboundInterceptor
}

func (o *interceptedNexusOperation) Start(ctx context.Context, input any, options nexus.StartOperationOptions) (nexus.HandlerStartOperationResult[any], error) {
	ctx = context.WithValue(ctx, nexusOutboundKey{}, o.outbound)
	return o.inbound.StartOperation(ctx, NexusStartOperationInput{Input: input, Options: options})
}

func (o *interceptedNexusOperation) Cancel(ctx context.Context, token string, options nexus.CancelOperationOptions) error {
	ctx = context.WithValue(ctx, nexusOutboundKey{}, o.outbound)
	return o.inbound.CancelOperation(ctx, NexusCancelOperationInput{Token: token, Options: options})
}

// nexusOperationRoot is the inbound end of the chain: it calls the
// operation, and keeps the outbound interceptor Init gave it.
type nexusOperationRoot struct {
	NexusOperationInboundInterceptorBase
	operation nexus.OperationHandler[any, any]
	outbound  NexusOperationOutboundInterceptor
}

func (r *nexusOperationRoot) Init(_ context.Context, outbound NexusOperationOutboundInterceptor) error {
	r.outbound = outbound
	return nil
}

func (r *nexusOperationRoot) StartOperation(ctx context.Context, input NexusStartOperationInput) (nexus.HandlerStartOperationResult[any], error) {
	return r.operation.Start(ctx, input.Input, input.Options)
}

func (r *nexusOperationRoot) CancelOperation(ctx context.Context, input NexusCancelOperationInput) error {
	return r.operation.Cancel(ctx, input.Token, input.Options)
}

// nexusOperationEnvironment is the outbound end of the chain: it answers
// from the task's OperationContext.
type nexusOperationEnvironment struct {
	NexusOperationOutboundInterceptorBase
}

func (*nexusOperationEnvironment) GetOperationInfo(ctx context.Context) NexusOperationInfo {
	oc := mustNexusOperationContext(ctx, "GetOperationInfo")
	return NexusOperationInfo{Namespace: oc.Namespace, TaskQueue: oc.TaskQueue, Endpoint: oc.Endpoint}
}

func (*nexusOperationEnvironment) GetClient(ctx context.Context) Client {
	return mustNexusOperationContext(ctx, "GetClient").Client
}

func (*nexusOperationEnvironment) GetLogger(ctx context.Context) log.Logger {
	return mustNexusOperationContext(ctx, "GetLogger").Logger
}

func (*nexusOperationEnvironment) GetMetricsHandler(ctx context.Context) sdkmetrics.Handler {
	return mustNexusOperationContext(ctx, "GetMetricsHandler").Metrics
}

func mustNexusOperationContext(ctx context.Context, what string) *nexushandler.OperationContext {
	oc, ok := nexushandler.FromContext(ctx)
	if !ok {
		panic("temporalnexus " + what + ": not a Nexus operation's context (call it from an operation handler, with the context the handler was given)")
	}
	return oc
}

type nexusOutboundKey struct{}

// nexusOutbound is the outbound interceptor of the Nexus operation whose
// context ctx is; it panics outside an operation's handler.
func nexusOutbound(ctx context.Context, what string) NexusOperationOutboundInterceptor {
	out, ok := ctx.Value(nexusOutboundKey{}).(NexusOperationOutboundInterceptor)
	if !ok {
		panic("temporalnexus " + what + ": not a Nexus operation's context (call it from an operation handler, with the context the handler was given)")
	}
	return out
}

// IsNexusOperation reports whether ctx is the context of a Nexus
// operation's handler (temporalnexus.IsNexusOperation).
func IsNexusOperation(ctx context.Context) bool {
	_, ok := nexushandler.FromContext(ctx)
	return ok
}

// GetNexusOperationInfo returns the operation's info
// (temporalnexus.GetOperationInfo).
func GetNexusOperationInfo(ctx context.Context) NexusOperationInfo {
	return nexusOutbound(ctx, "GetOperationInfo").GetOperationInfo(ctx)
}

// GetNexusOperationClient returns the worker's client
// (temporalnexus.GetClient).
func GetNexusOperationClient(ctx context.Context) Client {
	return nexusOutbound(ctx, "GetClient").GetClient(ctx)
}

// GetNexusOperationLogger returns the operation's logger
// (temporalnexus.GetLogger).
func GetNexusOperationLogger(ctx context.Context) log.Logger {
	return nexusOutbound(ctx, "GetLogger").GetLogger(ctx)
}

// GetNexusOperationMetricsHandler returns the operation's metrics handler
// (temporalnexus.GetMetricsHandler).
func GetNexusOperationMetricsHandler(ctx context.Context) sdkmetrics.Handler {
	return nexusOutbound(ctx, "GetMetricsHandler").GetMetricsHandler(ctx)
}
