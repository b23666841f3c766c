package workflow

import (
	"cmp"
	"slices"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/wfctx"
)

// Go runs f in a new workflow coroutine, with ctx (or a context derived
// from it) as f's argument. Use it instead of the go statement in workflow
// code: coroutines run one at a time, each until it blocks on a workflow
// primitive (a Future, a Channel, a Selector, Await, Sleep, ...), in an
// order fixed by their creation, so that every replay runs the same way.
//
//	workflow.Go(ctx, func(ctx workflow.Context) {
//		for {
//			var tick Tick
//			ticks.Receive(ctx, &tick)
//			count++
//		}
//	})
func Go(ctx Context, f func(ctx Context)) {
	internal.Go(ctx, f)
}

// GoNamed is Go with a name for the coroutine, shown in stack traces (the
// __stack_trace query) and in panic and deadlock reports. Without a name
// a coroutine is known by its creation number.
func GoNamed(ctx Context, name string, f func(ctx Context)) {
	internal.GoNamed(ctx, name, f)
}

// Channel is a deterministic channel for workflow code, to use instead of
// a Go chan between coroutines. Values go in the order sent; receivers and
// senders that wait are served in the order they started waiting. It is
// both a SendChannel and a ReceiveChannel; see those for the methods
// (Name, Send, SendAsync, Close, Receive, ReceiveWithTimeout,
// ReceiveAsync, ReceiveAsyncWithMoreFlag, Len). Make one with NewChannel
// or NewBufferedChannel; signals arrive on one too (GetSignalChannel).
type Channel = wfctx.Channel

// ReceiveChannel is the receiving side of a Channel; a signal channel is
// one. Its methods, which panic when the value does not fit valuePtr
// (except for signals, whose undecodable values are dropped and logged):
//
//   - Receive(ctx, valuePtr) blocks until a value arrives and stores it
//     in valuePtr (which may be nil to discard it); more is false once
//     the channel is closed and drained. It does not return when ctx is
//     canceled: use a Selector with ctx.Done() for that.
//   - ReceiveWithTimeout(ctx, timeout, valuePtr) is Receive that gives up
//     after timeout of workflow time or when ctx is canceled, with ok
//     false.
//   - ReceiveAsync(valuePtr) takes a value only if one is ready, without
//     blocking, and reports whether it did.
//   - ReceiveAsyncWithMoreFlag(valuePtr) is ReceiveAsync that also
//     reports, as more, whether the channel is still open.
//   - Len returns the number of values buffered plus waiting senders.
//   - Name returns the channel's name; for a signal channel, the signal's.
type ReceiveChannel = wfctx.ReceiveChannel

// SendChannel is the sending side of a Channel. Its methods:
//
//   - Send(ctx, v) blocks until a receiver or the buffer takes v. It
//     panics if the channel is closed. It does not return when ctx is
//     canceled.
//   - SendAsync(v) sends only if a receiver or the buffer takes v at
//     once, and reports whether one did.
//   - Close forbids further sends; receivers drain what was sent, then
//     receive with more false.
//   - Name returns the channel's name.
type SendChannel = wfctx.SendChannel

// NewChannel returns an unbuffered Channel: a send blocks until a
// receiver takes the value.
func NewChannel(ctx Context) Channel {
	return internal.NewChannel(ctx)
}

// NewNamedChannel returns an unbuffered Channel with a name, shown in
// stack traces and deadlock reports.
func NewNamedChannel(ctx Context, name string) Channel {
	return internal.NewNamedChannel(ctx, name)
}

// NewBufferedChannel returns a Channel that holds up to size values that
// no receiver took yet; sends block only when it is full. A size of zero
// makes it unbuffered.
func NewBufferedChannel(ctx Context, size int) Channel {
	return internal.NewBufferedChannel(ctx, size)
}

// NewNamedBufferedChannel is NewBufferedChannel with a name, shown in
// stack traces and deadlock reports.
func NewNamedBufferedChannel(ctx Context, name string, size int) Channel {
	return internal.NewNamedBufferedChannel(ctx, name, size)
}

// Selector waits for the first of several channels and futures, like a
// select statement. Add cases, then call Select once per event to handle:
//
//   - AddReceive(c, f) adds a case ready when c has a value or is closed;
//     f must receive from c itself (Select only makes sure that the
//     Receive will not block).
//   - AddSend(c, v, f) adds a case ready when c can take v; Select sends
//     v, then runs f.
//   - AddFuture(future, f) adds a case ready when future is; it fires at
//     most once per Selector, however often Select is called.
//   - AddDefault(f) sets the function Select runs when no case is ready,
//     so that Select does not block.
//   - Select(ctx) blocks until a case is ready and runs its function;
//     when several are ready, the first one added wins.
//   - HasPending reports whether a case is ready now.
//
// Add methods return the Selector, so that calls chain. A typical loop
// handles signals until a timer fires:
//
//	done := false
//	selector := workflow.NewSelector(ctx)
//	selector.AddReceive(workflow.GetSignalChannel(ctx, "add"), func(c workflow.ReceiveChannel, _ bool) {
//		var item Item
//		c.Receive(ctx, &item)
//		items = append(items, item)
//	})
//	selector.AddFuture(workflow.NewTimer(ctx, time.Hour), func(workflow.Future) { done = true })
//	for !done {
//		selector.Select(ctx)
//	}
type Selector = internal.Selector

