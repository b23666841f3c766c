package propagation

import (
	"context"
	"fmt"
	"maps"
	"slices"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/wfsync"
)

// headerKey is the context key of the header of the call being
// intercepted (a *callHeader).
type headerKey struct{}

// callHeader is the header of one call, as interceptors see it.
type callHeader struct {
	// fields are the header's fields: Header and WorkflowHeader return
	// them for interceptors to read and write.
	fields map[string]*commonpb.Payload
	// encode are the fields EncodeHeader marked on an outgoing call, with
	// the payload marked: at the request boundary they are encoded with
	// the client's payload codec, unless replaced since.
	encode map[string]*commonpb.Payload
	// codec returns the payload codec of an incoming call's header, for
	// DecodedHeader; nil when the call is outgoing.
	codec func() converter.PayloadCodec
}

// headerContext is what holds a call's header: a Go context or a workflow
// context.
type headerContext interface{ Value(any) any }

func headerOf(ctx headerContext) *callHeader {
	h, _ := ctx.Value(headerKey{}).(*callHeader)
	return h
}

// Header returns the header fields of the call that ctx belongs to, for an
// interceptor to read or write: the outgoing header in a client
// interceptor's ExecuteWorkflow, SignalWorkflow, SignalWithStartWorkflow,
// QueryWorkflow, UpdateWorkflow and UpdateWithStartWorkflow, the incoming one in an activity inbound interceptor's
// ExecuteActivity. It is nil elsewhere.
func Header(ctx context.Context) map[string]*commonpb.Payload {
	if h := headerOf(ctx); h != nil {
		return h.fields
	}
	return nil
}

// WorkflowHeader returns the header fields of the workflow call that ctx
// belongs to: the outgoing header in a workflow outbound interceptor's
// ExecuteActivity and NewContinueAsNewError, the incoming one in a
// workflow inbound interceptor's ExecuteWorkflow, HandleSignal and
// HandleQuery. It is nil elsewhere, and in a worker with neither
// interceptors nor context propagators.
func WorkflowHeader(ctx Context) map[string]*commonpb.Payload {
	if h := headerOf(ctx); h != nil {
		return h.fields
	}
	return nil
}

// EncodeHeader marks the field key of ctx's outgoing header (a client
// call's or a workflow call's) to be encoded with the client's payload
// codec when the request is sent, as TracerOptions.EncodeHeaders asks for
// the tracing interceptor's field. The mark holds for the payload there
// now: a field replaced afterwards is sent as it is.
func EncodeHeader(ctx headerContext, key string) {
	h := headerOf(ctx)
	if h == nil || h.codec != nil {
		return
	}
	if h.encode == nil {
		h.encode = make(map[string]*commonpb.Payload, 1)
	}
	h.encode[key] = h.fields[key]
}

// DecodedHeader returns the fields of ctx's incoming header decoded with
// the payload codec of the worker's data converter (a copy: the header
// itself is left as it arrived). Without a codec the fields are returned
// as they are.
func DecodedHeader(ctx headerContext) (map[string]*commonpb.Payload, error) {
	h := headerOf(ctx)
	if h == nil {
		return nil, nil
	}
	var codec converter.PayloadCodec
	if h.codec != nil {
		codec = h.codec()
	}
	return codeHeaderFields(h.fields, codec, false)
}

// HeaderCodec is the codec headers are encoded with for dc: its codecs
// (converter.PayloadCodecProvider), or nil. dc is already bound to the
// call's serialization context.
func HeaderCodec(dc converter.DataConverter) converter.PayloadCodec {
	if provider, ok := dc.(converter.PayloadCodecProvider); ok {
		return provider.Codec()
	}
	return nil
}

// codeHeaderFields returns a copy of fields with every value encoded (or
// decoded) by codec, in key order: a codec may count or keep state, and
// replay must call it alike. Without a codec the copy is plain.
func codeHeaderFields(fields map[string]*commonpb.Payload, codec converter.PayloadCodec, encode bool) (map[string]*commonpb.Payload, error) {
	coded := maps.Clone(fields)
	if codec == nil {
		return coded, nil
	}
	for _, key := range slices.Sorted(maps.Keys(coded)) {
		var out []*commonpb.Payload
		var err error
		if encode {
			out, err = codec.Encode([]*commonpb.Payload{coded[key]})
		} else {
			out, err = codec.Decode([]*commonpb.Payload{coded[key]})
		}
		if err != nil {
			return nil, fmt.Errorf("the payload codec failed on header field %q: %w", key, err)
		}
		if len(out) != 1 {
			return nil, fmt.Errorf("the payload codec turned header field %q into %d payloads, want 1", key, len(out))
		}
		coded[key] = out[0]
	}
	return coded, nil
}

