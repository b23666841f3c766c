package typed

import "github.com/durable-go/sdk/workflow"

// NewContinueAsNewError returns the error that, returned by the workflow
// function, continues the workflow as a new run of fn with the argument a,
// as workflow.NewContinueAsNewError(ctx, fn, a) does: the same command,
// the same payloads, the same interceptors. The compiler checks a against
// fn's parameter, where the untyped call finds a mismatch only when it
// runs (it panics, and the workflow task fails).
//
//	if workflow.GetInfo(ctx).GetContinueAsNewSuggested() {
//		return Tally{}, typed.NewContinueAsNewError(ctx, Accumulate, tally)
//	}
//
// fn's result type does not have to be the current workflow's: a run may
// continue as another workflow. Drain the signal channels first, as with
// the untyped call: signals left unread are lost with the run.
func NewContinueAsNewError[A, R any](ctx workflow.Context, fn func(workflow.Context, A) (R, error), a A) error {
	return workflow.NewContinueAsNewError(ctx, fn, a)
}

// NewContinueAsNewError0 is NewContinueAsNewError for a workflow that
// takes no argument after its context.
func NewContinueAsNewError0[R any](ctx workflow.Context, fn func(workflow.Context) (R, error)) error {
	return workflow.NewContinueAsNewError(ctx, fn)
}

// NewContinueAsNewError2 is NewContinueAsNewError for a workflow of two
// arguments.
func NewContinueAsNewError2[A1, A2, R any](ctx workflow.Context, fn func(workflow.Context, A1, A2) (R, error), a1 A1, a2 A2) error {
	return workflow.NewContinueAsNewError(ctx, fn, a1, a2)
}

// NewContinueAsNewError3 is NewContinueAsNewError for a workflow of three
// arguments.
func NewContinueAsNewError3[A1, A2, A3, R any](ctx workflow.Context, fn func(workflow.Context, A1, A2, A3) (R, error), a1 A1, a2 A2, a3 A3) error {
	return workflow.NewContinueAsNewError(ctx, fn, a1, a2, a3)
}

// NewContinueAsNewErrorNoResult is NewContinueAsNewError for a workflow
// that returns only an error.
func NewContinueAsNewErrorNoResult[A any](ctx workflow.Context, fn func(workflow.Context, A) error, a A) error {
	return workflow.NewContinueAsNewError(ctx, fn, a)
}

// NewContinueAsNewErrorNoResult0 is NewContinueAsNewErrorNoResult for a
// workflow that takes no argument after its context.
func NewContinueAsNewErrorNoResult0(ctx workflow.Context, fn func(workflow.Context) error) error {
	return workflow.NewContinueAsNewError(ctx, fn)
}

// NewContinueAsNewErrorNoResult2 is NewContinueAsNewErrorNoResult for a
// workflow of two arguments.
func NewContinueAsNewErrorNoResult2[A1, A2 any](ctx workflow.Context, fn func(workflow.Context, A1, A2) error, a1 A1, a2 A2) error {
	return workflow.NewContinueAsNewError(ctx, fn, a1, a2)
}

// NewContinueAsNewErrorNoResult3 is NewContinueAsNewErrorNoResult for a
// workflow of three arguments.
func NewContinueAsNewErrorNoResult3[A1, A2, A3 any](ctx workflow.Context, fn func(workflow.Context, A1, A2, A3) error, a1 A1, a2 A2, a3 A3) error {
	return workflow.NewContinueAsNewError(ctx, fn, a1, a2, a3)
}

// NewContinueAsNewErrorWithOptions is NewContinueAsNewError with options
// (the new run's retry policy, a wait before it starts), as
// workflow.NewContinueAsNewErrorWithOptions(ctx, options, fn, a) does.
func NewContinueAsNewErrorWithOptions[A, R any](ctx workflow.Context, options workflow.ContinueAsNewErrorOptions, fn func(workflow.Context, A) (R, error), a A) error {
	return workflow.NewContinueAsNewErrorWithOptions(ctx, options, fn, a)
}

// NewContinueAsNewErrorWithOptions0 is NewContinueAsNewErrorWithOptions for
// a workflow that takes no argument after its context.
func NewContinueAsNewErrorWithOptions0[R any](ctx workflow.Context, options workflow.ContinueAsNewErrorOptions, fn func(workflow.Context) (R, error)) error {
	return workflow.NewContinueAsNewErrorWithOptions(ctx, options, fn)
}

// NewContinueAsNewErrorWithOptions2 is NewContinueAsNewErrorWithOptions for
// a workflow of two arguments.
func NewContinueAsNewErrorWithOptions2[A1, A2, R any](ctx workflow.Context, options workflow.ContinueAsNewErrorOptions, fn func(workflow.Context, A1, A2) (R, error), a1 A1, a2 A2) error {
	return workflow.NewContinueAsNewErrorWithOptions(ctx, options, fn, a1, a2)
}

// NewContinueAsNewErrorWithOptions3 is NewContinueAsNewErrorWithOptions for
// a workflow of three arguments.
func NewContinueAsNewErrorWithOptions3[A1, A2, A3, R any](ctx workflow.Context, options workflow.ContinueAsNewErrorOptions, fn func(workflow.Context, A1, A2, A3) (R, error), a1 A1, a2 A2, a3 A3) error {
	return workflow.NewContinueAsNewErrorWithOptions(ctx, options, fn, a1, a2, a3)
}

// NewContinueAsNewErrorWithOptionsNoResult is
// NewContinueAsNewErrorWithOptions for a workflow that returns only an
// error.
func NewContinueAsNewErrorWithOptionsNoResult[A any](ctx workflow.Context, options workflow.ContinueAsNewErrorOptions, fn func(workflow.Context, A) error, a A) error {
	return workflow.NewContinueAsNewErrorWithOptions(ctx, options, fn, a)
}

// NewContinueAsNewErrorWithOptionsNoResult0 is
// NewContinueAsNewErrorWithOptionsNoResult for a workflow that takes no
// argument after its context.
func NewContinueAsNewErrorWithOptionsNoResult0(ctx workflow.Context, options workflow.ContinueAsNewErrorOptions, fn func(workflow.Context) error) error {
	return workflow.NewContinueAsNewErrorWithOptions(ctx, options, fn)
}

// NewContinueAsNewErrorWithOptionsNoResult2 is
// NewContinueAsNewErrorWithOptionsNoResult for a workflow of two
// arguments.
func NewContinueAsNewErrorWithOptionsNoResult2[A1, A2 any](ctx workflow.Context, options workflow.ContinueAsNewErrorOptions, fn func(workflow.Context, A1, A2) error, a1 A1, a2 A2) error {
	return workflow.NewContinueAsNewErrorWithOptions(ctx, options, fn, a1, a2)
}

// NewContinueAsNewErrorWithOptionsNoResult3 is
// NewContinueAsNewErrorWithOptionsNoResult for a workflow of three
// arguments.
func NewContinueAsNewErrorWithOptionsNoResult3[A1, A2, A3 any](ctx workflow.Context, options workflow.ContinueAsNewErrorOptions, fn func(workflow.Context, A1, A2, A3) error, a1 A1, a2 A2, a3 A3) error {
	return workflow.NewContinueAsNewErrorWithOptions(ctx, options, fn, a1, a2, a3)
}
