package interceptor

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nexus-rpc/sdk-go/nexus"
	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/propagation"
)

// Tags the tracing interceptor puts on spans; other SDKs use the same.
const (
	tracingTagWorkflowID = "temporalWorkflowID"
	tracingTagRunID      = "temporalRunID"
	tracingTagActivityID = "temporalActivityID"
)

// tracingInterceptor traces clients, and the workflows and activities of
// the workers made from them.
type tracingInterceptor struct {
	internal.InterceptorBase
	tracer  Tracer
	options TracerOptions
}

// InterceptClient traces the client's calls.
func (t *tracingInterceptor) InterceptClient(next clientapi.ClientOutboundInterceptor) clientapi.ClientOutboundInterceptor {
	return &tracingClientOutbound{ClientOutboundInterceptorBase: clientapi.ClientOutboundInterceptorBase{Next: next}, root: t}
}

// spanOp is one span to start: what it is, and where its parent is.
type spanOp struct {
	operation, name string
	tags            map[string]string
	time            time.Time
	dependedOn      bool
	idempotencyKey  string
	// header, if set, is read for the parent when fromHeader, and written
	// with the new span when toHeader.
	header               map[string]*commonpb.Payload
	fromHeader, toHeader bool
	// headerCtx is the context header belongs to: with
	// TracerOptions.EncodeHeaders, the header is read decoded through it
	// and the span's field marked in it for encoding.
	headerCtx interface{ Value(any) any }
	// nexusHeader, if set, is where toHeader writes the new span instead
	// of header: the header of a Nexus operation's request.
	nexusHeader nexus.Header
}

// start starts the span of op: its parent is the header's span when op
// reads the header and it has one, otherwise parent (which may be nil).
func (t *tracingInterceptor) start(op spanOp, parent TracerSpanRef) (TracerSpan, error) {
	if op.fromHeader {
		fromHeader, err := t.readHeaderOf(op.header, op.headerCtx)
		if err != nil && !t.options.AllowInvalidParentSpans {
			return nil, err
		}
		if fromHeader != nil {
			parent = fromHeader
		}
	}
	if op.time.IsZero() {
		op.time = time.Now()
	}
	span, err := t.tracer.StartSpan(&TracerStartSpanOptions{
		Parent:         parent,
		Operation:      op.operation,
		Name:           op.name,
		Time:           op.time,
		DependedOn:     op.dependedOn,
		Tags:           op.tags,
		FromHeader:     op.fromHeader,
		ToHeader:       op.toHeader,
		IdempotencyKey: op.idempotencyKey,
	})
	if err != nil {
		return nil, fmt.Errorf("tracing: starting the %s:%s span: %w", op.operation, op.name, err)
	}
	if op.toHeader && op.nexusHeader != nil {
		if err := t.writeNexusHeader(op.nexusHeader, span); err != nil {
			span.Finish(&TracerFinishSpanOptions{Error: err})
			return nil, err
		}
		return span, nil
	}
	if op.toHeader {
		if err := t.writeHeader(op.header, span); err != nil {
			span.Finish(&TracerFinishSpanOptions{Error: err})
			return nil, err
		}
		t.markForEncoding(op.headerCtx)
	}
	return span, nil
}

// startInContext starts the span of op under the span of a Go context,
// and returns the context that carries the new span.
func (t *tracingInterceptor) startInContext(ctx context.Context, op spanOp) (TracerSpan, context.Context, error) {
	var parent TracerSpanRef
	if s := t.tracer.SpanFromContext(ctx); s != nil {
		parent = s
	}
	span, err := t.start(op, parent)
	if err != nil {
		return nil, ctx, err
	}
	ctx = context.WithValue(ctx, t.options.SpanContextKey, span)
	return span, t.tracer.ContextWithSpan(ctx, span), nil
}

// writeNexusHeader puts span in a Nexus request's header, one header
// field for each of the tracer's fields, as go.temporal.io/sdk does.
func (t *tracingInterceptor) writeNexusHeader(header nexus.Header, span TracerSpan) error {
	fields, err := t.tracer.MarshalSpan(span)
	if err != nil {
		return fmt.Errorf("tracing: writing the span to the Nexus header: %w", err)
	}
	for k, v := range fields {
		header.Set(k, v)
	}
	return nil
}

// readHeaderOf returns the span the header of ctx carries, decoded first
// with TracerOptions.EncodeHeaders.
func (t *tracingInterceptor) readHeaderOf(header map[string]*commonpb.Payload, ctx interface{ Value(any) any }) (TracerSpanRef, error) {
	if t.options.EncodeHeaders && ctx != nil {
		decoded, err := propagation.DecodedHeader(ctx)
		if err != nil {
			return nil, fmt.Errorf("tracing: decoding the header (TracerOptions.EncodeHeaders): %w", err)
		}
		header = decoded
	}
	return t.readHeader(header)
}

// markForEncoding asks, with TracerOptions.EncodeHeaders, for the span's
// header field of ctx's outgoing call to go through the client's payload
// codec.
func (t *tracingInterceptor) markForEncoding(ctx interface{ Value(any) any }) {
	if t.options.EncodeHeaders && ctx != nil {
		propagation.EncodeHeader(ctx, t.options.HeaderKey)
	}
}

// readHeader returns the span a header carries, or nil.
func (t *tracingInterceptor) readHeader(header map[string]*commonpb.Payload) (TracerSpanRef, error) {
	payload := header[t.options.HeaderKey]
	if payload == nil {
		return nil, nil
	}
	var fields map[string]string
	// The default converter, whatever the client's: other SDKs read the
	// field as plain JSON.
	if err := converter.GetDefaultDataConverter().FromPayload(payload, &fields); err != nil {
		return nil, fmt.Errorf("tracing: header field %q does not hold a span: %w", t.options.HeaderKey, err)
	}
	ref, err := t.tracer.UnmarshalSpan(fields)
	if err != nil {
		return nil, fmt.Errorf("tracing: header field %q does not hold a span the tracer can read: %w", t.options.HeaderKey, err)
	}
	return ref, nil
}

// writeHeader puts span in a header.
func (t *tracingInterceptor) writeHeader(header map[string]*commonpb.Payload, span TracerSpan) error {
	if header == nil {
		return errors.New("tracing: the call has no header to carry the span")
	}
	fields, err := t.tracer.MarshalSpan(span)
	if err != nil {
		return fmt.Errorf("tracing: the tracer cannot write its span: %w", err)
	}
	if len(fields) == 0 {
		return nil
	}
	payload, err := converter.GetDefaultDataConverter().ToPayload(fields)
	if err != nil {
		return err
	}
	header[t.options.HeaderKey] = payload
	return nil
}

// finish ends span with the traced call's error.
func finishSpan(span TracerSpan, err error) {
	span.Finish(&TracerFinishSpanOptions{Error: err})
}
