package opentelemetry

import (
	"context"
	"errors"
	"fmt"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/durable-go/sdk/interceptor"
	"github.com/durable-go/sdk/log"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/workflow"
)

// DefaultTextMapPropagator writes spans to headers as W3C trace context
// and baggage, as the other Temporal SDKs do, when TracerOptions sets no
// propagator. The global OpenTelemetry propagator is not used by default.
var DefaultTextMapPropagator propagation.TextMapPropagator = propagation.NewCompositeTextMapPropagator(
	propagation.TraceContext{},
	propagation.Baggage{},
)

// defaultHeaderKey is the Temporal header field every SDK's OpenTelemetry
// integration carries spans in.
const defaultHeaderKey = "_tracer-data"

// TracerOptions configure NewTracer and NewTracingInterceptor.
type TracerOptions struct {
	// Tracer starts the spans; when nil, the global tracer provider's
	// tracer "temporal-sdk-go".
	Tracer trace.Tracer
	// DisableSignalTracing turns off the spans of signals.
	DisableSignalTracing bool
	// DisableQueryTracing turns off the spans of queries.
	DisableQueryTracing bool
	// DisableUpdateTracing turns off the spans of updates, sent and
	// handled.
	DisableUpdateTracing bool
	// DisableBaggage stops OpenTelemetry baggage from travelling with the
	// spans.
	DisableBaggage bool
	// AllowInvalidParentSpans ignores spans in headers that cannot be
	// read, instead of failing the call.
	AllowInvalidParentSpans bool
	// TextMapPropagator writes spans to headers and reads them back;
	// DefaultTextMapPropagator when nil. To use the global one, set it to
	// otel.GetTextMapPropagator().
	TextMapPropagator propagation.TextMapPropagator
	// SpanContextKey is the key the interceptor keeps spans under in
	// workflow contexts; an internal key when nil (recommended).
	SpanContextKey any
	// HeaderKey is the Temporal header field spans travel in; the one all
	// SDKs use when empty (recommended).
	HeaderKey string
	// SpanStarter starts each span; Tracer.Start when nil. Set it to
	// adjust spans, for instance to add attributes or links.
	SpanStarter func(ctx context.Context, t trace.Tracer, spanName string, opts ...trace.SpanStartOption) trace.Span
}

// spanContextKey is the default SpanContextKey.
type spanContextKey struct{}

// tracer implements interceptor.Tracer over OpenTelemetry.
type tracer struct {
	interceptor.BaseTracer
	options TracerOptions
}

// NewTracer returns an interceptor.Tracer over OpenTelemetry. Most programs
// want NewTracingInterceptor instead.
func NewTracer(options TracerOptions) (interceptor.Tracer, error) {
	if options.Tracer == nil {
		options.Tracer = otel.GetTracerProvider().Tracer(instrumentationName)
	}
	if options.TextMapPropagator == nil {
		options.TextMapPropagator = DefaultTextMapPropagator
	}
	if options.SpanContextKey == nil {
		options.SpanContextKey = spanContextKey{}
	}
	if options.HeaderKey == "" {
		options.HeaderKey = defaultHeaderKey
	}
	if options.SpanStarter == nil {
		options.SpanStarter = func(ctx context.Context, t trace.Tracer, name string, opts ...trace.SpanStartOption) trace.Span {
			_, span := t.Start(ctx, name, opts...)
			return span
		}
	}
	return &tracer{options: options}, nil
}

// NewTracingInterceptor returns an interceptor that traces with
// OpenTelemetry: give it to client.Options.Interceptors (see
// interceptor.NewTracingInterceptor for the spans).
func NewTracingInterceptor(options TracerOptions) (interceptor.Interceptor, error) {
	t, err := NewTracer(options)
	if err != nil {
		return nil, err
	}
	return interceptor.NewTracingInterceptor(t), nil
}

// Options implements interceptor.Tracer.
func (t *tracer) Options() interceptor.TracerOptions {
	return interceptor.TracerOptions{
		SpanContextKey:          t.options.SpanContextKey,
		HeaderKey:               t.options.HeaderKey,
		DisableSignalTracing:    t.options.DisableSignalTracing,
		DisableQueryTracing:     t.options.DisableQueryTracing,
		DisableUpdateTracing:    t.options.DisableUpdateTracing,
		AllowInvalidParentSpans: t.options.AllowInvalidParentSpans,
	}
}

// tracerSpan is a started span, with the baggage that travels with it.
type tracerSpan struct {
	trace.Span
	baggage.Baggage
}

// tracerSpanRef is a span read from a header.
type tracerSpanRef struct {
	trace.SpanContext
	baggage.Baggage
}

// UnmarshalSpan implements interceptor.Tracer.
func (t *tracer) UnmarshalSpan(fields map[string]string) (interceptor.TracerSpanRef, error) {
	carrier := propagation.MapCarrier(fields)
	if carrier.Get("traceparent") == "" {
		// A header without a span is not an error: the sender traced nothing.
		return nil, nil
	}
	ctx := t.options.TextMapPropagator.Extract(context.Background(), carrier)
	spanContext := trace.SpanContextFromContext(ctx)
	if !spanContext.IsValid() {
		return nil, fmt.Errorf("the header's traceparent %q is not a valid W3C trace context", carrier.Get("traceparent"))
	}
	ref := &tracerSpanRef{SpanContext: spanContext}
	if !t.options.DisableBaggage {
		ref.Baggage = baggage.FromContext(ctx)
	}
	return ref, nil
}

