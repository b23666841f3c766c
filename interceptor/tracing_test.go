package interceptor

import (
	"context"
	"errors"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/propagation"
)

// fakeTracer's spans are names; a header holds the span's name.
type fakeTracer struct {
	BaseTracer
	options  TracerOptions
	started  []*TracerStartSpanOptions
	finished []*fakeSpan
}

type fakeSpan struct {
	tracer *fakeTracer
	name   string
	err    error
}

func (s *fakeSpan) Finish(o *TracerFinishSpanOptions) {
	s.err = o.Error
	s.tracer.finished = append(s.tracer.finished, s)
}

type fakeSpanKey struct{}

func (t *fakeTracer) Options() TracerOptions { return t.options }

func (t *fakeTracer) UnmarshalSpan(m map[string]string) (TracerSpanRef, error) {
	if m["span"] == "" {
		return nil, errors.New("no span field")
	}
	return m["span"], nil
}

func (t *fakeTracer) MarshalSpan(s TracerSpan) (map[string]string, error) {
	return map[string]string{"span": s.(*fakeSpan).name}, nil
}

func (t *fakeTracer) SpanFromContext(ctx context.Context) TracerSpan {
	s, _ := ctx.Value(fakeSpanKey{}).(*fakeSpan)
	if s == nil {
		return nil
	}
	return s
}

func (t *fakeTracer) ContextWithSpan(ctx context.Context, s TracerSpan) context.Context {
	return context.WithValue(ctx, fakeSpanKey{}, s)
}

func (t *fakeTracer) StartSpan(o *TracerStartSpanOptions) (TracerSpan, error) {
	t.started = append(t.started, o)
	return &fakeSpan{tracer: t, name: t.SpanName(o)}, nil
}

func newFakeTracer() *fakeTracer {
	return &fakeTracer{options: TracerOptions{SpanContextKey: "span", HeaderKey: "_tracer-data"}}
}

func TestNewTracingInterceptorRequiresKeys(t *testing.T) {
	for _, options := range []TracerOptions{{HeaderKey: "h"}, {SpanContextKey: "k"}} {
		func() {
			defer func() {
				msg, _ := recover().(string)
				if !strings.Contains(msg, "NewTracingInterceptor") || !strings.Contains(msg, "fakeTracer") {
					t.Errorf("options %+v: panic %q, want one naming the function and the tracer", options, msg)
				}
			}()
			NewTracingInterceptor(&fakeTracer{options: options})
		}()
	}
}

// recordingClientRoot ends a client chain, keeping the header it got.
type recordingClientRoot struct {
	clientapi.ClientOutboundInterceptorBase
	header map[string]*commonpb.Payload
	err    error
}

func (r *recordingClientRoot) SignalWorkflow(ctx context.Context, _ *clientapi.ClientSignalWorkflowInput) error {
	r.header = propagation.Header(ctx)
	return r.err
}

// TestClientSpanGoesInTheHeader: a signal's span is a child of the
// caller's span, travels in the header under HeaderKey, and ends with the
// call's error.
func TestClientSpanGoesInTheHeader(t *testing.T) {
	tracer := newFakeTracer()
	root := &recordingClientRoot{err: errors.New("not found")}
	chain := NewTracingInterceptor(tracer).InterceptClient(root)
	caller := &fakeSpan{tracer: tracer, name: "caller"}
	ctx := propagation.ContextWithNewHeader(tracer.ContextWithSpan(context.Background(), caller))
	err := chain.SignalWorkflow(ctx, &clientapi.ClientSignalWorkflowInput{WorkflowID: "wf", SignalName: "go"})
	if err != root.err {
		t.Fatalf("error %v", err)
	}
	if len(tracer.started) != 1 || tracer.started[0].Parent != caller || tracer.started[0].Tags["temporalWorkflowID"] != "wf" {
		t.Fatalf("started %+v", tracer.started)
	}
	var fields map[string]string
	if err := converter.GetDefaultDataConverter().FromPayload(root.header["_tracer-data"], &fields); err != nil || fields["span"] != "SignalWorkflow:go" {
		t.Fatalf("header field: %v, %v", fields, err)
	}
	if len(tracer.finished) != 1 || tracer.finished[0].err != root.err {
		t.Fatalf("finished %+v", tracer.finished)
	}
}

func TestDisabledSignalTracingStartsNoSpan(t *testing.T) {
	tracer := newFakeTracer()
	tracer.options.DisableSignalTracing = true
	root := &recordingClientRoot{}
	chain := NewTracingInterceptor(tracer).InterceptClient(root)
	if err := chain.SignalWorkflow(propagation.ContextWithNewHeader(context.Background()), &clientapi.ClientSignalWorkflowInput{SignalName: "go"}); err != nil {
		t.Fatal(err)
	}
	if len(tracer.started) != 0 || len(root.header) != 0 {
		t.Fatalf("spans %v, header %v", tracer.started, root.header)
	}
}

// TestUnreadableParentSpan: a header whose span the tracer cannot read
// fails the call, unless AllowInvalidParentSpans.
func TestUnreadableParentSpan(t *testing.T) {
	bad, _ := converter.GetDefaultDataConverter().ToPayload(map[string]string{"other": "x"})
	header := map[string]*commonpb.Payload{"_tracer-data": bad}
	for _, allow := range []bool{false, true} {
		tracer := newFakeTracer()
		tracer.options.AllowInvalidParentSpans = allow
		root := NewTracingInterceptor(tracer).(*tracingInterceptor)
		span, err := root.start(spanOp{operation: "RunActivity", name: "A", header: header, fromHeader: true}, nil)
		if allow {
			if err != nil || span == nil || tracer.started[0].Parent != nil {
				t.Errorf("AllowInvalidParentSpans: %v, %v", span, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), "_tracer-data") {
			t.Errorf("an unreadable header span gave %v, want an error naming the field", err)
		}
	}
}
