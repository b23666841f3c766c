//lint:file-ignore SA1019 the deprecated override fields are part of the wire format under test.

package clientimpl

import (
	"testing"

	deploymentpb "go.temporal.io/api/deployment/v1"
	enumspb "go.temporal.io/api/enums/v1"
	workflowpb "go.temporal.io/api/workflow/v1"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/internal/chk"
	"github.com/durable-go/sdk/internal/clientapi"
)

func TestUpdateWorkflowExecutionOptionsRequest(t *testing.T) {
	version := clientapi.WorkerDeploymentVersion{DeploymentName: "orders", BuildID: "7"}
	change := func(v clientapi.VersioningOverride) clientapi.UpdateWorkflowExecutionOptionsRequest {
		return clientapi.UpdateWorkflowExecutionOptionsRequest{WorkflowId: "wf", RunId: "run",
			WorkflowExecutionOptionsChanges: clientapi.WorkflowExecutionOptionsChanges{VersioningOverride: &clientapi.VersioningOverrideChange{Value: v}}}
	}
	for _, tc := range []struct {
		name string
		in   clientapi.UpdateWorkflowExecutionOptionsRequest
		want *workflowpb.VersioningOverride
	}{
		{"auto-upgrade", change(&clientapi.AutoUpgradeVersioningOverride{}), &workflowpb.VersioningOverride{
			Override: &workflowpb.VersioningOverride_AutoUpgrade{AutoUpgrade: true},
			Behavior: enumspb.VERSIONING_BEHAVIOR_AUTO_UPGRADE,
		}},
		{"pinned", change(&clientapi.PinnedVersioningOverride{Version: version}), &workflowpb.VersioningOverride{
			Override: &workflowpb.VersioningOverride_Pinned{Pinned: &workflowpb.VersioningOverride_PinnedOverride{
				Behavior: workflowpb.VersioningOverride_PINNED_OVERRIDE_BEHAVIOR_PINNED,
				Version:  &deploymentpb.WorkerDeploymentVersion{DeploymentName: "orders", BuildId: "7"},
			}},
			Behavior:      enumspb.VERSIONING_BEHAVIOR_PINNED,
			PinnedVersion: "orders.7",
			Deployment:    &deploymentpb.Deployment{SeriesName: "orders", BuildId: "7"},
		}},
		{"one-time", change(&clientapi.OneTimeVersioningOverride{TargetVersion: version}), &workflowpb.VersioningOverride{
			Override: &workflowpb.VersioningOverride_OneTime{OneTime: &workflowpb.VersioningOverride_OneTimeOverride{
				TargetDeploymentVersion: &deploymentpb.WorkerDeploymentVersion{DeploymentName: "orders", BuildId: "7"},
			}},
		}},
		{"removed", change(nil), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := executionOptionsRequest(tc.in, "ns")
			chk.NoErr(t, err)
			chk.Equal(t, "ns", req.GetNamespace())
			chk.Equal(t, "wf", req.GetWorkflowExecution().GetWorkflowId())
			chk.Equal(t, "run", req.GetWorkflowExecution().GetRunId())
			chk.Equal(t, []string{"versioning_override"}, req.GetUpdateMask().GetPaths())
			if got := req.GetWorkflowExecutionOptions().GetVersioningOverride(); !proto.Equal(tc.want, got) {
				t.Errorf("override %v, want %v", got, tc.want)
			}
			// What is sent reads back as what was given.
			chk.Equal(t, tc.in.WorkflowExecutionOptionsChanges.VersioningOverride.Value, versioningOverrideFromProto(tc.want))
		})
	}

	_, err := executionOptionsRequest(clientapi.UpdateWorkflowExecutionOptionsRequest{WorkflowExecutionOptionsChanges: change(nil).WorkflowExecutionOptionsChanges}, "ns")
	chk.ErrContains(t, err, "WorkflowId is empty")
	_, err = executionOptionsRequest(clientapi.UpdateWorkflowExecutionOptionsRequest{WorkflowId: "wf"}, "ns")
	chk.ErrContains(t, err, "no change was given")
}

// TestVersioningOverrideFromOlderServers reads overrides that servers from
// before the Override oneof report in the deprecated fields.
func TestVersioningOverrideFromOlderServers(t *testing.T) {
	pinned := &clientapi.PinnedVersioningOverride{Version: clientapi.WorkerDeploymentVersion{DeploymentName: "orders", BuildID: "7.1"}}
	chk.Equal(t, &clientapi.AutoUpgradeVersioningOverride{}, versioningOverrideFromProto(&workflowpb.VersioningOverride{Behavior: enumspb.VERSIONING_BEHAVIOR_AUTO_UPGRADE}))
	// The build ID may hold dots; the deployment name may not.
	chk.Equal(t, pinned, versioningOverrideFromProto(&workflowpb.VersioningOverride{Behavior: enumspb.VERSIONING_BEHAVIOR_PINNED, PinnedVersion: "orders.7.1"}))
	chk.Equal(t, pinned, versioningOverrideFromProto(&workflowpb.VersioningOverride{Behavior: enumspb.VERSIONING_BEHAVIOR_PINNED,
		Deployment: &deploymentpb.Deployment{SeriesName: "orders", BuildId: "7.1"}}))
	chk.Nil(t, versioningOverrideFromProto(nil))
	chk.Nil(t, versioningOverrideFromProto(&workflowpb.VersioningOverride{}))
}
