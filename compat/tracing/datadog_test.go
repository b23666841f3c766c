package tracingcompat

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	officialtracing "go.temporal.io/sdk/contrib/datadog/tracing"
	"gopkg.in/DataDog/dd-trace-go.v1/ddtrace/ext"
	"gopkg.in/DataDog/dd-trace-go.v1/ddtrace/mocktracer"
	"gopkg.in/DataDog/dd-trace-go.v1/ddtrace/tracer"

	"github.com/durable-go/sdk/contrib/datadog/tracing"
)

// greetWithDatadog greets with the tenant in its span's baggage.
func greetWithDatadog(ctx context.Context, name string) (string, error) {
	tenant := ""
	if span, ok := tracer.SpanFromContext(ctx); ok {
		tenant = span.BaggageItem("tenant")
	}
	return fmt.Sprintf("hello %s from %s", name, tenant), nil
}

// TestDatadogTraceCrossesSDKs: a span context one SDK's Datadog module
// writes to the start header is read by the other's, in both directions,
// so the client's start, the workflow's run, the activity it schedules and
// the activity's attempt are one trace, each span the parent of the next,
// named and tagged alike, and the caller's baggage reaches the activity.
func TestDatadogTraceCrossesSDKs(t *testing.T) {
	for _, direction := range directions {
		t.Run(fmt.Sprintf("client=%s,worker=%s", direction.client, direction.worker), func(t *testing.T) {
			mock := mocktracer.Start()
			defer mock.Stop()
			sides := map[string]sdkSide{
				"ours":     ourSide(tracing.NewTracingInterceptor(tracing.TracerOptions{})),
				"official": officialSide(officialtracing.NewTracingInterceptor(officialtracing.TracerOptions{})),
			}
			taskQueue := unique(t, "tq")
			sides[direction.worker].serve(t, taskQueue, greetWithDatadog)

			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			caller, ctx := tracer.StartSpanFromContext(ctx, "caller")
			caller.SetBaggageItem("tenant", "acme")
			greeting := sides[direction.client].start(t, ctx, taskQueue)
			caller.Finish()
			if greeting != "hello ann from acme" {
				t.Errorf("the activity answered %q: the caller's baggage did not reach it", greeting)
			}

			finished := mock.FinishedSpans()
			names := make([]string, 0, len(finished))
			for _, span := range finished {
				names = append(names, fmt.Sprintf("%s:%v", span.OperationName(), span.Tag(ext.ResourceName)))
			}
			slices.Sort(names)
			want := []string{"caller:caller", "temporal.RunActivity:Greet", "temporal.RunWorkflow:GreetWorkflow", "temporal.StartActivity:Greet", "temporal.StartWorkflow:GreetWorkflow"}
			if !slices.Equal(names, want) {
				t.Fatalf("finished spans %v, want each once: %v", names, want)
			}
			// Each span's parent is the one before it.
			chain := []string{"caller", "temporal.StartWorkflow", "temporal.RunWorkflow", "temporal.StartActivity", "temporal.RunActivity"}
			for i := 1; i < len(chain); i++ {
				child, parent := datadogSpan(t, finished, chain[i]), datadogSpan(t, finished, chain[i-1])
				if child.ParentID() != parent.SpanID() {
					t.Errorf("the parent of %s is span %d, want %s (%d)", chain[i], child.ParentID(), chain[i-1], parent.SpanID())
				}
				if child.TraceID() != caller.Context().TraceID() {
					t.Errorf("%s is in trace %d, not the caller's %d", chain[i], child.TraceID(), caller.Context().TraceID())
				}
				if child.Tag("temporal.WorkflowID") == nil {
					t.Errorf("%s has no temporal.WorkflowID tag: %v", chain[i], child.Tags())
				}
			}
		})
	}
}

func datadogSpan(t *testing.T, spans []mocktracer.Span, name string) mocktracer.Span {
	t.Helper()
	for _, span := range spans {
		if span.OperationName() == name {
			return span
		}
	}
	t.Fatalf("no span %s", name)
	return nil
}
