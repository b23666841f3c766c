// Package opentracing traces clients, workflows and activities with an
// OpenTracing tracer (Jaeger's, Lightstep's, or any other
// opentracing.Tracer): give the interceptor NewInterceptor returns to
// client.Options.Interceptors, and the starts, signals and queries the
// client sends, the workflows and activities its workers run, and the
// activities, children and signals workflows start, become one trace,
// carried from process to process in the Temporal header "_tracer-data".
//
//	tracing, err := opentracing.NewInterceptor(opentracing.TracerOptions{})
//	...
//	c, err := client.Dial(client.Options{Interceptors: []interceptor.ClientInterceptor{tracing}})
//
// Zero options use opentracing.GlobalTracer() as it is when NewInterceptor
// is called, so set the global tracer first. Activity code finds its span
// with opentracing.SpanFromContext, and with it the baggage the caller set.
// Spans are named "Operation:Name" (StartWorkflow:OrderWorkflow,
// RunActivity:Charge; interceptor.NewTracingInterceptor lists them) and
// tagged temporalWorkflowID, temporalRunID, temporalActivityID and
// temporalUpdateID; a span whose call failed has the tag error="true".
//
// It mirrors go.temporal.io/sdk/contrib/opentracing: the same names and
// the same header, each module reading the spans the other writes, so a
// client of one SDK and a worker of the other share a trace.
package opentracing

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/opentracing/opentracing-go"
	otlog "github.com/opentracing/opentracing-go/log"

	"github.com/durable-go/sdk/interceptor"
)

// TracerOptions configure NewTracer and NewInterceptor.
type TracerOptions struct {
	// Tracer starts the spans and writes them to headers; when nil,
	// opentracing.GlobalTracer() at the time NewTracer is called.
	Tracer opentracing.Tracer

	// DisableSignalTracing turns off the spans of signals, sent and
	// handled.
	DisableSignalTracing bool

	// DisableQueryTracing turns off the spans of queries, sent and
	// handled.
	DisableQueryTracing bool

	// SpanContextKey is the key under which the interceptor keeps the
	// current span in workflow contexts (OpenTracing's own key for Go
	// contexts is another); a key of this package when nil (recommended).
	SpanContextKey interface{}

	// HeaderKey is the Temporal header field spans travel in; the one
	// every Temporal SDK uses, "_tracer-data", when empty (recommended).
	HeaderKey string

	// SpanStarter starts each span; Tracer.StartSpan when nil. Set it to
	// adjust spans, for instance to add tags or references.
	SpanStarter func(t opentracing.Tracer, operationName string, opts ...opentracing.StartSpanOption) opentracing.Span
}

// spanContextKey is the default SpanContextKey.
type spanContextKey struct{}

// defaultHeaderKey is the header field the tracing integrations of all
// Temporal SDKs use.
const defaultHeaderKey = "_tracer-data"

// tracer implements interceptor.Tracer over an OpenTracing tracer.
type tracer struct {
	interceptor.BaseTracer
	options TracerOptions
}

// NewTracer returns an interceptor.Tracer over OpenTracing, for
// interceptor.NewTracingInterceptor. Most programs want NewInterceptor.
func NewTracer(options TracerOptions) (interceptor.Tracer, error) {
	if options.Tracer == nil {
		options.Tracer = opentracing.GlobalTracer()
	}
	if options.SpanContextKey == nil {
		options.SpanContextKey = spanContextKey{}
	}
	if options.HeaderKey == "" {
		options.HeaderKey = defaultHeaderKey
	}
	if options.SpanStarter == nil {
		options.SpanStarter = func(t opentracing.Tracer, operationName string, opts ...opentracing.StartSpanOption) opentracing.Span {
			return t.StartSpan(operationName, opts...)
		}
	}
	return &tracer{options: options}, nil
}

// NewInterceptor returns an interceptor that traces with OpenTracing: give
// it to client.Options.Interceptors (interceptor.NewTracingInterceptor
// says which spans it starts, and under which parents).
func NewInterceptor(options TracerOptions) (interceptor.Interceptor, error) {
	t, err := NewTracer(options)
	if err != nil {
		return nil, err
	}
	return interceptor.NewTracingInterceptor(t), nil
}

// Options implements interceptor.Tracer.
func (t *tracer) Options() interceptor.TracerOptions {
	return interceptor.TracerOptions{
		SpanContextKey:       t.options.SpanContextKey,
		HeaderKey:            t.options.HeaderKey,
		DisableSignalTracing: t.options.DisableSignalTracing,
		DisableQueryTracing:  t.options.DisableQueryTracing,
	}
}

