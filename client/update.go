package client

import "github.com/durable-go/sdk/internal"

// WorkflowUpdateStage is how far an update must have gone before
// Client.UpdateWorkflow returns.
type WorkflowUpdateStage = internal.WorkflowUpdateStage

const (
	// WorkflowUpdateStageUnspecified is the zero stage; UpdateWorkflow
	// refuses it: say which stage to wait for.
	WorkflowUpdateStageUnspecified = internal.WorkflowUpdateStageUnspecified
	// WorkflowUpdateStageAdmitted is an update the server has received but
	// no worker has seen; UpdateWorkflow cannot wait for it alone.
	WorkflowUpdateStageAdmitted = internal.WorkflowUpdateStageAdmitted
	// WorkflowUpdateStageAccepted is an update the workflow accepted (or
	// rejected) and whose handler is running.
	WorkflowUpdateStageAccepted = internal.WorkflowUpdateStageAccepted
	// WorkflowUpdateStageCompleted is an update whose handler returned.
	WorkflowUpdateStageCompleted = internal.WorkflowUpdateStageCompleted
)

type (
	// UpdateWorkflowOptions describe an update sent by
	// Client.UpdateWorkflow: workflow, update name and arguments, update
	// ID, and the stage to wait for.
	UpdateWorkflowOptions = internal.UpdateWorkflowOptions

	// UpdateWithStartWorkflowOptions are the arguments of
	// Client.UpdateWithStartWorkflow: the workflow to start if it is not
	// running, and the update to send it.
	UpdateWithStartWorkflowOptions = internal.UpdateWithStartWorkflowOptions

	// WithStartWorkflowOperation is the workflow that
	// Client.UpdateWithStartWorkflow starts; its Get returns the run
	// updated. Make it with Client.NewWithStartWorkflowOperation.
	WithStartWorkflowOperation = internal.WithStartWorkflowOperation

	// GetWorkflowUpdateHandleOptions name an update sent earlier, for
	// Client.GetWorkflowUpdateHandle.
	GetWorkflowUpdateHandleOptions = internal.GetWorkflowUpdateHandleOptions

	// WorkflowUpdateHandle is an update that was sent: its IDs, and Get to
	// wait for its outcome.
	WorkflowUpdateHandle = internal.WorkflowUpdateHandle

	// WorkflowUpdateServiceTimeoutOrCanceledError is what update calls
	// return when the call itself, not the update, timed out or was
	// canceled.
	WorkflowUpdateServiceTimeoutOrCanceledError = internal.WorkflowUpdateServiceTimeoutOrCanceledError
)

// NewWorkflowUpdateServiceTimeoutOrCanceledError wraps the error that ended
// an update call.
func NewWorkflowUpdateServiceTimeoutOrCanceledError(err error) *WorkflowUpdateServiceTimeoutOrCanceledError {
	return internal.NewWorkflowUpdateServiceTimeoutOrCanceledError(err)
}