// MarshalSpan implements interceptor.Tracer.
func (t *tracer) MarshalSpan(span interceptor.TracerSpan) (map[string]string, error) {
	s, ok := span.(*tracerSpan)
	if !ok {
		return nil, fmt.Errorf("span %T was not started by this tracer", span)
	}
	ctx := trace.ContextWithSpan(context.Background(), s.Span)
	if !t.options.DisableBaggage {
		ctx = baggage.ContextWithBaggage(ctx, s.Baggage)
	}
	carrier := propagation.MapCarrier{}
	t.options.TextMapPropagator.Inject(ctx, carrier)
	return carrier, nil
}

// SpanFromContext implements interceptor.Tracer.
func (t *tracer) SpanFromContext(ctx context.Context) interceptor.TracerSpan {
	span := trace.SpanFromContext(ctx)
	if !span.SpanContext().IsValid() {
		return nil
	}
	s := &tracerSpan{Span: span}
	if !t.options.DisableBaggage {
		s.Baggage = baggage.FromContext(ctx)
	}
	return s
}

// ContextWithSpan implements interceptor.Tracer.
func (t *tracer) ContextWithSpan(ctx context.Context, span interceptor.TracerSpan) context.Context {
	s := span.(*tracerSpan)
	if !t.options.DisableBaggage {
		ctx = baggage.ContextWithBaggage(ctx, s.Baggage)
	}
	return trace.ContextWithSpan(ctx, s.Span)
}

// StartSpan implements interceptor.Tracer. Spans whose context goes into
// a header are client spans, the others server spans.
func (t *tracer) StartSpan(options *interceptor.TracerStartSpanOptions) (interceptor.TracerSpan, error) {
	if options.ToHeader && options.FromHeader {
		return nil, errors.New("a span cannot both read its parent from a header and write itself to one")
	}
	ctx := context.Background()
	var bag baggage.Baggage
	switch parent := options.Parent.(type) {
	case nil:
	case *tracerSpan:
		ctx = trace.ContextWithSpan(ctx, parent.Span)
		bag = parent.Baggage
	case *tracerSpanRef:
		ctx = trace.ContextWithRemoteSpanContext(ctx, parent.SpanContext)
		bag = parent.Baggage
	default:
		return nil, fmt.Errorf("parent span %T was not made by this tracer", parent)
	}
	if !t.options.DisableBaggage {
		ctx = baggage.ContextWithBaggage(ctx, bag)
	}
	kind := trace.SpanKindServer
	if options.ToHeader {
		kind = trace.SpanKindClient
	}
	startOptions := []trace.SpanStartOption{trace.WithSpanKind(kind)}
	if !options.Time.IsZero() {
		startOptions = append(startOptions, trace.WithTimestamp(options.Time))
	}
	if len(options.Tags) > 0 {
		attributes := make([]attribute.KeyValue, 0, len(options.Tags))
		for k, v := range options.Tags {
			attributes = append(attributes, attribute.String(k, v))
		}
		startOptions = append(startOptions, trace.WithAttributes(attributes...))
	}
	span := t.options.SpanStarter(ctx, t.options.Tracer, t.SpanName(options), startOptions...)
	s := &tracerSpan{Span: span}
	if !t.options.DisableBaggage {
		s.Baggage = bag
	}
	return s, nil
}

// GetLogger adds the trace and span IDs to a logger.
func (t *tracer) GetLogger(logger log.Logger, ref interceptor.TracerSpanRef) log.Logger {
	var spanContext trace.SpanContext
	switch r := ref.(type) {
	case *tracerSpan:
		spanContext = r.SpanContext()
	case *tracerSpanRef:
		spanContext = r.SpanContext
	default:
		return logger
	}
	return log.With(logger, "TraceID", spanContext.TraceID(), "SpanID", spanContext.SpanID())
}

// Finish ends the span, marked as an error unless the error is benign.
func (s *tracerSpan) Finish(options *interceptor.TracerFinishSpanOptions) {
	if err := options.Error; err != nil {
		s.RecordError(err)
		var app *temporal.ApplicationError
		if !errors.As(err, &app) || app.Category() != temporal.ApplicationErrorCategoryBenign {
			s.SetStatus(codes.Error, err.Error())
		}
	}
	s.End()
}

// SpanFromWorkflowContext returns the OpenTelemetry span workflow code
// runs under, and true; or a no-op span and false when there is none
// (spans are only started while a workflow runs live, not while it
// replays). Start child spans from it only when not replaying.
func SpanFromWorkflowContext(ctx workflow.Context) (trace.Span, bool) {
	if s, ok := ctx.Value(spanContextKey{}).(*tracerSpan); ok {
		return s.Span, true
	}
	return trace.SpanFromContext(context.Background()), false
}