// NewSelector returns an empty Selector.
func NewSelector(ctx Context) Selector {
	return internal.NewSelector(ctx)
}

// NewNamedSelector returns an empty Selector with a name, shown in stack
// traces and deadlock reports.
func NewNamedSelector(ctx Context, name string) Selector {
	return internal.NewNamedSelector(ctx, name)
}

// Future is the result of an asynchronous operation: an activity, a
// timer, a child workflow, or a NewFuture.
//
//   - Get(ctx, valuePtr) blocks until the result is ready, then decodes
//     it into valuePtr (unless valuePtr is nil or the operation failed)
//     and returns the operation's error. It can be called again, and by
//     several coroutines, with the same outcome. It does not return when
//     ctx is canceled: cancel the operation's context instead.
//   - IsReady reports whether the result is ready, so that Get will not
//     block.
type Future = internal.Future

// Settable completes a Future made by NewFuture. Use exactly one of its
// methods, once; a second call panics.
//
//   - Set(value, err) sets both the value and the error.
//   - SetValue(value) sets the value, with a nil error.
//   - SetError(err) sets the error, with no value.
//   - Chain(future) makes the Future take another future's value and
//     error, when that one is ready.
type Settable = internal.Settable

// NewFuture returns a Future and the Settable that completes it, to hand
// a result from one coroutine to others:
//
//	future, settable := workflow.NewFuture(ctx)
//	workflow.Go(ctx, func(ctx workflow.Context) {
//		settable.SetValue(compute(ctx))
//	})
//	var result int
//	err := future.Get(ctx, &result)
func NewFuture(ctx Context) (Future, Settable) {
	return internal.NewFuture(ctx)
}

// Await blocks the calling coroutine until condition returns true, and
// then returns nil, or until ctx is canceled, and then returns a
// *temporal.CanceledError. condition is evaluated at once, then again each
// time other coroutines have run (after a signal, an activity result, a
// timer); it must only read workflow state, without blocking.
//
//	err := workflow.Await(ctx, func() bool { return approved || rejected })
func Await(ctx Context, condition func() bool) error {
	return internal.Await(ctx, condition)
}

// Mutex is a lock shared by the coroutines of one workflow run, for a
// critical section that blocks (an activity, a timer) between reading and
// writing state. Coroutines that run without blocking need no lock.
//
//   - Lock(ctx) blocks until the mutex is free and takes it; it returns a
//     *temporal.CanceledError, without the lock, when ctx is canceled
//     first.
//   - TryLock(ctx) takes the mutex if it is free and reports whether it
//     did.
//   - Unlock frees it; it panics when the mutex is not locked.
//   - IsLocked reports whether the mutex is taken.
type Mutex = internal.Mutex

// NewMutex returns an unlocked Mutex. When several coroutines wait for it,
// the first of them in the order the coroutines were created takes it.
func NewMutex(ctx Context) Mutex {
	return internal.NewMutex(ctx)
}

// Semaphore is a weighted semaphore shared by the coroutines of one
// workflow run, to bound how many operations run at once.
//
//   - Acquire(ctx, n) blocks until n units are free and takes them; it
//     returns a *temporal.CanceledError, taking nothing, when ctx is
//     canceled first.
//   - TryAcquire(ctx, n) takes n units if they are free and reports
//     whether it did.
//   - Release(n) gives n units back; it panics when more are released
//     than are held.
type Semaphore = internal.Semaphore

// NewSemaphore returns a Semaphore of n units, all free. Waiters are
// served in the order the coroutines were created, so a waiter for few
// units may pass one that waits for many.
func NewSemaphore(ctx Context, n int64) Semaphore {
	return internal.NewSemaphore(ctx, n)
}

// WaitGroup waits for a set of coroutines to finish, as sync.WaitGroup
// does for goroutines.
//
//   - Add(delta) adds delta, which may be negative, to the counter; it
//     panics when the counter goes below zero.
//   - Done subtracts one.
//   - Go(ctx, f) adds one and runs f in a new coroutine that calls Done
//     when f returns.
//   - Wait(ctx) blocks until the counter is zero. It does not return when
//     ctx is canceled.
type WaitGroup = internal.WaitGroup

// NewWaitGroup returns a WaitGroup whose counter is zero.
func NewWaitGroup(ctx Context) WaitGroup {
	return internal.NewWaitGroup(ctx)
}

// DeterministicKeys returns the keys of m in sorted order, for ranging
// over a map in workflow code, where Go's random map order would make
// replays differ:
//
//	for _, k := range workflow.DeterministicKeys(balances) {
//		total += balances[k]
//	}
func DeterministicKeys[K cmp.Ordered, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// DeterministicKeysFunc returns the keys of m sorted by cmp, which returns
// a negative number when its first key sorts before its second, a positive
// one when after, and zero when they are equal. The sort is stable, but
// keys that compare equal come in map order: cmp should order all keys.
func DeterministicKeysFunc[K comparable, V any](m map[K]V, cmp func(K, K) int) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortStableFunc(keys, cmp)
	return keys
}
