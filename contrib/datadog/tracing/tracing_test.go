package tracing_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"gopkg.in/DataDog/dd-trace-go.v1/ddtrace/ext"
	"gopkg.in/DataDog/dd-trace-go.v1/ddtrace/mocktracer"
	"gopkg.in/DataDog/dd-trace-go.v1/ddtrace/tracer"

	"github.com/durable-go/sdk/contrib/datadog/tracing"
	"github.com/durable-go/sdk/interceptor"
	"github.com/durable-go/sdk/log"
	"github.com/durable-go/sdk/workflow"
)

// startMock makes dd-trace-go's mock tracer the global one for the test.
func startMock(t *testing.T) mocktracer.Tracer {
	t.Helper()
	mock := mocktracer.Start()
	t.Cleanup(mock.Stop)
	return mock
}

func TestOptionsUseTheOfficialHeaderKey(t *testing.T) {
	options := tracing.NewTracer(tracing.TracerOptions{DisableQueryTracing: true, DisableUpdateTracing: true}).Options()
	if options.HeaderKey != "dd_trace_span" {
		t.Errorf("header key %q, want dd_trace_span, the official module's", options.HeaderKey)
	}
	if options.SpanContextKey == nil {
		t.Error("no SpanContextKey")
	}
	if options.DisableSignalTracing || !options.DisableQueryTracing || !options.DisableUpdateTracing {
		t.Errorf("switches signal %v, query %v, update %v; want false, true, true as given",
			options.DisableSignalTracing, options.DisableQueryTracing, options.DisableUpdateTracing)
	}
}

// TestSpansAreNamedForTheOperationWithTheNameAsResource: Datadog groups
// spans by operation and resource.
func TestSpansAreNamedForTheOperationWithTheNameAsResource(t *testing.T) {
	mock := startMock(t)
	tr := tracing.NewTracer(tracing.TracerOptions{})
	started := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	span, err := tr.StartSpan(&interceptor.TracerStartSpanOptions{
		Operation: "RunActivity", Name: "Charge", Time: started,
		Tags: map[string]string{"temporalWorkflowID": "order-1", "temporalActivityID": "5"},
	})
	if err != nil {
		t.Fatal(err)
	}
	span.Finish(&interceptor.TracerFinishSpanOptions{})
	got := onlyFinished(t, mock, "temporal.RunActivity")
	if got.Tag(ext.ResourceName) != "Charge" {
		t.Errorf("resource %v, want Charge", got.Tag(ext.ResourceName))
	}
	if got.Tag("temporal.WorkflowID") != "order-1" || got.Tag("temporal.ActivityID") != "5" {
		t.Errorf("tags %v, want temporal.WorkflowID and temporal.ActivityID", got.Tags())
	}
	if !got.StartTime().Equal(started) {
		t.Errorf("start %v, want %v", got.StartTime(), started)
	}
	if got.Tag(ext.Error) != nil {
		t.Errorf("a span that did not fail has error %v", got.Tag(ext.Error))
	}
}

// TestIdempotencyKeysGiveStableSpanIDs: workflow code's spans get the same
// ID every time the code starts them.
func TestIdempotencyKeysGiveStableSpanIDs(t *testing.T) {
	mock := startMock(t)
	tr := tracing.NewTracer(tracing.TracerOptions{})
	for _, key := range []string{"default/order-1/run-1/1", "default/order-1/run-1/1", "default/order-1/run-1/2", "", ""} {
		span, err := tr.StartSpan(&interceptor.TracerStartSpanOptions{Operation: "HandleSignal", Name: key, IdempotencyKey: key})
		if err != nil {
			t.Fatal(err)
		}
		span.Finish(&interceptor.TracerFinishSpanOptions{})
	}
	ids := map[string][]uint64{}
	for _, span := range mock.FinishedSpans() {
		key := span.Tag(ext.ResourceName).(string)
		ids[key] = append(ids[key], span.SpanID())
	}
	first, second := ids["default/order-1/run-1/1"], ids["default/order-1/run-1/2"]
	if len(first) != 2 || first[0] != first[1] {
		t.Errorf("spans of one key have IDs %v, want one ID", first)
	}
	if len(second) != 1 || second[0] == first[0] {
		t.Errorf("spans of different keys have IDs %v and %v, want different IDs", first, second)
	}
	if none := ids[""]; len(none) != 2 || none[0] == none[1] {
		t.Errorf("spans without a key have IDs %v, want two random IDs", none)
	}
}

