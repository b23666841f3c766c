package interceptor

import "github.com/durable-go/sdk/internal/tracing"

// Tracer adapts a tracing library to NewTracingInterceptor: it starts
// spans, carries them in contexts, and turns them into header fields and
// back. Implementations embed BaseTracer. Most programs use a ready one,
// such as contrib/opentelemetry's.
//
//   - Options returns the tracer's TracerOptions; NewTracingInterceptor
//     calls it once.
//   - StartSpan starts a span described by TracerStartSpanOptions.
//   - MarshalSpan writes a span as a string map for a header (an empty
//     map: no span); UnmarshalSpan reads it back (nil and no error when
//     the map holds no span).
//   - SpanFromContext returns the span of a Go context, or nil;
//     ContextWithSpan returns a Go context carrying a span.
//   - GetLogger returns a logger that adds a span's identity to what it
//     logs (BaseTracer's returns the logger unchanged).
//   - SpanName names a span (BaseTracer's: "Operation:Name", such as
//     "StartWorkflow:OrderWorkflow").
type Tracer = tracing.Tracer

// BaseTracer gives a Tracer the defaults of its optional methods: its
// GetLogger returns the logger unchanged, and its SpanName is
// "Operation:Name". Embed it.
type BaseTracer = tracing.BaseTracer

// TracerOptions configure the tracing interceptor; a Tracer returns them
// from Options.
//
//   - SpanContextKey: the key under which the interceptor keeps the
//     current span in workflow contexts. Required.
//   - HeaderKey: the Temporal header field the span travels in; tracers
//     of one library use the same key in every SDK, so that traces cross
//     languages. Required.
//   - DisableSignalTracing: no spans for signals, sent or handled.
//   - DisableQueryTracing: no spans for queries, sent or handled.
//   - DisableUpdateTracing: no spans for updates, sent or handled
//     (validated and run).
//   - AllowInvalidParentSpans: ignore a span in a header that the tracer
//     cannot read, instead of failing the call; useful while moving from
//     one tracing library to another.
type TracerOptions = tracing.TracerOptions

// TracerStartSpanOptions describe a span to start (Tracer.StartSpan).
//
//   - Parent: the span's parent, or nil for a root span.
//   - Operation: what the span covers: StartWorkflow, RunWorkflow,
//     SignalWorkflow, HandleSignal, QueryWorkflow, HandleQuery,
//     SignalWithStartWorkflow, UpdateWorkflow, UpdateWithStartWorkflow,
//     ValidateUpdate, HandleUpdate, StartActivity, RunActivity,
//     StartChildWorkflow, SignalExternalWorkflow, SignalChildWorkflow.
//   - Name: the workflow, activity, signal, query or update name.
//   - Time: the span's start: the workflow's start for RunWorkflow, the
//     attempt's start for RunActivity, now otherwise.
//   - DependedOn: true when the parent waits on this span (child-of),
//     false when the span merely follows from it.
//   - Tags: the span's attributes (temporalWorkflowID, temporalRunID,
//     temporalActivityID, temporalUpdateID).
//   - FromHeader, ToHeader: for the interceptor (read the parent from the
//     incoming header, write the span to the outgoing one); tracers
//     ignore them.
//   - IdempotencyKey: when set, the same every time workflow code starts
//     this span, replays included, so that a tracer may derive a
//     deterministic span ID from it. Opaque.
type TracerStartSpanOptions = tracing.TracerStartSpanOptions

// TracerSpanRef refers to a span, such as a parent read from a header;
// the tracer decides what it holds.
type TracerSpanRef = tracing.TracerSpanRef

// TracerSpan is a started span: a TracerSpanRef whose Finish method ends
// it, with TracerFinishSpanOptions.
type TracerSpan = tracing.TracerSpan

// TracerFinishSpanOptions describe how a span ended (TracerSpan.Finish).
//
//   - Error: the traced call's error, if it failed.
type TracerFinishSpanOptions = tracing.TracerFinishSpanOptions

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
func NewTracingInterceptor(tracer Tracer) Interceptor { return tracing.NewTracingInterceptor(tracer) }
