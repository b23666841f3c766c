package interceptor

import (
	"context"
	"fmt"
	"time"

	"github.com/durable-go/sdk/log"
)

// Tracer adapts a tracing library to NewTracingInterceptor: it starts
// spans, carries them in Go contexts, and turns them into header fields
// and back. Implementations embed BaseTracer (which gives GetLogger and
// SpanName their defaults) and are safe for concurrent use. Most programs
// use a ready one, such as contrib/opentelemetry's.
type Tracer interface {
	// Options returns the tracer's options; NewTracingInterceptor calls
	// it once.
	Options() TracerOptions

	// UnmarshalSpan reads back a span reference that MarshalSpan wrote to
	// a header. A map that holds no span gives nil and no error.
	UnmarshalSpan(map[string]string) (TracerSpanRef, error)

	// MarshalSpan writes a span as a string map, for a header; an empty
	// map means the header carries no span.
	MarshalSpan(TracerSpan) (map[string]string, error)

	// SpanFromContext returns the span a Go context carries, or nil.
	SpanFromContext(context.Context) TracerSpan

	// ContextWithSpan returns a Go context that carries span.
	ContextWithSpan(context.Context, TracerSpan) context.Context

	// StartSpan starts the span that the options describe.
	StartSpan(*TracerStartSpanOptions) (TracerSpan, error)

	// GetLogger returns a logger that adds the identity of the span to
	// what it logs, for the workflows and activities that run under it.
	// BaseTracer's returns the logger unchanged.
	GetLogger(log.Logger, TracerSpanRef) log.Logger

	// SpanName names the span that options describe. BaseTracer's is
	// "Operation:Name", such as "StartWorkflow:OrderWorkflow".
	SpanName(options *TracerStartSpanOptions) string

	mustEmbedBaseTracer()
}

// BaseTracer gives a Tracer the defaults of its optional methods, and the
// unexported method that every Tracer needs; embed it.
type BaseTracer struct{}

// GetLogger returns logger unchanged.
func (BaseTracer) GetLogger(logger log.Logger, _ TracerSpanRef) log.Logger { return logger }

// SpanName is "Operation:Name", such as "StartWorkflow:OrderWorkflow".
func (BaseTracer) SpanName(options *TracerStartSpanOptions) string {
	return options.Operation + ":" + options.Name
}

func (BaseTracer) mustEmbedBaseTracer() {}

// Tracers of other packages embed BaseTracer; this says, to tools that
// read one package at a time, that its method is used.
var _ interface{ mustEmbedBaseTracer() } = BaseTracer{}

