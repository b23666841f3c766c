package testsuite_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// VersionsChosenWorkflow asks GetVersion about three changes, one twice.
func VersionsChosenWorkflow(ctx workflow.Context) (string, error) {
	a := workflow.GetVersion(ctx, "keep-old", workflow.DefaultVersion, 2)
	b := workflow.GetVersion(ctx, "clamped", workflow.DefaultVersion, 2)
	c := workflow.GetVersion(ctx, "no-preference", 1, 3)
	again := workflow.GetVersion(ctx, "keep-old", workflow.DefaultVersion, 2)
	return fmt.Sprint(a, b, c, again), nil
}

func TestPreferredVersionProviderChoosesTheFirstRecordedVersion(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment().SetReplayCheck(true)
	var asked []string
	env.SetWorkerOptions(worker.Options{PreferredVersionProvider: func(in worker.PreferredVersionProviderInput) *worker.VersionPreference {
		asked = append(asked, fmt.Sprintf("%s[%d,%d] by %s", in.ChangeID, in.MinSupported, in.MaxSupported, in.WorkflowInfo.WorkflowType.Name))
		switch in.ChangeID {
		case "keep-old":
			return &worker.VersionPreference{Version: workflow.DefaultVersion}
		case "clamped":
			return &worker.VersionPreference{Version: 7, ClampToSupportedRange: true}
		}
		return nil
	}})
	env.RegisterWorkflow(VersionsChosenWorkflow)
	env.ExecuteWorkflow(VersionsChosenWorkflow)
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var result string
	if err := env.GetWorkflowResult(&result); err != nil || result != "-1 2 3 -1" {
		t.Errorf("versions %q (%v), want -1 2 3 -1", result, err)
	}
	// Once per change, and never in the replay check's replay.
	want := "keep-old[-1,2] by VersionsChosenWorkflow clamped[-1,2] by VersionsChosenWorkflow no-preference[1,3] by VersionsChosenWorkflow"
	if got := strings.Join(asked, " "); got != want {
		t.Errorf("the provider was asked:\n %s\nwant\n %s", got, want)
	}
}

func TestPreferredVersionOutOfRangeFailsTheWorkflowTask(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetWorkerOptions(worker.Options{PreferredVersionProvider: func(worker.PreferredVersionProviderInput) *worker.VersionPreference {
		return &worker.VersionPreference{Version: 9}
	}})
	env.RegisterWorkflow(VersionsChosenWorkflow)
	env.ExecuteWorkflow(VersionsChosenWorkflow)
	err := env.GetWorkflowError()
	if err == nil || !strings.Contains(err.Error(), `GetVersion("keep-old"): the worker's PreferredVersionProvider chose version 9, but the code supports only versions -1 to 2`) {
		t.Errorf("workflow error %v, want the out-of-range preference named", err)
	}
}
