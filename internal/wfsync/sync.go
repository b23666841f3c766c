package wfsync

import (
	"github.com/durable-go/sdk/internal/coro"
	"github.com/durable-go/sdk/internal/failure"
)

// NewMutex returns an unlocked Mutex. When several coroutines wait for it,
// the first one in dispatcher order (creation order) to have its turn
// after Unlock takes it, not the first that called Lock.
func NewMutex(ctx Context) *Mutex {
	RuntimeOf(ctx)
	return &Mutex{}
}

// Mutex is a lock for workflow coroutines (package internal's Mutex).
type Mutex struct{ locked bool }

// Lock blocks until the mutex is free and takes it. It returns a
// CanceledError, without the lock, if ctx is canceled first.
func (m *Mutex) Lock(ctx Context) error {
	if err := awaitReady(ctx, "blocked on Mutex.Lock", func() bool { return !m.locked }); err != nil {
		return err
	}
	m.locked = true
	return nil
}

// TryLock takes the mutex if it is free and reports whether it did.
func (m *Mutex) TryLock(Context) bool {
	if m.locked {
		return false
	}
	m.locked = true
	return true
}

// Unlock frees the mutex; it panics if the mutex is not locked.
func (m *Mutex) Unlock() {
	if !m.locked {
		panic("workflow: Mutex.Unlock called on an unlocked mutex")
	}
	m.locked = false
}

// IsLocked reports whether the mutex is taken.
func (m *Mutex) IsLocked() bool { return m.locked }

// NewSemaphore returns a Semaphore of n units. Waiters are served in
// dispatcher order, like Mutex's: a waiter for few units may pass one that
// waits for many.
func NewSemaphore(ctx Context, n int64) *Semaphore {
	RuntimeOf(ctx)
	return &Semaphore{size: n}
}

// Semaphore is a weighted semaphore for workflow coroutines (package
// internal's Semaphore).
type Semaphore struct{ size, used int64 }

// Acquire blocks until n units are free and takes them. It returns a
// CanceledError, taking nothing, if ctx is canceled first.
func (s *Semaphore) Acquire(ctx Context, n int64) error {
	if err := awaitReady(ctx, "blocked on Semaphore.Acquire", func() bool { return s.size-s.used >= n }); err != nil {
		return err
	}
	s.used += n
	return nil
}

// TryAcquire takes n units if they are free and reports whether it did.
func (s *Semaphore) TryAcquire(_ Context, n int64) bool {
	if s.size-s.used < n {
		return false
	}
	s.used += n
	return true
}

// Release returns n units; it panics if more are returned than held.
func (s *Semaphore) Release(n int64) {
	s.used -= n
	if s.used < 0 {
		panic("workflow: Semaphore.Release released more than held")
	}
}

// NewWaitGroup returns a WaitGroup with a zero counter.
func NewWaitGroup(ctx Context) *WaitGroup {
	RuntimeOf(ctx)
	return &WaitGroup{zero: &SettableFuture{}}
}

// WaitGroup waits for a set of coroutines to finish (package internal's
// WaitGroup). It wakes its waiter through a future set when the counter drops
// to zero during a Wait, as the official SDK does: the waiter returns even
// if the counter rises again before its turn.
type WaitGroup struct {
	n       int
	waiting bool
	zero    *SettableFuture
}

// Add adds delta, which may be negative, to the counter; it panics if
// the counter goes negative.
func (wg *WaitGroup) Add(delta int) {
	wg.n += delta
	if wg.n < 0 {
		panic("workflow: negative WaitGroup counter")
	}
	if wg.n == 0 && wg.waiting {
		wg.zero.Set(false, nil)
	}
}

// Done decrements the counter.
func (wg *WaitGroup) Done() { wg.Add(-1) }

// Go adds one to the counter and runs f in a new coroutine that calls
// Done when f returns.
func (wg *WaitGroup) Go(ctx Context, f func(ctx Context)) {
	wg.Add(1)
	Go(ctx, func(ctx Context) {
		defer wg.Done()
		f(ctx)
	})
}

// Wait blocks until the counter is zero. It does not watch ctx for
// cancellation, and it panics if called again before an earlier Wait
// returned.
func (wg *WaitGroup) Wait(ctx Context) {
	if wg.n <= 0 {
		return
	}
	if wg.waiting {
		panic("workflow: WaitGroup is reused before the previous Wait returned")
	}
	wg.waiting = true
	if err := wg.zero.Get(ctx, &wg.waiting); err != nil {
		panic(err)
	}
	wg.zero = &SettableFuture{}
}

// awaitReady is Await for conditions written in this package, which are
// cheap and have no side effects: the dispatcher evaluates them itself on
// the coroutine's turn, which spares a coroutine switch per pass but
// keeps Await's order and cancellation rules.
func awaitReady(ctx Context, reason string, condition func() bool) error {
	if condition() {
		return nil
	}
	if isCanceled(ctx) {
		return failure.NewCanceledError("Await context canceled")
	}
	RuntimeOf(ctx).dispatcher.Block(reason, coro.ConditionFunc(func() bool {
		return condition() || isCanceled(ctx)
	}))
	if condition() {
		return nil
	}
	return failure.NewCanceledError("Await context canceled")
}
