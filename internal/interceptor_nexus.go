package internal

import (
	"context"

	"github.com/nexus-rpc/sdk-go/nexus"

	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/log"
)

// NexusOperationInfo describes the Nexus operation a handler runs
// (temporalnexus.OperationInfo).
type NexusOperationInfo struct {
	// Namespace and TaskQueue are those of the worker that runs the
	// operation.
	Namespace string
	TaskQueue string
	// Endpoint is the endpoint the caller addressed (sent by servers
	// 1.30 and later; empty from older ones).
	Endpoint string
}

// NexusOperationInboundInterceptor sees the Nexus operations a worker's
// handlers run (interceptor.NexusOperationInboundInterceptor): one chain
// per task, made by WorkerInterceptor.InterceptNexusOperation.
// Implementations embed NexusOperationInboundInterceptorBase.
type NexusOperationInboundInterceptor interface {
	// Init is called first, with the outbound interceptor the handler's
	// temporalnexus calls go to; an implementation may wrap it before
	// passing it on to the next Init.
	Init(ctx context.Context, outbound NexusOperationOutboundInterceptor) error
	// StartOperation intercepts the start of an operation.
	StartOperation(ctx context.Context, input NexusStartOperationInput) (nexus.HandlerStartOperationResult[any], error)
	// CancelOperation intercepts the cancellation of an operation.
	CancelOperation(ctx context.Context, input NexusCancelOperationInput) error

	mustEmbedNexusOperationInboundInterceptorBase()
}

// NexusOperationOutboundInterceptor sees the temporalnexus calls of a
// Nexus operation's handler (interceptor.NexusOperationOutboundInterceptor).
// Implementations embed NexusOperationOutboundInterceptorBase.
type NexusOperationOutboundInterceptor interface {
	// GetOperationInfo intercepts temporalnexus.GetOperationInfo.
	GetOperationInfo(ctx context.Context) NexusOperationInfo
	// GetClient intercepts temporalnexus.GetClient.
	GetClient(ctx context.Context) Client
	// GetLogger intercepts temporalnexus.GetLogger.
	GetLogger(ctx context.Context) log.Logger
	// GetMetricsHandler intercepts temporalnexus.GetMetricsHandler.
	GetMetricsHandler(ctx context.Context) sdkmetrics.Handler

	mustEmbedNexusOperationOutboundInterceptorBase()
}

// NexusStartOperationInput is the input of
// NexusOperationInboundInterceptor.StartOperation.
type NexusStartOperationInput struct {
	// Input is the operation's input, decoded.
	Input any
	// Options are the start request's options.
	Options nexus.StartOperationOptions
}

// NexusCancelOperationInput is the input of
// NexusOperationInboundInterceptor.CancelOperation.
type NexusCancelOperationInput struct {
	// Token is the token of the operation to cancel.
	Token string
	// Options are the cancel request's options.
	Options nexus.CancelOperationOptions
}

// NexusOperationInboundInterceptorBase passes every call on to Next:
// embed it in a NexusOperationInboundInterceptor.
type NexusOperationInboundInterceptorBase struct {
	// Next is the next interceptor of the chain.
	Next NexusOperationInboundInterceptor
}

var _ NexusOperationInboundInterceptor = &NexusOperationInboundInterceptorBase{}

// Init calls Next.Init.
func (b *NexusOperationInboundInterceptorBase) Init(ctx context.Context, outbound NexusOperationOutboundInterceptor) error {
	return b.Next.Init(ctx, outbound)
}

// StartOperation calls Next.StartOperation.
func (b *NexusOperationInboundInterceptorBase) StartOperation(ctx context.Context, input NexusStartOperationInput) (nexus.HandlerStartOperationResult[any], error) {
	return b.Next.StartOperation(ctx, input)
}

// CancelOperation calls Next.CancelOperation.
func (b *NexusOperationInboundInterceptorBase) CancelOperation(ctx context.Context, input NexusCancelOperationInput) error {
	return b.Next.CancelOperation(ctx, input)
}

func (*NexusOperationInboundInterceptorBase) mustEmbedNexusOperationInboundInterceptorBase() {}

// NexusOperationOutboundInterceptorBase passes every call on to Next:
// embed it in a NexusOperationOutboundInterceptor.
type NexusOperationOutboundInterceptorBase struct {
	// Next is the next interceptor of the chain.
	Next NexusOperationOutboundInterceptor
}

var _ NexusOperationOutboundInterceptor = &NexusOperationOutboundInterceptorBase{}

// GetOperationInfo calls Next.GetOperationInfo.
func (b *NexusOperationOutboundInterceptorBase) GetOperationInfo(ctx context.Context) NexusOperationInfo {
	return b.Next.GetOperationInfo(ctx)
}

// GetClient calls Next.GetClient.
func (b *NexusOperationOutboundInterceptorBase) GetClient(ctx context.Context) Client {
	return b.Next.GetClient(ctx)
}

// GetLogger calls Next.GetLogger.
func (b *NexusOperationOutboundInterceptorBase) GetLogger(ctx context.Context) log.Logger {
	return b.Next.GetLogger(ctx)
}

// GetMetricsHandler calls Next.GetMetricsHandler.
func (b *NexusOperationOutboundInterceptorBase) GetMetricsHandler(ctx context.Context) sdkmetrics.Handler {
	return b.Next.GetMetricsHandler(ctx)
}

func (*NexusOperationOutboundInterceptorBase) mustEmbedNexusOperationOutboundInterceptorBase() {}
