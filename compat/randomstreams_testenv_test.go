package compat

import (
	"fmt"
	"testing"
	"time"

	officialtestsuite "go.temporal.io/sdk/testsuite"
	officialworkflow "go.temporal.io/sdk/workflow"

	ourtestsuite "github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/workflow"
)

// TestRandomStreamsInBothTestEnvironments: both test environments give a
// run the same run ID, so a workflow's random streams draw the same values
// in both, across a timer (a second workflow task), with Read and Uint64
// interleaved and a stream asked for again by name going on where it was.
func TestRandomStreamsInBothTestEnvironments(t *testing.T) {
	var ours ourtestsuite.WorkflowTestSuite
	env := ours.NewTestWorkflowEnvironment()
	env.ExecuteWorkflow(func(ctx workflow.Context) (string, error) {
		a, b := workflow.GetRandomStream(ctx, "compat/a"), workflow.GetRandomStream(ctx, "compat/b")
		word := make([]byte, 7)
		a.Read(word)
		first := fmt.Sprintf("%x %x %x", word, a.Uint64(), b.Uint64())
		if err := workflow.Sleep(ctx, time.Minute); err != nil {
			return "", err
		}
		return fmt.Sprintf("%s | %x %x", first, workflow.GetRandomStream(ctx, "compat/a").Uint64(), b.Uint64()), nil
	})
	var here string
	if err := env.GetWorkflowResult(&here); err != nil {
		t.Fatal(err)
	}

	var official officialtestsuite.WorkflowTestSuite
	oenv := official.NewTestWorkflowEnvironment()
	oenv.ExecuteWorkflow(func(ctx officialworkflow.Context) (string, error) {
		a, b := officialworkflow.GetRandomStream(ctx, "compat/a"), officialworkflow.GetRandomStream(ctx, "compat/b")
		word := make([]byte, 7)
		a.Read(word)
		first := fmt.Sprintf("%x %x %x", word, a.Uint64(), b.Uint64())
		if err := officialworkflow.Sleep(ctx, time.Minute); err != nil {
			return "", err
		}
		return fmt.Sprintf("%s | %x %x", first, officialworkflow.GetRandomStream(ctx, "compat/a").Uint64(), b.Uint64()), nil
	})
	var there string
	if err := oenv.GetWorkflowResult(&there); err != nil {
		t.Fatal(err)
	}
	if here != there {
		t.Fatalf("draws in this SDK's test environment:\n  %s\nin go.temporal.io/sdk's:\n  %s", here, there)
	}
	t.Logf("both: %s", here)
}
