package typed

import (
	"context"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/workflow"
)

// This file starts workflows from a client. Each call has one form per
// shape of workflow function, as ExecuteActivity does: no suffix for a
// workflow of one argument after its context, 0, 2 or 3 for that many,
// and NoResult for one that returns only an error.

func startedRun[R any](run client.WorkflowRun, err error) (WorkflowRun[R], error) {
	if err != nil {
		return WorkflowRun[R]{}, err
	}
	return WorkflowRun[R]{run: run}, nil
}

// ExecuteWorkflow starts the workflow fn with the argument a, as
// c.ExecuteWorkflow(ctx, options, fn, a) does, and returns its run, whose
// Get returns fn's result type. The compiler checks a and the result type
// against fn.
//
//	run, err := typed.ExecuteWorkflow(ctx, c, client.StartWorkflowOptions{TaskQueue: "hello"}, Greeting, "Temporal")
//	greeting, err := run.Get(ctx)
func ExecuteWorkflow[A, R any](ctx context.Context, c client.Client, options client.StartWorkflowOptions, fn func(workflow.Context, A) (R, error), a A) (WorkflowRun[R], error) {
	return startedRun[R](c.ExecuteWorkflow(ctx, options, fn, a))
}

// ExecuteWorkflow0 is ExecuteWorkflow for a workflow that takes no
// argument after its context.
func ExecuteWorkflow0[R any](ctx context.Context, c client.Client, options client.StartWorkflowOptions, fn func(workflow.Context) (R, error)) (WorkflowRun[R], error) {
	return startedRun[R](c.ExecuteWorkflow(ctx, options, fn))
}

// ExecuteWorkflow2 is ExecuteWorkflow for a workflow of two arguments.
func ExecuteWorkflow2[A1, A2, R any](ctx context.Context, c client.Client, options client.StartWorkflowOptions, fn func(workflow.Context, A1, A2) (R, error), a1 A1, a2 A2) (WorkflowRun[R], error) {
	return startedRun[R](c.ExecuteWorkflow(ctx, options, fn, a1, a2))
}

// ExecuteWorkflow3 is ExecuteWorkflow for a workflow of three arguments.
func ExecuteWorkflow3[A1, A2, A3, R any](ctx context.Context, c client.Client, options client.StartWorkflowOptions, fn func(workflow.Context, A1, A2, A3) (R, error), a1 A1, a2 A2, a3 A3) (WorkflowRun[R], error) {
	return startedRun[R](c.ExecuteWorkflow(ctx, options, fn, a1, a2, a3))
}

// ExecuteWorkflowNoResult is ExecuteWorkflow for a workflow that returns
// only an error.
func ExecuteWorkflowNoResult[A any](ctx context.Context, c client.Client, options client.StartWorkflowOptions, fn func(workflow.Context, A) error, a A) (WorkflowRun[None], error) {
	return startedRun[None](c.ExecuteWorkflow(ctx, options, fn, a))
}

// ExecuteWorkflowNoResult0 is ExecuteWorkflowNoResult for a workflow that
// takes no argument after its context.
func ExecuteWorkflowNoResult0(ctx context.Context, c client.Client, options client.StartWorkflowOptions, fn func(workflow.Context) error) (WorkflowRun[None], error) {
	return startedRun[None](c.ExecuteWorkflow(ctx, options, fn))
}

// ExecuteWorkflowNoResult2 is ExecuteWorkflowNoResult for a workflow of
// two arguments.
func ExecuteWorkflowNoResult2[A1, A2 any](ctx context.Context, c client.Client, options client.StartWorkflowOptions, fn func(workflow.Context, A1, A2) error, a1 A1, a2 A2) (WorkflowRun[None], error) {
	return startedRun[None](c.ExecuteWorkflow(ctx, options, fn, a1, a2))
}

// ExecuteWorkflowNoResult3 is ExecuteWorkflowNoResult for a workflow of
// three arguments.
func ExecuteWorkflowNoResult3[A1, A2, A3 any](ctx context.Context, c client.Client, options client.StartWorkflowOptions, fn func(workflow.Context, A1, A2, A3) error, a1 A1, a2 A2, a3 A3) (WorkflowRun[None], error) {
	return startedRun[None](c.ExecuteWorkflow(ctx, options, fn, a1, a2, a3))
}

