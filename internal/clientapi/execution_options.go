package clientapi

// The options of a running workflow execution that can be changed after
// its start (Client.UpdateWorkflowExecutionOptions): today, its versioning
// override.

type (
	// UpdateWorkflowExecutionOptionsRequest asks to change the options of
	// a workflow execution (client.UpdateWorkflowExecutionOptionsRequest).
	UpdateWorkflowExecutionOptionsRequest struct {
		// WorkflowId is the workflow's ID; required.
		WorkflowId string
		// RunId is the run to change; the workflow's current run when empty.
		RunId string
		// WorkflowExecutionOptionsChanges are the changes; at least one is
		// required.
		WorkflowExecutionOptionsChanges WorkflowExecutionOptionsChanges
	}

	// WorkflowExecutionOptions are the options of a workflow execution
	// that can change while it runs (client.WorkflowExecutionOptions).
	WorkflowExecutionOptions struct {
		// VersioningOverride, when set, routes the workflow's tasks by
		// itself instead of the versioning behavior its code declares.
		VersioningOverride VersioningOverride
	}

	// WorkflowExecutionOptionsChanges are changes to WorkflowExecutionOptions
	// (client.WorkflowExecutionOptionsChanges); a nil field changes
	// nothing.
	WorkflowExecutionOptionsChanges struct {
		// VersioningOverride, when not nil, sets the override to its Value,
		// or removes the override when Value is nil.
		VersioningOverride *VersioningOverrideChange
	}

	// VersioningOverrideChange sets (a Value) or removes (a nil Value) a
	// workflow's versioning override (client.VersioningOverrideChange).
	VersioningOverrideChange struct {
		Value VersioningOverride
	}

	// VersioningOverride says which worker deployment version runs a
	// workflow's tasks, whatever its code declares
	// (client.VersioningOverride): *PinnedVersioningOverride,
	// *AutoUpgradeVersioningOverride or *OneTimeVersioningOverride.
	VersioningOverride interface {
		isVersioningOverride()
	}

	// PinnedVersioningOverride pins the workflow to one worker deployment
	// version (client.PinnedVersioningOverride).
	PinnedVersioningOverride struct {
		Version WorkerDeploymentVersion
	}

	// AutoUpgradeVersioningOverride moves the workflow to its deployment's
	// current version at its next workflow task
	// (client.AutoUpgradeVersioningOverride).
	AutoUpgradeVersioningOverride struct{}

	// OneTimeVersioningOverride sends the workflow's next workflow task to
	// a version; once a task completes there the override is gone
	// (client.OneTimeVersioningOverride).
	OneTimeVersioningOverride struct {
		TargetVersion WorkerDeploymentVersion
	}

	// WorkerDeploymentVersion names a version of a worker deployment: the
	// deployment and the build ID of its workers
	// (worker.WorkerDeploymentVersion).
	WorkerDeploymentVersion struct {
		DeploymentName string
		BuildID        string
	}
)

func (*PinnedVersioningOverride) isVersioningOverride()      {}
func (*AutoUpgradeVersioningOverride) isVersioningOverride() {}
func (*OneTimeVersioningOverride) isVersioningOverride()     {}
