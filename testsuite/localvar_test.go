package testsuite_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/workflow"
)

// localVarWorkflow keeps a counter in a LocalVar that a copy of the handle
// and a query see; a second query tries to change it.
func localVarWorkflow(ctx workflow.Context) (int, error) {
	counter := workflow.NewLocalVar[int](ctx)
	if got := counter.Get(ctx); got != 0 {
		return -1, nil // not T's zero value before Set
	}
	copyOfHandle := counter
	if err := workflow.SetQueryHandler(ctx, "counter", func() (int, error) { return copyOfHandle.Get(ctx), nil }); err != nil {
		return 0, err
	}
	if err := workflow.SetQueryHandler(ctx, "reset", func() (int, error) { counter.Set(ctx, 0); return 0, nil }); err != nil {
		return 0, err
	}
	for range 3 {
		counter.Set(ctx, counter.Get(ctx)+1)
		if err := workflow.Sleep(ctx, time.Minute); err != nil {
			return 0, err
		}
	}
	return copyOfHandle.Get(ctx), nil
}

func TestLocalVar(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(localVarWorkflow)
	env.RegisterDelayedCallback(func() {
		v, err := env.QueryWorkflow("counter")
		require.NoError(t, err)
		var n int
		require.NoError(t, v.Get(&n))
		require.Equal(t, 2, n, "the query's copy of the handle sees the value set")
		_, err = env.QueryWorkflow("reset")
		require.ErrorContains(t, err, "LocalVar", "a query handler must not change workflow state")
	}, 90*time.Second)
	env.ExecuteWorkflow(localVarWorkflow)
	require.NoError(t, env.GetWorkflowError())
	var result int
	require.NoError(t, env.GetWorkflowResult(&result))
	require.Equal(t, 3, result)
}

func zeroLocalVarWorkflow(ctx workflow.Context) error {
	var v workflow.LocalVar[string]
	v.Get(ctx)
	return nil
}

func TestTheZeroLocalVarPanicsWithWhatToDo(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(zeroLocalVarWorkflow)
	env.ExecuteWorkflow(zeroLocalVarWorkflow)
	require.ErrorContains(t, env.GetWorkflowError(), "workflow.NewLocalVar(ctx)")
}
