package opentelemetry_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/contrib/opentelemetry"
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

// tracedActivity reports the trace it runs in, to show that activity code
// sees its span in its context.
func tracedActivity(ctx context.Context, step string) (string, error) {
	return step + "@" + trace.SpanFromContext(ctx).SpanContext().TraceID().String(), nil
}

// tracedWorkflow runs an activity, waits for a signal, runs another.
func tracedWorkflow(ctx workflow.Context) ([]string, error) {
	if err := workflow.SetQueryHandler(ctx, "state", func() (string, error) { return "waiting", nil }); err != nil {
		return nil, err
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var first, second string
	if err := workflow.ExecuteActivity(ctx, tracedActivity, "first").Get(ctx, &first); err != nil {
		return nil, err
	}
	workflow.GetSignalChannel(ctx, "proceed").Receive(ctx, nil)
	if err := workflow.ExecuteActivity(ctx, tracedActivity, "second").Get(ctx, &second); err != nil {
		return nil, err
	}
	return []string{first, second}, nil
}

// spans indexes the ended spans of a trace by name.
type spans []sdktrace.ReadOnlySpan

func (s spans) named(name string) spans {
	var out spans
	for _, span := range s {
		if span.Name() == name {
			out = append(out, span)
		}
	}
	return out
}

func (s spans) names() []string {
	var out []string
	for _, span := range s {
		out = append(out, span.Name())
	}
	slices.Sort(out)
	return out
}

// one returns the only span of that name, failing the test otherwise.
func (s spans) one(t *testing.T, name string) sdktrace.ReadOnlySpan {
	t.Helper()
	found := s.named(name)
	if len(found) != 1 {
		t.Fatalf("%d spans named %s, want 1; spans: %v", len(found), name, s.names())
	}
	return found[0]
}

func requireParent(t *testing.T, child, parent sdktrace.ReadOnlySpan) {
	t.Helper()
	if child.Parent().SpanID() != parent.SpanContext().SpanID() {
		t.Errorf("the parent of %s is span %s, want %s (%s)", child.Name(), child.Parent().SpanID(), parent.SpanContext().SpanID(), parent.Name())
	}
}

// TestOneTraceThroughWorkflowActivitiesSignalAndQuery follows a workflow
// from the client's start through its activities, a query and a signal:
// one trace, parents as documented, and no span twice even when the
// workflow is evicted from the cache and replayed between its activities.
func TestOneTraceThroughWorkflowActivitiesSignalAndQuery(t *testing.T) {
	for _, evict := range []bool{false, true} {
		t.Run(fmt.Sprintf("evicted=%v", evict), func(t *testing.T) {
			recorder := tracetest.NewSpanRecorder()
			provider := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder))
			tracer := provider.Tracer("test")
			tracing, err := opentelemetry.NewTracingInterceptor(opentelemetry.TracerOptions{Tracer: tracer})
			if err != nil {
				t.Fatal(err)
			}
			c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), Interceptors: []interceptor.ClientInterceptor{tracing}})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			taskQueue := unique(t, "tq")
			w := worker.New(c, taskQueue, worker.Options{})
			w.RegisterWorkflow(tracedWorkflow)
			w.RegisterActivity(tracedActivity)
			if err := w.Start(); err != nil {
				t.Fatal(err)
			}
			defer w.Stop()

			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			ctx, root := tracer.Start(ctx, "test")
			run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: taskQueue}, tracedWorkflow)
			if err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the first activity", func() bool { return len(spans(recorder.Ended()).named("RunActivity:tracedActivity")) == 1 })
			value, err := c.QueryWorkflow(ctx, run.GetID(), "", "state")
			var state string
			if err != nil || value.Get(&state) != nil || state != "waiting" {
				t.Fatalf("query: %q, %v", state, err)
			}
			if evict {
				// The next task rebuilds the run by replay.
				worker.PurgeStickyWorkflowCache()
			}
			if err := c.SignalWorkflow(ctx, run.GetID(), "", "proceed", nil); err != nil {
				t.Fatal(err)
			}
			var results []string
			if err := run.Get(ctx, &results); err != nil {
				t.Fatal(err)
			}
			root.End()
			traceID := root.SpanContext().TraceID().String()
			if want := []string{"first@" + traceID, "second@" + traceID}; !slices.Equal(results, want) {
				t.Errorf("activities saw traces %v, want %v", results, want)
			}

			ended := spans(recorder.Ended())
			want := []string{
				"HandleQuery:state", "HandleSignal:proceed",
				"QueryWorkflow:state",
				"RunActivity:tracedActivity", "RunActivity:tracedActivity",
				"RunWorkflow:tracedWorkflow",
				"SignalWorkflow:proceed",
				"StartActivity:tracedActivity", "StartActivity:tracedActivity",
				"StartWorkflow:tracedWorkflow",
				"test",
			}
			if got := ended.names(); !slices.Equal(got, want) {
				t.Fatalf("spans\n%v\nwant each once\n%v", got, want)
			}
			for _, span := range ended {
				if span.SpanContext().TraceID() != root.SpanContext().TraceID() {
					t.Errorf("span %s is in trace %s, not the test's", span.Name(), span.SpanContext().TraceID())
				}
			}
			testSpan := ended.one(t, "test")
			start := ended.one(t, "StartWorkflow:tracedWorkflow")
			runWorkflow := ended.one(t, "RunWorkflow:tracedWorkflow")
			requireParent(t, start, testSpan)
			requireParent(t, runWorkflow, start)
			if start.SpanKind() != trace.SpanKindClient || runWorkflow.SpanKind() != trace.SpanKindServer {
				t.Errorf("span kinds: start %v, run %v", start.SpanKind(), runWorkflow.SpanKind())
			}
			// The first activity was scheduled by the run this worker
			// started; the second, after an eviction, by a replayed run,
			// whose spans hang under the client's start.
			startActivities := ended.named("StartActivity:tracedActivity")
			slices.SortFunc(startActivities, func(a, b sdktrace.ReadOnlySpan) int { return a.StartTime().Compare(b.StartTime()) })
			requireParent(t, startActivities[0], runWorkflow)
			if evict {
				requireParent(t, startActivities[1], start)
				if runWorkflow.EndTime().After(startActivities[1].StartTime()) {
					t.Errorf("RunWorkflow ended at %v, after the second activity started (%v): the eviction must end it", runWorkflow.EndTime(), startActivities[1].StartTime())
				}
			} else {
				requireParent(t, startActivities[1], runWorkflow)
				if runWorkflow.EndTime().Before(startActivities[1].StartTime()) {
					t.Errorf("RunWorkflow ended before the second activity: it must last until the workflow returns")
				}
			}
			runActivities := ended.named("RunActivity:tracedActivity")
			slices.SortFunc(runActivities, func(a, b sdktrace.ReadOnlySpan) int { return a.StartTime().Compare(b.StartTime()) })
			for i := range runActivities {
				requireParent(t, runActivities[i], startActivities[i])
			}
			requireParent(t, ended.one(t, "QueryWorkflow:state"), testSpan)
			requireParent(t, ended.one(t, "HandleQuery:state"), ended.one(t, "QueryWorkflow:state"))
			requireParent(t, ended.one(t, "SignalWorkflow:proceed"), testSpan)
			// Also after a replay: the signal arrived since the last task,
			// so it is not replayed.
			requireParent(t, ended.one(t, "HandleSignal:proceed"), ended.one(t, "SignalWorkflow:proceed"))
			for _, span := range ended {
				if span.Name() == "test" {
					continue
				}
				if attrs := attributes(span); attrs["temporalWorkflowID"] != run.GetID() {
					t.Errorf("span %s has temporalWorkflowID %q, want %q", span.Name(), attrs["temporalWorkflowID"], run.GetID())
				}
			}
		})
	}
}

