package clientapi

import (
	"context"
	"fmt"
)

// WorkflowUpdateStage is how far an update must have gone before
// Client.UpdateWorkflow returns.
type WorkflowUpdateStage int

const (
	// WorkflowUpdateStageUnspecified is the zero stage; UpdateWorkflow
	// refuses it, as the official SDK does: say which stage to wait for.
	WorkflowUpdateStageUnspecified WorkflowUpdateStage = iota
	// WorkflowUpdateStageAdmitted is an update the server has received
	// but no worker has seen yet. UpdateWorkflow cannot wait for this
	// stage alone (nothing is durable yet), as in the official SDK.
	WorkflowUpdateStageAdmitted
	// WorkflowUpdateStageAccepted is an update the workflow's validator
	// accepted (or rejected: a rejection is an outcome, which the handle's
	// Get returns) and whose handler is running.
	WorkflowUpdateStageAccepted
	// WorkflowUpdateStageCompleted is an update whose handler returned.
	WorkflowUpdateStageCompleted
)

type (
	// UpdateWorkflowOptions describe an update sent by Client.UpdateWorkflow
	// (or, with UpdateWithStartWorkflow, alongside a workflow start).
	UpdateWorkflowOptions struct {
		// UpdateID identifies the update within its workflow run: sending
		// an update again with the same ID does not run it twice, and
		// returns the first one's outcome. A random UUID when empty.
		UpdateID string
		// WorkflowID is the workflow to update. Required, except with
		// UpdateWithStartWorkflow, where it defaults to the start's ID.
		WorkflowID string
		// RunID selects a run; the current run when empty. Not allowed
		// with UpdateWithStartWorkflow.
		RunID string
		// UpdateName is the name the workflow's update handler was
		// registered under. Required.
		UpdateName string
		// Args are the update's arguments, given to the validator and the
		// handler.
		Args []any
		// WaitForStage is when UpdateWorkflow returns: once the update is
		// accepted (WorkflowUpdateStageAccepted) or completed
		// (WorkflowUpdateStageCompleted). Required.
		WaitForStage WorkflowUpdateStage
		// FirstExecutionRunID, if set, makes the update fail unless the
		// run's chain started with this run. Not allowed with
		// UpdateWithStartWorkflow.
		FirstExecutionRunID string
	}

	// UpdateWithStartWorkflowOptions are the arguments of
	// Client.UpdateWithStartWorkflow: the workflow to start if it is not
	// running, and the update to send it.
	UpdateWithStartWorkflowOptions struct {
		// StartWorkflowOperation comes from
		// Client.NewWithStartWorkflowOperation.
		StartWorkflowOperation WithStartWorkflowOperation
		// UpdateOptions describe the update.
		UpdateOptions UpdateWorkflowOptions
	}

	// GetWorkflowUpdateHandleOptions name an update sent earlier, for
	// Client.GetWorkflowUpdateHandle.
	GetWorkflowUpdateHandleOptions struct {
		// WorkflowID is the updated workflow. Required.
		WorkflowID string
		// RunID selects a run; the current run when empty.
		RunID string
		// UpdateID is the update's ID. Required.
		UpdateID string
	}

	// WorkflowUpdateHandle is an update that was sent: its IDs, and Get to
	// wait for its outcome.
	WorkflowUpdateHandle interface {
		// WorkflowID returns the updated workflow's ID.
		WorkflowID() string
		// RunID returns the updated run's ID, as the server resolved it.
		RunID() string
		// UpdateID returns the update's ID.
		UpdateID() string
		// Get waits for the update to complete and decodes its result into
		// valuePtr (nil discards it). An update that the validator
		// rejected, or whose handler failed, gives that error, converted
		// by the client's failure converter.
		Get(ctx context.Context, valuePtr any) error
	}

	// WorkflowUpdateServiceTimeoutOrCanceledError is what update calls
	// return when the call itself (not the update) timed out or was
	// canceled: the context ended, or the server gave up waiting. The
	// update may still be running; its handle (GetWorkflowUpdateHandle)
	// can wait again.
	WorkflowUpdateServiceTimeoutOrCanceledError struct {
		cause error
	}
)

// NewWorkflowUpdateServiceTimeoutOrCanceledError wraps the error that
// ended an update call.
func NewWorkflowUpdateServiceTimeoutOrCanceledError(err error) *WorkflowUpdateServiceTimeoutOrCanceledError {
	return &WorkflowUpdateServiceTimeoutOrCanceledError{cause: err}
}

// Error implements error.
func (e *WorkflowUpdateServiceTimeoutOrCanceledError) Error() string {
	return fmt.Sprintf("Timeout or cancellation waiting for update: %v", e.cause)
}

// Unwrap returns the error that ended the call.
func (e *WorkflowUpdateServiceTimeoutOrCanceledError) Unwrap() error { return e.cause }

// WithStartWorkflowOperation is the workflow that
// Client.UpdateWithStartWorkflow starts if it is not running. Make it with
// Client.NewWithStartWorkflowOperation; it can be used once.
type WithStartWorkflowOperation interface {
	// Get waits for the UpdateWithStartWorkflow call that uses the
	// operation and returns the run it updated: the one it started, or
	// the one already running. It returns the call's error if the call
	// failed before the server answered for the start, and the context's
	// error, saying so, if the operation was never used.
	Get(ctx context.Context) (WorkflowRun, error)
}
