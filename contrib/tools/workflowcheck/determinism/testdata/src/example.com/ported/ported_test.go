package ported

import (
	"testing"
	"time"

	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"
)

func TestPorted(t *testing.T) { // want TestPorted:"nondeterministic"
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflowWithOptions(func(ctx workflow.Context) error {
		time.Sleep(time.Millisecond) // want `time.Sleep called: TestPorted.func1`
		return nil
	}, workflow.RegisterOptions{Name: "sleepy"})
}
