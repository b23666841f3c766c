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
	options := &workflowpb.WorkflowExecutionOptions{VersioningOverride: clientapi.VersioningOverrideToProto(change.Value)}
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
