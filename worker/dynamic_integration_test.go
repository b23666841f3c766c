package worker_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// anyWorkflow runs every workflow type not registered by name: it asks an
// activity named after its type, which anyActivity runs.
func anyWorkflow(ctx workflow.Context, args converter.EncodedValues) (string, error) {
	var name string
	if err := args.Get(&name); err != nil {
		return "", err
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var got string
	err := workflow.ExecuteActivity(ctx, "Prepare"+workflow.GetInfo(ctx).WorkflowType.Name, name).Get(ctx, &got)
	return got, err
}

func anyActivity(ctx context.Context, args converter.EncodedValues) (string, error) {
	var name string
	if err := args.Get(&name); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s(%s)", activity.GetInfo(ctx).ActivityType.Name, name), nil
}

func namedGreeting(_ workflow.Context, name string) (string, error) { return "named " + name, nil }

func TestDynamicWorkflowsAndActivitiesOnADevServer(t *testing.T) {
	c := dial(t)
	taskQueue, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) {
		w.RegisterDynamicWorkflow(anyWorkflow, workflow.DynamicRegisterOptions{})
		w.RegisterDynamicActivity(anyActivity, activity.DynamicRegisterOptions{})
		w.RegisterWorkflow(namedGreeting)
	})
	ctx := testCtx(t)
	for _, tc := range []struct{ workflowType, want string }{
		{"Onboarding", "PrepareOnboarding(ann)"},
		{"Offboarding", "PrepareOffboarding(ann)"},
		{"namedGreeting", "named ann"}, // a type registered by name wins
	} {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, tc.workflowType), TaskQueue: taskQueue}, tc.workflowType, "ann")
		if err != nil {
			t.Fatal(err)
		}
		var got string
		if err := run.Get(ctx, &got); err != nil {
			t.Fatalf("%s: %v", tc.workflowType, err)
		}
		if got != tc.want {
			t.Fatalf("%s: got %q, want %q", tc.workflowType, got, tc.want)
		}
		replayer := worker.NewWorkflowReplayer()
		replayer.RegisterDynamicWorkflow(anyWorkflow, workflow.DynamicRegisterOptions{})
		replayer.RegisterWorkflow(namedGreeting)
		if err := replayer.ReplayWorkflowHistory(nil, serverHistory(t, c, run)); err != nil {
			t.Fatalf("%s does not replay: %v", tc.workflowType, err)
		}
	}
}

func TestAWorkerWithOnlyADynamicWorkflowPolls(t *testing.T) {
	c := dial(t)
	taskQueue, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) {
		w.RegisterDynamicWorkflow(func(ctx workflow.Context, args converter.EncodedValues) (string, error) {
			return workflow.GetInfo(ctx).WorkflowType.Name, nil
		}, workflow.DynamicRegisterOptions{})
	})
	ctx := testCtx(t)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: taskQueue}, "Anything")
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if err := run.Get(ctx, &got); err != nil || got != "Anything" {
		t.Fatalf("got %q, %v", got, err)
	}
}
