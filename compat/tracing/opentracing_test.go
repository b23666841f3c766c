package tracingcompat

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	ot "github.com/opentracing/opentracing-go"
	"github.com/opentracing/opentracing-go/mocktracer"
	officialopentracing "go.temporal.io/sdk/contrib/opentracing"

	"github.com/durable-go/sdk/contrib/opentracing"
)

// greetWithOpenTracing greets with the tenant in its span's baggage.
func greetWithOpenTracing(ctx context.Context, name string) (string, error) {
	tenant := ""
	if span := ot.SpanFromContext(ctx); span != nil {
		tenant = span.BaggageItem("tenant")
	}
	return fmt.Sprintf("hello %s from %s", name, tenant), nil
}

// TestOpenTracingTraceCrossesSDKs: a span context one SDK's OpenTracing
// module writes to the start header is read by the other's, in both
// directions, so the client's start, the workflow's run, the activity it
// schedules and the activity's attempt are one trace, each span the parent
// of the next, and the caller's baggage reaches the activity.
func TestOpenTracingTraceCrossesSDKs(t *testing.T) {
	for _, direction := range directions {
		t.Run(fmt.Sprintf("client=%s,worker=%s", direction.client, direction.worker), func(t *testing.T) {
			mock := mocktracer.New()
			ours, err := opentracing.NewInterceptor(opentracing.TracerOptions{Tracer: mock})
			if err != nil {
				t.Fatal(err)
			}
			official, err := officialopentracing.NewInterceptor(officialopentracing.TracerOptions{Tracer: mock})
			if err != nil {
				t.Fatal(err)
			}
			sides := map[string]sdkSide{"ours": ourSide(ours), "official": officialSide(official)}
			taskQueue := unique(t, "tq")
			sides[direction.worker].serve(t, taskQueue, greetWithOpenTracing)

			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			caller := mock.StartSpan("caller")
			caller.SetBaggageItem("tenant", "acme")
			greeting := sides[direction.client].start(t, ot.ContextWithSpan(ctx, caller), taskQueue)
			caller.Finish()
			if greeting != "hello ann from acme" {
				t.Errorf("the activity answered %q: the caller's baggage did not reach it", greeting)
			}

			finished := mock.FinishedSpans()
			names := make([]string, 0, len(finished))
			for _, span := range finished {
				names = append(names, span.OperationName)
			}
			slices.Sort(names)
			want := []string{"RunActivity:Greet", "RunWorkflow:GreetWorkflow", "StartActivity:Greet", "StartWorkflow:GreetWorkflow", "caller"}
			if !slices.Equal(names, want) {
				t.Fatalf("finished spans %v, want each once: %v", names, want)
			}
			// Each span's parent is the one before it.
			chain := []string{"caller", "StartWorkflow:GreetWorkflow", "RunWorkflow:GreetWorkflow", "StartActivity:Greet", "RunActivity:Greet"}
			callerContext := caller.Context().(mocktracer.MockSpanContext)
			for i := 1; i < len(chain); i++ {
				child, parent := openTracingSpan(t, finished, chain[i]), openTracingSpan(t, finished, chain[i-1])
				if child.ParentID != parent.SpanContext.SpanID {
					t.Errorf("the parent of %s is span %d, want %s (%d)", chain[i], child.ParentID, chain[i-1], parent.SpanContext.SpanID)
				}
				if child.SpanContext.TraceID != callerContext.TraceID {
					t.Errorf("%s is in trace %d, not the caller's %d", chain[i], child.SpanContext.TraceID, callerContext.TraceID)
				}
			}
		})
	}
}

func openTracingSpan(t *testing.T, spans []*mocktracer.MockSpan, name string) *mocktracer.MockSpan {
	t.Helper()
	for _, span := range spans {
		if span.OperationName == name {
			return span
		}
	}
	t.Fatalf("no span %s", name)
	return nil
}
