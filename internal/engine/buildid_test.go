//lint:file-ignore SA1019 histories of older servers record the deprecated version fields.

package engine

import (
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	deploymentpb "go.temporal.io/api/deployment/v1"
	historypb "go.temporal.io/api/history/v1"
)

// The build ID a WorkflowTaskCompleted records, whichever field the
// server that wrote it used, newest first, as go.temporal.io/sdk reads it.
func TestRecordedBuildIDReadsEveryServersField(t *testing.T) {
	for _, c := range []struct {
		name  string
		attrs *historypb.WorkflowTaskCompletedEventAttributes
		want  string
	}{
		{"deployment version", &historypb.WorkflowTaskCompletedEventAttributes{
			DeploymentVersion:       &deploymentpb.WorkerDeploymentVersion{DeploymentName: "orders", BuildId: "v2"},
			WorkerDeploymentVersion: "orders.old", WorkerVersion: &commonpb.WorkerVersionStamp{BuildId: "stamp"}}, "v2"},
		{"version string", &historypb.WorkflowTaskCompletedEventAttributes{
			WorkerDeploymentVersion: "orders.v1.5", WorkerVersion: &commonpb.WorkerVersionStamp{BuildId: "stamp"}}, "v1.5"},
		{"version stamp", &historypb.WorkflowTaskCompletedEventAttributes{WorkerVersion: &commonpb.WorkerVersionStamp{BuildId: "stamp"}}, "stamp"},
		{"none", &historypb.WorkflowTaskCompletedEventAttributes{}, ""},
	} {
		if got := recordedBuildID(c.attrs); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