// SignalWithStartWorkflow sends the signal with payload v to the workflow
// workflowID, starting it first with fn and the argument a if it is not
// running, as c.SignalWithStartWorkflow does. The compiler checks v
// against the signal and a against fn.
//
//	run, err := typed.SignalWithStartWorkflow(ctx, c, orderID, OrderPaid, payment,
//		client.StartWorkflowOptions{TaskQueue: "orders"}, OrderWorkflow, order)
func SignalWithStartWorkflow[T, A, R any](ctx context.Context, c client.Client, workflowID string, signal Signal[T], v T,
	options client.StartWorkflowOptions, fn func(workflow.Context, A) (R, error), a A) (WorkflowRun[R], error) {
	return startedRun[R](c.SignalWithStartWorkflow(ctx, workflowID, signal.name, signal.payload(v), options, fn, a))
}

// SignalWithStartWorkflow0 is SignalWithStartWorkflow for a workflow that
// takes no argument after its context.
func SignalWithStartWorkflow0[T, R any](ctx context.Context, c client.Client, workflowID string, signal Signal[T], v T,
	options client.StartWorkflowOptions, fn func(workflow.Context) (R, error)) (WorkflowRun[R], error) {
	return startedRun[R](c.SignalWithStartWorkflow(ctx, workflowID, signal.name, signal.payload(v), options, fn))
}

// SignalWithStartWorkflow2 is SignalWithStartWorkflow for a workflow of
// two arguments.
func SignalWithStartWorkflow2[T, A1, A2, R any](ctx context.Context, c client.Client, workflowID string, signal Signal[T], v T,
	options client.StartWorkflowOptions, fn func(workflow.Context, A1, A2) (R, error), a1 A1, a2 A2) (WorkflowRun[R], error) {
	return startedRun[R](c.SignalWithStartWorkflow(ctx, workflowID, signal.name, signal.payload(v), options, fn, a1, a2))
}

// SignalWithStartWorkflow3 is SignalWithStartWorkflow for a workflow of
// three arguments.
func SignalWithStartWorkflow3[T, A1, A2, A3, R any](ctx context.Context, c client.Client, workflowID string, signal Signal[T], v T,
	options client.StartWorkflowOptions, fn func(workflow.Context, A1, A2, A3) (R, error), a1 A1, a2 A2, a3 A3) (WorkflowRun[R], error) {
	return startedRun[R](c.SignalWithStartWorkflow(ctx, workflowID, signal.name, signal.payload(v), options, fn, a1, a2, a3))
}

// SignalWithStartWorkflowNoResult is SignalWithStartWorkflow for a
// workflow that returns only an error.
func SignalWithStartWorkflowNoResult[T, A any](ctx context.Context, c client.Client, workflowID string, signal Signal[T], v T,
	options client.StartWorkflowOptions, fn func(workflow.Context, A) error, a A) (WorkflowRun[None], error) {
	return startedRun[None](c.SignalWithStartWorkflow(ctx, workflowID, signal.name, signal.payload(v), options, fn, a))
}

// SignalWithStartWorkflowNoResult0 is SignalWithStartWorkflowNoResult for
// a workflow that takes no argument after its context.
func SignalWithStartWorkflowNoResult0[T any](ctx context.Context, c client.Client, workflowID string, signal Signal[T], v T,
	options client.StartWorkflowOptions, fn func(workflow.Context) error) (WorkflowRun[None], error) {
	return startedRun[None](c.SignalWithStartWorkflow(ctx, workflowID, signal.name, signal.payload(v), options, fn))
}

// SignalWithStartWorkflowNoResult2 is SignalWithStartWorkflowNoResult for
// a workflow of two arguments.
func SignalWithStartWorkflowNoResult2[T, A1, A2 any](ctx context.Context, c client.Client, workflowID string, signal Signal[T], v T,
	options client.StartWorkflowOptions, fn func(workflow.Context, A1, A2) error, a1 A1, a2 A2) (WorkflowRun[None], error) {
	return startedRun[None](c.SignalWithStartWorkflow(ctx, workflowID, signal.name, signal.payload(v), options, fn, a1, a2))
}

// SignalWithStartWorkflowNoResult3 is SignalWithStartWorkflowNoResult for
// a workflow of three arguments.
func SignalWithStartWorkflowNoResult3[T, A1, A2, A3 any](ctx context.Context, c client.Client, workflowID string, signal Signal[T], v T,
	options client.StartWorkflowOptions, fn func(workflow.Context, A1, A2, A3) error, a1 A1, a2 A2, a3 A3) (WorkflowRun[None], error) {
	return startedRun[None](c.SignalWithStartWorkflow(ctx, workflowID, signal.name, signal.payload(v), options, fn, a1, a2, a3))
}
