package typed

import (
	"context"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/workflow"
)

// WithStartWorkflowOperation is the start half of UpdateWithStartWorkflow:
// the workflow to start if it is not running, whose result is an R. It
// wraps the untyped client.WithStartWorkflowOperation (Untyped) and, like
// it, serves one UpdateWithStartWorkflow call.
type WithStartWorkflowOperation[R any] struct {
	op client.WithStartWorkflowOperation
}

// Get waits for the UpdateWithStartWorkflow call that used the operation
// and returns the run it updated: the one it started, or the one already
// running.
func (op WithStartWorkflowOperation[R]) Get(ctx context.Context) (WorkflowRun[R], error) {
	return startedRun[R](op.op.Get(ctx))
}

// Untyped returns the client.WithStartWorkflowOperation this operation
// wraps.
func (op WithStartWorkflowOperation[R]) Untyped() client.WithStartWorkflowOperation { return op.op }

// NewWithStartWorkflowOperation describes the start of the workflow fn
// with the argument a, for UpdateWithStartWorkflow, as
// c.NewWithStartWorkflowOperation does. options must set ID and
// WorkflowIDConflictPolicy.
func NewWithStartWorkflowOperation[A, R any](c client.Client, options client.StartWorkflowOptions, fn func(workflow.Context, A) (R, error), a A) WithStartWorkflowOperation[R] {
	return WithStartWorkflowOperation[R]{op: c.NewWithStartWorkflowOperation(options, fn, a)}
}

// NewWithStartWorkflowOperation0 is NewWithStartWorkflowOperation for a
// workflow that takes no argument after its context.
func NewWithStartWorkflowOperation0[R any](c client.Client, options client.StartWorkflowOptions, fn func(workflow.Context) (R, error)) WithStartWorkflowOperation[R] {
	return WithStartWorkflowOperation[R]{op: c.NewWithStartWorkflowOperation(options, fn)}
}

// NewWithStartWorkflowOperation2 is NewWithStartWorkflowOperation for a
// workflow of two arguments.
func NewWithStartWorkflowOperation2[A1, A2, R any](c client.Client, options client.StartWorkflowOptions, fn func(workflow.Context, A1, A2) (R, error), a1 A1, a2 A2) WithStartWorkflowOperation[R] {
	return WithStartWorkflowOperation[R]{op: c.NewWithStartWorkflowOperation(options, fn, a1, a2)}
}

// NewWithStartWorkflowOperation3 is NewWithStartWorkflowOperation for a
// workflow of three arguments.
func NewWithStartWorkflowOperation3[A1, A2, A3, R any](c client.Client, options client.StartWorkflowOptions, fn func(workflow.Context, A1, A2, A3) (R, error), a1 A1, a2 A2, a3 A3) WithStartWorkflowOperation[R] {
	return WithStartWorkflowOperation[R]{op: c.NewWithStartWorkflowOperation(options, fn, a1, a2, a3)}
}

// NewWithStartWorkflowOperationNoResult is NewWithStartWorkflowOperation
// for a workflow that returns only an error.
func NewWithStartWorkflowOperationNoResult[A any](c client.Client, options client.StartWorkflowOptions, fn func(workflow.Context, A) error, a A) WithStartWorkflowOperation[None] {
	return WithStartWorkflowOperation[None]{op: c.NewWithStartWorkflowOperation(options, fn, a)}
}

// NewWithStartWorkflowOperationNoResult0 is
// NewWithStartWorkflowOperationNoResult for a workflow that takes no
// argument after its context.
func NewWithStartWorkflowOperationNoResult0(c client.Client, options client.StartWorkflowOptions, fn func(workflow.Context) error) WithStartWorkflowOperation[None] {
	return WithStartWorkflowOperation[None]{op: c.NewWithStartWorkflowOperation(options, fn)}
}

// NewWithStartWorkflowOperationNoResult2 is
// NewWithStartWorkflowOperationNoResult for a workflow of two arguments.
func NewWithStartWorkflowOperationNoResult2[A1, A2 any](c client.Client, options client.StartWorkflowOptions, fn func(workflow.Context, A1, A2) error, a1 A1, a2 A2) WithStartWorkflowOperation[None] {
	return WithStartWorkflowOperation[None]{op: c.NewWithStartWorkflowOperation(options, fn, a1, a2)}
}

// NewWithStartWorkflowOperationNoResult3 is
// NewWithStartWorkflowOperationNoResult for a workflow of three
// arguments.
func NewWithStartWorkflowOperationNoResult3[A1, A2, A3 any](c client.Client, options client.StartWorkflowOptions, fn func(workflow.Context, A1, A2, A3) error, a1 A1, a2 A2, a3 A3) WithStartWorkflowOperation[None] {
	return WithStartWorkflowOperation[None]{op: c.NewWithStartWorkflowOperation(options, fn, a1, a2, a3)}
}

// UpdateWithStartWorkflow sends the update with the argument a to the
// workflow that start describes, starting it first if it is not running,
// as c.UpdateWithStartWorkflow does. options describe the update as for
// UpdateWorkflow (WaitForStage required; UpdateName and Args left empty;
// WorkflowID defaults to the start's). start.Get then returns the run.
//
//	start := typed.NewWithStartWorkflowOperation(c, client.StartWorkflowOptions{
//		ID: cartID, TaskQueue: "carts",
//		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
//	}, Cart, customer)
//	handle, err := typed.UpdateWithStartWorkflow(ctx, c, start, client.UpdateWorkflowOptions{
//		WaitForStage: client.WorkflowUpdateStageCompleted,
//	}, AddItem, item)
func UpdateWithStartWorkflow[W, A, R any](ctx context.Context, c client.Client, start WithStartWorkflowOperation[W], options client.UpdateWorkflowOptions, update Update[A, R], a A) (UpdateHandle[R], error) {
	if err := fillUpdateOptions(&options, "UpdateWithStartWorkflow", update.name, a); err != nil {
		return UpdateHandle[R]{}, err
	}
	handle, err := c.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{StartWorkflowOperation: start.op, UpdateOptions: options})
	if err != nil {
		return UpdateHandle[R]{}, err
	}
	return UpdateHandle[R]{handle: handle}, nil
}
