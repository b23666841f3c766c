package testsuite_test

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/workflow"
)

// badRetryPolicies are retry policies the server refuses, or that are
// mistakes it would let through, each with what the error must say.
var badRetryPolicies = map[string]struct {
	policy temporal.RetryPolicy
	want   string
}{
	"InitialInterval":           {temporal.RetryPolicy{InitialInterval: -time.Second}, "RetryPolicy: InitialInterval is -1s"},
	"MaximumInterval":           {temporal.RetryPolicy{MaximumInterval: -time.Second}, "RetryPolicy: MaximumInterval is -1s"},
	"BackoffCoefficient":        {temporal.RetryPolicy{BackoffCoefficient: -2}, "RetryPolicy: BackoffCoefficient is -2"},
	"NaN BackoffCoefficient":    {temporal.RetryPolicy{BackoffCoefficient: math.NaN()}, "RetryPolicy: BackoffCoefficient is NaN"},
	"MaximumAttempts":           {temporal.RetryPolicy{MaximumAttempts: -1}, "RetryPolicy: MaximumAttempts is -1"},
	"BackoffCoefficient < 1":    {temporal.RetryPolicy{BackoffCoefficient: 0.5}, "RetryPolicy: BackoffCoefficient is 0.5; it must be 1 or more"},
	"MaximumInterval < Initial": {temporal.RetryPolicy{InitialInterval: time.Minute, MaximumInterval: time.Second}, "RetryPolicy: MaximumInterval is 1s, less than InitialInterval (1m0s)"},
}

// runsWithRetryPolicy runs an activity, a local activity or a child with
// the retry policy of case name of badRetryPolicies, and returns what the
// call said.
func runsWithRetryPolicy(ctx workflow.Context, what, name string) (string, error) {
	policy := badRetryPolicies[name].policy
	var err error
	switch what {
	case "activity":
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Second, RetryPolicy: &policy})
		err = workflow.ExecuteActivity(ctx, noop).Get(ctx, nil)
	case "local activity":
		ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: time.Second, RetryPolicy: &policy})
		err = workflow.ExecuteLocalActivity(ctx, noop).Get(ctx, nil)
	case "child":
		ctx = workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{RetryPolicy: &policy})
		err = workflow.ExecuteChildWorkflow(ctx, runsWithOptions, "none").Get(ctx, nil)
	}
	if err == nil {
		return "no error", nil
	}
	return err.Error(), nil
}

// TestBadRetryPoliciesAreRefusedAtTheCall: a retry policy the server
// refuses fails the call that carries it, naming the call, the field and
// its value, instead of a workflow task the server refuses again and
// again; nothing is scheduled.
func TestBadRetryPoliciesAreRefusedAtTheCall(t *testing.T) {
	calls := map[string]string{"activity": "ExecuteActivity(noop): workflow.ActivityOptions: ",
		"local activity": "ExecuteLocalActivity(noop): workflow.LocalActivityOptions: ",
		"child":          "ExecuteChildWorkflow(runsWithOptions): workflow.ChildWorkflowOptions: "}
	for what, call := range calls {
		for name, c := range badRetryPolicies {
			t.Run(what+"/"+name, func(t *testing.T) {
				var s testsuite.WorkflowTestSuite
				env := s.NewTestWorkflowEnvironment()
				env.RegisterActivity(noop)
				env.RegisterWorkflow(runsWithOptions)
				env.RegisterWorkflow(runsWithRetryPolicy)
				env.ExecuteWorkflow(runsWithRetryPolicy, what, name)
				var got string
				if err := env.GetWorkflowResult(&got); err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(got, call+c.want) {
					t.Errorf("%q, want it to say %q", got, call+c.want)
				}
			})
		}
	}

	c, err := client.NewLazyClient(client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for name, bad := range badRetryPolicies {
		policy := bad.policy
		_, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: "q", RetryPolicy: &policy}, runsWithOptions, "none")
		if want := "client.StartWorkflowOptions: " + bad.want; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("a start with %s: %v, want %q", name, err, want)
		}
		_, err = c.SignalWithStartWorkflow(ctx, "wf", "signal", nil, client.StartWorkflowOptions{TaskQueue: "q", RetryPolicy: &policy}, runsWithOptions, "none")
		if want := "client.StartWorkflowOptions: " + bad.want; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("a signal-with-start with %s: %v, want %q", name, err, want)
		}
		_, err = c.ScheduleClient().Create(ctx, client.ScheduleOptions{ID: "s", Spec: client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: time.Hour}}},
			Action: &client.ScheduleWorkflowAction{Workflow: runsWithOptions, Args: []any{"none"}, TaskQueue: "q", RetryPolicy: &policy}})
		if want := "the schedule's workflow action (client.ScheduleWorkflowAction): " + bad.want; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("a schedule with %s: %v, want %q", name, err, want)
		}
	}
}
