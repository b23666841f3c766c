package internal

import (
	"context"
	"errors"
	"fmt"
	"time"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
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
	// DisableUpdateTracing turns off the spans of updates sent by clients
	// (UpdateWorkflow, UpdateWithStartWorkflow).
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
	// StartActivity, RunActivity.
	Operation string
	// Name is the workflow, activity, signal or query name.
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

// tracingInterceptor traces clients, and the workflows and activities of
// the workers made from them.
type tracingInterceptor struct {
	InterceptorBase
	tracer  Tracer
	options TracerOptions
}

// NewTracingInterceptor returns an interceptor that traces through tracer:
// give it to client.Options.Interceptors and it traces the client's calls
// and the workflows and activities of the workers made from that client.
// Tracing libraries wrap it (see contrib/opentelemetry). It panics if the
// tracer's options lack SpanContextKey or HeaderKey, a programming error
// in the tracer.
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

// InterceptClient traces the client's calls.
func (t *tracingInterceptor) InterceptClient(next ClientOutboundInterceptor) ClientOutboundInterceptor {
	return &tracingClientOutbound{ClientOutboundInterceptorBase: ClientOutboundInterceptorBase{Next: next}, root: t}
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
}

// start starts the span of op: its parent is the header's span when op
// reads the header and it has one, otherwise parent (which may be nil).
func (t *tracingInterceptor) start(op spanOp, parent TracerSpanRef) (TracerSpan, error) {
	if op.fromHeader {
		fromHeader, err := t.readHeader(op.header)
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
	if op.toHeader {
		if err := t.writeHeader(op.header, span); err != nil {
			span.Finish(&TracerFinishSpanOptions{Error: err})
			return nil, err
		}
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

// tracingClientOutbound traces the calls a client sends: each gets a
// span, under the span of the caller's context, written to the call's
// header for the worker to continue.
type tracingClientOutbound struct {
	ClientOutboundInterceptorBase
	root *tracingInterceptor
}

// ExecuteWorkflow traces the start as StartWorkflow:<workflow type>.
func (c *tracingClientOutbound) ExecuteWorkflow(ctx context.Context, in *ClientExecuteWorkflowInput) (WorkflowRun, error) {
	span, ctx, err := c.root.startInContext(ctx, spanOp{
		operation: "StartWorkflow", name: in.WorkflowType,
		tags:   map[string]string{tracingTagWorkflowID: in.Options.ID},
		header: Header(ctx), toHeader: true,
	})
	if err != nil {
		return nil, err
	}
	run, err := c.Next.ExecuteWorkflow(ctx, in)
	finishSpan(span, err)
	return run, err
}

// SignalWorkflow traces the signal as SignalWorkflow:<signal name>.
func (c *tracingClientOutbound) SignalWorkflow(ctx context.Context, in *ClientSignalWorkflowInput) error {
	if c.root.options.DisableSignalTracing {
		return c.Next.SignalWorkflow(ctx, in)
	}
	span, ctx, err := c.root.startInContext(ctx, spanOp{
		operation: "SignalWorkflow", name: in.SignalName,
		tags:   map[string]string{tracingTagWorkflowID: in.WorkflowID},
		header: Header(ctx), toHeader: true,
	})
	if err != nil {
		return err
	}
	err = c.Next.SignalWorkflow(ctx, in)
	finishSpan(span, err)
	return err
}

// SignalWithStartWorkflow traces the call as
// SignalWithStartWorkflow:<workflow type>.
func (c *tracingClientOutbound) SignalWithStartWorkflow(ctx context.Context, in *ClientSignalWithStartWorkflowInput) (WorkflowRun, error) {
	span, ctx, err := c.root.startInContext(ctx, spanOp{
		operation: "SignalWithStartWorkflow", name: in.WorkflowType,
		tags:   map[string]string{tracingTagWorkflowID: in.Options.ID},
		header: Header(ctx), toHeader: true,
	})
	if err != nil {
		return nil, err
	}
	run, err := c.Next.SignalWithStartWorkflow(ctx, in)
	finishSpan(span, err)
	return run, err
}

// QueryWorkflow traces the query as QueryWorkflow:<query type>.
func (c *tracingClientOutbound) QueryWorkflow(ctx context.Context, in *ClientQueryWorkflowInput) (converter.EncodedValue, error) {
	if c.root.options.DisableQueryTracing {
		return c.Next.QueryWorkflow(ctx, in)
	}
	span, ctx, err := c.root.startInContext(ctx, spanOp{
		operation: "QueryWorkflow", name: in.QueryType,
		tags:   map[string]string{tracingTagWorkflowID: in.WorkflowID},
		header: Header(ctx), toHeader: true,
	})
	if err != nil {
		return nil, err
	}
	value, err := c.Next.QueryWorkflow(ctx, in)
	finishSpan(span, err)
	return value, err
}