// TestSpanContextRoundTripsThroughHeaderFields: a span written for a
// header and read back parents the next span, in the same trace, with its
// baggage.
func TestSpanContextRoundTripsThroughHeaderFields(t *testing.T) {
	mock := startMock(t)
	tr := tracing.NewTracer(tracing.TracerOptions{})
	caller := tracer.StartSpan("caller")
	caller.SetBaggageItem("tenant", "acme")
	fields, err := tr.MarshalSpan(tr.SpanFromContext(tracer.ContextWithSpan(t.Context(), caller)))
	if err != nil {
		t.Fatal(err)
	}
	if fields["x-datadog-trace-id"] == "" || fields["x-datadog-parent-id"] == "" {
		t.Fatalf("header fields %v, want Datadog's trace and parent IDs", fields)
	}
	ref, err := tr.UnmarshalSpan(fields)
	if err != nil || ref == nil {
		t.Fatalf("reading the fields back: %v, %v", ref, err)
	}
	run, err := tr.StartSpan(&interceptor.TracerStartSpanOptions{Parent: ref, Operation: "RunWorkflow", Name: "Order", FromHeader: true})
	if err != nil {
		t.Fatal(err)
	}
	run.Finish(&interceptor.TracerFinishSpanOptions{})
	got := onlyFinished(t, mock, "temporal.RunWorkflow")
	if got.ParentID() != caller.Context().SpanID() || got.TraceID() != caller.Context().TraceID() {
		t.Errorf("RunWorkflow has parent %d in trace %d, want the caller's span %d in trace %d",
			got.ParentID(), got.TraceID(), caller.Context().SpanID(), caller.Context().TraceID())
	}
	baggage := ""
	got.Context().ForeachBaggageItem(func(k, v string) bool {
		if k == "tenant" {
			baggage = v
		}
		return true
	})
	if baggage != "acme" {
		t.Errorf("baggage tenant=%q after the header, want acme", baggage)
	}
}

func TestHeaderFieldsWithoutASpanGiveNoParent(t *testing.T) {
	startMock(t)
	ref, err := tracing.NewTracer(tracing.TracerOptions{}).UnmarshalSpan(map[string]string{"uber-trace-id": "1:2:0:1"})
	if err != nil || ref != nil {
		t.Fatalf("fields of another tracer: %v, %v; want no parent and no error", ref, err)
	}
}

func TestFailuresAreErrorsExceptContinuingAsNew(t *testing.T) {
	mock := startMock(t)
	tr := tracing.NewTracer(tracing.TracerOptions{})
	outcomes := map[string]error{
		"failed":    errors.New("card declined"),
		"continued": &workflow.ContinueAsNewError{WorkflowType: &workflow.Type{Name: "W"}},
		"succeeded": nil,
	}
	for name, err := range outcomes {
		span, startErr := tr.StartSpan(&interceptor.TracerStartSpanOptions{Operation: "RunWorkflow", Name: name})
		if startErr != nil {
			t.Fatal(startErr)
		}
		span.Finish(&interceptor.TracerFinishSpanOptions{Error: err})
	}
	for _, span := range mock.FinishedSpans() {
		name := span.Tag(ext.ResourceName).(string)
		errorTag, _ := span.Tag(ext.Error).(error)
		if failed := errorTag != nil; failed != (name == "failed") {
			t.Errorf("the %s span has error %v", name, span.Tag(ext.Error))
		}
		if name == "failed" && !strings.Contains(fmt.Sprint(errorTag), "card declined") {
			t.Errorf("the failed span's error is %v, want the call's", errorTag)
		}
	}
}

