package tracing

import (
	"context"
	"time"

	"github.com/durable-go/sdk/log"
)

// Tags the tracing interceptor puts on spans; other SDKs use the same.
const (
	tracingTagWorkflowID = "temporalWorkflowID"
	tracingTagRunID      = "temporalRunID"
	tracingTagActivityID = "temporalActivityID"
)

// Tracer is what NewTracingInterceptor needs of a tracing library
// (interceptor.Tracer): start spans, carry them in Go contexts, and turn
// them into string maps for Temporal headers and back. Implementations
// embed BaseTracer and are safe for concurrent use.
type Tracer interface {
	// Options returns the tracer's options; it is called once, by
	// NewTracingInterceptor.
	Options() TracerOptions
	// UnmarshalSpan reads a span reference from what MarshalSpan wrote; it
	// returns nil, and no error, when the map holds no span.
	UnmarshalSpan(map[string]string) (TracerSpanRef, error)
	// MarshalSpan writes a span as a string map for a header; an empty map
	// means the header gets no span.
	MarshalSpan(TracerSpan) (map[string]string, error)
	// SpanFromContext returns the span of a Go context, or nil.
	SpanFromContext(context.Context) TracerSpan
	// ContextWithSpan returns a Go context carrying span.
	ContextWithSpan(context.Context, TracerSpan) context.Context
	// StartSpan starts a span.
	StartSpan(*TracerStartSpanOptions) (TracerSpan, error)
	// GetLogger returns a logger that adds the span's identity to what it
	// logs, for workflows and activities running under that span.
	GetLogger(log.Logger, TracerSpanRef) log.Logger
	// SpanName names the span that options describe.
	SpanName(options *TracerStartSpanOptions) string

	mustEmbedBaseTracer()
}

// BaseTracer gives a Tracer the defaults of its optional methods; embed it.
type BaseTracer struct{}

// GetLogger returns logger unchanged.
func (BaseTracer) GetLogger(logger log.Logger, _ TracerSpanRef) log.Logger { return logger }

// SpanName is "Operation:Name", e.g. "StartWorkflow:OrderWorkflow".
func (BaseTracer) SpanName(options *TracerStartSpanOptions) string {
	return options.Operation + ":" + options.Name
}

func (BaseTracer) mustEmbedBaseTracer() {}

// TracerOptions configure the tracing interceptor; a Tracer returns them
// from Options.
type TracerOptions struct {
	// SpanContextKey is the key under which the interceptor keeps the
	// current span in workflow contexts (and alongside the tracer's own
	// in Go contexts). Required.
	SpanContextKey any
	// HeaderKey is the Temporal header field the span travels in.
	// Required; tracers for the same library in other SDKs use the same
	// key, so that traces cross languages.
	HeaderKey string
	// DisableSignalTracing turns off the spans of signals, sent and
	// handled.
	DisableSignalTracing bool
	// DisableQueryTracing turns off the spans of queries, sent and
	// handled.
	DisableQueryTracing bool
	// DisableUpdateTracing turns off the spans of updates, sent by
	// clients (UpdateWorkflow, UpdateWithStartWorkflow) and handled by
	// workflows (ValidateUpdate, HandleUpdate).
	DisableUpdateTracing bool
	// AllowInvalidParentSpans ignores a span in a header that the tracer
	// cannot read, instead of failing the call; useful while moving from
	// one tracing library to another.
	AllowInvalidParentSpans bool
}

// TracerStartSpanOptions describe a span to start.
type TracerStartSpanOptions struct {
	// Parent is the span's parent, or nil for a root span.
	Parent TracerSpanRef
	// Operation is what the span covers: StartWorkflow, RunWorkflow,
	// SignalWorkflow, HandleSignal, QueryWorkflow, HandleQuery,
	// SignalWithStartWorkflow, UpdateWorkflow, UpdateWithStartWorkflow,
	// ValidateUpdate, HandleUpdate, StartActivity, RunActivity,
	// StartChildWorkflow, SignalExternalWorkflow, SignalChildWorkflow.
	Operation string
	// Name is the workflow, activity, signal, query or update name.
	Name string
	// Time is the span's start: the workflow's start time for
	// RunWorkflow, the attempt's start for RunActivity, now otherwise.
	Time time.Time
	// DependedOn is true when the parent waits on this span (a child-of
	// relation) and false when the span merely follows from it.
	DependedOn bool
	// Tags are attributes of the span: temporalWorkflowID, temporalRunID,
	// temporalActivityID, temporalUpdateID.
	Tags map[string]string
	// FromHeader tells the interceptor to look for the parent in the
	// incoming header; tracers ignore it.
	FromHeader bool
	// ToHeader tells the interceptor to write the span to the outgoing
	// header; tracers ignore it.
	ToHeader bool
	// IdempotencyKey, when set, is the same every time workflow code
	// starts this span, replays included; a tracer may derive a
	// deterministic span ID from it. Opaque: do not parse it.
	IdempotencyKey string
}

// TracerSpanRef refers to a span, for instance a parent read from a
// header; its type is the tracer's.
type TracerSpanRef any

// TracerSpan is a started span.
type TracerSpan interface {
	TracerSpanRef
	// Finish ends the span.
	Finish(*TracerFinishSpanOptions)
}

// TracerFinishSpanOptions describe how a span ended.
type TracerFinishSpanOptions struct {
	// Error is the traced call's error, if it failed.
	Error error
}
