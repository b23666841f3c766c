package typed

import (
	"context"
	"fmt"

	"github.com/durable-go/sdk/client"
)

// WorkflowRun is a workflow started from a client (ExecuteWorkflow,
// SignalWithStartWorkflow, WithStartWorkflowOperation.Get) or found by ID
// (GetWorkflow), whose result is an R. It wraps the untyped
// client.WorkflowRun (Untyped).
type WorkflowRun[R any] struct {
	run client.WorkflowRun
}

// GetID returns the workflow ID.
func (r WorkflowRun[R]) GetID() string { return r.run.GetID() }

// GetRunID returns the run ID; after Get followed the workflow to a later
// run (continue-as-new, retry, cron), that run's.
func (r WorkflowRun[R]) GetRunID() string { return r.run.GetRunID() }

// Get waits for the workflow to close, following it through
// continue-as-new, retries and cron runs, and returns its result, or its
// error (a *temporal.WorkflowExecutionError for a workflow that did not
// complete), as client.WorkflowRun.Get does.
func (r WorkflowRun[R]) Get(ctx context.Context) (R, error) {
	var result R
	err := r.run.Get(ctx, target(&result))
	return result, err
}

// GetWithOptions is Get with options (client.WorkflowRunGetOptions).
func (r WorkflowRun[R]) GetWithOptions(ctx context.Context, options client.WorkflowRunGetOptions) (R, error) {
	var result R
	err := r.run.GetWithOptions(ctx, target(&result), options)
	return result, err
}

// Untyped returns the client.WorkflowRun this run wraps.
func (r WorkflowRun[R]) Untyped() client.WorkflowRun { return r.run }

// GetWorkflow returns the run of the workflow workflowID (runID empty:
// its current run) whose result is an R, as c.GetWorkflow does. The
// compiler cannot check R against the workflow here: it was started
// elsewhere.
func GetWorkflow[R any](ctx context.Context, c client.Client, workflowID, runID string) WorkflowRun[R] {
	return WorkflowRun[R]{run: c.GetWorkflow(ctx, workflowID, runID)}
}

// SignalWorkflow sends the signal with payload v to the workflow
// workflowID (runID empty: its current run), as c.SignalWorkflow does.
func SignalWorkflow[T any](ctx context.Context, c client.Client, workflowID, runID string, signal Signal[T], v T) error {
	return c.SignalWorkflow(ctx, workflowID, runID, signal.name, signal.payload(v))
}

// QueryWorkflow asks the workflow workflowID (runID empty: its current
// run) the query with the argument a and returns its answer, as
// c.QueryWorkflow does.
func QueryWorkflow[A, R any](ctx context.Context, c client.Client, workflowID, runID string, query Query[A, R], a A) (R, error) {
	var answer R
	value, err := c.QueryWorkflow(ctx, workflowID, runID, query.name, a)
	if err != nil {
		return answer, err
	}
	err = value.Get(&answer)
	return answer, err
}

// QueryWorkflow0 is QueryWorkflow for a query that takes no argument.
//
//	status, err := typed.QueryWorkflow0(ctx, c, orderID, "", OrderStatus)
func QueryWorkflow0[R any](ctx context.Context, c client.Client, workflowID, runID string, query Query0[R]) (R, error) {
	var answer R
	value, err := c.QueryWorkflow(ctx, workflowID, runID, query.name)
	if err != nil {
		return answer, err
	}
	err = value.Get(&answer)
	return answer, err
}

// UpdateHandle is an update sent from a client (UpdateWorkflow,
// UpdateWithStartWorkflow, GetWorkflowUpdateHandle) whose result is an
// R. It wraps the untyped client.WorkflowUpdateHandle (Untyped).
type UpdateHandle[R any] struct {
	handle client.WorkflowUpdateHandle
}

// WorkflowID returns the updated workflow's ID.
func (h UpdateHandle[R]) WorkflowID() string { return h.handle.WorkflowID() }

// RunID returns the updated run's ID.
func (h UpdateHandle[R]) RunID() string { return h.handle.RunID() }

// UpdateID returns the update's ID.
func (h UpdateHandle[R]) UpdateID() string { return h.handle.UpdateID() }

// Get waits for the update to complete and returns its result, or the
// error the validator rejected it with or the handler returned.
func (h UpdateHandle[R]) Get(ctx context.Context) (R, error) {
	var result R
	err := h.handle.Get(ctx, target(&result))
	return result, err
}

// Untyped returns the client.WorkflowUpdateHandle this handle wraps.
func (h UpdateHandle[R]) Untyped() client.WorkflowUpdateHandle { return h.handle }

// UpdateWorkflow sends the update with the argument a, as c.UpdateWorkflow
// does, with options for the rest: WorkflowID and WaitForStage are
// required; UpdateName and Args must be left empty, the definition and a
// give them.
//
//	handle, err := typed.UpdateWorkflow(ctx, c, client.UpdateWorkflowOptions{
//		WorkflowID:   orderID,
//		WaitForStage: client.WorkflowUpdateStageCompleted,
//	}, AddItem, item)
//	count, err := handle.Get(ctx)
func UpdateWorkflow[A, R any](ctx context.Context, c client.Client, options client.UpdateWorkflowOptions, update Update[A, R], a A) (UpdateHandle[R], error) {
	if err := fillUpdateOptions(&options, "UpdateWorkflow", update.name, a); err != nil {
		return UpdateHandle[R]{}, err
	}
	handle, err := c.UpdateWorkflow(ctx, options)
	if err != nil {
		return UpdateHandle[R]{}, err
	}
	return UpdateHandle[R]{handle: handle}, nil
}

// GetWorkflowUpdateHandle returns the handle of an update sent earlier,
// by its IDs, as c.GetWorkflowUpdateHandle does, typed by the update's
// definition.
func GetWorkflowUpdateHandle[A, R any](c client.Client, options client.GetWorkflowUpdateHandleOptions, _ Update[A, R]) UpdateHandle[R] {
	return UpdateHandle[R]{handle: c.GetWorkflowUpdateHandle(options)}
}

// fillUpdateOptions sets the update's name and argument in options, and
// refuses options that name another update or carry arguments: the
// definition is the one place they come from.
func fillUpdateOptions(options *client.UpdateWorkflowOptions, call, name string, a any) error {
	if options.UpdateName != "" && options.UpdateName != name {
		return fmt.Errorf("typed.%s: options.UpdateName is %q but the update's definition is %q: leave UpdateName empty, the definition gives it", call, options.UpdateName, name)
	}
	if len(options.Args) > 0 {
		return fmt.Errorf("typed.%s(%q): options.Args holds %d value(s): leave Args empty and pass the update's argument after its definition", call, name, len(options.Args))
	}
	options.UpdateName = name
	options.Args = []any{a}
	return nil
}
