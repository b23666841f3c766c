package interceptor

import "github.com/durable-go/sdk/internal"

// NexusOperationInboundInterceptor sees the Nexus operations a worker's
// handlers run. A WorkerInterceptor makes one per Nexus task
// (InterceptNexusOperation). Init is called first, with the outbound
// interceptor the handler's temporalnexus calls go to, which it may wrap;
// StartOperation intercepts the start of an operation, CancelOperation
// its cancellation.
//
// All implementations must embed NexusOperationInboundInterceptorBase to
// safely handle future changes.
//
// NOTE: Experimental
type NexusOperationInboundInterceptor = internal.NexusOperationInboundInterceptor

// NexusOperationInboundInterceptorBase passes every call on to Next, the
// next inbound interceptor. Embed it in every
// NexusOperationInboundInterceptor.
//
// NOTE: Experimental
type NexusOperationInboundInterceptorBase = internal.NexusOperationInboundInterceptorBase

// NexusOperationOutboundInterceptor sees the temporalnexus calls an
// operation's handler makes (GetOperationInfo, GetClient, GetLogger,
// GetMetricsHandler).
//
// All implementations must embed NexusOperationOutboundInterceptorBase
// to safely handle future changes.
//
// NOTE: Experimental
type NexusOperationOutboundInterceptor = internal.NexusOperationOutboundInterceptor

// NexusOperationOutboundInterceptorBase passes every call on to Next,
// the next outbound interceptor. Embed it in every
// NexusOperationOutboundInterceptor.
//
// NOTE: Experimental
type NexusOperationOutboundInterceptorBase = internal.NexusOperationOutboundInterceptorBase

// NexusStartOperationInput is the input of
// NexusOperationInboundInterceptor.StartOperation: Input, the operation's
// decoded input, and Options, the start request's options.
//
// NOTE: Experimental
type NexusStartOperationInput = internal.NexusStartOperationInput

// NexusCancelOperationInput is the input of
// NexusOperationInboundInterceptor.CancelOperation: Token, the
// operation's token, and Options, the cancel request's options.
//
// NOTE: Experimental
type NexusCancelOperationInput = internal.NexusCancelOperationInput
