package internal

import (
	"context"

	"github.com/nexus-rpc/sdk-go/nexus"

	"github.com/durable-go/sdk/internal/nexushandler"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/log"
)

// NexusMiddleware runs each operation call through the worker's
// interceptors: a chain made per task (InterceptNexusOperation), whose
// outbound end is nexusOperationEnvironment, and whose inbound end calls
// the operation.
func NexusMiddleware(interceptors []WorkerInterceptor) nexus.MiddlewareFunc {
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