// releaseActivity lets gatedActivity return; gateEntered says it started.
// Each test run makes them anew, before its worker starts.
var gateEntered, releaseActivity chan struct{}

func gatedActivity(ctx context.Context) error {
	gateEntered <- struct{}{}
	select {
	case <-releaseActivity:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// signaledWorkflow takes the signal it was started with, then runs an
// activity.
func signaledWorkflow(ctx workflow.Context) error {
	workflow.GetSignalChannel(ctx, "proceed").Receive(ctx, nil)
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 20 * time.Second})
	return workflow.ExecuteActivity(ctx, gatedActivity).Get(ctx, nil)
}

// TestSignalWithStartTracedOnceAcrossReplay: the signal of a
// signal-with-start arrives before the workflow code starts; replaying
// the run after an eviction does not trace it again.
func TestSignalWithStartTracedOnceAcrossReplay(t *testing.T) {
	gateEntered, releaseActivity = make(chan struct{}, 1), make(chan struct{})
	recorder := tracetest.NewSpanRecorder()
	provider := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder))
	tracing, err := opentelemetry.NewTracingInterceptor(opentelemetry.TracerOptions{Tracer: provider.Tracer("test")})
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), Interceptors: []interceptor.ClientInterceptor{tracing}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	taskQueue := unique(t, "tq")
	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflow(signaledWorkflow)
	w.RegisterActivity(gatedActivity)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	run, err := c.SignalWithStartWorkflow(ctx, unique(t, "wf"), "proceed", nil, client.StartWorkflowOptions{TaskQueue: taskQueue}, signaledWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-gateEntered:
	case <-ctx.Done():
		t.Fatal("the activity never started")
	}
	// The activity's completion is the next task: the run replays for it.
	worker.PurgeStickyWorkflowCache()
	close(releaseActivity)
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	ended := spans(recorder.Ended())
	want := []string{"HandleSignal:proceed", "RunActivity:gatedActivity", "RunWorkflow:signaledWorkflow", "SignalWithStartWorkflow:signaledWorkflow", "StartActivity:gatedActivity"}
	if got := ended.names(); !slices.Equal(got, want) {
		t.Fatalf("spans\n%v\nwant each once\n%v", got, want)
	}
	sent := ended.one(t, "SignalWithStartWorkflow:signaledWorkflow")
	requireParent(t, ended.one(t, "RunWorkflow:signaledWorkflow"), sent)
	requireParent(t, ended.one(t, "HandleSignal:proceed"), sent)
	requireParent(t, ended.one(t, "StartActivity:gatedActivity"), ended.one(t, "RunWorkflow:signaledWorkflow"))
	requireParent(t, ended.one(t, "RunActivity:gatedActivity"), ended.one(t, "StartActivity:gatedActivity"))
}