// encodesHeaders reports whether p asks for its fields to be encoded with
// the payload codec (CodecContextPropagator).
func encodesHeaders(p any) bool {
	c, ok := p.(interface{ EncodeHeaders() bool })
	return ok && c.EncodeHeaders()
}

// headerFields implements HeaderReader and HeaderWriter over a header's
// fields.
type headerFields map[string]*commonpb.Payload

func (h headerFields) Set(key string, value *commonpb.Payload) { h[key] = value }

func (h headerFields) Get(key string) (*commonpb.Payload, bool) {
	p, ok := h[key]
	return p, ok
}

func (h headerFields) ForEachKey(handler func(string, *commonpb.Payload) error) error {
	for k, v := range h {
		if err := handler(k, v); err != nil {
			return err
		}
	}
	return nil
}

// ContextWithNewHeader starts an empty outgoing header on a client call;
// the client calls it before its interceptor chain, and tests of client
// interceptors outside this package (the tracing interceptor's, in
// package interceptor) do too.
func ContextWithNewHeader(ctx context.Context) context.Context {
	return context.WithValue(ctx, headerKey{}, &callHeader{fields: map[string]*commonpb.Payload{}})
}

// ContextWithHeader puts a copy of the given fields on a client call, as
// the start of its outgoing header; the caller's header is not changed.
func ContextWithHeader(ctx context.Context, given *commonpb.Header) context.Context {
	fields := maps.Clone(given.GetFields())
	if fields == nil {
		fields = map[string]*commonpb.Payload{}
	}
	return context.WithValue(ctx, headerKey{}, &callHeader{fields: fields})
}

// ClientOutgoingHeader is the header a client request carries: the
// fields of ctx's header (what interceptors wrote), and what each
// propagator injects from ctx. The fields EncodeHeader marked, and those
// of propagators that ask for it (CodecContextPropagator), are encoded
// with the codec codecFor returns (called only then). It is nil when
// empty.
func ClientOutgoingHeader[P Propagator](ctx context.Context, propagators []P, codecFor func() converter.PayloadCodec) (*commonpb.Header, error) {
	return outgoingHeader(headerOf(ctx), propagators, codecFor, func(p P, w HeaderWriter) error {
		return p.Inject(ctx, w)
	})
}

// outgoingHeader builds a request's header from the call's header h
// (which may be nil) and the propagators' injections, encoding what is
// to be encoded.
func outgoingHeader[P Propagator](h *callHeader, propagators []P, codecFor func() converter.PayloadCodec, inject func(P, HeaderWriter) error) (*commonpb.Header, error) {
	var given map[string]*commonpb.Payload
	var owned map[string]*commonpb.Payload // fields to encode, with their payload
	if h != nil {
		given = h.fields
		owned = maps.Clone(h.encode)
	}
	if len(given) == 0 && len(propagators) == 0 {
		return nil, nil
	}
	fields := make(headerFields, len(given)+len(propagators))
	maps.Copy(fields, given)
	for _, p := range propagators {
		var w HeaderWriter = fields
		if encodesHeaders(p) {
			if owned == nil {
				owned = map[string]*commonpb.Payload{}
			}
			w = ownedWriter{fields, owned}
		}
		if err := inject(p, w); err != nil {
			return nil, fmt.Errorf("context propagator %T failed to write the header: %w", p, err)
		}
	}
	if len(fields) == 0 {
		return nil, nil
	}
	if len(owned) > 0 {
		selected := make(map[string]*commonpb.Payload, len(owned))
		for key, payload := range owned {
			if fields[key] == payload && payload != nil {
				selected[key] = payload
			}
		}
		encoded, err := codeHeaderFields(selected, codecFor(), true)
		if err != nil {
			return nil, err
		}
		maps.Copy(fields, encoded)
	}
	return &commonpb.Header{Fields: fields}, nil
}

