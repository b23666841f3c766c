package internal

import (
	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/internal/binarychecksum"
	"github.com/durable-go/sdk/internal/clientapi"
)

// WorkerDeploymentOptions opt a worker into Worker Deployment Versioning
// (worker.DeploymentOptions).
type WorkerDeploymentOptions struct {
	// UseVersioning: the worker takes only the tasks the server routes to
	// its Version (the deployment's current or ramping version, and the
	// runs pinned to it). It needs Version.
	UseVersioning bool
	// Version is the worker's deployment version; when set, it replaces
	// WorkerOptions.BuildID.
	Version clientapi.WorkerDeploymentVersion
	// DefaultVersioningBehavior is the behavior of the workflow types
	// registered without one. Only with UseVersioning. A versioned worker
	// without it refuses a workflow registered without a behavior.
	DefaultVersioningBehavior VersioningBehavior
}

// ContinueAsNewVersioningBehavior says which version the first task of
// the run a continue-as-new starts goes to
// (workflow.ContinueAsNewVersioningBehavior); the values are
// go.temporal.io/sdk's, and the API's.
type ContinueAsNewVersioningBehavior int

// The continue-as-new versioning behaviors.
const (
	// ContinueAsNewVersioningBehaviorUnspecified: the new run inherits
	// the versioning behavior of the run that continues (a pinned run's
	// new run is pinned to the same version).
	ContinueAsNewVersioningBehaviorUnspecified = iota
	// ContinueAsNewVersioningBehaviorAutoUpgrade: the new run's first
	// task goes to the task queue's current version, and the run is
	// auto-upgrade until its first task completes, which then sets its
	// behavior.
	ContinueAsNewVersioningBehaviorAutoUpgrade = 1
	// ContinueAsNewVersioningBehaviorUseRampingVersion: the new run's
	// first task goes to the task queue's ramping version (the current
	// one without a ramp), whatever the ramp's percentage.
	ContinueAsNewVersioningBehaviorUseRampingVersion = 2
)

// continueAsNewVersioningBehaviorProto is b as the API says it; an
// unknown value is sent as it is, for the server to refuse.
func continueAsNewVersioningBehaviorProto(b ContinueAsNewVersioningBehavior) enumspb.ContinueAsNewVersioningBehavior {
	return enumspb.ContinueAsNewVersioningBehavior(b)
}

// SetBinaryChecksum sets the binary checksum of the process's workers
// (worker.SetBinaryChecksum; see internal/binarychecksum), which a worker
// without a build ID sends as its own.
func SetBinaryChecksum(checksum string) { binarychecksum.Set(checksum) }