// TracerOptions configure the tracing interceptor; a Tracer returns them
// from Options.
type TracerOptions struct {
	// SpanContextKey is the key under which the interceptor keeps the
	// current span in workflow contexts (and beside the tracer's own in
	// Go contexts). Required.
	SpanContextKey any

	// HeaderKey is the Temporal header field that spans travel in.
	// Required. Tracers of one library use the same key in every SDK, so
	// that traces cross languages.
	HeaderKey string

	// EncodeHeaders sends the spans' header field through the payload
	// codec of the client's data converter, as payloads are (see
	// workflow.CodecContextPropagator); the receiving workers must set it
	// too. The field's JSON inside is unchanged; other fields are left
	// alone.
	EncodeHeaders bool

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

// TracerStartSpanOptions describe a span to start (Tracer.StartSpan).
type TracerStartSpanOptions struct {
	// Parent is the span's parent, or nil for a root span.
	Parent TracerSpanRef

	// Operation is what the span covers: StartWorkflow, RunWorkflow,
	// SignalWorkflow, HandleSignal, QueryWorkflow, HandleQuery,
	// SignalWithStartWorkflow, UpdateWorkflow, UpdateWithStartWorkflow,
	// ValidateUpdate, HandleUpdate, StartActivity, RunActivity,
	// StartChildWorkflow, SignalExternalWorkflow or SignalChildWorkflow.
	Operation string

	// Name is the workflow, activity, signal, query or update name.
	Name string

	// Time is the span's start: the workflow's start for RunWorkflow, the
	// attempt's start for RunActivity, now otherwise.
	Time time.Time

	// DependedOn is true when the parent waits on this span (a child-of
	// relation), false when the span merely follows from it.
	DependedOn bool

	// Tags are the span's attributes: temporalWorkflowID, temporalRunID,
	// temporalActivityID, temporalUpdateID.
	Tags map[string]string

	// FromHeader tells the interceptor to read the parent from the
	// incoming header; tracers ignore it.
	FromHeader bool

	// ToHeader tells the interceptor to write the span to the outgoing
	// header; tracers ignore it.
	ToHeader bool

	// IdempotencyKey, when set, is the same every time workflow code
	// starts this span, replays included, so that a tracer may derive a
	// deterministic span ID from it. It is opaque: do not parse it.
	IdempotencyKey string
}

// TracerSpanRef refers to a span, such as a parent read from a header;
// what it holds is the tracer's business.
type TracerSpanRef any

// TracerSpan is a started span: a TracerSpanRef that can be finished.
type TracerSpan interface {
	// TracerSpanRef: a span may stand wherever a reference to it is
	// wanted, such as a parent.
	TracerSpanRef

	// Finish ends the span; the options say how the traced call ended.
	Finish(*TracerFinishSpanOptions)
}

// TracerFinishSpanOptions describe how a span ended (TracerSpan.Finish).
type TracerFinishSpanOptions struct {
	// Error is the traced call's error, if it failed.
	Error error
}

// NewTracingInterceptor returns an interceptor that traces through tracer.
// Put it in client.Options.Interceptors: it traces the client's starts,
// signals, queries and updates, and the workflows and activities of the
// workers made from that client, each span carried to the next through
// Temporal headers:
//
//	StartWorkflow:<type> (client)
//	└── RunWorkflow:<type>                the workflow code, on the worker that ran it live
//	    ├── StartActivity:<type>          scheduled by the workflow (local activities too)
//	    │   └── RunActivity:<type>        each attempt
//	    ├── StartChildWorkflow:<type>
//	    │   └── RunWorkflow:<type>        the child's code
//	    └── SignalExternalWorkflow:<name> (SignalChildWorkflow:<name> to a child)
//	        └── HandleSignal:<name>       in the workflow signaled
//	SignalWorkflow:<name> (client)
//	└── HandleSignal:<name>
//	QueryWorkflow:<type> (client)
//	└── HandleQuery:<type>
//	UpdateWorkflow:<name> (client)
//	├── ValidateUpdate:<name>             its validation, validator or none
//	└── HandleUpdate:<name>               its handler, once accepted
//	UpdateWithStartWorkflow:<name> (client)
//	├── RunWorkflow:<type>                when the call starts the workflow
//	├── ValidateUpdate:<name>
//	└── HandleUpdate:<name>
//
// A SignalWithStartWorkflow:<type> span (client) is the parent of both the
// RunWorkflow and the HandleSignal it leads to.
//
// While the workflow runs live, the spans its code starts hang under
// RunWorkflow; spans are never started while it replays history, so a
// workflow evicted from the cache or moved to another worker reports no
// span twice, and the spans started after such a replay hang under the
// client's StartWorkflow span. It panics if the tracer's options lack
// SpanContextKey or HeaderKey.
func NewTracingInterceptor(tracer Tracer) Interceptor {
	options := tracer.Options()
	if options.SpanContextKey == nil {
		panic(fmt.Sprintf("NewTracingInterceptor: the options of tracer %T have no SpanContextKey; set it to a key of the tracer's own type", tracer))
	}
	if options.HeaderKey == "" {
		panic(fmt.Sprintf("NewTracingInterceptor: the options of tracer %T have no HeaderKey; set it to the header field the spans travel in", tracer))
	}
	return &tracingInterceptor{tracer: tracer, options: options}
}
