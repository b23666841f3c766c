package internal

import (
	"context"
	"fmt"
	"maps"

	commonpb "go.temporal.io/api/common/v1"
)

// headerKey is the context key of the header fields of the call being
// intercepted.
type headerKey struct{}

// Header returns the header fields of the call that ctx belongs to, for an
// interceptor to read or write: the outgoing header in a client
// interceptor's ExecuteWorkflow, SignalWorkflow, SignalWithStartWorkflow,
// QueryWorkflow, UpdateWorkflow and UpdateWithStartWorkflow, the incoming one in an activity inbound interceptor's
// ExecuteActivity. It is nil elsewhere.
func Header(ctx context.Context) map[string]*commonpb.Payload {
	m, _ := ctx.Value(headerKey{}).(map[string]*commonpb.Payload)
	return m
}

// WorkflowHeader returns the header fields of the workflow call that ctx
// belongs to: the outgoing header in a workflow outbound interceptor's
// ExecuteActivity and NewContinueAsNewError, the incoming one in a
// workflow inbound interceptor's ExecuteWorkflow, HandleSignal and
// HandleQuery. It is nil elsewhere, and in a worker with neither
// interceptors nor context propagators.
func WorkflowHeader(ctx Context) map[string]*commonpb.Payload {
	m, _ := ctx.Value(headerKey{}).(map[string]*commonpb.Payload)
	return m
}

// headerFields implements HeaderReader and HeaderWriter over a header's
// fields.
type headerFields map[string]*commonpb.Payload

func (h headerFields) Set(key string, value *commonpb.Payload) { h[key] = value }

func (h headerFields) Get(key string) (*commonpb.Payload, bool) {
	p, ok := h[key]
	return p, ok
}

func (h headerFields) ForEachKey(handler func(key string, value *commonpb.Payload) error) error {
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
	return context.WithValue(ctx, headerKey{}, map[string]*commonpb.Payload{})
}

// ContextWithHeader puts a copy of the given fields on a client call, as
// the start of its outgoing header; the caller's header is not changed.
func ContextWithHeader(ctx context.Context, given *commonpb.Header) context.Context {
	fields := maps.Clone(given.GetFields())
	if fields == nil {
		fields = map[string]*commonpb.Payload{}
	}
	return context.WithValue(ctx, headerKey{}, fields)
}

// contextWithIncomingHeader gives an activity the header it arrived with,
// and the values each propagator extracts from it.
func contextWithIncomingHeader(ctx context.Context, header *commonpb.Header, propagators []ContextPropagator) (context.Context, error) {
	fields := headerFields(maps.Clone(header.GetFields()))
	if fields == nil {
		fields = headerFields{}
	}
	for _, p := range propagators {
		var err error
		if ctx, err = p.Extract(ctx, fields); err != nil {
			return nil, fmt.Errorf("context propagator %T failed to read the header: %w", p, err)
		}
	}
	return context.WithValue(ctx, headerKey{}, map[string]*commonpb.Payload(fields)), nil
}

// contextWithoutHeader hides the header from the code an inbound
// interceptor calls (the header belongs to the interceptors).
func contextWithoutHeader(ctx context.Context) context.Context {
	if Header(ctx) == nil {
		return ctx
	}
	return context.WithValue(ctx, headerKey{}, nil)
}

// workflowContextWithNewHeader starts an empty outgoing header on a
// workflow call.
func workflowContextWithNewHeader(ctx Context) Context {
	return WithValue(ctx, headerKey{}, map[string]*commonpb.Payload{})
}

// workflowContextWithIncomingHeader gives a workflow call (the start, a
// signal, a query) the header it arrived with, and the values each
// propagator extracts from it.
func workflowContextWithIncomingHeader(ctx Context, header *commonpb.Header, propagators []ContextPropagator) (Context, error) {
	fields := headerFields(maps.Clone(header.GetFields()))
	if fields == nil {
		fields = headerFields{}
	}
	for _, p := range propagators {
		var err error
		if ctx, err = p.ExtractToWorkflow(ctx, fields); err != nil {
			return nil, fmt.Errorf("context propagator %T failed to read the header: %w", p, err)
		}
	}
	return WithValue(ctx, headerKey{}, map[string]*commonpb.Payload(fields)), nil
}

// workflowContextWithoutHeader hides the header from workflow code.
func workflowContextWithoutHeader(ctx Context) Context {
	if WorkflowHeader(ctx) == nil {
		return ctx
	}
	return WithValue(ctx, headerKey{}, nil)
}

// workflowOutgoingHeader is the header a workflow sends with a command:
// what interceptors wrote to WorkflowHeader(ctx), and what each propagator
// injects. It is nil when empty, as commands without interceptors have
// always been sent.
func workflowOutgoingHeader(ctx Context, propagators []ContextPropagator) (*commonpb.Header, error) {
	fields := headerFields(WorkflowHeader(ctx))
	if fields == nil && len(propagators) > 0 {
		fields = headerFields{}
	}
	for _, p := range propagators {
		if err := p.InjectFromWorkflow(ctx, fields); err != nil {
			return nil, fmt.Errorf("context propagator %T failed to write the header: %w", p, err)
		}
	}
	if len(fields) == 0 {
		return nil, nil
	}
	return &commonpb.Header{Fields: fields}, nil
}
