package workflow

import "github.com/durable-go/sdk/internal"

// RegisterOptions configure worker.Worker.RegisterWorkflowWithOptions.
//
//   - Name: the workflow type to register under, which clients start it
//     by. Default: the function's name (without its package).
//   - DisableAlreadyRegisteredCheck: register even when the name is
//     taken, replacing the earlier registration, instead of panicking.
//   - VersioningBehavior: on a worker with Worker Deployment Versioning
//     (worker.DeploymentOptions), whether the type's runs stay on the
//     version they started on (VersioningBehaviorPinned) or move to the
//     current version at their next workflow task
//     (VersioningBehaviorAutoUpgrade). Default: the worker's
//     DefaultVersioningBehavior; a versioned worker without one panics
//     at a registration without a behavior.
type RegisterOptions = internal.RegisterWorkflowOptions

// DynamicRegisterOptions configure worker.Worker.RegisterDynamicWorkflow.
//
//   - LoadDynamicRuntimeOptions: called with each workflow type the
//     dynamic workflow runs, it returns that type's options
//     (DynamicRuntimeOptions): a worker that is versioned, or names a
//     deployment version, calls it as each workflow task of such a type
//     completes, for the versioning behavior it reports; an error leaves
//     the worker's default. Optional, except on a versioned worker
//     without a DefaultVersioningBehavior.
type DynamicRegisterOptions = internal.DynamicRegisterWorkflowOptions

// LoadDynamicRuntimeOptionsDetails is what
// DynamicRegisterOptions.LoadDynamicRuntimeOptions is told of a workflow
// type.
//
//   - WorkflowType: the type the run was started with.
type LoadDynamicRuntimeOptionsDetails = internal.LoadDynamicRuntimeOptionsDetails

// DynamicRuntimeOptions are the options that
// DynamicRegisterOptions.LoadDynamicRuntimeOptions returns for a workflow
// type.
//
//   - VersioningBehavior: whether the type's runs stay on the worker
//     deployment version they started on (see VersioningBehavior).
type DynamicRuntimeOptions = internal.DynamicRuntimeWorkflowOptions

// VersioningBehavior says whether the runs of a workflow type stay on the
// worker deployment version they started on or move to the current one.
// A versioned worker reports its types' behaviors as their workflow tasks
// complete; the server keeps each run's, which client.VersioningOverride
// can override.
type VersioningBehavior = internal.VersioningBehavior

// The versioning behaviors.
const (
	// VersioningBehaviorUnspecified leaves the choice to the worker's
	// default.
	VersioningBehaviorUnspecified = internal.VersioningBehaviorUnspecified
	// VersioningBehaviorPinned keeps each run on the worker deployment
	// version it started on.
	VersioningBehaviorPinned = internal.VersioningBehaviorPinned
	// VersioningBehaviorAutoUpgrade moves a run to the current version at
	// its next workflow task.
	VersioningBehaviorAutoUpgrade = internal.VersioningBehaviorAutoUpgrade
)