func attributes(span sdktrace.ReadOnlySpan) map[string]string {
	out := map[string]string{}
	for _, kv := range span.Attributes() {
		out[string(kv.Key)] = kv.Value.AsString()
	}
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

func tracedChild(_ workflow.Context, name string) (string, error) { return "hi " + name, nil }

// tracedParent takes an update that starts a child, validated first.
func tracedParent(ctx workflow.Context) (string, error) {
	var result string
	done := false
	if err := workflow.SetUpdateHandlerWithOptions(ctx, "greet", func(ctx workflow.Context, name string) (string, error) {
		err := workflow.ExecuteChildWorkflow(ctx, tracedChild, name).Get(ctx, &result)
		done = true
		return result, err
	}, workflow.UpdateHandlerOptions{Validator: func(name string) error { return nil }}); err != nil {
		return "", err
	}
	err := workflow.Await(ctx, func() bool { return done })
	return result, err
}

func TestUpdatesAndChildrenAreTraced(t *testing.T) {
	recorder := tracetest.NewSpanRecorder()
	tracer := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder)).Tracer("test")
	tracing, err := opentelemetry.NewTracingInterceptor(opentelemetry.TracerOptions{Tracer: tracer})
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), Interceptors: []interceptor.ClientInterceptor{tracing}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	taskQueue := unique(t, "tq")
	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflow(tracedParent)
	w.RegisterWorkflow(tracedChild)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ctx, root := tracer.Start(ctx, "test")
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: taskQueue}, tracedParent)
	if err != nil {
		t.Fatal(err)
	}
	handle, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: run.GetID(), UpdateName: "greet",
		Args: []any{"ann"}, WaitForStage: client.WorkflowUpdateStageCompleted})
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if err := handle.Get(ctx, &got); err != nil || got != "hi ann" {
		t.Fatalf("update: %q, %v", got, err)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	root.End()
	waitFor(t, "the child's run span", func() bool { return len(spans(recorder.Ended()).named("RunWorkflow:tracedChild")) == 1 })
	ended := spans(recorder.Ended())
	update := ended.one(t, "UpdateWorkflow:greet")
	validate := ended.one(t, "ValidateUpdate:greet")
	handleSpan := ended.one(t, "HandleUpdate:greet")
	startChild := ended.one(t, "StartChildWorkflow:tracedChild")
	requireParent(t, update, ended.one(t, "test"))
	requireParent(t, validate, update)
	requireParent(t, handleSpan, update)
	requireParent(t, startChild, handleSpan)
	requireParent(t, ended.one(t, "RunWorkflow:tracedChild"), startChild)
	if id := attributes(handleSpan)["temporalUpdateID"]; id != handle.UpdateID() {
		t.Errorf("HandleUpdate's update ID %q, want %q", id, handle.UpdateID())
	}
}
