package opentelemetry_test

import (
	"errors"
	"testing"

	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/durable-go/sdk/contrib/opentelemetry"
	"github.com/durable-go/sdk/interceptor"
	"github.com/durable-go/sdk/temporal"
)

func newTracer(t *testing.T, options opentelemetry.TracerOptions) (interceptor.Tracer, *tracetest.SpanRecorder) {
	t.Helper()
	recorder := tracetest.NewSpanRecorder()
	options.Tracer = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder)).Tracer("test")
	tracer, err := opentelemetry.NewTracer(options)
	if err != nil {
		t.Fatal(err)
	}
	return tracer, recorder
}

func TestTracerDefaults(t *testing.T) {
	tracer, _ := newTracer(t, opentelemetry.TracerOptions{DisableQueryTracing: true})
	options := tracer.Options()
	if options.HeaderKey != "_tracer-data" {
		t.Errorf("header key %q, want the one every SDK uses, _tracer-data", options.HeaderKey)
	}
	if options.SpanContextKey == nil || !options.DisableQueryTracing || options.DisableSignalTracing {
		t.Errorf("options %+v", options)
	}
}

// TestSpansRoundTripThroughHeaders: a span written for a header and read
// back is the parent of the next span, baggage included, in W3C format.
func TestSpansRoundTripThroughHeaders(t *testing.T) {
	tracer, recorder := newTracer(t, opentelemetry.TracerOptions{})
	member, _ := baggage.NewMember("tenant", "acme")
	bag, _ := baggage.New(member)
	parent, err := tracer.StartSpan(&interceptor.TracerStartSpanOptions{Operation: "StartWorkflow", Name: "W", ToHeader: true})
	if err != nil {
		t.Fatal(err)
	}
	// Baggage comes from the caller's context.
	ctx := tracer.ContextWithSpan(t.Context(), parent)
	withBaggage := tracer.SpanFromContext(baggage.ContextWithBaggage(ctx, bag))
	fields, err := tracer.MarshalSpan(withBaggage)
	if err != nil {
		t.Fatal(err)
	}
	if fields["traceparent"] == "" || fields["baggage"] != "tenant=acme" {
		t.Fatalf("header fields %v, want W3C traceparent and baggage", fields)
	}
	ref, err := tracer.UnmarshalSpan(fields)
	if err != nil {
		t.Fatal(err)
	}
	child, err := tracer.StartSpan(&interceptor.TracerStartSpanOptions{Parent: ref, Operation: "RunWorkflow", Name: "W", FromHeader: true, Tags: map[string]string{"temporalWorkflowID": "id"}})
	if err != nil {
		t.Fatal(err)
	}
	child.Finish(&interceptor.TracerFinishSpanOptions{})
	parent.Finish(&interceptor.TracerFinishSpanOptions{})
	ended := recorder.Ended()
	if len(ended) != 2 {
		t.Fatalf("%d spans ended", len(ended))
	}
	run, start := ended[0], ended[1]
	if run.Name() != "RunWorkflow:W" || run.Parent().SpanID() != start.SpanContext().SpanID() || !run.Parent().IsRemote() {
		t.Errorf("span %s, parent %v; want RunWorkflow:W under the remote %v", run.Name(), run.Parent(), start.SpanContext())
	}
	if run.SpanKind() != trace.SpanKindServer || start.SpanKind() != trace.SpanKindClient {
		t.Errorf("kinds %v %v", run.SpanKind(), start.SpanKind())
	}
	if len(run.Attributes()) != 1 || run.Attributes()[0].Value.AsString() != "id" {
		t.Errorf("attributes %v", run.Attributes())
	}
}

func TestUnmarshalSpan(t *testing.T) {
	tracer, _ := newTracer(t, opentelemetry.TracerOptions{})
	if ref, err := tracer.UnmarshalSpan(map[string]string{"other": "x"}); ref != nil || err != nil {
		t.Errorf("a header without a span gave %v, %v; want nothing", ref, err)
	}
	if _, err := tracer.UnmarshalSpan(map[string]string{"traceparent": "garbage"}); err == nil {
		t.Error("an invalid traceparent must be an error")
	}
}

func TestStartSpanRejectsBadOptions(t *testing.T) {
	tracer, _ := newTracer(t, opentelemetry.TracerOptions{})
	if _, err := tracer.StartSpan(&interceptor.TracerStartSpanOptions{ToHeader: true, FromHeader: true}); err == nil {
		t.Error("ToHeader and FromHeader together must be an error")
	}
	if _, err := tracer.StartSpan(&interceptor.TracerStartSpanOptions{Parent: "not a span"}); err == nil {
		t.Error("a parent of a foreign type must be an error")
	}
}

func TestFinishMarksErrorsButNotBenignOnes(t *testing.T) {
	tracer, recorder := newTracer(t, opentelemetry.TracerOptions{})
	for _, err := range []error{
		nil,
		errors.New("boom"),
		temporal.NewApplicationErrorWithOptions("expected", "Benign", temporal.ApplicationErrorOptions{Category: temporal.ApplicationErrorCategoryBenign}),
	} {
		span, _ := tracer.StartSpan(&interceptor.TracerStartSpanOptions{Operation: "RunActivity", Name: "A"})
		span.Finish(&interceptor.TracerFinishSpanOptions{Error: err})
	}
	ended := recorder.Ended()
	want := []codes.Code{codes.Unset, codes.Error, codes.Unset}
	for i, span := range ended {
		if span.Status().Code != want[i] {
			t.Errorf("span %d: status %v, want %v", i, span.Status().Code, want[i])
		}
	}
	if len(ended[2].Events()) != 1 {
		t.Errorf("a benign error is still recorded on its span, as an event")
	}
}
