package testsuite_test

import (
	"strings"
	"testing"

	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/workflow"
)

func callsNexus(ctx workflow.Context) (string, error) {
	var out string
	err := workflow.NewNexusClient("orders-endpoint", "orders").
		ExecuteOperation(ctx, "reserve", "sku-1", workflow.NexusOperationOptions{}).Get(ctx, &out)
	return out, err
}

// TestNexusOperationsSayTheTestEnvironmentDoesNotRunThem: until the test
// environment runs Nexus operations, a workflow that calls one fails its
// workflow task with an error that says so and names the operation, rather
// than waiting forever.
func TestNexusOperationsSayTheTestEnvironmentDoesNotRunThem(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(callsNexus)
	env.ExecuteWorkflow(callsNexus)
	if !env.IsWorkflowCompleted() {
		t.Fatal("the workflow did not end")
	}
	err := env.GetWorkflowError()
	for _, want := range []string{`Nexus operation "reserve" of service "orders" at endpoint "orders-endpoint"`, "the test environment does not run Nexus operations yet"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("workflow error %v lacks %q", err, want)
		}
	}
}
