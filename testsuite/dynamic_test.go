package testsuite_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// AnyWorkflow runs every workflow type nothing else is registered under:
// it calls an activity named after its type, which the dynamic activity
// runs.
func AnyWorkflow(ctx workflow.Context, args converter.EncodedValues) (string, error) {
	var name string
	var times int
	if err := args.Get(&name, &times); err != nil {
		return "", err
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var got string
	err := workflow.ExecuteActivity(ctx, "Greet"+workflow.GetInfo(ctx).WorkflowType.Name, name, times).Get(ctx, &got)
	return got, err
}

func AnyActivity(ctx context.Context, args converter.EncodedValues) (string, error) {
	var name string
	var times int
	if err := args.Get(&name, &times); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s: %s x%d", activity.GetInfo(ctx).ActivityType.Name, name, times), nil
}

func TestDynamicWorkflowsAndActivities(t *testing.T) {
	t.Parallel()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterDynamicWorkflow(AnyWorkflow, workflow.DynamicRegisterOptions{})
	env.RegisterDynamicActivity(AnyActivity, activity.DynamicRegisterOptions{})
	env.ExecuteWorkflow("Onboarding", "ann", 3)
	var got string
	require.NoError(t, env.GetWorkflowResult(&got))
	require.Equal(t, "GreetOnboarding: ann x3", got)

	h, err := env.GetHistory()
	require.NoError(t, err)
	replayer := worker.NewWorkflowReplayer()
	replayer.RegisterDynamicWorkflow(AnyWorkflow, workflow.DynamicRegisterOptions{})
	require.NoError(t, replayer.ReplayWorkflowHistory(nil, h))
}

func TestActivityEnvironmentRunsTheDynamicActivity(t *testing.T) {
	t.Parallel()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestActivityEnvironment()
	env.RegisterDynamicActivity(AnyActivity, activity.DynamicRegisterOptions{})
	v, err := env.ExecuteActivity("Anything", "bob", 2)
	require.NoError(t, err)
	var got string
	require.NoError(t, v.Get(&got))
	require.Equal(t, "Anything: bob x2", got)
}
