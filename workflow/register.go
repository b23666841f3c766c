package workflow

import "github.com/durable-go/sdk/internal"

// RegisterOptions configure worker.Worker.RegisterWorkflowWithOptions.
//
//   - Name: the workflow type to register under, which clients start it
//     by. Default: the function's name (without its package).
//   - DisableAlreadyRegisteredCheck: register even when the name is
//     taken, replacing the earlier registration, instead of panicking.
type RegisterOptions = internal.RegisterWorkflowOptions

// DynamicRegisterOptions configure worker.Worker.RegisterDynamicWorkflow.
//
//   - LoadDynamicRuntimeOptions: called with each workflow type the
//     dynamic workflow runs, it returns that type's options
//     (DynamicRuntimeOptions). Optional. This SDK runs no versioned
//     workers, so it accepts the function but has no occasion to call it.
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
// This SDK runs no versioned workers yet: it accepts the setting and sends
// nothing of it to the server, as go.temporal.io/sdk does on a worker
// without deployment versioning.
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
