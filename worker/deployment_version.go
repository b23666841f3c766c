package worker

import (
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/clientapi"
)

// WorkerDeploymentVersion names a version of a worker deployment:
// DeploymentName, the deployment, and BuildID, the build of its workers.
// Versioning overrides (client.PinnedVersioningOverride) name versions
// with it.
type WorkerDeploymentVersion = clientapi.WorkerDeploymentVersion

// DeploymentOptions opt a worker into Worker Deployment Versioning
// (Options.DeploymentOptions):
//
//   - UseVersioning: the worker takes only the tasks the server routes to
//     its Version: those of the deployment's current or ramping version,
//     and of the runs pinned to it. Not with Options.EnableSessionWorker.
//   - Version: the worker's deployment version (deployment name and build
//     ID); set with UseVersioning. It replaces Options.BuildID. Without
//     UseVersioning the worker still names it in its polls and
//     completions, unversioned.
//   - DefaultVersioningBehavior: the behavior of the workflow types
//     registered without one (workflow.RegisterOptions.VersioningBehavior).
//     Only with UseVersioning; without it, a versioned worker panics at a
//     registration without a behavior.
type DeploymentOptions = internal.WorkerDeploymentOptions
