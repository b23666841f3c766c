package worker_test

import (
	"context"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

func whisper(_ context.Context, s string) (string, error) { return "(" + s + ")", nil }

func callsWhisperByFunction(ctx workflow.Context) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var got string
	err := workflow.ExecuteActivity(ctx, whisper, "psst").Get(ctx, &got)
	return got, err
}

// Workflow code that passes a function registered under a name of its own
// schedules the activity by that name, as go.temporal.io/sdk does.
func TestAnActivityRegisteredUnderANameIsScheduledByIt(t *testing.T) {
	c := dial(t)
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) {
		w.RegisterWorkflow(callsWhisperByFunction)
		w.RegisterActivityWithOptions(whisper, activity.RegisterOptions{Name: "whisper-v2"})
	})
	ctx := testCtx(t)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, callsWhisperByFunction)
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if err := run.Get(ctx, &got); err != nil || got != "(psst)" {
		t.Fatalf("result %q, %v; want (psst)", got, err)
	}
	iter := c.GetWorkflowHistory(ctx, run.GetID(), run.GetRunID(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for iter.HasNext() {
		e, err := iter.Next()
		if err != nil {
			t.Fatal(err)
		}
		if a := e.GetActivityTaskScheduledEventAttributes(); a != nil && a.GetActivityType().GetName() != "whisper-v2" {
			t.Errorf("activity scheduled as %q, want the registered name whisper-v2", a.GetActivityType().GetName())
		}
	}
}

func aliasedChild(ctx workflow.Context, s string) (string, error) { return "<" + s + ">", nil }

func startsAliasedChildByFunction(ctx workflow.Context) (string, error) {
	var got string
	err := workflow.ExecuteChildWorkflow(ctx, aliasedChild, "kid").Get(ctx, &got)
	return got, err
}

// A child workflow registered under a name of its own and started by
// function starts under that name on the dev server, and the history
// replays in a replayer with the same registrations.
func TestAChildRegisteredUnderANameIsStartedByItAndReplays(t *testing.T) {
	c := dial(t)
	register := func(r interface {
		RegisterWorkflow(any)
		RegisterWorkflowWithOptions(any, workflow.RegisterOptions)
	}) {
		r.RegisterWorkflow(startsAliasedChildByFunction)
		r.RegisterWorkflowWithOptions(aliasedChild, workflow.RegisterOptions{Name: "aliased-child-v2"})
	}
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) { register(w) })
	ctx := testCtx(t)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, startsAliasedChildByFunction)
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if err := run.Get(ctx, &got); err != nil || got != "<kid>" {
		t.Fatalf("result %q, %v; want <kid>", got, err)
	}
	history := serverHistory(t, c, run)
	for _, e := range history.GetEvents() {
		if a := e.GetStartChildWorkflowExecutionInitiatedEventAttributes(); a != nil && a.GetWorkflowType().GetName() != "aliased-child-v2" {
			t.Errorf("child started as %q, want the registered name aliased-child-v2", a.GetWorkflowType().GetName())
		}
	}
	replayer := worker.NewWorkflowReplayer()
	register(replayer)
	if err := replayer.ReplayWorkflowHistory(nil, history); err != nil {
		t.Errorf("the history does not replay: %v", err)
	}
}