func TestOnFinishDecidesHowSpansFinish(t *testing.T) {
	mock := startMock(t)
	var seen []error
	tr := tracing.NewTracer(tracing.TracerOptions{OnFinish: func(options *interceptor.TracerFinishSpanOptions) []tracer.FinishOption {
		seen = append(seen, options.Error)
		return nil // failures are not errors here
	}})
	span, err := tr.StartSpan(&interceptor.TracerStartSpanOptions{Operation: "RunActivity", Name: "Charge"})
	if err != nil {
		t.Fatal(err)
	}
	failure := errors.New("card declined")
	span.Finish(&interceptor.TracerFinishSpanOptions{Error: failure})
	if len(seen) != 1 || seen[0] != failure {
		t.Errorf("OnFinish saw %v, want the call's error once", seen)
	}
	if got := onlyFinished(t, mock, "temporal.RunActivity"); got.Tag(ext.Error) != nil {
		t.Errorf("error %v, although OnFinish set none", got.Tag(ext.Error))
	}
}

func TestParentsOfAnotherTracerAreRefused(t *testing.T) {
	startMock(t)
	_, err := tracing.NewTracer(tracing.TracerOptions{}).StartSpan(&interceptor.TracerStartSpanOptions{Parent: "not a span", Operation: "RunWorkflow", Name: "W"})
	if err == nil || !strings.Contains(err.Error(), "string") {
		t.Fatalf("error %v, want one naming the parent's type", err)
	}
}

// recordingLogger keeps the key-value pairs loggers made With it carry.
type recordingLogger struct{ keyvals []any }

func (l *recordingLogger) Debug(string, ...any) {}
func (l *recordingLogger) Info(string, ...any)  {}
func (l *recordingLogger) Warn(string, ...any)  {}
func (l *recordingLogger) Error(string, ...any) {}
func (l *recordingLogger) With(keyvals ...any) log.Logger {
	return &recordingLogger{keyvals: append(slices.Clone(l.keyvals), keyvals...)}
}

func TestLoggersNameTheTraceAndSpan(t *testing.T) {
	startMock(t)
	tr := tracing.NewTracer(tracing.TracerOptions{})
	span, err := tr.StartSpan(&interceptor.TracerStartSpanOptions{Operation: "RunWorkflow", Name: "W"})
	if err != nil {
		t.Fatal(err)
	}
	defer span.Finish(&interceptor.TracerFinishSpanOptions{})
	fields, err := tr.MarshalSpan(span)
	if err != nil {
		t.Fatal(err)
	}
	fromHeader, err := tr.UnmarshalSpan(fields)
	if err != nil {
		t.Fatal(err)
	}
	for name, ref := range map[string]interceptor.TracerSpanRef{"started span": span, "span from a header": fromHeader} {
		logger, ok := tr.GetLogger(&recordingLogger{}, ref).(*recordingLogger)
		if !ok {
			t.Fatalf("%s: the logger was not extended With the span", name)
		}
		keyvals := fmt.Sprint(logger.keyvals)
		if !strings.Contains(keyvals, "dd.trace_id") || !strings.Contains(keyvals, "dd.span_id") {
			t.Errorf("%s: logger carries %v, want dd.trace_id and dd.span_id", name, logger.keyvals)
		}
	}
}

// onlyFinished returns the only finished span of that operation name.
func onlyFinished(t *testing.T, mock mocktracer.Tracer, name string) mocktracer.Span {
	t.Helper()
	var found []mocktracer.Span
	for _, span := range mock.FinishedSpans() {
		if span.OperationName() == name {
			found = append(found, span)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d finished spans named %s, want 1; finished: %v", len(found), name, operationNames(mock.FinishedSpans()))
	}
	return found[0]
}

// operationNames lists spans as operation:resource, sorted.
func operationNames(spans []mocktracer.Span) []string {
	names := make([]string, 0, len(spans))
	for _, span := range spans {
		names = append(names, fmt.Sprintf("%s:%v", span.OperationName(), span.Tag(ext.ResourceName)))
	}
	slices.Sort(names)
	return names
}
