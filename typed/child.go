package typed

import "github.com/durable-go/sdk/workflow"

// ChildWorkflowFuture is the result of a child workflow started with
// ExecuteChildWorkflow; it wraps the untyped workflow.ChildWorkflowFuture
// (Untyped). Get waits for the child to close and returns its result;
// GetChildWorkflowExecution is ready once the child started. Cancel the
// context the child was started with to cancel the child.
type ChildWorkflowFuture[R any] struct {
	child workflow.ChildWorkflowFuture
}

// Get blocks until the child closes and returns its result, or its error
// (a *temporal.ChildWorkflowExecutionError whose cause says why).
func (f ChildWorkflowFuture[R]) Get(ctx workflow.Context) (R, error) {
	var result R
	err := f.child.Get(ctx, target(&result))
	return result, err
}

// IsReady reports whether the child closed, so that Get does not block.
func (f ChildWorkflowFuture[R]) IsReady() bool { return f.child.IsReady() }

// GetChildWorkflowExecution returns a Future of the child's workflow ID
// and run ID, ready once the server started the child (or could not: its
// error then says why, e.g. a workflow with that ID is already running).
func (f ChildWorkflowFuture[R]) GetChildWorkflowExecution() Future[workflow.Execution] {
	return Future[workflow.Execution]{future: f.child.GetChildWorkflowExecution()}
}

// Untyped returns the workflow.ChildWorkflowFuture this future wraps, for
// the calls that take one, such as workflow.Selector.AddFuture.
func (f ChildWorkflowFuture[R]) Untyped() workflow.ChildWorkflowFuture { return f.child }

// ExecuteChildWorkflow starts the workflow fn as a child with the argument
// a and returns a future of its result, as workflow.ExecuteChildWorkflow(
// ctx, fn, a) does, with the child options of ctx (see
// workflow.WithChildOptions). The compiler checks a and the result type
// against fn.
//
//	child := typed.ExecuteChildWorkflow(ctx, Shipping, order)
//	tracking, err := child.Get(ctx)
func ExecuteChildWorkflow[A, R any](ctx workflow.Context, fn func(workflow.Context, A) (R, error), a A) ChildWorkflowFuture[R] {
	return ChildWorkflowFuture[R]{child: workflow.ExecuteChildWorkflow(ctx, fn, a)}
}

// ExecuteChildWorkflow0 is ExecuteChildWorkflow for a workflow that takes
// no argument after its context.
func ExecuteChildWorkflow0[R any](ctx workflow.Context, fn func(workflow.Context) (R, error)) ChildWorkflowFuture[R] {
	return ChildWorkflowFuture[R]{child: workflow.ExecuteChildWorkflow(ctx, fn)}
}

// ExecuteChildWorkflow2 is ExecuteChildWorkflow for a workflow of two
// arguments.
func ExecuteChildWorkflow2[A1, A2, R any](ctx workflow.Context, fn func(workflow.Context, A1, A2) (R, error), a1 A1, a2 A2) ChildWorkflowFuture[R] {
	return ChildWorkflowFuture[R]{child: workflow.ExecuteChildWorkflow(ctx, fn, a1, a2)}
}

// ExecuteChildWorkflow3 is ExecuteChildWorkflow for a workflow of three
// arguments.
func ExecuteChildWorkflow3[A1, A2, A3, R any](ctx workflow.Context, fn func(workflow.Context, A1, A2, A3) (R, error), a1 A1, a2 A2, a3 A3) ChildWorkflowFuture[R] {
	return ChildWorkflowFuture[R]{child: workflow.ExecuteChildWorkflow(ctx, fn, a1, a2, a3)}
}

// ExecuteChildWorkflowNoResult is ExecuteChildWorkflow for a workflow that
// returns only an error.
func ExecuteChildWorkflowNoResult[A any](ctx workflow.Context, fn func(workflow.Context, A) error, a A) ChildWorkflowFuture[None] {
	return ChildWorkflowFuture[None]{child: workflow.ExecuteChildWorkflow(ctx, fn, a)}
}

// ExecuteChildWorkflowNoResult0 is ExecuteChildWorkflowNoResult for a
// workflow that takes no argument after its context.
func ExecuteChildWorkflowNoResult0(ctx workflow.Context, fn func(workflow.Context) error) ChildWorkflowFuture[None] {
	return ChildWorkflowFuture[None]{child: workflow.ExecuteChildWorkflow(ctx, fn)}
}

// ExecuteChildWorkflowNoResult2 is ExecuteChildWorkflowNoResult for a
// workflow of two arguments.
func ExecuteChildWorkflowNoResult2[A1, A2 any](ctx workflow.Context, fn func(workflow.Context, A1, A2) error, a1 A1, a2 A2) ChildWorkflowFuture[None] {
	return ChildWorkflowFuture[None]{child: workflow.ExecuteChildWorkflow(ctx, fn, a1, a2)}
}

// ExecuteChildWorkflowNoResult3 is ExecuteChildWorkflowNoResult for a
// workflow of three arguments.
func ExecuteChildWorkflowNoResult3[A1, A2, A3 any](ctx workflow.Context, fn func(workflow.Context, A1, A2, A3) error, a1 A1, a2 A2, a3 A3) ChildWorkflowFuture[None] {
	return ChildWorkflowFuture[None]{child: workflow.ExecuteChildWorkflow(ctx, fn, a1, a2, a3)}
}
