package tracing_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gopkg.in/DataDog/dd-trace-go.v1/ddtrace/mocktracer"
	"gopkg.in/DataDog/dd-trace-go.v1/ddtrace/tracer"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/contrib/datadog/tracing"
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

// stepActivity reports the trace it runs in.
func stepActivity(ctx context.Context, step string) (string, error) {
	span, _ := tracer.SpanFromContext(ctx)
	return fmt.Sprintf("%s@%d", step, span.Context().TraceID()), nil
}

// stepWorkflow runs an activity, waits for a signal, runs another.
func stepWorkflow(ctx workflow.Context) ([]string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var first, second string
	if err := workflow.ExecuteActivity(ctx, stepActivity, "first").Get(ctx, &first); err != nil {
		return nil, err
	}
	workflow.GetSignalChannel(ctx, "proceed").Receive(ctx, nil)
	if err := workflow.ExecuteActivity(ctx, stepActivity, "second").Get(ctx, &second); err != nil {
		return nil, err
	}
	return []string{first, second}, nil
}

// TestOneTraceFromClientThroughWorkflowAndActivities: on a dev server, the
// client's start and signal, the workflow's run and its activities form
// one trace under the caller's span, no span twice, also when the workflow
// is evicted from the cache and replayed between its activities.
func TestOneTraceFromClientThroughWorkflowAndActivities(t *testing.T) {
	for _, evict := range []bool{false, true} {
		t.Run(fmt.Sprintf("evicted=%v", evict), func(t *testing.T) {
			mock := startMock(t)
			c, err := client.Dial(client.Options{
				HostPort:     testharness.HostPort(t),
				Interceptors: []interceptor.ClientInterceptor{tracing.NewTracingInterceptor(tracing.TracerOptions{})},
			})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			taskQueue := unique(t, "tq")
			w := worker.New(c, taskQueue, worker.Options{})
			w.RegisterWorkflow(stepWorkflow)
			w.RegisterActivity(stepActivity)
			if err := w.Start(); err != nil {
				t.Fatal(err)
			}
			defer w.Stop()

			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			root, ctx := tracer.StartSpanFromContext(ctx, "caller")
			run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: taskQueue}, stepWorkflow)
			if err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the first activity", func() bool { return countFinished(mock, "temporal.RunActivity") == 1 })
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
			traceID := root.Context().TraceID()
			if want := []string{fmt.Sprintf("first@%d", traceID), fmt.Sprintf("second@%d", traceID)}; !slices.Equal(results, want) {
				t.Errorf("activities ran in traces %q, want the caller's: %q", results, want)
			}

			finished := mock.FinishedSpans()
			want := []string{
				"caller:caller",
				"temporal.HandleSignal:proceed",
				"temporal.RunActivity:stepActivity", "temporal.RunActivity:stepActivity",
				"temporal.RunWorkflow:stepWorkflow",
				"temporal.SignalWorkflow:proceed",
				"temporal.StartActivity:stepActivity", "temporal.StartActivity:stepActivity",
				"temporal.StartWorkflow:stepWorkflow",
			}
			if got := operationNames(finished); !slices.Equal(got, want) {
				t.Fatalf("finished spans\n%v\nwant each once\n%v", got, want)
			}
			for _, span := range finished {
				if span.TraceID() != traceID {
					t.Errorf("%s is in trace %d, not the caller's %d", span.OperationName(), span.TraceID(), traceID)
				}
			}
			start := onlyFinished(t, mock, "temporal.StartWorkflow")
			runWorkflow := onlyFinished(t, mock, "temporal.RunWorkflow")
			requireParent(t, start, root.Context().SpanID())
			requireParent(t, runWorkflow, start.SpanID())
			schedules := finishedByStart(finished, "temporal.StartActivity")
			attempts := finishedByStart(finished, "temporal.RunActivity")
			requireParent(t, schedules[0], runWorkflow.SpanID())
			if evict {
				// A replayed run starts no RunWorkflow span: what it
				// schedules hangs under the client's start.
				requireParent(t, schedules[1], start.SpanID())
			} else {
				requireParent(t, schedules[1], runWorkflow.SpanID())
			}
			for i := range attempts {
				requireParent(t, attempts[i], schedules[i].SpanID())
			}
			signal := onlyFinished(t, mock, "temporal.SignalWorkflow")
			requireParent(t, signal, root.Context().SpanID())
			requireParent(t, onlyFinished(t, mock, "temporal.HandleSignal"), signal.SpanID())
		})
	}
}

func countFinished(mock mocktracer.Tracer, name string) int {
	n := 0
	for _, span := range mock.FinishedSpans() {
		if span.OperationName() == name {
			n++
		}
	}
	return n
}

func finishedByStart(spans []mocktracer.Span, name string) []mocktracer.Span {
	var out []mocktracer.Span
	for _, span := range spans {
		if span.OperationName() == name {
			out = append(out, span)
		}
	}
	slices.SortFunc(out, func(a, b mocktracer.Span) int { return a.StartTime().Compare(b.StartTime()) })
	return out
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
