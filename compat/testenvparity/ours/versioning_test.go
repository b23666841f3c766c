package parity

import (
	"errors"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// deploymentInfo is what a workflow sees of the worker deployment it runs
// on.
type deploymentInfo struct {
	BuildID       string
	TargetChanged bool
}

func readDeploymentInfo(ctx workflow.Context) (deploymentInfo, error) {
	info := workflow.GetInfo(ctx)
	return deploymentInfo{BuildID: info.GetCurrentBuildID(), TargetChanged: info.GetTargetWorkerDeploymentVersionChanged()}, nil
}

// A workflow registered with a versioning behavior runs in the test
// environment as any other; it runs on no worker deployment, so its
// current build ID is empty, and the version change the server would
// signal is what the test sets.
func (s *ParitySuite) TestAVersionedWorkflowSeesNoBuildIDAndTheTargetChangeTheTestSets() {
	s.env.RegisterWorkflowWithOptions(readDeploymentInfo, workflow.RegisterOptions{Name: "Pinned", VersioningBehavior: workflow.VersioningBehaviorPinned})
	s.env.SetTargetWorkerDeploymentVersionChanged(true)
	s.env.ExecuteWorkflow("Pinned")
	s.Require().NoError(s.env.GetWorkflowError())
	var got deploymentInfo
	s.Require().NoError(s.env.GetWorkflowResult(&got))
	s.Equal(deploymentInfo{BuildID: "", TargetChanged: true}, got)
}

// continueAutoUpgrading continues as new, asking for the new run to start
// on the current version.
func continueAutoUpgrading(ctx workflow.Context) error {
	return workflow.NewContinueAsNewErrorWithOptions(ctx, workflow.ContinueAsNewErrorOptions{
		InitialVersioningBehavior: workflow.ContinueAsNewVersioningBehaviorAutoUpgrade,
	}, "ContinueAutoUpgrading")
}

// The continue-as-new error the test's workflow ends with carries its
// initial versioning behavior.
func (s *ParitySuite) TestContinueAsNewCarriesItsInitialVersioningBehavior() {
	s.env.RegisterWorkflowWithOptions(continueAutoUpgrading, workflow.RegisterOptions{Name: "ContinueAutoUpgrading"})
	s.env.ExecuteWorkflow("ContinueAutoUpgrading")
	var canErr *workflow.ContinueAsNewError
	s.Require().True(errors.As(s.env.GetWorkflowError(), &canErr), "%v", s.env.GetWorkflowError())
	s.Equal(workflow.ContinueAsNewVersioningBehavior(workflow.ContinueAsNewVersioningBehaviorAutoUpgrade), canErr.InitialVersioningBehavior)
}

// pinnedChild starts readDeploymentInfo as a child pinned to a version.
func pinnedChild(ctx workflow.Context) (deploymentInfo, error) {
	ctx = workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{VersioningOverride: &client.PinnedVersioningOverride{
		Version: worker.WorkerDeploymentVersion{DeploymentName: "orders", BuildID: "v1"},
	}})
	var info deploymentInfo
	err := workflow.ExecuteChildWorkflow(ctx, "DeploymentInfo").Get(ctx, &info)
	return info, err
}

// A child started with a versioning override runs in the test
// environment, which has no versions to pin it to.
func (s *ParitySuite) TestAChildWithAVersioningOverrideRuns() {
	s.env.RegisterWorkflowWithOptions(readDeploymentInfo, workflow.RegisterOptions{Name: "DeploymentInfo"})
	s.env.RegisterWorkflow(pinnedChild)
	s.env.ExecuteWorkflow(pinnedChild)
	s.Require().NoError(s.env.GetWorkflowError())
	var got deploymentInfo
	s.Require().NoError(s.env.GetWorkflowResult(&got))
	s.Equal(deploymentInfo{}, got)
}
