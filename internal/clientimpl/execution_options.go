package clientimpl

import (
	"context"
	"errors"
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	deploymentpb "go.temporal.io/api/deployment/v1"
	enumspb "go.temporal.io/api/enums/v1"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	"github.com/durable-go/sdk/internal/clientapi"
)

func deploymentVersionToProto(v clientapi.WorkerDeploymentVersion) *deploymentpb.WorkerDeploymentVersion {
	return &deploymentpb.WorkerDeploymentVersion{DeploymentName: v.DeploymentName, BuildId: v.BuildID}
}

// versioningOverrideToProto is the message of an override; nil for none.
// The messages also fill in the fields that servers from before the
// Override oneof read (behavior, "deployment.build" version string,
// deployment), as go.temporal.io/sdk does.
func versioningOverrideToProto(o clientapi.VersioningOverride) *workflowpb.VersioningOverride {
	switch o := o.(type) {
	case *clientapi.PinnedVersioningOverride:
		return &workflowpb.VersioningOverride{
			Override: &workflowpb.VersioningOverride_Pinned{Pinned: &workflowpb.VersioningOverride_PinnedOverride{
				Behavior: workflowpb.VersioningOverride_PINNED_OVERRIDE_BEHAVIOR_PINNED,
				Version:  deploymentVersionToProto(o.Version),
			}},
			//lint:ignore SA1019 set for servers from before the Override oneof
			Behavior: enumspb.VERSIONING_BEHAVIOR_PINNED,
			//lint:ignore SA1019 set for servers from before the Override oneof
			PinnedVersion: o.Version.DeploymentName + "." + o.Version.BuildID,
			//lint:ignore SA1019 set for servers from before the Override oneof
			Deployment: &deploymentpb.Deployment{SeriesName: o.Version.DeploymentName, BuildId: o.Version.BuildID},
		}
	case *clientapi.AutoUpgradeVersioningOverride:
		return &workflowpb.VersioningOverride{
			Override: &workflowpb.VersioningOverride_AutoUpgrade{AutoUpgrade: true},
			//lint:ignore SA1019 set for servers from before the Override oneof
			Behavior: enumspb.VERSIONING_BEHAVIOR_AUTO_UPGRADE,
		}
	case *clientapi.OneTimeVersioningOverride:
		return &workflowpb.VersioningOverride{
			Override: &workflowpb.VersioningOverride_OneTime{OneTime: &workflowpb.VersioningOverride_OneTimeOverride{
				TargetDeploymentVersion: deploymentVersionToProto(o.TargetVersion),
			}},
		}
	}
	return nil
}

// versioningOverrideFromProto reads an override as the server reports it,
// from the Override oneof or, from older servers, the deprecated fields.
func versioningOverrideFromProto(p *workflowpb.VersioningOverride) clientapi.VersioningOverride {
	switch o := p.GetOverride().(type) {
	case *workflowpb.VersioningOverride_AutoUpgrade:
		return &clientapi.AutoUpgradeVersioningOverride{}
	case *workflowpb.VersioningOverride_Pinned:
		v := o.Pinned.GetVersion()
		return &clientapi.PinnedVersioningOverride{Version: clientapi.WorkerDeploymentVersion{DeploymentName: v.GetDeploymentName(), BuildID: v.GetBuildId()}}
	case *workflowpb.VersioningOverride_OneTime:
		v := o.OneTime.GetTargetDeploymentVersion()
		return &clientapi.OneTimeVersioningOverride{TargetVersion: clientapi.WorkerDeploymentVersion{DeploymentName: v.GetDeploymentName(), BuildID: v.GetBuildId()}}
	}
	//lint:ignore SA1019 older servers report only the deprecated fields.
	switch p.GetBehavior() {
	case enumspb.VERSIONING_BEHAVIOR_AUTO_UPGRADE:
		return &clientapi.AutoUpgradeVersioningOverride{}
	case enumspb.VERSIONING_BEHAVIOR_PINNED:
		//lint:ignore SA1019 older servers report only the deprecated fields.
		if name, build, ok := strings.Cut(p.GetPinnedVersion(), "."); ok {
			return &clientapi.PinnedVersioningOverride{Version: clientapi.WorkerDeploymentVersion{DeploymentName: name, BuildID: build}}
		}
		//lint:ignore SA1019 older servers report only the deprecated fields.
		d := p.GetDeployment()
		return &clientapi.PinnedVersioningOverride{Version: clientapi.WorkerDeploymentVersion{DeploymentName: d.GetSeriesName(), BuildID: d.GetBuildId()}}
	}
	return nil
}

// executionOptionsRequest builds the service request, or says what is
// missing.
func executionOptionsRequest(r clientapi.UpdateWorkflowExecutionOptionsRequest, namespace string) (*workflowservice.UpdateWorkflowExecutionOptionsRequest, error) {
	if r.WorkflowId == "" {
		return nil, errors.New("UpdateWorkflowExecutionOptions: WorkflowId is empty; name the workflow to change")
	}
	change := r.WorkflowExecutionOptionsChanges.VersioningOverride
	if change == nil {
		return nil, errors.New("UpdateWorkflowExecutionOptions: no change was given; set WorkflowExecutionOptionsChanges.VersioningOverride")
	}
	options := &workflowpb.WorkflowExecutionOptions{VersioningOverride: versioningOverrideToProto(change.Value)}
	return &workflowservice.UpdateWorkflowExecutionOptionsRequest{
		Namespace:                namespace,
		WorkflowExecution:        &commonpb.WorkflowExecution{WorkflowId: r.WorkflowId, RunId: r.RunId},
		WorkflowExecutionOptions: options,
		// Only the fields named change; a named field left empty is cleared.
		UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"versioning_override"}},
	}, nil
}

// UpdateWorkflowExecutionOptions implements Client.
func (c *workflowClient) UpdateWorkflowExecutionOptions(ctx context.Context, request clientapi.UpdateWorkflowExecutionOptionsRequest) (clientapi.WorkflowExecutionOptions, error) {
	req, err := executionOptionsRequest(request, c.namespace)
	if err != nil {
		return clientapi.WorkflowExecutionOptions{}, err
	}
	if err := c.ensureInitialized(ctx); err != nil {
		return clientapi.WorkflowExecutionOptions{}, err
	}
	resp, err := c.service.UpdateWorkflowExecutionOptions(ctx, req)
	if err != nil {
		return clientapi.WorkflowExecutionOptions{}, wrapCallError(err, "updating the options of workflow %q (run %q)", request.WorkflowId, request.RunId)
	}
	return clientapi.WorkflowExecutionOptions{
		VersioningOverride: versioningOverrideFromProto(resp.GetWorkflowExecutionOptions().GetVersioningOverride()),
	}, nil
}
