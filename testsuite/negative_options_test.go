package testsuite_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

func noop(ctx context.Context) error { return nil }

// runsWithOptions runs an activity, a local activity or a child with
// options that hold a negative duration, and returns what the call said.
func runsWithOptions(ctx workflow.Context, what string) (string, error) {
	var err error
	switch what {
	case "activity":
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: -5 * time.Second, HeartbeatTimeout: -time.Second})
		err = workflow.ExecuteActivity(ctx, noop).Get(ctx, nil)
	case "local activity":
		ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{ScheduleToCloseTimeout: -time.Minute})
		err = workflow.ExecuteLocalActivity(ctx, noop).Get(ctx, nil)
	case "child":
		ctx = workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowRunTimeout: -time.Hour})
		err = workflow.ExecuteChildWorkflow(ctx, runsWithOptions, "none").Get(ctx, nil)
	}
	if err == nil {
		return "no error", nil
	}
	return err.Error(), nil
}

// TestNegativeOptionsAreRefusedByName: a negative duration, size or rate
// is a mistake, never a setting; the error names the option and its value
// (StartToCloseTimeout: -5s used to say that no timeout was set at all).
func TestNegativeOptionsAreRefusedByName(t *testing.T) {
	for what, want := range map[string][]string{
		"activity":       {"ExecuteActivity(noop)", "StartToCloseTimeout is -5s", "HeartbeatTimeout is -1s", "must not be negative"},
		"local activity": {"ExecuteLocalActivity(noop)", "ScheduleToCloseTimeout is -1m0s", "must not be negative"},
		"child":          {"ExecuteChildWorkflow(runsWithOptions)", "WorkflowRunTimeout is -1h0m0s", "must not be negative"},
	} {
		var s testsuite.WorkflowTestSuite
		env := s.NewTestWorkflowEnvironment()
		env.RegisterActivity(noop)
		env.RegisterWorkflow(runsWithOptions)
		env.ExecuteWorkflow(runsWithOptions, what)
		var got string
		if err := env.GetWorkflowResult(&got); err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s with a negative option: %q lacks %q", what, got, w)
			}
		}
	}

	_, err := client.NewLazyClient(client.Options{ConnectionOptions: client.ConnectionOptions{MaxPayloadSize: -1, KeepAliveTime: -time.Second}})
	if err == nil || !strings.Contains(err.Error(), "MaxPayloadSize is -1") || !strings.Contains(err.Error(), "KeepAliveTime is -1s") {
		t.Errorf("client options with a negative MaxPayloadSize and KeepAliveTime: %v", err)
	}

	c, err := client.NewLazyClient(client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{TaskQueue: "q", WorkflowRunTimeout: -time.Second}, runsWithOptions, "none")
	if err == nil || !strings.Contains(err.Error(), "WorkflowRunTimeout is -1s") {
		t.Errorf("a start with a negative WorkflowRunTimeout: %v", err)
	}

	for name, opts := range map[string]worker.Options{
		"MaxConcurrentActivityExecutionSize is -1": {MaxConcurrentActivityExecutionSize: -1},
		"MaxConcurrentWorkflowTaskPollers is -2":   {MaxConcurrentWorkflowTaskPollers: -2},
		"WorkerStopTimeout is -1s":                 {WorkerStopTimeout: -time.Second},
		"WorkerActivitiesPerSecond is -0.5":        {WorkerActivitiesPerSecond: -0.5},
	} {
		func() {
			defer func() {
				if p := recover(); p == nil || !strings.Contains(p.(string), name) {
					t.Errorf("worker.New with %s: panic %v, want one naming the option", name, p)
				}
			}()
			worker.New(c, "q", opts)
		}()
	}
}
