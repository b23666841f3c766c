package compat

import (
	"testing"
	"time"

	officialclient "go.temporal.io/sdk/client"
	officialtestsuite "go.temporal.io/sdk/testsuite"
	officialworkflow "go.temporal.io/sdk/workflow"

	"github.com/durable-go/sdk/client"
	ourtestsuite "github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/workflow"
)

// TestTheTestEnvironmentsWorkflowTaskTimeout: both test environments run
// a workflow with the workflow task timeout of SetStartWorkflowOptions,
// 1s when it sets none. The timeout decides how a local activity retries
// there: inside the task when its backoff fits, on a timer of the virtual
// clock when it does not.
func TestTheTestEnvironmentsWorkflowTaskTimeout(t *testing.T) {
	for _, set := range []time.Duration{0, 3 * time.Second} {
		var ours ourtestsuite.WorkflowTestSuite
		env := ours.NewTestWorkflowEnvironment()
		env.SetStartWorkflowOptions(client.StartWorkflowOptions{WorkflowTaskTimeout: set})
		env.ExecuteWorkflow(func(ctx workflow.Context) (time.Duration, error) {
			return workflow.GetInfo(ctx).WorkflowTaskTimeout, nil
		})
		var here time.Duration
		if err := env.GetWorkflowResult(&here); err != nil {
			t.Fatal(err)
		}

		var official officialtestsuite.WorkflowTestSuite
		oenv := official.NewTestWorkflowEnvironment()
		oenv.SetStartWorkflowOptions(officialclient.StartWorkflowOptions{WorkflowTaskTimeout: set})
		oenv.ExecuteWorkflow(func(ctx officialworkflow.Context) (time.Duration, error) {
			return officialworkflow.GetInfo(ctx).WorkflowTaskTimeout, nil
		})
		var there time.Duration
		if err := oenv.GetWorkflowResult(&there); err != nil {
			t.Fatal(err)
		}
		want := set
		if set == 0 {
			want = time.Second
		}
		if there != want || here != want {
			t.Errorf("StartWorkflowOptions.WorkflowTaskTimeout %v: the official test environment runs with %v, this one with %v; want %v",
				set, there, here, want)
		}
	}
}
