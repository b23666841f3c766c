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
