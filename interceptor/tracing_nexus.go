package interceptor

import (
	"context"
	"time"

	"github.com/nexus-rpc/sdk-go/nexus"

	"github.com/durable-go/sdk/internal"
)

// InterceptNexusOperation traces the Nexus operations a worker's handlers
// run, as go.temporal.io/sdk's tracing interceptor does: a start as
// RunStartNexusOperationHandler:<service>/<operation>, a cancel as
// RunCancelNexusOperationHandler:<service>/<operation>, each under the
// span the request's Nexus header carries (the caller's
// StartNexusOperation span) unless the context has one.
func (t *tracingInterceptor) InterceptNexusOperation(_ context.Context, next internal.NexusOperationInboundInterceptor) internal.NexusOperationInboundInterceptor {
	return &tracingNexusInbound{NexusOperationInboundInterceptorBase: internal.NexusOperationInboundInterceptorBase{Next: next}, root: t}
}

type tracingNexusInbound struct {
	internal.NexusOperationInboundInterceptorBase
	root *tracingInterceptor
}

// StartOperation runs the operation's start inside its span.
func (n *tracingNexusInbound) StartOperation(ctx context.Context, input internal.NexusStartOperationInput) (nexus.HandlerStartOperationResult[any], error) {
	span, ctx, err := n.startHandlerSpan(ctx, "RunStartNexusOperationHandler", input.Options.Header)
	if err != nil {
		return nil, err
	}
	result, err := n.Next.StartOperation(ctx, input)
	finishSpan(span, err)
	return result, err
}

// CancelOperation runs the operation's cancel inside its span.
func (n *tracingNexusInbound) CancelOperation(ctx context.Context, input internal.NexusCancelOperationInput) error {
	span, ctx, err := n.startHandlerSpan(ctx, "RunCancelNexusOperationHandler", input.Options.Header)
	if err != nil {
		return err
	}
	err = n.Next.CancelOperation(ctx, input)
	finishSpan(span, err)
	return err
}

// startHandlerSpan starts the span of a handler call, under the
// context's span, or else the one the Nexus header carries (one header
// field per field of the tracer's span).
func (n *tracingNexusInbound) startHandlerSpan(ctx context.Context, operation string, header nexus.Header) (TracerSpan, context.Context, error) {
	info := nexus.ExtractHandlerInfo(ctx)
	var parent TracerSpanRef
	if s := n.root.tracer.SpanFromContext(ctx); s != nil {
		parent = s
	} else {
		fromHeader, err := n.root.tracer.UnmarshalSpan(header)
		if err != nil && !n.root.options.AllowInvalidParentSpans {
			return nil, ctx, err
		}
		if fromHeader != nil {
			parent = fromHeader
		}
	}
	span, err := n.root.tracer.StartSpan(&TracerStartSpanOptions{
		Parent:     parent,
		Operation:  operation,
		Name:       info.Service + "/" + info.Operation,
		Time:       time.Now(),
		DependedOn: true,
		FromHeader: true,
	})
	if err != nil {
		return nil, ctx, err
	}
	ctx = context.WithValue(ctx, n.root.options.SpanContextKey, span)
	return span, n.root.tracer.ContextWithSpan(ctx, span), nil
}
