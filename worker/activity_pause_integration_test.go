package worker_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/durable-go/sdk/internal/testharness"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// An activity paused or reset on the server learns it from its next
// heartbeat: its context is canceled with activity.ErrActivityPaused or
// activity.ErrActivityReset as the cause, as with go.temporal.io/sdk. The
// paused activity runs again once unpaused, the reset one at once.
func TestPausedAndResetActivitiesAreCanceledWithTheirCause(t *testing.T) {
	testharness.NeedsDevServer(t, "pausing and resetting activities")
	for _, tc := range []struct {
		name  string
		act   func(ctx context.Context, c client.Client, id string) error
		cause error
	}{
		{"pause", func(ctx context.Context, c client.Client, id string) error {
			_, err := c.WorkflowService().PauseActivity(ctx, &workflowservice.PauseActivityRequest{Namespace: "default",
				Execution: &commonpb.WorkflowExecution{WorkflowId: id}, Identity: "test", Activity: &workflowservice.PauseActivityRequest_Id{Id: "working"}})
			return err
		}, activity.ErrActivityPaused},
		{"reset", func(ctx context.Context, c client.Client, id string) error {
			_, err := c.WorkflowService().ResetActivity(ctx, &workflowservice.ResetActivityRequest{Namespace: "default",
				Execution: &commonpb.WorkflowExecution{WorkflowId: id}, Identity: "test", Activity: &workflowservice.ResetActivityRequest_Id{Id: "working"}})
			return err
		}, activity.ErrActivityReset},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := dial(t)
			heartbeating := make(chan struct{}, 1)
			causes := make(chan error, 1)
			working := func(ctx context.Context) (string, error) {
				if activity.GetInfo(ctx).Attempt > 1 {
					return fmt.Sprintf("attempt %d", activity.GetInfo(ctx).Attempt), nil
				}
				for {
					activity.RecordHeartbeat(ctx, "working")
					select {
					case heartbeating <- struct{}{}:
					default:
					}
					select {
					case <-ctx.Done():
						causes <- context.Cause(ctx)
						return "", ctx.Err()
					case <-time.After(50 * time.Millisecond):
					}
				}
			}
			wf := func(ctx workflow.Context) (string, error) {
				ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{ActivityID: "working",
					StartToCloseTimeout: time.Minute, HeartbeatTimeout: time.Second,
					RetryPolicy: &temporal.RetryPolicy{InitialInterval: 100 * time.Millisecond}})
				var out string
				err := workflow.ExecuteActivity(ctx, "working").Get(ctx, &out)
				return out, err
			}
			tq := unique(t, "tq")
			w := worker.New(c, tq, worker.Options{})
			w.RegisterWorkflowWithOptions(wf, workflow.RegisterOptions{Name: "pausedActivityWorkflow"})
			w.RegisterActivityWithOptions(working, activity.RegisterOptions{Name: "working"})
			if err := w.Start(); err != nil {
				t.Fatal(err)
			}
			defer w.Stop()
			id := unique(t, "wf")
			run, err := c.ExecuteWorkflow(testCtx(t), client.StartWorkflowOptions{ID: id, TaskQueue: tq}, "pausedActivityWorkflow")
			if err != nil {
				t.Fatal(err)
			}
			select {
			case <-heartbeating:
			case <-time.After(30 * time.Second):
				t.Fatal("the activity did not start")
			}
			if err := tc.act(testCtx(t), c, id); err != nil {
				t.Fatal(err)
			}
			select {
			case cause := <-causes:
				if !errors.Is(cause, tc.cause) {
					t.Fatalf("the activity's context was canceled with cause %v, want %v", cause, tc.cause)
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("the activity was not canceled within 30s of the %s", tc.name)
			}
			if tc.name == "pause" {
				if _, err := c.WorkflowService().UnpauseActivity(testCtx(t), &workflowservice.UnpauseActivityRequest{Namespace: "default",
					Execution: &commonpb.WorkflowExecution{WorkflowId: id}, Identity: "test", Activity: &workflowservice.UnpauseActivityRequest_Id{Id: "working"}}); err != nil {
					t.Fatal(err)
				}
			}
			var out string
			if err := run.Get(testCtx(t), &out); err != nil {
				t.Fatalf("the workflow failed after the %s: %v", tc.name, err)
			}
			t.Logf("%s: the activity ended with %q", tc.name, out)
		})
	}
}
