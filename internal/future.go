package internal

import (
	"fmt"
	"slices"
)

// Future is the result of an asynchronous operation, ready once set.
type Future interface {
	// Get blocks until the future is ready, then stores its value in
	// valuePtr (unless the future failed or valuePtr is nil) and returns
	// its error. It does not watch ctx for cancellation.
	Get(ctx Context, valuePtr any) error
	// IsReady reports whether the future has been set; Get then does not
	// block.
	IsReady() bool
}

// Settable sets the value of the Future made with it. Setting it twice
// panics.
type Settable interface {
	// Set sets the value and the error.
	Set(value any, err error)
	// SetValue sets the value, with no error.
	SetValue(value any)
	// SetError sets the error, with no value.
	SetError(err error)
	// Chain makes the future take the value and error of another, now if
	// that one is ready, else when it becomes ready.
	Chain(future Future)
}

// asyncFuture is implemented by every Future of this package, including
// the engine's futures that embed *future. Selector.AddFuture and
// Settable.Chain accept no other.
type asyncFuture interface {
	Future
	futureState() *future
}

// NewFuture returns a Future and the Settable that sets it.
func NewFuture(ctx Context) (Future, Settable) {
	runtimeOf(ctx)
	f := &future{}
	return f, f
}

// future implements Future and Settable.
type future struct {
	value any
	err   error
	ready bool

	waiters []receiver // Select cases waiting for it, in registration order
	chained []*future  // futures set with it (Chain)
	onSet   func()     // runs once when set (the engine unregisters cancel callbacks)
}

func (f *future) futureState() *future { return f }

// Get implements Future. A value of the wrong type for valuePtr is an
// error naming both types.
func (f *future) Get(ctx Context, valuePtr any) error {
	if !f.ready {
		runtimeOf(ctx).dispatcher.Block("blocked on Future.Get", f)
	}
	if f.err != nil || f.value == nil || valuePtr == nil {
		return f.err
	}
	if err := assignValue(f.value, valuePtr); err != nil {
		return fmt.Errorf("%w received from a future", err)
	}
	return nil
}

// IsReady implements Future.
func (f *future) IsReady() bool { return f.ready }

// Ready is the dispatcher's wake-up condition for Get.
func (f *future) Ready() bool { return f.ready }

// Set implements Settable: it wakes the Select cases waiting for the future
// in the order they registered, then sets the chained futures in the order
// they were chained.
func (f *future) Set(value any, err error) {
	if f.ready {
		panic("workflow: future is already set")
	}
	f.value, f.err, f.ready = value, err, true
	if f.onSet != nil {
		f.onSet()
		f.onSet = nil
	}
	waiters, chained := f.waiters, f.chained
	f.waiters, f.chained = nil, nil
	for _, w := range waiters {
		w.give(nil, false)
	}
	for _, c := range chained {
		c.Set(value, err)
	}
}

// SetValue implements Settable.
func (f *future) SetValue(value any) { f.Set(value, nil) }

// SetError implements Settable.
func (f *future) SetError(err error) { f.Set(nil, err) }

// Chain implements Settable.
func (f *future) Chain(other Future) {
	if f.ready {
		panic("workflow: future is already set")
	}
	source, ok := other.(asyncFuture)
	if !ok {
		panic(fmt.Sprintf("workflow: cannot chain a %T; only Futures made by the workflow package can be chained", other))
	}
	s := source.futureState()
	if !s.ready {
		s.chained = append(s.chained, f)
		return
	}
	f.Set(s.value, s.err)
}

// removeWaiter withdraws a Select case that no longer waits.
func (f *future) removeWaiter(w receiver) {
	for i, x := range f.waiters {
		if x == w {
			f.waiters = slices.Delete(f.waiters, i, i+1)
			return
		}
	}
}