// tracerSpan is a span this tracer started, or found in a Go context.
type tracerSpan struct{ opentracing.Span }

// tracerSpanRef is a span read from a header: only its context is known.
type tracerSpanRef struct{ opentracing.SpanContext }

// UnmarshalSpan implements interceptor.Tracer: the header's fields are the
// tracer's TextMap encoding of a span context.
func (t *tracer) UnmarshalSpan(fields map[string]string) (interceptor.TracerSpanRef, error) {
	spanContext, err := t.options.Tracer.Extract(opentracing.TextMap, opentracing.TextMapCarrier(fields))
	if errors.Is(err, opentracing.ErrSpanContextNotFound) {
		// The sender traced nothing, or with another tracer: no parent.
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("the OpenTracing tracer %T cannot read the span context in fields %v: %w", t.options.Tracer, fieldNames(fields), err)
	}
	return &tracerSpanRef{SpanContext: spanContext}, nil
}

// MarshalSpan implements interceptor.Tracer.
func (t *tracer) MarshalSpan(span interceptor.TracerSpan) (map[string]string, error) {
	s, ok := span.(*tracerSpan)
	if !ok {
		return nil, fmt.Errorf("span %T was not started by this package's tracer", span)
	}
	carrier := opentracing.TextMapCarrier{}
	if err := t.options.Tracer.Inject(s.Context(), opentracing.TextMap, carrier); err != nil {
		return nil, fmt.Errorf("the OpenTracing tracer %T cannot write a span context as a text map: %w", t.options.Tracer, err)
	}
	return carrier, nil
}

// SpanFromContext implements interceptor.Tracer.
func (t *tracer) SpanFromContext(ctx context.Context) interceptor.TracerSpan {
	span := opentracing.SpanFromContext(ctx)
	if span == nil {
		return nil
	}
	return &tracerSpan{Span: span}
}

// ContextWithSpan implements interceptor.Tracer.
func (t *tracer) ContextWithSpan(ctx context.Context, span interceptor.TracerSpan) context.Context {
	return opentracing.ContextWithSpan(ctx, span.(*tracerSpan).Span)
}

// StartSpan implements interceptor.Tracer. A span the parent waits on
// (an activity and its attempts) is its parent's child; the others, such
// as a workflow run under the client's start, follow from their parent.
func (t *tracer) StartSpan(options *interceptor.TracerStartSpanOptions) (interceptor.TracerSpan, error) {
	var startOptions []opentracing.StartSpanOption
	if !options.Time.IsZero() {
		startOptions = append(startOptions, opentracing.StartTime(options.Time))
	}
	var parent opentracing.SpanContext
	switch p := options.Parent.(type) {
	case nil:
	case *tracerSpan:
		parent = p.Context()
	case *tracerSpanRef:
		parent = p.SpanContext
	default:
		return nil, fmt.Errorf("parent span %T was not made by this package's tracer", options.Parent)
	}
	if parent != nil {
		if options.DependedOn {
			startOptions = append(startOptions, opentracing.ChildOf(parent))
		} else {
			startOptions = append(startOptions, opentracing.FollowsFrom(parent))
		}
	}
	if len(options.Tags) > 0 {
		tags := make(opentracing.Tags, len(options.Tags))
		for k, v := range options.Tags {
			tags[k] = v
		}
		startOptions = append(startOptions, tags)
	}
	span := t.options.SpanStarter(t.options.Tracer, t.SpanName(options), startOptions...)
	if span == nil {
		return nil, fmt.Errorf("TracerOptions.SpanStarter returned no span for %s", t.SpanName(options))
	}
	return &tracerSpan{Span: span}, nil
}

// Finish ends the span. A failed call is tagged error="true", the string
// go.temporal.io/sdk/contrib/opentracing writes, and its error logged.
func (s *tracerSpan) Finish(options *interceptor.TracerFinishSpanOptions) {
	if options.Error != nil {
		s.SetTag("error", "true")
		s.LogFields(otlog.Error(options.Error))
	}
	s.Span.Finish()
}

// fieldNames lists a header's field names (not their values, which may
// hold baggage) for an error message.
func fieldNames(fields map[string]string) []string {
	return slices.Sorted(maps.Keys(fields))
}
