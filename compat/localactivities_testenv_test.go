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

// TestTheTestEnvironmentsWorkflowTaskTimeout pins a difference between the
// two test environments that changes how local activities retry there.
// go.temporal.io/sdk's takes the workflow task timeout of
// SetStartWorkflowOptions (1s when not set) and retries every failed local
// activity through a workflow timer on its virtual clock. This SDK's
// always runs with a workflow task timeout of 10s and, like a worker,
// retries a local activity inside the task, in real time, when the
// backoff fits in that timeout: a 1.5s backoff is a timer on a worker whose
// task timeout is 1s, but a real 1.5s wait in this test environment.
func TestTheTestEnvironmentsWorkflowTaskTimeout(t *testing.T) {
	for _, set := range []time.Duration{0, time.Second} {
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
		wantThere := set
		if set == 0 {
			wantThere = time.Second
		}
		if there != wantThere || here != 10*time.Second {
			t.Errorf("StartWorkflowOptions.WorkflowTaskTimeout %v: the official test environment runs with %v (want %v), this one with %v (want 10s); "+
				"if this SDK now follows the options, retire this test and the exceptions of TestLocalActivitiesRecordTheSameHistoriesOnBothSDKs",
				set, there, wantThere, here)
		}
	}
}
