package opentracing_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	ot "github.com/opentracing/opentracing-go"
	"github.com/opentracing/opentracing-go/mocktracer"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/contrib/opentracing"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/interceptor"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

func TestMain(m *testing.M) { testharness.Main(m) }

var seq atomic.Int64

func unique(t *testing.T, what string) string {
	return fmt.Sprintf("%s-%s-%d-%d", strings.ReplaceAll(t.Name(), "/", "-"), what, time.Now().UnixNano(), seq.Add(1))
}

// The shape of the official samples' context propagation: a context
// propagator carries an application value from the caller to the workflow
// and its activities, beside the OpenTracing interceptor on the global
// tracer; the activity reads both the value and its span.

type propagatedKey struct{}

// tenantPropagator carries the tenant under propagatedKey in a header field.
type tenantPropagator struct{}

const tenantHeader = "tenant-header"

func (tenantPropagator) Inject(ctx context.Context, writer workflow.HeaderWriter) error {
	return injectTenant(ctx.Value(propagatedKey{}), writer)
}

func (tenantPropagator) InjectFromWorkflow(ctx workflow.Context, writer workflow.HeaderWriter) error {
	return injectTenant(ctx.Value(propagatedKey{}), writer)
}

func injectTenant(value any, writer workflow.HeaderWriter) error {
	tenant, ok := value.(string)
	if !ok {
		return nil
	}
	payload, err := converter.GetDefaultDataConverter().ToPayload(tenant)
	if err != nil {
		return err
	}
	writer.Set(tenantHeader, payload)
	return nil
}

func (tenantPropagator) Extract(ctx context.Context, reader workflow.HeaderReader) (context.Context, error) {
	tenant, err := extractTenant(reader)
	if err != nil || tenant == "" {
		return ctx, err
	}
	return context.WithValue(ctx, propagatedKey{}, tenant), nil
}

func (tenantPropagator) ExtractToWorkflow(ctx workflow.Context, reader workflow.HeaderReader) (workflow.Context, error) {
	tenant, err := extractTenant(reader)
	if err != nil || tenant == "" {
		return ctx, err
	}
	return workflow.WithValue(ctx, propagatedKey{}, tenant), nil
}

func extractTenant(reader workflow.HeaderReader) (string, error) {
	var tenant string
	if payload, ok := reader.Get(tenantHeader); ok {
		if err := converter.GetDefaultDataConverter().FromPayload(payload, &tenant); err != nil {
			return "", err
		}
	}
	return tenant, nil
}

// sampleActivity reports what reached it: the propagated tenant and the
// baggage of its span.
func sampleActivity(ctx context.Context, step string) (string, error) {
	tenant, _ := ctx.Value(propagatedKey{}).(string)
	baggage := ""
	if span := ot.SpanFromContext(ctx); span != nil {
		baggage = span.BaggageItem("request")
	}
	return fmt.Sprintf("%s tenant=%s request=%s", step, tenant, baggage), nil
}

// sampleWorkflow runs an activity, waits for a signal, runs another.
func sampleWorkflow(ctx workflow.Context) ([]string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var first, second string
	if err := workflow.ExecuteActivity(ctx, sampleActivity, "first").Get(ctx, &first); err != nil {
		return nil, err
	}
	workflow.GetSignalChannel(ctx, "proceed").Receive(ctx, nil)
	if err := workflow.ExecuteActivity(ctx, sampleActivity, "second").Get(ctx, &second); err != nil {
		return nil, err
	}
	return []string{first, second}, nil
}

