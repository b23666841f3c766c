package typed

import "github.com/durable-go/sdk/workflow"

// None is the type of a value that is not there: the result of a function
// that returns only an error (its Future is a Future[None]), the payload
// of a signal that carries nothing (Signal[None]), the result of an update
// handler that returns only an error (Update[A, None]). Nothing is encoded
// or decoded for it: a None result or payload is what the untyped calls
// write when there is none, so the history is the same.
type None struct{}

// isNone reports whether T is None; the typed calls then decode nothing
// and encode nothing, as the untyped calls do for a missing value.
func isNone[T any]() bool {
	_, ok := any((*T)(nil)).(*None)
	return ok
}

// target is where an untyped Get or Receive stores a T: v, or nil for
// None, so that nothing is decoded.
func target[T any](v *T) any {
	if isNone[T]() {
		return nil
	}
	return v
}

// Future is the result of an activity, a local activity, Go, or a signal
// sent from a workflow, once it is ready. It wraps the untyped
// workflow.Future (Untyped) and costs nothing more: Get decodes into an R
// where the untyped Get decodes into the pointer it is given.
//
// A Future works wherever an untyped one does: give Untyped to
// workflow.Selector.AddFuture (or use AddFuture here), and test IsReady in
// workflow.Await.
type Future[R any] struct {
	future workflow.Future
}

// NewFuture wraps an untyped future whose value is an R; Get then decodes
// it into an R. Use it for futures this package does not make, such as
// workflow.NewFuture's.
func NewFuture[R any](future workflow.Future) Future[R] { return Future[R]{future: future} }

// Get blocks until the future is ready and returns its value, or its
// error. A Future[None] returns the zero None and the error.
func (f Future[R]) Get(ctx workflow.Context) (R, error) {
	var result R
	err := f.future.Get(ctx, target(&result))
	return result, err
}

// IsReady reports whether Get would return without blocking: use it in a
// workflow.Await condition.
func (f Future[R]) IsReady() bool { return f.future.IsReady() }

// Untyped returns the workflow.Future this Future wraps, for the calls
// that take one, such as workflow.Selector.AddFuture.
func (f Future[R]) Untyped() workflow.Future { return f.future }

// AddFuture adds f to the selector, as selector.AddFuture(f.Untyped(), ...)
// does, with a callback that gets the typed future: when Select picks it,
// f is ready and f.Get(ctx) does not block.
//
//	typed.AddFuture(selector, charge, func(f typed.Future[Receipt]) {
//		receipt, err = f.Get(ctx)
//	})
func AddFuture[R any](selector workflow.Selector, f Future[R], ready func(f Future[R])) workflow.Selector {
	return selector.AddFuture(f.future, func(workflow.Future) { ready(f) })
}

// Go runs fn in a new workflow coroutine, as workflow.Go does, and returns
// a Future of its result. Like workflow.Go, it writes nothing to the
// history: only what fn does is recorded.
//
//	total := typed.Go(ctx, func(ctx workflow.Context) (int, error) {
//		return sumPrices(ctx, items)
//	})
func Go[R any](ctx workflow.Context, fn func(ctx workflow.Context) (R, error)) Future[R] {
	future, settable := workflow.NewFuture(ctx)
	workflow.Go(ctx, func(ctx workflow.Context) {
		result, err := fn(ctx)
		settable.Set(result, err)
	})
	return Future[R]{future: future}
}
