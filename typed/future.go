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

// NewFuture returns a Future and the Settable that sets it, as
// workflow.NewFuture does, for a value of type R.
//
//	approval, approve := typed.NewFuture[bool](ctx)
//	workflow.Go(ctx, func(ctx workflow.Context) { approve.SetValue(decide(ctx)) })
//	approved, err := approval.Get(ctx)
func NewFuture[R any](ctx workflow.Context) (Future[R], Settable[R]) {
	future, settable := workflow.NewFuture(ctx)
	return Future[R]{future: future}, Settable[R]{settable: settable}
}

// Settable sets the Future that NewFuture returned with it, once. It
// wraps the untyped workflow.Settable (Untyped).
type Settable[R any] struct {
	settable workflow.Settable
}

// Set sets the future's value and error.
func (s Settable[R]) Set(value R, err error) { s.settable.Set(value, err) }

// SetValue sets the future's value, with no error.
func (s Settable[R]) SetValue(value R) { s.settable.SetValue(value) }

// SetError sets the future's error, with no value.
func (s Settable[R]) SetError(err error) { s.settable.SetError(err) }

// Chain makes the future take the value and error of another future of
// the same type, now if it is ready, else when it becomes ready.
func (s Settable[R]) Chain(future Future[R]) { s.settable.Chain(future.future) }

// Untyped returns the workflow.Settable this Settable wraps.
func (s Settable[R]) Untyped() workflow.Settable { return s.settable }

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
	future, settable := NewFuture[R](ctx)
	workflow.Go(ctx, func(ctx workflow.Context) { settable.Set(fn(ctx)) })
	return future
}
