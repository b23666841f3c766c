package client

import "github.com/durable-go/sdk/internal"

type (
	// UpdateWorkflowExecutionOptionsRequest asks Client.UpdateWorkflowExecutionOptions
	// to change the options of a workflow execution: which workflow (and
	// run; the current one when RunId is empty), and the changes.
	UpdateWorkflowExecutionOptionsRequest = internal.UpdateWorkflowExecutionOptionsRequest

	// WorkflowExecutionOptions are the options of a workflow execution
	// that can change while it runs: its versioning override.
	WorkflowExecutionOptions = internal.WorkflowExecutionOptions

	// WorkflowExecutionOptionsChanges are changes to WorkflowExecutionOptions;
	// a nil field changes nothing.
	WorkflowExecutionOptionsChanges = internal.WorkflowExecutionOptionsChanges

	// VersioningOverrideChange sets a workflow's versioning override to
	// Value, or removes it when Value is nil.
	VersioningOverrideChange = internal.VersioningOverrideChange

	// VersioningOverride says which worker deployment version runs a
	// workflow's tasks, whatever its code declares:
	// *PinnedVersioningOverride, *AutoUpgradeVersioningOverride or
	// *OneTimeVersioningOverride.
	VersioningOverride = internal.VersioningOverride

	// PinnedVersioningOverride pins a workflow to one worker deployment
	// version.
	PinnedVersioningOverride = internal.PinnedVersioningOverride

	// AutoUpgradeVersioningOverride moves a workflow to its deployment's
	// current version at its next workflow task.
	AutoUpgradeVersioningOverride = internal.AutoUpgradeVersioningOverride

	// OneTimeVersioningOverride sends a workflow's next workflow task to a
	// version; once a task completes there, the override is gone.
	OneTimeVersioningOverride = internal.OneTimeVersioningOverride
)
