package internal

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
)

// The options of a running workflow execution that can be changed after
// its start (Client.UpdateWorkflowExecutionOptions): today, its versioning
// override.

type (
	// UpdateWorkflowExecutionOptionsRequest asks to change the options of
	// a workflow execution (client.UpdateWorkflowExecutionOptionsRequest).
	UpdateWorkflowExecutionOptionsRequest struct {
		// WorkflowId is the workflow's ID; required.
		WorkflowId string
		// RunId is the run to change; the workflow's current run when empty.
		RunId string
		// WorkflowExecutionOptionsChanges are the changes; at least one is
		// required.
		WorkflowExecutionOptionsChanges WorkflowExecutionOptionsChanges
	}

	// WorkflowExecutionOptions are the options of a workflow execution
	// that can change while it runs (client.WorkflowExecutionOptions).
	WorkflowExecutionOptions struct {
		// VersioningOverride, when set, routes the workflow's tasks by
		// itself instead of the versioning behavior its code declares.
		VersioningOverride VersioningOverride
	}

	// WorkflowExecutionOptionsChanges are changes to WorkflowExecutionOptions
	// (client.WorkflowExecutionOptionsChanges); a nil field changes
	// nothing.
	WorkflowExecutionOptionsChanges struct {
		// VersioningOverride, when not nil, sets the override to its Value,
		// or removes the override when Value is nil.
		VersioningOverride *VersioningOverrideChange
	}

	// VersioningOverrideChange sets (a Value) or removes (a nil Value) a
	// workflow's versioning override (client.VersioningOverrideChange).
	VersioningOverrideChange struct {
		Value VersioningOverride
	}

	// VersioningOverride says which worker deployment version runs a
	// workflow's tasks, whatever its code declares
	// (client.VersioningOverride): *PinnedVersioningOverride,
	// *AutoUpgradeVersioningOverride or *OneTimeVersioningOverride.
	VersioningOverride interface {
		isVersioningOverride()
	}

	// PinnedVersioningOverride pins the workflow to one worker deployment
	// version (client.PinnedVersioningOverride).
	PinnedVersioningOverride struct {
		Version WorkerDeploymentVersion
	}

	// AutoUpgradeVersioningOverride moves the workflow to its deployment's
	// current version at its next workflow task
	// (client.AutoUpgradeVersioningOverride).
	AutoUpgradeVersioningOverride struct{}

	// OneTimeVersioningOverride sends the workflow's next workflow task to
	// a version; once a task completes there the override is gone
	// (client.OneTimeVersioningOverride).
	OneTimeVersioningOverride struct {
		TargetVersion WorkerDeploymentVersion
	}

	// WorkerDeploymentVersion names a version of a worker deployment: the
	// deployment and the build ID of its workers
	// (worker.WorkerDeploymentVersion).
	WorkerDeploymentVersion struct {
		DeploymentName string
		BuildID        string
	}
)

func (*PinnedVersioningOverride) isVersioningOverride()      {}
func (*AutoUpgradeVersioningOverride) isVersioningOverride() {}
func (*OneTimeVersioningOverride) isVersioningOverride()     {}

func deploymentVersionToProto(v WorkerDeploymentVersion) *deploymentpb.WorkerDeploymentVersion {
	return &deploymentpb.WorkerDeploymentVersion{DeploymentName: v.DeploymentName, BuildId: v.BuildID}
}

// versioningOverrideToProto is the message of an override; nil for none.
// The messages also fill in the fields that servers from before the
// Override oneof read (behavior, "deployment.build" version string,
// deployment), as go.temporal.io/sdk does.
func versioningOverrideToProto(o VersioningOverride) *workflowpb.VersioningOverride {
	switch o := o.(type) {
	case *PinnedVersioningOverride:
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
	case *AutoUpgradeVersioningOverride:
		return &workflowpb.VersioningOverride{
			Override: &workflowpb.VersioningOverride_AutoUpgrade{AutoUpgrade: true},
			//lint:ignore SA1019 set for servers from before the Override oneof
			Behavior: enumspb.VERSIONING_BEHAVIOR_AUTO_UPGRADE,
		}
	case *OneTimeVersioningOverride:
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
func versioningOverrideFromProto(p *workflowpb.VersioningOverride) VersioningOverride {
	switch o := p.GetOverride().(type) {
	case *workflowpb.VersioningOverride_AutoUpgrade:
		return &AutoUpgradeVersioningOverride{}
	case *workflowpb.VersioningOverride_Pinned:
		v := o.Pinned.GetVersion()
		return &PinnedVersioningOverride{Version: WorkerDeploymentVersion{DeploymentName: v.GetDeploymentName(), BuildID: v.GetBuildId()}}
	case *workflowpb.VersioningOverride_OneTime:
		v := o.OneTime.GetTargetDeploymentVersion()
		return &OneTimeVersioningOverride{TargetVersion: WorkerDeploymentVersion{DeploymentName: v.GetDeploymentName(), BuildID: v.GetBuildId()}}
	}
	//lint:ignore SA1019 older servers report only the deprecated fields.
	switch p.GetBehavior() {
	case enumspb.VERSIONING_BEHAVIOR_AUTO_UPGRADE:
		return &AutoUpgradeVersioningOverride{}
	case enumspb.VERSIONING_BEHAVIOR_PINNED:
		//lint:ignore SA1019 older servers report only the deprecated fields.
		if name, build, ok := strings.Cut(p.GetPinnedVersion(), "."); ok {
			return &PinnedVersioningOverride{Version: WorkerDeploymentVersion{DeploymentName: name, BuildID: build}}
		}
		//lint:ignore SA1019 older servers report only the deprecated fields.
		d := p.GetDeployment()
		return &PinnedVersioningOverride{Version: WorkerDeploymentVersion{DeploymentName: d.GetSeriesName(), BuildID: d.GetBuildId()}}
	}
	return nil
}

// executionOptionsRequest builds the service request, or says what is
// missing.
func executionOptionsRequest(r UpdateWorkflowExecutionOptionsRequest, namespace string) (*workflowservice.UpdateWorkflowExecutionOptionsRequest, error) {
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
func (c *workflowClient) UpdateWorkflowExecutionOptions(ctx context.Context, request UpdateWorkflowExecutionOptionsRequest) (WorkflowExecutionOptions, error) {
	req, err := executionOptionsRequest(request, c.namespace)
	if err != nil {
		return WorkflowExecutionOptions{}, err
	}
	if err := c.ensureInitialized(ctx); err != nil {
		return WorkflowExecutionOptions{}, err
	}
	resp, err := c.service.UpdateWorkflowExecutionOptions(ctx, req)
	if err != nil {
		return WorkflowExecutionOptions{}, wrapCallError(err, "updating the options of workflow %q (run %q)", request.WorkflowId, request.RunId)
	}
	return WorkflowExecutionOptions{
		VersioningOverride: versioningOverrideFromProto(resp.GetWorkflowExecutionOptions().GetVersioningOverride()),
	}, nil
}
