package registrar

import (
	"testing"
	"time"

	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/workflow"
)

func TestWorkflow(t *testing.T) { // want TestWorkflow:"nondeterministic"
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(func(ctx workflow.Context) error {
		_ = time.Now() // want `time.Now called: TestWorkflow.func1; use workflow.Now`
		return nil
	})
	start := time.Now() // test code, not a workflow
	env.ExecuteWorkflow("x")
	t.Log(time.Since(start))
}

// Literals are named as the toolchain names them, counting the callbacks
// that are not workflow code.
func TestLiteralNames(t *testing.T) { // want TestLiteralNames:"nondeterministic"
	_ = workflow.SideEffect(nil, func(ctx workflow.Context) any { return 1 })
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(func(ctx workflow.Context) error {
		time.Sleep(time.Second) // want `time.Sleep called: TestLiteralNames.func2;`
		return nil
	})
}
