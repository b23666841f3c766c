package resilience

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

func Succeeds(context.Context) (string, error) { return "done", nil }

// SchedulesWithRetryPolicy runs an activity (what "activity") or a child
// (what "child") with a retry policy the server refuses:
// BackoffCoefficient 0.5.
func SchedulesWithRetryPolicy(ctx workflow.Context, what string) (string, error) {
	policy := &temporal.RetryPolicy{BackoffCoefficient: 0.5}
	var out string
	if what == "child" {
		ctx = workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{RetryPolicy: policy})
		err := workflow.ExecuteChildWorkflow(ctx, SchedulesWithRetryPolicy, "activity").Get(ctx, &out)
		return out, err
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second, RetryPolicy: policy})
	err := workflow.ExecuteActivity(ctx, Succeeds).Get(ctx, &out)
	return out, err
}

// TestARetryPolicyTheServerRefusesFailsTheCall: an activity or child with
// a retry policy the server refuses (BackoffCoefficient 0.5) used to be
// sent in a workflow task completion the server refused, every ten
// seconds, for ever: the workflow was stuck. Now the call fails, naming
// the field, and the workflow (which returns that error) fails at once. A
// start with such a policy fails before anything is sent.
func TestARetryPolicyTheServerRefusesFailsTheCall(t *testing.T) {
	c := dialDirect(t)
	tq := unique(t, "tq")
	w := worker.New(c, tq, worker.Options{})
	w.RegisterWorkflow(SchedulesWithRetryPolicy)
	w.RegisterActivity(Succeeds)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	// The failure keeps the error's chain: the call, then the cause.
	for what, call := range map[string]string{
		"activity": "ExecuteActivity(Succeeds): workflow.ActivityOptions",
		"child":    "ExecuteChildWorkflow(SchedulesWithRetryPolicy): workflow.ChildWorkflowOptions",
	} {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, what), TaskQueue: tq,
			RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1}}, SchedulesWithRetryPolicy, what)
		if err != nil {
			t.Fatal(err)
		}
		err = run.Get(ctx, nil)
		var appErr *temporal.ApplicationError
		want := "RetryPolicy: BackoffCoefficient is 0.5; it must be 1 or more"
		if !errors.As(err, &appErr) || !strings.Contains(err.Error(), call) || !strings.Contains(err.Error(), want) {
			t.Errorf("a workflow whose %s has BackoffCoefficient 0.5 ended with %v; want it failed, saying %q and %q", what, err, call, want)
		}
	}

	id := unique(t, "start")
	_, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: tq,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: 2 * time.Second, MaximumInterval: time.Second}}, SchedulesWithRetryPolicy, "activity")
	if want := "client.StartWorkflowOptions: RetryPolicy: MaximumInterval is 1s, less than InitialInterval (2s)"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a start with MaximumInterval under InitialInterval: %v, want %q", err, want)
	}
	var notFound *serviceerror.NotFound
	if _, err := c.DescribeWorkflowExecution(ctx, id, ""); !errors.As(err, &notFound) {
		t.Errorf("the refused start reached the server: describing its workflow gave %v, want NotFound", err)
	}
}
