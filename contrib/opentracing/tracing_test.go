package opentracing_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	ot "github.com/opentracing/opentracing-go"
	"github.com/opentracing/opentracing-go/mocktracer"

	"github.com/durable-go/sdk/contrib/opentracing"
	"github.com/durable-go/sdk/interceptor"
)

func newTracer(t *testing.T, options opentracing.TracerOptions) interceptor.Tracer {
	t.Helper()
	tracer, err := opentracing.NewTracer(options)
	if err != nil {
		t.Fatal(err)
	}
	return tracer
}

func TestOptionsDefaultToTheSharedHeaderKey(t *testing.T) {
	options := newTracer(t, opentracing.TracerOptions{Tracer: mocktracer.New(), DisableSignalTracing: true}).Options()
	if options.HeaderKey != "_tracer-data" {
		t.Errorf("header key %q, want _tracer-data, the one every Temporal SDK uses", options.HeaderKey)
	}
	if options.SpanContextKey == nil {
		t.Error("no default SpanContextKey")
	}
	if !options.DisableSignalTracing || options.DisableQueryTracing {
		t.Errorf("signal and query switches %v, %v; want true, false as given", options.DisableSignalTracing, options.DisableQueryTracing)
	}
	custom := newTracer(t, opentracing.TracerOptions{Tracer: mocktracer.New(), HeaderKey: "custom", SpanContextKey: "key"}).Options()
	if custom.HeaderKey != "custom" || custom.SpanContextKey != "key" {
		t.Errorf("options %+v, want the given header key and span context key", custom)
	}
}

// TestDefaultTracerIsTheGlobalOneAtCreation: zero options use the tracer
// that was global when the tracer was made, as the official module does.
func TestDefaultTracerIsTheGlobalOneAtCreation(t *testing.T) {
	mock := mocktracer.New()
	previous := ot.GlobalTracer()
	ot.SetGlobalTracer(mock)
	defer ot.SetGlobalTracer(previous)
	tracer := newTracer(t, opentracing.TracerOptions{})
	ot.SetGlobalTracer(mocktracer.New())
	span, err := tracer.StartSpan(&interceptor.TracerStartSpanOptions{Operation: "StartWorkflow", Name: "Order"})
	if err != nil {
		t.Fatal(err)
	}
	span.Finish(&interceptor.TracerFinishSpanOptions{})
	if finished := mock.FinishedSpans(); len(finished) != 1 || finished[0].OperationName != "StartWorkflow:Order" {
		t.Fatalf("the global tracer at creation finished %v, want one StartWorkflow:Order span", finished)
	}
}

// TestSpanContextRoundTripsThroughHeaderFields: a span written for a
// header and read back parents the next span, with its baggage.
func TestSpanContextRoundTripsThroughHeaderFields(t *testing.T) {
	mock := mocktracer.New()
	tracer := newTracer(t, opentracing.TracerOptions{Tracer: mock})
	// Baggage set by the caller on its span travels with the children.
	caller := mock.StartSpan("caller").SetBaggageItem("tenant", "acme")
	withBaggage := tracer.SpanFromContext(ot.ContextWithSpan(t.Context(), caller))
	fields, err := tracer.MarshalSpan(withBaggage)
	if err != nil {
		t.Fatal(err)
	}
	if fields["mockpfx-baggage-tenant"] != "acme" || fields["mockpfx-ids-traceid"] == "" {
		t.Fatalf("header fields %v, want the mock tracer's text map with the baggage", fields)
	}
	ref, err := tracer.UnmarshalSpan(fields)
	if err != nil || ref == nil {
		t.Fatalf("reading the fields back: %v, %v", ref, err)
	}
	run, err := tracer.StartSpan(&interceptor.TracerStartSpanOptions{Parent: ref, Operation: "RunWorkflow", Name: "Order", FromHeader: true})
	if err != nil {
		t.Fatal(err)
	}
	run.Finish(&interceptor.TracerFinishSpanOptions{})
	runSpan := finishedNamed(t, mock, "RunWorkflow:Order")
	callerContext := caller.Context().(mocktracer.MockSpanContext)
	if runSpan.ParentID != callerContext.SpanID || runSpan.SpanContext.TraceID != callerContext.TraceID {
		t.Errorf("RunWorkflow's parent is %d in trace %d, want the caller's span %d in trace %d", runSpan.ParentID, runSpan.SpanContext.TraceID, callerContext.SpanID, callerContext.TraceID)
	}
	if got := runSpan.BaggageItem("tenant"); got != "acme" {
		t.Errorf("baggage tenant=%q after the header, want acme", got)
	}
}

func TestHeaderFieldsWithoutASpanGiveNoParent(t *testing.T) {
	tracer := newTracer(t, opentracing.TracerOptions{Tracer: mocktracer.New()})
	ref, err := tracer.UnmarshalSpan(map[string]string{"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"})
	if err != nil || ref != nil {
		t.Fatalf("fields of another tracer: %v, %v; want no parent and no error", ref, err)
	}
}

// corruptingTracer finds every span context it reads corrupt.
type corruptingTracer struct{ ot.NoopTracer }

func (corruptingTracer) Extract(any, any) (ot.SpanContext, error) {
	return nil, ot.ErrSpanContextCorrupted
}

