// Package tracing traces clients, workflows and activities with Datadog's
// tracer (gopkg.in/DataDog/dd-trace-go.v1): give the interceptor
// NewTracingInterceptor returns to client.Options.Interceptors, and the
// starts, signals and queries the client sends, the workflows and
// activities its workers run, and the activities, children and signals
// workflows start, become one trace in Datadog APM, carried from process to
// process in the Temporal header "dd_trace_span".
//
//	tracer.Start()
//	defer tracer.Stop()
//	c, err := client.Dial(client.Options{
//		Interceptors: []interceptor.ClientInterceptor{tracing.NewTracingInterceptor(tracing.TracerOptions{})},
//	})
//
// Spans go to the global tracer that tracer.Start started. Their operation
// name is "temporal.<Operation>" (temporal.StartWorkflow,
// temporal.RunActivity; interceptor.NewTracingInterceptor lists them), their
// resource the workflow, activity, signal, query or update name, and their
// tags temporal.WorkflowID, temporal.RunID, temporal.ActivityID and
// temporal.UpdateID. The spans of a workflow's run and of the signals and
// updates it handles take span IDs derived from the run and their order in
// it, the same on every worker that runs it. Activity code finds its span
// with tracer.SpanFromContext, workflow code with SpanFromWorkflowContext.
//
// It mirrors go.temporal.io/sdk/contrib/datadog/tracing (its releases on
// dd-trace-go v1): the same names and the same header, each module reading
// the spans the other writes, so a client of one SDK and a worker of the
// other share a trace.
package tracing

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"

	"gopkg.in/DataDog/dd-trace-go.v1/ddtrace"
	"gopkg.in/DataDog/dd-trace-go.v1/ddtrace/tracer"

	"github.com/durable-go/sdk/interceptor"
	"github.com/durable-go/sdk/log"
	"github.com/durable-go/sdk/workflow"
)

// TracerOptions configure NewTracer and NewTracingInterceptor.
type TracerOptions struct {
	// DisableSignalTracing turns off the spans of signals, sent and
	// handled.
	DisableSignalTracing bool

	// DisableQueryTracing turns off the spans of queries, sent and
	// handled.
	DisableQueryTracing bool

	// DisableUpdateTracing turns off the spans of updates, sent and
	// handled.
	DisableUpdateTracing bool

	// OnFinish says how each span finishes; when nil, a span whose call
	// failed finishes with tracer.WithError, unless the failure is a
	// workflow continuing as new.
	OnFinish func(options *interceptor.TracerFinishSpanOptions) []tracer.FinishOption
}

// contextKey is the type of spanContextKey, and of nothing else.
type contextKey string

// spanContextKey keeps the current span in workflow contexts; headerKey is
// the Temporal header field spans travel in, the one the official module
// uses.
const (
	spanContextKey contextKey = "dd_trace_span"
	headerKey                 = string(spanContextKey)
)

// tracerImpl implements interceptor.Tracer over dd-trace-go's global
// tracer.
type tracerImpl struct {
	interceptor.BaseTracer
	options TracerOptions
}

// NewTracingInterceptor returns an interceptor that traces with Datadog:
// give it to client.Options.Interceptors (interceptor.NewTracingInterceptor
// says which spans it starts, and under which parents).
func NewTracingInterceptor(opts TracerOptions) interceptor.Interceptor {
	return interceptor.NewTracingInterceptor(NewTracer(opts))
}

// NewTracer returns an interceptor.Tracer over Datadog's global tracer, for
// interceptor.NewTracingInterceptor. Most programs want
// NewTracingInterceptor.
func NewTracer(opts TracerOptions) interceptor.Tracer {
	if opts.OnFinish == nil {
		opts.OnFinish = finishWithError
	}
	return &tracerImpl{options: opts}
}

// finishWithError is the default OnFinish: failed calls are errors, except
// a workflow's continuing as new, which is how it succeeds.
func finishWithError(options *interceptor.TracerFinishSpanOptions) []tracer.FinishOption {
	if options.Error == nil || workflow.IsContinueAsNewError(options.Error) {
		return nil
	}
	return []tracer.FinishOption{tracer.WithError(options.Error)}
}

// Options implements interceptor.Tracer.
func (t *tracerImpl) Options() interceptor.TracerOptions {
	return interceptor.TracerOptions{
		SpanContextKey:       spanContextKey,
		HeaderKey:            headerKey,
		DisableSignalTracing: t.options.DisableSignalTracing,
		DisableQueryTracing:  t.options.DisableQueryTracing,
		DisableUpdateTracing: t.options.DisableUpdateTracing,
	}
}

// tracerSpan is a span this tracer started, or found in a Go context.
type tracerSpan struct {
	ddtrace.Span
	onFinish func(options *interceptor.TracerFinishSpanOptions) []tracer.FinishOption
}

// tracerSpanRef is a span read from a header: only its context is known.
type tracerSpanRef struct{ ddtrace.SpanContext }

