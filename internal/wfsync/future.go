package wfsync

import (
	"fmt"
	"slices"
)

// asyncFuture is implemented by every SettableFuture, and by the futures
// of package internal that embed one (a child's, say). Selector.AddFuture
// and SettableFuture.Chain accept no other.
type asyncFuture interface {
	Future
	futureState() *SettableFuture
}

// NewFuture returns an unset future; ctx must be a workflow context.
// Package internal's NewFuture hands it out as a Future and a Settable.
func NewFuture(ctx Context) *SettableFuture {
	RuntimeOf(ctx)
	return &SettableFuture{}
}

// SettableFuture is the future of workflow code: the Future and Settable
// of package internal, and the base of its other futures (activities,
// timers, children), which embed it. Its zero value is an unset future.
type SettableFuture struct {
	value any
	err   error
	ready bool

	waiters []receiver        // Select cases waiting for it, in registration order
	chained []*SettableFuture // futures set with it (Chain)
	onSet   func()            // runs once when set (the engine unregisters cancel callbacks)
}

func (f *SettableFuture) futureState() *SettableFuture { return f }

// Get blocks until the future is set, then stores its value in valuePtr
// (unless it failed or valuePtr is nil) and returns its error. A value of the wrong type for valuePtr is an
// error naming both types.
func (f *SettableFuture) Get(ctx Context, valuePtr any) error {
	if !f.ready {
		RuntimeOf(ctx).dispatcher.Block("blocked on Future.Get", f)
	}
	if f.err != nil || f.value == nil || valuePtr == nil {
		return f.err
	}
	err := assignValue(f.value, valuePtr)
	if _, encoded := f.value.(selfDecodingValue); err != nil && !encoded {
		return fmt.Errorf("%w received from a future", err)
	}
	return err
}

// Value returns the value f was set with, as it was set (nil until
// then), for a future of this SDK whose value needs no decoding.
func (f *SettableFuture) Value() any { return f.value }

// IsReady reports whether the future is set.
func (f *SettableFuture) IsReady() bool { return f.ready }

// Ready is the dispatcher's wake-up condition for Get.
func (f *SettableFuture) Ready() bool { return f.ready }

// Set sets the value and the error: it wakes the Select cases waiting for the future
// in the order they registered, then sets the chained futures in the order
// they were chained.
func (f *SettableFuture) Set(value any, err error) {
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

// SetValue sets the value, with no error.
func (f *SettableFuture) SetValue(value any) { f.Set(value, nil) }

// SetError sets the error, with no value.
func (f *SettableFuture) SetError(err error) { f.Set(nil, err) }

// Chain makes f take the value and error of other, now if other is
// ready, else when it becomes ready.
func (f *SettableFuture) Chain(other Future) {
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
func (f *SettableFuture) removeWaiter(w receiver) {
	for i, x := range f.waiters {
		if x == w {
			f.waiters = slices.Delete(f.waiters, i, i+1)
			return
		}
	}
}