// ownedWriter writes a propagator's fields and notes them for encoding.
type ownedWriter struct {
	fields headerFields
	owned  map[string]*commonpb.Payload
}

func (w ownedWriter) Set(key string, value *commonpb.Payload) {
	w.fields[key] = value
	w.owned[key] = value
}

// incomingHeader is the header a call arrived with, and what each
// propagator extracts from it through extract: a propagator that asks for
// it (CodecContextPropagator) reads the fields decoded with the codec
// codecFor returns.
func incomingHeader[C any, P Propagator](ctx C, header *commonpb.Header, propagators []P, codecFor func() converter.PayloadCodec,
	extract func(C, P, HeaderReader) (C, error)) (C, *callHeader, error) {
	fields := headerFields(maps.Clone(header.GetFields()))
	if fields == nil {
		fields = headerFields{}
	}
	var decoded headerFields
	for _, p := range propagators {
		var r HeaderReader = fields
		if encodesHeaders(p) {
			if decoded == nil {
				d, err := codeHeaderFields(fields, codecFor(), false)
				if err != nil {
					return ctx, nil, fmt.Errorf("context propagator %T cannot read the header: %w", p, err)
				}
				decoded = d
			}
			r = decoded
		}
		var err error
		if ctx, err = extract(ctx, p, r); err != nil {
			return ctx, nil, fmt.Errorf("context propagator %T failed to read the header: %w", p, err)
		}
	}
	return ctx, &callHeader{fields: fields, codec: codecFor}, nil
}

// ContextWithIncomingHeader gives an activity the header it arrived with,
// and the values each propagator extracts from it.
func ContextWithIncomingHeader[P Propagator](ctx context.Context, header *commonpb.Header, propagators []P, codecFor func() converter.PayloadCodec) (context.Context, error) {
	ctx, h, err := incomingHeader(ctx, header, propagators, codecFor, func(ctx context.Context, p P, r HeaderReader) (context.Context, error) {
		return p.Extract(ctx, r)
	})
	if err != nil {
		return nil, err
	}
	return context.WithValue(ctx, headerKey{}, h), nil
}

// ContextWithoutHeader hides the header from the code an inbound
// interceptor calls (the header belongs to the interceptors).
func ContextWithoutHeader(ctx context.Context) context.Context {
	if Header(ctx) == nil {
		return ctx
	}
	return context.WithValue(ctx, headerKey{}, nil)
}

// WorkflowContextWithNewHeader starts an empty outgoing header on a
// workflow call.
func WorkflowContextWithNewHeader(ctx Context) Context {
	return wfsync.WithValue(ctx, headerKey{}, &callHeader{fields: map[string]*commonpb.Payload{}})
}

// WorkflowContextWithIncomingHeader gives a workflow call (the start, a
// signal, a query) the header it arrived with, and the values each
// propagator extracts from it.
func WorkflowContextWithIncomingHeader[P Propagator](ctx Context, header *commonpb.Header, propagators []P, codecFor func() converter.PayloadCodec) (Context, error) {
	ctx, h, err := incomingHeader(ctx, header, propagators, codecFor, func(ctx Context, p P, r HeaderReader) (Context, error) {
		return p.ExtractToWorkflow(ctx, r)
	})
	if err != nil {
		return nil, err
	}
	return wfsync.WithValue(ctx, headerKey{}, h), nil
}

// WorkflowContextWithoutHeader hides the header from workflow code.
func WorkflowContextWithoutHeader(ctx Context) Context {
	if WorkflowHeader(ctx) == nil {
		return ctx
	}
	return wfsync.WithValue(ctx, headerKey{}, nil)
}

// WorkflowOutgoingHeader is the header a workflow sends with a command:
// what interceptors wrote to WorkflowHeader(ctx), and what each propagator
// injects, encoded where asked with the codec codecFor returns (see
// ClientOutgoingHeader). It is nil when empty, as commands without
// interceptors have always been sent.
func WorkflowOutgoingHeader[P Propagator](ctx Context, propagators []P, codecFor func() converter.PayloadCodec) (*commonpb.Header, error) {
	return outgoingHeader(headerOf(ctx), propagators, codecFor, func(p P, w HeaderWriter) error {
		return p.InjectFromWorkflow(ctx, w)
	})
}
