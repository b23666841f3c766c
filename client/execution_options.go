package client

import (
	"github.com/durable-go/sdk/internal/clientapi"
)

// UpdateWorkflowExecutionOptionsRequest asks
// Client.UpdateWorkflowExecutionOptions to change the options of a
// workflow execution.
//
//   - WorkflowId: the workflow. Required.
//   - RunId: the run. Default: the current run.
//   - WorkflowExecutionOptionsChanges: the changes; at least one.
type UpdateWorkflowExecutionOptionsRequest = clientapi.UpdateWorkflowExecutionOptionsRequest

// WorkflowExecutionOptions are the options of a workflow execution that
// can change while it runs: VersioningOverride, when set, decides which
// worker deployment version runs its tasks, whatever its code declares.
type WorkflowExecutionOptions = clientapi.WorkflowExecutionOptions

// WorkflowExecutionOptionsChanges are changes to WorkflowExecutionOptions;
// a nil field changes nothing. VersioningOverride, when not nil, sets the
// override to its Value, or removes it when Value is nil.
type WorkflowExecutionOptionsChanges = clientapi.WorkflowExecutionOptionsChanges

// VersioningOverrideChange sets a workflow's versioning override to
// Value, or removes it when Value is nil.
type VersioningOverrideChange = clientapi.VersioningOverrideChange

// VersioningOverride says which worker deployment version runs a
// workflow's tasks, whatever its code declares:
// *PinnedVersioningOverride, *AutoUpgradeVersioningOverride or
// *OneTimeVersioningOverride.
type VersioningOverride = clientapi.VersioningOverride

// PinnedVersioningOverride pins a workflow to one worker deployment
// Version.
type PinnedVersioningOverride = clientapi.PinnedVersioningOverride

// AutoUpgradeVersioningOverride moves a workflow to its deployment's
// current version at its next workflow task.
type AutoUpgradeVersioningOverride = clientapi.AutoUpgradeVersioningOverride

// OneTimeVersioningOverride sends a workflow's next workflow task to
// TargetVersion; once a task completes there, the override is gone.
type OneTimeVersioningOverride = clientapi.OneTimeVersioningOverride
