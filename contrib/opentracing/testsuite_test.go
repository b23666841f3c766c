package opentracing_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	ot "github.com/opentracing/opentracing-go"
	"github.com/opentracing/opentracing-go/mocktracer"
	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/contrib/opentracing"
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
	span := ot.SpanFromContext(ctx)
	if span == nil {
		return "", errors.New("the activity's context carries no span")
	}
	return fmt.Sprintf("hello %s from %s", name, span.BaggageItem("tenant")), nil
}

func greetWorkflow(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
	})
	var greeting string
	err := workflow.ExecuteActivity(ctx, greetActivity, name).Get(ctx, &greeting)
	return greeting, err
}

// tracingHeader is the header a client writes when it starts a workflow
// under span: the tracer's text map of the span, as JSON, in the field
// every Temporal SDK reads.
func tracingHeader(t *testing.T, tracer ot.Tracer, span ot.Span) *commonpb.Header {
	t.Helper()
	fields := ot.TextMapCarrier{}
	if err := tracer.Inject(span.Context(), ot.TextMap, fields); err != nil {
		t.Fatal(err)
	}
	payload, err := converter.GetDefaultDataConverter().ToPayload(map[string]string(fields))
	if err != nil {
		t.Fatal(err)
	}
	return &commonpb.Header{Fields: map[string]*commonpb.Payload{"_tracer-data": payload}}
}

// TestTestEnvironmentTracesClientWorkflowActivity runs a workflow and its
// activity in the test environment under a caller's span carried in the
// start header: RunWorkflow follows from it, StartActivity and RunActivity
// hang below, all in its trace, each reported once although the
// environment replays the run when it ends and the test replays its
// history once more.
func TestTestEnvironmentTracesClientWorkflowActivity(t *testing.T) {
	mock := mocktracer.New()
	tracing, err := opentracing.NewInterceptor(opentracing.TracerOptions{Tracer: mock})
	if err != nil {
		t.Fatal(err)
	}
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	env.SetReplayCheck(true)
	env.SetWorkerOptions(worker.Options{Interceptors: []interceptor.WorkerInterceptor{tracing}})
	env.RegisterActivity(greetActivity)
	env.SetStartWorkflowOptions(client.StartWorkflowOptions{ID: "greet-ann"})
	startTime := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	env.SetStartTime(startTime)
	caller := mock.StartSpan("client").SetBaggageItem("tenant", "acme")
	env.SetHeader(tracingHeader(t, mock, caller))

	env.ExecuteWorkflow(greetWorkflow, "ann")
	var greeting string
	if err := env.GetWorkflowResult(&greeting); err != nil {
		t.Fatal(err)
	}
	if greeting != "hello ann from acme" {
		t.Errorf("the activity answered %q: its span lacks the caller's baggage", greeting)
	}

	history, err := env.GetHistory()
	if err != nil {
		t.Fatal(err)
	}
	replayer, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{Interceptors: []interceptor.WorkerInterceptor{tracing}})
	if err != nil {
		t.Fatal(err)
	}
	replayer.RegisterWorkflow(greetWorkflow)
	if err := replayer.ReplayWorkflowHistory(nil, history); err != nil {
		t.Fatal(err)
	}
	caller.Finish()

	finished := mock.FinishedSpans()
	want := []string{"RunActivity:greetActivity", "RunWorkflow:greetWorkflow", "StartActivity:greetActivity", "client"}
	if got := slices.Sorted(slices.Values(spanNames(finished))); !slices.Equal(got, want) {
		t.Fatalf("finished spans %v, want each once: %v", got, want)
	}
	callerContext := caller.Context().(mocktracer.MockSpanContext)
	run := finishedNamed(t, mock, "RunWorkflow:greetWorkflow")
	schedule := finishedNamed(t, mock, "StartActivity:greetActivity")
	attempt := finishedNamed(t, mock, "RunActivity:greetActivity")
	requireParent(t, run, callerContext.SpanID)
	requireParent(t, schedule, run.SpanContext.SpanID)
	requireParent(t, attempt, schedule.SpanContext.SpanID)
	for _, span := range []*mocktracer.MockSpan{run, schedule, attempt} {
		if span.SpanContext.TraceID != callerContext.TraceID {
			t.Errorf("%s is in trace %d, not the caller's %d", span.OperationName, span.SpanContext.TraceID, callerContext.TraceID)
		}
		if span.Tag("temporalWorkflowID") != "greet-ann" || span.Tag("temporalRunID") == "" || span.Tag("temporalRunID") != run.Tag("temporalRunID") {
			t.Errorf("%s has workflow tags %v, want temporalWorkflowID greet-ann and the run's ID", span.OperationName, span.Tags())
		}
		if _, failed := span.Tags()["error"]; failed {
			t.Errorf("%s is tagged as failed", span.OperationName)
		}
	}
	if attempt.Tag("temporalActivityID") == "" {
		t.Errorf("RunActivity has no temporalActivityID tag: %v", attempt.Tags())
	}
	if !run.StartTime.Equal(startTime) {
		t.Errorf("RunWorkflow starts at %v, want the workflow's start %v", run.StartTime, startTime)
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

// TestTestEnvironmentTagsFailedSpans: the activity's attempt and the
// workflow's run failed and say so; scheduling the activity did not.
func TestTestEnvironmentTagsFailedSpans(t *testing.T) {
	mock := mocktracer.New()
	tracing, err := opentracing.NewInterceptor(opentracing.TracerOptions{Tracer: mock})
	if err != nil {
		t.Fatal(err)
	}
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	env.SetWorkerOptions(worker.Options{Interceptors: []interceptor.WorkerInterceptor{tracing}})
	env.RegisterActivity(failingActivity)
	env.ExecuteWorkflow(failingWorkflow)
	if env.GetWorkflowError() == nil {
		t.Fatal("the workflow did not fail")
	}
	for name, failed := range map[string]bool{
		"RunWorkflow:failingWorkflow":   true,
		"StartActivity:failingActivity": false,
		"RunActivity:failingActivity":   true,
	} {
		span := finishedNamed(t, mock, name)
		if tag, tagged := span.Tags()["error"]; tagged != failed || (failed && tag != "true") {
			t.Errorf("%s has error tag %#v, want it only when the call failed", name, tag)
		}
	}
}

func requireParent(t *testing.T, span *mocktracer.MockSpan, parentID int) {
	t.Helper()
	if span.ParentID != parentID {
		t.Errorf("the parent of %s is span %d, want %d", span.OperationName, span.ParentID, parentID)
	}
}
