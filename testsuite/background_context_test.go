package testsuite_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

type dependencyKey struct{}

func readsDependency(ctx context.Context) (string, error) {
	v, _ := ctx.Value(dependencyKey{}).(string)
	return v, nil
}

// Tests hand activities their dependencies through the worker options'
// BackgroundActivityContext, in both environments.
func TestBackgroundActivityContextInTheTestEnvironments(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	background := context.WithValue(context.Background(), dependencyKey{}, "the database")

	aenv := s.NewTestActivityEnvironment()
	aenv.SetWorkerOptions(worker.Options{BackgroundActivityContext: background})
	aenv.RegisterActivity(readsDependency)
	v, err := aenv.ExecuteActivity(readsDependency)
	require.NoError(t, err)
	var got string
	require.NoError(t, v.Get(&got))
	require.Equal(t, "the database", got)

	wenv := s.NewTestWorkflowEnvironment()
	wenv.SetWorkerOptions(worker.Options{BackgroundActivityContext: background})
	wenv.RegisterActivity(readsDependency)
	wenv.RegisterWorkflowWithOptions(func(ctx workflow.Context) (string, error) {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
		var got string
		err := workflow.ExecuteActivity(ctx, readsDependency).Get(ctx, &got)
		return got, err
	}, workflow.RegisterOptions{Name: "readsDependencyWorkflow"})
	wenv.ExecuteWorkflow("readsDependencyWorkflow")
	require.NoError(t, wenv.GetWorkflowError())
	require.NoError(t, wenv.GetWorkflowResult(&got))
	require.Equal(t, "the database", got)
}
