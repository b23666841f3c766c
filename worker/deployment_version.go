package worker

import (
	"github.com/durable-go/sdk/internal/clientapi"
)

// WorkerDeploymentVersion names a version of a worker deployment:
// DeploymentName, the deployment, and BuildID, the build of its workers.
// Versioning overrides (client.PinnedVersioningOverride) name versions
// with it.
type WorkerDeploymentVersion = clientapi.WorkerDeploymentVersion
