package testsuite_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/workflow"
)

func shout(_ context.Context, s string) (string, error) { return s + "!", nil }

func callsShoutByFunction(ctx workflow.Context) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute, RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1}})
	var got string
	err := workflow.ExecuteActivity(ctx, shout, "hey").Get(ctx, &got)
	return got, err
}

// A function registered under another name is scheduled by that name when
// workflow code passes the function; with aliasing disabled, by its
// function name, which nothing is registered under.
func TestRegistrationAliasing(t *testing.T) {
	for _, disabled := range []bool{false, true} {
		var s testsuite.WorkflowTestSuite
		s.SetDisableRegistrationAliasing(disabled)
		env := s.NewTestWorkflowEnvironment()
		env.RegisterActivityWithOptions(shout, activity.RegisterOptions{Name: "shout-v2"})
		env.RegisterWorkflow(callsShoutByFunction)
		env.ExecuteWorkflow(callsShoutByFunction)
		if disabled {
			require.ErrorContains(t, env.GetWorkflowError(), `"shout"`)
			continue
		}
		require.NoError(t, env.GetWorkflowError())
		var got string
		require.NoError(t, env.GetWorkflowResult(&got))
		require.Equal(t, "hey!", got)
	}
}