// UnmarshalSpan implements interceptor.Tracer: the fields are what the
// global tracer's propagators wrote (Datadog's x-datadog-* headers, W3C
// trace context, as it is configured).
func (t *tracerImpl) UnmarshalSpan(fields map[string]string) (interceptor.TracerSpanRef, error) {
	spanContext, err := tracer.Extract(tracer.TextMapCarrier(fields))
	if errors.Is(err, tracer.ErrSpanContextNotFound) {
		// The sender traced nothing, or with another tracer: no parent.
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("the Datadog tracer cannot read the span context in header %q: %w", headerKey, err)
	}
	return &tracerSpanRef{SpanContext: spanContext}, nil
}

// MarshalSpan implements interceptor.Tracer.
func (t *tracerImpl) MarshalSpan(span interceptor.TracerSpan) (map[string]string, error) {
	s, ok := span.(*tracerSpan)
	if !ok {
		return nil, fmt.Errorf("span %T was not started by this package's tracer", span)
	}
	carrier := tracer.TextMapCarrier{}
	if err := tracer.Inject(s.Context(), carrier); err != nil {
		return nil, fmt.Errorf("the Datadog tracer cannot write a span context for header %q: %w", headerKey, err)
	}
	return carrier, nil
}

// SpanFromContext implements interceptor.Tracer.
func (t *tracerImpl) SpanFromContext(ctx context.Context) interceptor.TracerSpan {
	span, ok := tracer.SpanFromContext(ctx)
	if !ok {
		return nil
	}
	return &tracerSpan{Span: span, onFinish: t.options.OnFinish}
}

// ContextWithSpan implements interceptor.Tracer.
func (t *tracerImpl) ContextWithSpan(ctx context.Context, span interceptor.TracerSpan) context.Context {
	return tracer.ContextWithSpan(ctx, span.(*tracerSpan).Span)
}

// SpanName implements interceptor.Tracer: "temporal.<Operation>"; the
// workflow, activity or signal name is the span's resource.
func (t *tracerImpl) SpanName(options *interceptor.TracerStartSpanOptions) string {
	return "temporal." + options.Operation
}

// StartSpan implements interceptor.Tracer.
func (t *tracerImpl) StartSpan(options *interceptor.TracerStartSpanOptions) (interceptor.TracerSpan, error) {
	startOptions := []tracer.StartSpanOption{tracer.ResourceName(options.Name)}
	if !options.Time.IsZero() {
		startOptions = append(startOptions, tracer.StartTime(options.Time))
	}
	if options.IdempotencyKey != "" {
		// The span of workflow code gets the same ID wherever and however
		// often the code runs.
		startOptions = append(startOptions, tracer.WithSpanID(spanIDOf(options.IdempotencyKey)))
	}
	switch parent := options.Parent.(type) {
	case nil:
	case *tracerSpan:
		startOptions = append(startOptions, tracer.ChildOf(parent.Context()))
	case *tracerSpanRef:
		startOptions = append(startOptions, tracer.ChildOf(parent.SpanContext))
	default:
		return nil, fmt.Errorf("parent span %T was not made by this package's tracer", options.Parent)
	}
	for key, value := range options.Tags {
		startOptions = append(startOptions, tracer.Tag(tagName(key), value))
	}
	span := tracer.StartSpan(t.SpanName(options), startOptions...)
	return &tracerSpan{Span: span, onFinish: t.options.OnFinish}, nil
}

// tagName groups the interceptor's tags under "temporal." in Datadog:
// temporalWorkflowID becomes temporal.WorkflowID.
func tagName(key string) string {
	return "temporal." + strings.TrimPrefix(key, "temporal")
}

// spanIDOf derives a span ID from an idempotency key: its 64-bit FNV-1
// hash, as the official module derives it.
func spanIDOf(idempotencyKey string) uint64 {
	hash := fnv.New64()
	_, _ = hash.Write([]byte(idempotencyKey)) // a hash never fails to write
	return hash.Sum64()
}

// GetLogger adds the trace and span IDs to a logger, under the keys
// Datadog's log correlation reads.
func (t *tracerImpl) GetLogger(logger log.Logger, ref interceptor.TracerSpanRef) log.Logger {
	var spanContext ddtrace.SpanContext
	switch r := ref.(type) {
	case *tracerSpan:
		spanContext = r.Context()
	case *tracerSpanRef:
		spanContext = r.SpanContext
	default:
		return logger
	}
	return log.With(logger, "dd.trace_id", spanContext.TraceID(), "dd.span_id", spanContext.SpanID())
}

// Finish ends the span as OnFinish says.
func (s *tracerSpan) Finish(options *interceptor.TracerFinishSpanOptions) {
	s.Span.Finish(s.onFinish(options)...)
}

// SpanFromWorkflowContext returns the Datadog span workflow code runs
// under, and true; or a no-op span and false when there is none. Spans are
// only started while a workflow runs live, not while it replays history:
// start child spans from it only when workflow.IsReplaying is false.
func SpanFromWorkflowContext(ctx workflow.Context) (ddtrace.Span, bool) {
	if span, ok := ctx.Value(spanContextKey).(*tracerSpan); ok {
		return span.Span, true
	}
	return tracer.SpanFromContext(context.Background())
}
