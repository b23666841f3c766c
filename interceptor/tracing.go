package interceptor

import "github.com/durable-go/sdk/internal"

type (
	// Tracer adapts a tracing library to NewTracingInterceptor: it starts
	// spans, carries them in contexts, and turns them into header fields
	// and back. Implementations embed BaseTracer. Most programs use a
	// ready one, such as contrib/opentelemetry's.
	Tracer = internal.Tracer
	// BaseTracer gives a Tracer the defaults of its optional methods;
	// embed it.
	BaseTracer = internal.BaseTracer
	// TracerOptions configure the tracing interceptor; a Tracer returns
	// them from Options.
	TracerOptions = internal.TracerOptions
	// TracerStartSpanOptions describe a span to start.
	TracerStartSpanOptions = internal.TracerStartSpanOptions
	// TracerSpanRef refers to a span, such as a parent read from a header.
	TracerSpanRef = internal.TracerSpanRef
	// TracerSpan is a started span.
	TracerSpan = internal.TracerSpan
	// TracerFinishSpanOptions describe how a span ended.
	TracerFinishSpanOptions = internal.TracerFinishSpanOptions
)

// NewTracingInterceptor returns an interceptor that traces through tracer.
// Put it in client.Options.Interceptors: it traces the client's starts,
// signals and queries, and the workflows and activities of the workers
// made from that client, each span carried to the next through Temporal
// headers:
//
//	StartWorkflow:<type> (client)
//	├── RunWorkflow:<type>            the workflow code, on the worker that ran it live
//	├── StartActivity:<type>          scheduled by the workflow
//	│   └── RunActivity:<type>        each attempt
//	SignalWorkflow:<name> (client)
//	└── HandleSignal:<name>
//	QueryWorkflow:<type> (client)
//	└── HandleQuery:<type>
//
// While the workflow runs live, the spans its code starts hang under
// RunWorkflow; spans are never started while it replays history, so a
// workflow evicted from the cache or moved to another worker reports no
// span twice, and the spans started after such a replay hang under the
// client's StartWorkflow span. It panics if the tracer's options lack
// SpanContextKey or HeaderKey.
func NewTracingInterceptor(tracer Tracer) Interceptor { return internal.NewTracingInterceptor(tracer) }
