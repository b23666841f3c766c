package typed

import (
	"context"

	"github.com/durable-go/sdk/workflow"
)

// ExecuteActivity schedules the activity fn with the argument a and
// returns a Future of its result, as workflow.ExecuteActivity(ctx, fn, a)
// does: the same command, the same payloads, the same options (those of
// ctx, see workflow.WithActivityOptions). The compiler checks a against
// fn's parameter and the Future's type against fn's result.
//
//	greeting, err := typed.ExecuteActivity(ctx, Greet, name).Get(ctx)
//
// For a method of a struct registered as activities, pass the method
// value on a nil pointer, as with the untyped call:
//
//	var a *Activities
//	receipt, err := typed.ExecuteActivity(ctx, a.Charge, order).Get(ctx)
func ExecuteActivity[A, R any](ctx workflow.Context, fn func(context.Context, A) (R, error), a A) Future[R] {
	return Future[R]{future: workflow.ExecuteActivity(ctx, fn, a)}
}

// ExecuteActivity0 is ExecuteActivity for an activity that takes no
// argument after its context.
func ExecuteActivity0[R any](ctx workflow.Context, fn func(context.Context) (R, error)) Future[R] {
	return Future[R]{future: workflow.ExecuteActivity(ctx, fn)}
}

// ExecuteActivity2 is ExecuteActivity for an activity of two arguments.
func ExecuteActivity2[A1, A2, R any](ctx workflow.Context, fn func(context.Context, A1, A2) (R, error), a1 A1, a2 A2) Future[R] {
	return Future[R]{future: workflow.ExecuteActivity(ctx, fn, a1, a2)}
}

// ExecuteActivity3 is ExecuteActivity for an activity of three arguments.
func ExecuteActivity3[A1, A2, A3, R any](ctx workflow.Context, fn func(context.Context, A1, A2, A3) (R, error), a1 A1, a2 A2, a3 A3) Future[R] {
	return Future[R]{future: workflow.ExecuteActivity(ctx, fn, a1, a2, a3)}
}

// ExecuteActivityNoResult is ExecuteActivity for an activity that returns
// only an error: its Future's value is None.
//
//	if _, err := typed.ExecuteActivityNoResult(ctx, SendReceipt, order).Get(ctx); err != nil {
//		return err
//	}
func ExecuteActivityNoResult[A any](ctx workflow.Context, fn func(context.Context, A) error, a A) Future[None] {
	return Future[None]{future: workflow.ExecuteActivity(ctx, fn, a)}
}

// ExecuteActivityNoResult0 is ExecuteActivityNoResult for an activity that
// takes no argument after its context.
func ExecuteActivityNoResult0(ctx workflow.Context, fn func(context.Context) error) Future[None] {
	return Future[None]{future: workflow.ExecuteActivity(ctx, fn)}
}

// ExecuteActivityNoResult2 is ExecuteActivityNoResult for an activity of
// two arguments.
func ExecuteActivityNoResult2[A1, A2 any](ctx workflow.Context, fn func(context.Context, A1, A2) error, a1 A1, a2 A2) Future[None] {
	return Future[None]{future: workflow.ExecuteActivity(ctx, fn, a1, a2)}
}

// ExecuteActivityNoResult3 is ExecuteActivityNoResult for an activity of
// three arguments.
func ExecuteActivityNoResult3[A1, A2, A3 any](ctx workflow.Context, fn func(context.Context, A1, A2, A3) error, a1 A1, a2 A2, a3 A3) Future[None] {
	return Future[None]{future: workflow.ExecuteActivity(ctx, fn, a1, a2, a3)}
}

// ExecuteLocalActivity runs fn with the argument a as a local activity and
// returns a Future of its result, as workflow.ExecuteLocalActivity(ctx, fn,
// a) does, with the options of ctx (see workflow.WithLocalActivityOptions).
// The compiler checks a and the result type against fn.
//
//	rate, err := typed.ExecuteLocalActivity(ctx, LookUpRate, currency).Get(ctx)
func ExecuteLocalActivity[A, R any](ctx workflow.Context, fn func(context.Context, A) (R, error), a A) Future[R] {
	return Future[R]{future: workflow.ExecuteLocalActivity(ctx, fn, a)}
}

// ExecuteLocalActivity0 is ExecuteLocalActivity for an activity that takes
// no argument after its context.
func ExecuteLocalActivity0[R any](ctx workflow.Context, fn func(context.Context) (R, error)) Future[R] {
	return Future[R]{future: workflow.ExecuteLocalActivity(ctx, fn)}
}

// ExecuteLocalActivity2 is ExecuteLocalActivity for an activity of two
// arguments.
func ExecuteLocalActivity2[A1, A2, R any](ctx workflow.Context, fn func(context.Context, A1, A2) (R, error), a1 A1, a2 A2) Future[R] {
	return Future[R]{future: workflow.ExecuteLocalActivity(ctx, fn, a1, a2)}
}

// ExecuteLocalActivity3 is ExecuteLocalActivity for an activity of three
// arguments.
func ExecuteLocalActivity3[A1, A2, A3, R any](ctx workflow.Context, fn func(context.Context, A1, A2, A3) (R, error), a1 A1, a2 A2, a3 A3) Future[R] {
	return Future[R]{future: workflow.ExecuteLocalActivity(ctx, fn, a1, a2, a3)}
}

// ExecuteLocalActivityNoResult is ExecuteLocalActivity for an activity
// that returns only an error.
func ExecuteLocalActivityNoResult[A any](ctx workflow.Context, fn func(context.Context, A) error, a A) Future[None] {
	return Future[None]{future: workflow.ExecuteLocalActivity(ctx, fn, a)}
}

// ExecuteLocalActivityNoResult0 is ExecuteLocalActivityNoResult for an
// activity that takes no argument after its context.
func ExecuteLocalActivityNoResult0(ctx workflow.Context, fn func(context.Context) error) Future[None] {
	return Future[None]{future: workflow.ExecuteLocalActivity(ctx, fn)}
}

// ExecuteLocalActivityNoResult2 is ExecuteLocalActivityNoResult for an
// activity of two arguments.
func ExecuteLocalActivityNoResult2[A1, A2 any](ctx workflow.Context, fn func(context.Context, A1, A2) error, a1 A1, a2 A2) Future[None] {
	return Future[None]{future: workflow.ExecuteLocalActivity(ctx, fn, a1, a2)}
}

// ExecuteLocalActivityNoResult3 is ExecuteLocalActivityNoResult for an
// activity of three arguments.
func ExecuteLocalActivityNoResult3[A1, A2, A3 any](ctx workflow.Context, fn func(context.Context, A1, A2, A3) error, a1 A1, a2 A2, a3 A3) Future[None] {
	return Future[None]{future: workflow.ExecuteLocalActivity(ctx, fn, a1, a2, a3)}
}
