package tracing_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"gopkg.in/DataDog/dd-trace-go.v1/ddtrace"
	"gopkg.in/DataDog/dd-trace-go.v1/ddtrace/ext"
	"gopkg.in/DataDog/dd-trace-go.v1/ddtrace/mocktracer"
	"gopkg.in/DataDog/dd-trace-go.v1/ddtrace/tracer"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/contrib/datadog/tracing"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/interceptor"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// greetActivity answers with the baggage its span carries: activity code
// finds its span, and what the caller put in it, in its context.
func greetActivity(ctx context.Context, name string) (string, error) {
	span, ok := tracer.SpanFromContext(ctx)
	if !ok {
		return "", errors.New("the activity's context carries no span")
	}
	return fmt.Sprintf("hello %s from %s", name, span.BaggageItem("tenant")), nil
}

// greeting is what greetWorkflow returns: the activity's answer and the
// span the workflow code saw while it ran live.
type greeting struct {
	Text           string
	WorkflowSpanID uint64
}

func greetWorkflow(ctx workflow.Context, name string) (greeting, error) {
	var out greeting
	if span, ok := tracing.SpanFromWorkflowContext(ctx); ok {
		out.WorkflowSpanID = span.Context().SpanID()
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
	})
	err := workflow.ExecuteActivity(ctx, greetActivity, name).Get(ctx, &out.Text)
	return out, err
}

// tracingHeader is the header a client writes when it starts a workflow
// under span: the Datadog tracer's text map of the span, as JSON, in the
// field the official module reads.
func tracingHeader(t *testing.T, span ddtrace.Span) *commonpb.Header {
	t.Helper()
	fields := tracer.TextMapCarrier{}
	if err := tracer.Inject(span.Context(), fields); err != nil {
		t.Fatal(err)
	}
	payload, err := converter.GetDefaultDataConverter().ToPayload(map[string]string(fields))
	if err != nil {
		t.Fatal(err)
	}
	return &commonpb.Header{Fields: map[string]*commonpb.Payload{"dd_trace_span": payload}}
}

// TestTestEnvironmentTracesClientWorkflowActivity runs a workflow and its
// activity in the test environment under a caller's span carried in the
// start header: RunWorkflow, StartActivity and RunActivity hang below it
// in its trace, each reported once although the environment replays the
// run when it ends and the test replays its history once more.
func TestTestEnvironmentTracesClientWorkflowActivity(t *testing.T) {
	mock := startMock(t)
	tracingInterceptor := tracing.NewTracingInterceptor(tracing.TracerOptions{})
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	env.SetReplayCheck(true)
	env.SetWorkerOptions(worker.Options{Interceptors: []interceptor.WorkerInterceptor{tracingInterceptor}})
	env.RegisterActivity(greetActivity)
	env.SetStartWorkflowOptions(client.StartWorkflowOptions{ID: "greet-ann"})
	caller := tracer.StartSpan("client")
	caller.SetBaggageItem("tenant", "acme")
	env.SetHeader(tracingHeader(t, caller))

	env.ExecuteWorkflow(greetWorkflow, "ann")
	var result greeting
	if err := env.GetWorkflowResult(&result); err != nil {
		t.Fatal(err)
	}
	if result.Text != "hello ann from acme" {
		t.Errorf("the activity answered %q: its span lacks the caller's baggage", result.Text)
	}

	history, err := env.GetHistory()
	if err != nil {
		t.Fatal(err)
	}
	replayer, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{Interceptors: []interceptor.WorkerInterceptor{tracingInterceptor}})
	if err != nil {
		t.Fatal(err)
	}
	replayer.RegisterWorkflow(greetWorkflow)
	if err := replayer.ReplayWorkflowHistory(nil, history); err != nil {
		t.Fatal(err)
	}
	caller.Finish()

	want := []string{"client:client", "temporal.RunActivity:greetActivity", "temporal.RunWorkflow:greetWorkflow", "temporal.StartActivity:greetActivity"}
	if got := operationNames(mock.FinishedSpans()); !slices.Equal(got, want) {
		t.Fatalf("finished spans %v, want each once: %v", got, want)
	}
	run := onlyFinished(t, mock, "temporal.RunWorkflow")
	schedule := onlyFinished(t, mock, "temporal.StartActivity")
	attempt := onlyFinished(t, mock, "temporal.RunActivity")
	requireParent(t, run, caller.Context().SpanID())
	requireParent(t, schedule, run.SpanID())
	requireParent(t, attempt, schedule.SpanID())
	if result.WorkflowSpanID != run.SpanID() {
		t.Errorf("SpanFromWorkflowContext gave span %d, want RunWorkflow's %d", result.WorkflowSpanID, run.SpanID())
	}
	for _, span := range []mocktracer.Span{run, schedule, attempt} {
		if span.TraceID() != caller.Context().TraceID() {
			t.Errorf("%s is in trace %d, not the caller's %d", span.OperationName(), span.TraceID(), caller.Context().TraceID())
		}
		if span.Tag("temporal.WorkflowID") != "greet-ann" || span.Tag("temporal.RunID") == nil || span.Tag("temporal.RunID") != run.Tag("temporal.RunID") {
			t.Errorf("%s has tags %v, want temporal.WorkflowID greet-ann and the run's temporal.RunID", span.OperationName(), span.Tags())
		}
		if span.Tag(ext.Error) != nil {
			t.Errorf("%s failed: %v", span.OperationName(), span.Tag(ext.Error))
		}
	}
	if attempt.Tag("temporal.ActivityID") == nil {
		t.Errorf("RunActivity has no temporal.ActivityID tag: %v", attempt.Tags())
	}
}

func failingActivity(context.Context) error { return errors.New("card declined") }

func failingWorkflow(ctx workflow.Context) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
	})
	return workflow.ExecuteActivity(ctx, failingActivity).Get(ctx, nil)
}

// TestTestEnvironmentMarksFailedSpans: the activity's attempt and the
// workflow's run failed and say so; scheduling the activity did not.
func TestTestEnvironmentMarksFailedSpans(t *testing.T) {
	mock := startMock(t)
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	env.SetWorkerOptions(worker.Options{Interceptors: []interceptor.WorkerInterceptor{tracing.NewTracingInterceptor(tracing.TracerOptions{})}})
	env.RegisterActivity(failingActivity)
	env.ExecuteWorkflow(failingWorkflow)
	if env.GetWorkflowError() == nil {
		t.Fatal("the workflow did not fail")
	}
	for name, failed := range map[string]bool{
		"temporal.RunWorkflow":   true,
		"temporal.StartActivity": false,
		"temporal.RunActivity":   true,
	} {
		if errorTag := onlyFinished(t, mock, name).Tag(ext.Error); (errorTag != nil) != failed {
			t.Errorf("%s has error %v, want one only when the call failed", name, errorTag)
		}
	}
}

func requireParent(t *testing.T, span mocktracer.Span, parentID uint64) {
	t.Helper()
	if span.ParentID() != parentID {
		t.Errorf("the parent of %s is span %d, want %d", span.OperationName(), span.ParentID(), parentID)
	}
}
