//lint:file-ignore SA1019 go.temporal.io/sdk still sends the deprecated build-ID and deployment fields, for servers before deployment options.

package workerrt

import (
	commonpb "go.temporal.io/api/common/v1"
	deploymentpb "go.temporal.io/api/deployment/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
)

// Versioning is what a worker tells the server of its version, in its
// polls and in the reports of its tasks, as go.temporal.io/sdk tells it:
// every worker sends its build ID (the binary checksum when it has no
// other), a versioned one says so, and one with a deployment version
// names it.
type Versioning struct {
	// BuildID is the worker's build ID: its deployment version's, the
	// deprecated worker.Options.BuildID, or the binary checksum.
	BuildID string
	// UseVersioning: the worker takes only the tasks the server routes to
	// its version (DeploymentOptions.UseVersioning, or the deprecated
	// UseBuildIDForVersioning).
	UseVersioning bool
	// DeploymentName is the deployment of Version ("" without one).
	DeploymentName string
	// Version is the worker's deployment version; nil: none.
	Version *DeploymentVersion
	// BehaviorOf returns the versioning behavior a workflow task of a
	// type reports on completion; nil (a worker neither versioned nor
	// with a version) reports none.
	BehaviorOf func(workflowType string) enumspb.VersioningBehavior
}

// DeploymentVersion names a worker deployment version.
type DeploymentVersion struct {
	DeploymentName, BuildID string
}

// versioningWire is Versioning as the requests carry it, built once:
// the requests share these messages, which nothing modifies.
type versioningWire struct {
	capabilities *commonpb.WorkerVersionCapabilities // polls
	stamp        *commonpb.WorkerVersionStamp        // task reports
	deployment   *deploymentpb.Deployment            // task reports
	options      *deploymentpb.WorkerDeploymentOptions
	behaviorOf   func(workflowType string) enumspb.VersioningBehavior
}

func newVersioningWire(v Versioning) versioningWire {
	w := versioningWire{
		capabilities: &commonpb.WorkerVersionCapabilities{BuildId: v.BuildID, UseVersioning: v.UseVersioning, DeploymentSeriesName: v.DeploymentName},
		stamp:        &commonpb.WorkerVersionStamp{BuildId: v.BuildID, UseVersioning: v.UseVersioning},
		deployment:   &deploymentpb.Deployment{BuildId: v.BuildID, SeriesName: v.DeploymentName},
		behaviorOf:   v.BehaviorOf,
	}
	if v.Version != nil {
		mode := enumspb.WORKER_VERSIONING_MODE_UNVERSIONED
		if v.UseVersioning {
			mode = enumspb.WORKER_VERSIONING_MODE_VERSIONED
		}
		w.options = &deploymentpb.WorkerDeploymentOptions{DeploymentName: v.Version.DeploymentName, BuildId: v.Version.BuildID, WorkerVersioningMode: mode}
	}
	return w
}

// behavior is the versioning behavior a completed task of workflowType
// reports.
func (w *versioningWire) behavior(workflowType string) enumspb.VersioningBehavior {
	if w.behaviorOf == nil {
		return enumspb.VERSIONING_BEHAVIOR_UNSPECIFIED
	}
	return w.behaviorOf(workflowType)
}

// EagerDeploymentOptions are the deployment options a start that asks
// for eager execution on this worker sends (nil: none), as
// go.temporal.io/sdk sends them: the server then records the first task
// as this worker's version's.
func (w *Worker) EagerDeploymentOptions() *deploymentpb.WorkerDeploymentOptions {
	return w.versioning.options
}

// stampWorkflowTaskCompletion adds the worker's version to a workflow
// task's completion, with the versioning behavior of its type when the
// worker is versioned or names a version.
func (w *Worker) stampWorkflowTaskCompletion(req *workflowservice.RespondWorkflowTaskCompletedRequest, workflowType string) {
	req.WorkerVersionStamp = w.versioning.stamp
	req.Deployment = w.versioning.deployment
	req.DeploymentOptions = w.versioning.options
	req.VersioningBehavior = w.versioning.behavior(workflowType)
}

// binaryChecksumToSend is the binary checksum a workflow task's requests
// carry: "" to a server with build-ID versioning.
func (w *Worker) binaryChecksumToSend() string {
	if w.opts.SendBinaryChecksum {
		return w.opts.BinaryChecksum
	}
	return ""
}
