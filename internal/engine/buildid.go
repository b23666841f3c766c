package engine

import (
	"strings"

	historypb "go.temporal.io/api/history/v1"
)

// recordedBuildID is the build ID of the worker that completed a workflow
// task, as its WorkflowTaskCompleted records it: the deployment version's
// (newest servers), else the build ID part of the deprecated
// "deployment.build" version string, else the deprecated version stamp's.
func recordedBuildID(a *historypb.WorkflowTaskCompletedEventAttributes) string {
	if id := a.GetDeploymentVersion().GetBuildId(); id != "" {
		return id
	}
	//lint:ignore SA1019 histories of servers before deployment versions record the version as a string.
	if _, id, ok := strings.Cut(a.GetWorkerDeploymentVersion(), "."); ok && id != "" {
		return id
	}
	//lint:ignore SA1019 histories of build-ID versioning record the version stamp.
	return a.GetWorkerVersion().GetBuildId()
}
