package internal

import "github.com/durable-go/sdk/internal/clientapi"

// VersioningBehavior says whether the runs of a workflow type stay on the
// worker deployment version they started on or move to the current one
// (workflow.VersioningBehavior). A worker that is versioned, or names a
// deployment version, reports its type's behavior as each workflow task
// completes (worker_deployment.go).
type VersioningBehavior int

// The versioning behaviors, with go.temporal.io/sdk's values.
const (
	// VersioningBehaviorUnspecified leaves the choice to the worker's
	// default.
	VersioningBehaviorUnspecified VersioningBehavior = iota
	// VersioningBehaviorPinned keeps a run on the version it started on.
	VersioningBehaviorPinned
	// VersioningBehaviorAutoUpgrade moves a run to the current version at
	// its next workflow task.
	VersioningBehaviorAutoUpgrade
)

// LoadDynamicRuntimeOptionsDetails is what
// DynamicRegisterWorkflowOptions.LoadDynamicRuntimeOptions is told of the
// workflow a dynamic workflow runs (workflow.LoadDynamicRuntimeOptionsDetails).
type LoadDynamicRuntimeOptionsDetails struct {
	// WorkflowType is the type the run was started with.
	WorkflowType clientapi.WorkflowType
}

// DynamicRuntimeWorkflowOptions are the options
// DynamicRegisterWorkflowOptions.LoadDynamicRuntimeOptions picks for a
// workflow type a dynamic workflow runs (workflow.DynamicRuntimeOptions).
type DynamicRuntimeWorkflowOptions struct {
	// VersioningBehavior of the workflow type (see VersioningBehavior).
	VersioningBehavior VersioningBehavior
}
