package client

import (
	"github.com/durable-go/sdk/internal/clientapi"
)

// WorkflowUpdateStage is how far an update must have gone before
// Client.UpdateWorkflow returns.
type WorkflowUpdateStage = clientapi.WorkflowUpdateStage

const (
	// WorkflowUpdateStageUnspecified is the zero stage; UpdateWorkflow
	// refuses it: say which stage to wait for.
	WorkflowUpdateStageUnspecified = clientapi.WorkflowUpdateStageUnspecified
	// WorkflowUpdateStageAdmitted is an update the server has received but
	// no worker has seen; UpdateWorkflow cannot wait for it alone.
	WorkflowUpdateStageAdmitted = clientapi.WorkflowUpdateStageAdmitted
	// WorkflowUpdateStageAccepted is an update the workflow accepted (or
	// rejected) and whose handler is running.
	WorkflowUpdateStageAccepted = clientapi.WorkflowUpdateStageAccepted
	// WorkflowUpdateStageCompleted is an update whose handler returned.
	WorkflowUpdateStageCompleted = clientapi.WorkflowUpdateStageCompleted
)

// UpdateWorkflowOptions describe an update that Client.UpdateWorkflow
// sends (or UpdateWithStartWorkflow, in its UpdateOptions). UpdateName and
// WaitForStage are required.
//
//   - UpdateID: identifies the update within its workflow run: sending an
//     update again with the same ID does not run it twice, and returns the
//     first one's outcome. Default: a random UUID.
//   - WorkflowID: the workflow to update. Required, except with
//     UpdateWithStartWorkflow, where it defaults to the start's ID.
//   - RunID: the run. Default: the current run. Not with
//     UpdateWithStartWorkflow.
//   - UpdateName: the name the workflow's update handler was set under
//     (workflow.SetUpdateHandler). Required.
//   - Args: the update's arguments, given to the validator and the
//     handler.
//   - WaitForStage: when UpdateWorkflow returns: once the update is
//     accepted (WorkflowUpdateStageAccepted), or once it completed
//     (WorkflowUpdateStageCompleted). Required.
//   - FirstExecutionRunID: when set, the update fails unless the run's
//     chain started with this run. Not with UpdateWithStartWorkflow.
//
// For example:
//
//	handle, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
//		WorkflowID:   "order-42",
//		UpdateName:   "add-item",
//		Args:         []any{item},
//		WaitForStage: client.WorkflowUpdateStageCompleted,
//	})
type UpdateWorkflowOptions = clientapi.UpdateWorkflowOptions

// UpdateWithStartWorkflowOptions are the arguments of
// Client.UpdateWithStartWorkflow.
//
//   - StartWorkflowOperation: the workflow to start if it is not running,
//     from Client.NewWithStartWorkflowOperation; its
//     WorkflowIDConflictPolicy says what to do when it is running
//     (USE_EXISTING updates that one, FAIL fails the call).
//   - UpdateOptions: the update to send.
type UpdateWithStartWorkflowOptions = clientapi.UpdateWithStartWorkflowOptions

// WithStartWorkflowOperation is the workflow that
// Client.UpdateWithStartWorkflow starts; make it with
// Client.NewWithStartWorkflowOperation. Its Get(ctx) waits for the call
// that uses the operation and returns the run it updated, started or
// already running; or the call's error when it failed before the server
// answered for the start.
type WithStartWorkflowOperation = clientapi.WithStartWorkflowOperation

// GetWorkflowUpdateHandleOptions name an update sent earlier, for
// Client.GetWorkflowUpdateHandle.
//
//   - WorkflowID: the updated workflow. Required.
//   - RunID: the run. Default: the current run.
//   - UpdateID: the update's ID. Required.
type GetWorkflowUpdateHandleOptions = clientapi.GetWorkflowUpdateHandleOptions

// WorkflowUpdateHandle is an update that was sent.
//
//   - WorkflowID, RunID, UpdateID return the update's workflow, run (as
//     the server resolved it) and ID.
//   - Get(ctx, valuePtr) waits for the update to complete and decodes its
//     result into valuePtr (nil discards it). An update that its validator
//     rejected, or whose handler returned an error, gives that error (as
//     the client's failure converter rebuilds it, typically a
//     *temporal.ApplicationError).
type WorkflowUpdateHandle = clientapi.WorkflowUpdateHandle

// WorkflowUpdateServiceTimeoutOrCanceledError is what update calls return
// when the call itself, not the update, timed out or was canceled: ctx
// ended, or the server gave up waiting. The update may still run; a
// handle (Client.GetWorkflowUpdateHandle) can wait for it again. Unwrap
// returns the error that ended the call.
type WorkflowUpdateServiceTimeoutOrCanceledError = clientapi.WorkflowUpdateServiceTimeoutOrCanceledError

// NewWorkflowUpdateServiceTimeoutOrCanceledError wraps the error that ended
// an update call.
func NewWorkflowUpdateServiceTimeoutOrCanceledError(err error) *WorkflowUpdateServiceTimeoutOrCanceledError {
	return clientapi.NewWorkflowUpdateServiceTimeoutOrCanceledError(err)
}
