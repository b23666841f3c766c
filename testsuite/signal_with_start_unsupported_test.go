package testsuite_test

import (
	"strings"
	"testing"

	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/workflow"
)

func signalWithStartsTarget(ctx workflow.Context) error {
	return workflow.SignalWithStartWorkflow(ctx, workflow.SignalWithStartWorkflowOptions{}, "target-1", "sig", "hello", "TargetWorkflow").Get(ctx, nil)
}

// TestSignalWithStartWorkflowSaysTheTestEnvironmentDoesNotRunIt: the
// server runs workflow.SignalWithStartWorkflow as a Nexus operation of its
// own endpoint; until the test environment runs Nexus operations, a
// workflow that calls it fails its workflow task with an error that says
// so and names the call, as other Nexus operations do, rather than waiting
// forever.
func TestSignalWithStartWorkflowSaysTheTestEnvironmentDoesNotRunIt(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(signalWithStartsTarget)
	env.ExecuteWorkflow(signalWithStartsTarget)
	if !env.IsWorkflowCompleted() {
		t.Fatal("the workflow did not end")
	}
	err := env.GetWorkflowError()
	for _, want := range []string{"workflow.SignalWithStartWorkflow", `"__temporal_system"`, "the test environment does not run the server's own Nexus operations", "dev server"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("workflow error %v lacks %q", err, want)
		}
	}
}