// TestOneTraceFromClientThroughWorkflowAndActivities follows the sample's
// setup on a dev server: the client's start, the workflow's run, its two
// activities and a signal form one trace under the caller's span, with the
// caller's baggage and propagated value in both activities, and no span
// twice, also when the workflow is evicted from the cache and replayed
// between its activities.
func TestOneTraceFromClientThroughWorkflowAndActivities(t *testing.T) {
	for _, evict := range []bool{false, true} {
		t.Run(fmt.Sprintf("evicted=%v", evict), func(t *testing.T) {
			mock := mocktracer.New()
			previous := ot.GlobalTracer()
			ot.SetGlobalTracer(mock)
			defer ot.SetGlobalTracer(previous)
			tracing, err := opentracing.NewInterceptor(opentracing.TracerOptions{})
			if err != nil {
				t.Fatal(err)
			}
			c, err := client.Dial(client.Options{
				HostPort:           testharness.HostPort(t),
				Interceptors:       []interceptor.ClientInterceptor{tracing},
				ContextPropagators: []workflow.ContextPropagator{tenantPropagator{}},
			})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			taskQueue := unique(t, "tq")
			w := worker.New(c, taskQueue, worker.Options{})
			w.RegisterWorkflow(sampleWorkflow)
			w.RegisterActivity(sampleActivity)
			if err := w.Start(); err != nil {
				t.Fatal(err)
			}
			defer w.Stop()

			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			root, ctx := ot.StartSpanFromContext(ctx, "caller")
			root.SetBaggageItem("request", "r-42")
			ctx = context.WithValue(ctx, propagatedKey{}, "acme")
			run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: taskQueue}, sampleWorkflow)
			if err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the first activity", func() bool { return countNamed(mock, "RunActivity:sampleActivity") == 1 })
			if evict {
				// The signal's workflow task rebuilds the run by replay.
				worker.PurgeStickyWorkflowCache()
			}
			if err := c.SignalWorkflow(ctx, run.GetID(), "", "proceed", nil); err != nil {
				t.Fatal(err)
			}
			var results []string
			if err := run.Get(ctx, &results); err != nil {
				t.Fatal(err)
			}
			root.Finish()
			if want := []string{"first tenant=acme request=r-42", "second tenant=acme request=r-42"}; !slices.Equal(results, want) {
				t.Errorf("activities saw %q, want %q", results, want)
			}

			finished := mock.FinishedSpans()
			want := []string{
				"HandleSignal:proceed",
				"RunActivity:sampleActivity", "RunActivity:sampleActivity",
				"RunWorkflow:sampleWorkflow",
				"SignalWorkflow:proceed",
				"StartActivity:sampleActivity", "StartActivity:sampleActivity",
				"StartWorkflow:sampleWorkflow",
				"caller",
			}
			if got := slices.Sorted(slices.Values(spanNames(finished))); !slices.Equal(got, want) {
				t.Fatalf("finished spans\n%v\nwant each once\n%v", got, want)
			}
			rootContext := root.Context().(mocktracer.MockSpanContext)
			for _, span := range finished {
				if span.SpanContext.TraceID != rootContext.TraceID {
					t.Errorf("%s is in trace %d, not the caller's %d", span.OperationName, span.SpanContext.TraceID, rootContext.TraceID)
				}
				if span.OperationName != "caller" && span.Tag("temporalWorkflowID") != run.GetID() {
					t.Errorf("%s has temporalWorkflowID %v, want %s", span.OperationName, span.Tag("temporalWorkflowID"), run.GetID())
				}
			}
			start := finishedNamed(t, mock, "StartWorkflow:sampleWorkflow")
			runWorkflow := finishedNamed(t, mock, "RunWorkflow:sampleWorkflow")
			requireParent(t, start, rootContext.SpanID)
			requireParent(t, runWorkflow, start.SpanContext.SpanID)
			schedules := sortedByStart(named(finished, "StartActivity:sampleActivity"))
			attempts := sortedByStart(named(finished, "RunActivity:sampleActivity"))
			requireParent(t, schedules[0], runWorkflow.SpanContext.SpanID)
			if evict {
				// A replayed run starts no RunWorkflow span: what it
				// schedules hangs under the client's start.
				requireParent(t, schedules[1], start.SpanContext.SpanID)
			} else {
				requireParent(t, schedules[1], runWorkflow.SpanContext.SpanID)
			}
			for i := range attempts {
				requireParent(t, attempts[i], schedules[i].SpanContext.SpanID)
			}
			signal := finishedNamed(t, mock, "SignalWorkflow:proceed")
			requireParent(t, signal, rootContext.SpanID)
			requireParent(t, finishedNamed(t, mock, "HandleSignal:proceed"), signal.SpanContext.SpanID)
		})
	}
}

func named(spans []*mocktracer.MockSpan, name string) []*mocktracer.MockSpan {
	var out []*mocktracer.MockSpan
	for _, span := range spans {
		if span.OperationName == name {
			out = append(out, span)
		}
	}
	return out
}

func countNamed(mock *mocktracer.MockTracer, name string) int {
	return len(named(mock.FinishedSpans(), name))
}

func sortedByStart(spans []*mocktracer.MockSpan) []*mocktracer.MockSpan {
	slices.SortFunc(spans, func(a, b *mocktracer.MockSpan) int { return a.StartTime.Compare(b.StartTime) })
	return spans
}

func waitFor(t *testing.T, what string, condition func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !condition() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
