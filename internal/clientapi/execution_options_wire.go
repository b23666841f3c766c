package clientapi

import (
	deploymentpb "go.temporal.io/api/deployment/v1"
	enumspb "go.temporal.io/api/enums/v1"
	workflowpb "go.temporal.io/api/workflow/v1"
)

// VersioningOverrideToProto is the message of an override; nil for none.
// The client's starts, schedules and execution options send it, and so
// does a workflow's child start. The messages also fill in the fields
// that servers from before the Override oneof read (behavior,
// "deployment.build" version string, deployment), as go.temporal.io/sdk
// does.
func VersioningOverrideToProto(o VersioningOverride) *workflowpb.VersioningOverride {
	switch o := o.(type) {
	case *PinnedVersioningOverride:
		return &workflowpb.VersioningOverride{
			Override: &workflowpb.VersioningOverride_Pinned{Pinned: &workflowpb.VersioningOverride_PinnedOverride{
				Behavior: workflowpb.VersioningOverride_PINNED_OVERRIDE_BEHAVIOR_PINNED,
				Version:  &deploymentpb.WorkerDeploymentVersion{DeploymentName: o.Version.DeploymentName, BuildId: o.Version.BuildID},
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
				TargetDeploymentVersion: &deploymentpb.WorkerDeploymentVersion{DeploymentName: o.TargetVersion.DeploymentName, BuildId: o.TargetVersion.BuildID},
			}},
		}
	}
	return nil
}