func TestCorruptHeaderFieldsAreAnError(t *testing.T) {
	tracer := newTracer(t, opentracing.TracerOptions{Tracer: corruptingTracer{}})
	_, err := tracer.UnmarshalSpan(map[string]string{"uber-trace-id": "garbled", "uberctx-tenant": "acme"})
	if !errors.Is(err, ot.ErrSpanContextCorrupted) {
		t.Fatalf("error %v, want the tracer's ErrSpanContextCorrupted", err)
	}
	if !strings.Contains(err.Error(), "[uber-trace-id uberctx-tenant]") {
		t.Errorf("error %q should name the header's fields", err)
	}
}

// TestReferencesFollowWhetherTheParentWaits: spans the parent waits on are
// its children; the others follow from it.
func TestReferencesFollowWhetherTheParentWaits(t *testing.T) {
	mock := mocktracer.New()
	var references []ot.SpanReferenceType
	tracer := newTracer(t, opentracing.TracerOptions{Tracer: mock, SpanStarter: func(tr ot.Tracer, name string, opts ...ot.StartSpanOption) ot.Span {
		var applied ot.StartSpanOptions
		for _, opt := range opts {
			opt.Apply(&applied)
		}
		for _, ref := range applied.References {
			references = append(references, ref.Type)
		}
		return tr.StartSpan(name, opts...)
	}})
	parent, err := tracer.StartSpan(&interceptor.TracerStartSpanOptions{Operation: "RunWorkflow", Name: "W"})
	if err != nil {
		t.Fatal(err)
	}
	for _, dependedOn := range []bool{true, false} {
		child, err := tracer.StartSpan(&interceptor.TracerStartSpanOptions{Parent: parent, Operation: "X", Name: "Y", DependedOn: dependedOn})
		if err != nil {
			t.Fatal(err)
		}
		child.Finish(&interceptor.TracerFinishSpanOptions{})
	}
	want := []ot.SpanReferenceType{ot.ChildOfRef, ot.FollowsFromRef}
	if len(references) != 2 || references[0] != want[0] || references[1] != want[1] {
		t.Errorf("references %v, want %v", references, want)
	}
}

func TestSpansCarryTheirTagsAndStartTime(t *testing.T) {
	mock := mocktracer.New()
	tracer := newTracer(t, opentracing.TracerOptions{Tracer: mock})
	started := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	span, err := tracer.StartSpan(&interceptor.TracerStartSpanOptions{
		Operation: "RunActivity", Name: "Charge", Time: started,
		Tags: map[string]string{"temporalWorkflowID": "order-1", "temporalActivityID": "5"},
	})
	if err != nil {
		t.Fatal(err)
	}
	span.Finish(&interceptor.TracerFinishSpanOptions{})
	got := finishedNamed(t, mock, "RunActivity:Charge")
	if !got.StartTime.Equal(started) {
		t.Errorf("start time %v, want %v", got.StartTime, started)
	}
	if got.Tag("temporalWorkflowID") != "order-1" || got.Tag("temporalActivityID") != "5" {
		t.Errorf("tags %v", got.Tags())
	}
	if _, tagged := got.Tags()["error"]; tagged {
		t.Error("a span that did not fail has an error tag")
	}
}

func TestFailedSpansAreTaggedAndLogTheError(t *testing.T) {
	mock := mocktracer.New()
	tracer := newTracer(t, opentracing.TracerOptions{Tracer: mock})
	span, err := tracer.StartSpan(&interceptor.TracerStartSpanOptions{Operation: "RunActivity", Name: "Charge"})
	if err != nil {
		t.Fatal(err)
	}
	span.Finish(&interceptor.TracerFinishSpanOptions{Error: errors.New("card declined")})
	got := finishedNamed(t, mock, "RunActivity:Charge")
	if got.Tag("error") != "true" {
		t.Errorf("error tag %#v, want the string \"true\" as the official module writes", got.Tag("error"))
	}
	logged := false
	for _, record := range got.Logs() {
		for _, field := range record.Fields {
			logged = logged || field.ValueString == "card declined"
		}
	}
	if !logged {
		t.Errorf("the error is not in the span's logs %v", got.Logs())
	}
}

func TestParentsOfAnotherTracerAreRefused(t *testing.T) {
	tracer := newTracer(t, opentracing.TracerOptions{Tracer: mocktracer.New()})
	_, err := tracer.StartSpan(&interceptor.TracerStartSpanOptions{Parent: "not a span", Operation: "RunWorkflow", Name: "W"})
	if err == nil || !strings.Contains(err.Error(), "string") {
		t.Fatalf("error %v, want one naming the parent's type", err)
	}
}

// finishedNamed returns the only finished span of that name.
func finishedNamed(t *testing.T, mock *mocktracer.MockTracer, name string) *mocktracer.MockSpan {
	t.Helper()
	var found []*mocktracer.MockSpan
	for _, span := range mock.FinishedSpans() {
		if span.OperationName == name {
			found = append(found, span)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d finished spans named %s, want 1; finished: %v", len(found), name, spanNames(mock.FinishedSpans()))
	}
	return found[0]
}

func spanNames(spans []*mocktracer.MockSpan) []string {
	names := make([]string, 0, len(spans))
	for _, span := range spans {
		names = append(names, span.OperationName)
	}
	return names
}
