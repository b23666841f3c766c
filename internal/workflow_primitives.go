package internal

import (
	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/wfctx"
	"github.com/durable-go/sdk/internal/wfsync"
)

// The deterministic primitives of workflow code as the public API names
// them: the types its signatures use, and the functions that make them.
// Package wfsync implements them, and its package doc states their
// replay contract; the types that go.temporal.io/sdk's signatures name
// stay here.

// Context is the context of workflow code: values, and cancellation
// delivered through a workflow Channel, so that waiting for it is
// deterministic. Workflow contexts carry no deadline.
type Context = wfctx.Context

// CancelFunc cancels a context. It does not wait for the work to stop;
// calls after the first do nothing.
type CancelFunc func()

// ErrCanceled is the error Context.Err returns once the context is
// canceled.
var ErrCanceled = wfsync.ErrCanceled

// ErrDeadlineExceeded is the error Context.Err returns for a context whose
// deadline passed. Workflow contexts have no deadline; it exists for code
// written against context.Context conventions.
var ErrDeadlineExceeded = failure.NewTimeoutError("deadline exceeded", enumspb.TIMEOUT_TYPE_SCHEDULE_TO_CLOSE, nil)

// Channel is a deterministic channel for workflow code; package wfsync's
// doc states its rules.
type Channel = wfctx.Channel

// SendChannel is the sending half of a Channel.
type SendChannel = wfctx.SendChannel

// ReceiveChannel is the receiving half of a Channel.
type ReceiveChannel = wfctx.ReceiveChannel

// Future is the result of an asynchronous operation, ready once set.
//
// It is declared here and again, with the same methods, as wfsync.Future,
// which wfsync's Selector and SettableFuture.Chain take, rather than
// aliased from there: the API's signatures name this package's Context and
// Future, as go.temporal.io/sdk's do, and a Future declared in wfsync would
// name wfsync's Context in its Get: the API, listed against the official
// one, would read differently.
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

// Selector is the workflow's select statement: cases are added once and
// Select runs the function of one ready case each time it is called.
type Selector interface {
	// AddReceive adds a case that is ready when c has a value or is
	// closed. f must receive the value from c itself: Select only
	// guarantees that a Receive in f will not block.
	AddReceive(c ReceiveChannel, f func(c ReceiveChannel, more bool)) Selector
	// AddSend adds a case that is ready when c takes v.
	AddSend(c SendChannel, v any, f func()) Selector
	// AddFuture adds a case that is ready when future is; it fires at most
	// once per Selector.
	AddFuture(future Future, f func(f Future)) Selector
	// AddDefault sets the function Select runs when no case is ready.
	AddDefault(f func())
	// Select blocks until a case is ready and runs its function.
	Select(ctx Context)
	// HasPending reports whether a case is ready now.
	HasPending() bool
}

// Mutex is a lock for workflow coroutines.
type Mutex interface {
	// Lock blocks until the mutex is free and takes it. It returns a
	// CanceledError, without the lock, if ctx is canceled first.
	Lock(ctx Context) error
	// TryLock takes the mutex if it is free and reports whether it did.
	TryLock(ctx Context) bool
	// Unlock frees the mutex; it panics if the mutex is not locked.
	Unlock()
	// IsLocked reports whether the mutex is taken.
	IsLocked() bool
}

// Semaphore is a weighted semaphore for workflow coroutines.
type Semaphore interface {
	// Acquire blocks until n units are free and takes them. It returns a
	// CanceledError, taking nothing, if ctx is canceled first.
	Acquire(ctx Context, n int64) error
	// TryAcquire takes n units if they are free and reports whether it did.
	TryAcquire(ctx Context, n int64) bool
	// Release returns n units; it panics if more are returned than held.
	Release(n int64)
}

// WaitGroup waits for a set of coroutines to finish.
type WaitGroup interface {
	// Add adds delta, which may be negative, to the counter; it panics if
	// the counter goes negative.
	Add(delta int)
	// Done decrements the counter.
	Done()
	// Go adds one to the counter and runs f in a new coroutine that calls
	// Done when f returns.
	Go(ctx Context, f func(Context))
	// Wait blocks until the counter is zero. It does not watch ctx for
	// cancellation, and it panics if called again before an earlier Wait
	// returned.
	Wait(ctx Context)
}

// Go starts f in a new coroutine; see wfsync.Go.
func Go(ctx Context, f func(ctx Context)) { wfsync.Go(ctx, f) }

// GoNamed is Go with a name for the coroutine; see wfsync.GoNamed.
func GoNamed(ctx Context, name string, f func(ctx Context)) { wfsync.GoNamed(ctx, name, f) }

// Await blocks the calling coroutine until condition returns true, or
// until ctx is canceled; see wfsync.Await.
func Await(ctx Context, condition func() bool) error { return wfsync.Await(ctx, condition) }

// NewChannel returns an unbuffered Channel named "chan-N", N counting the
// run's unnamed channels from 1.
func NewChannel(ctx Context) Channel { return wfsync.NewChannel(ctx) }

// NewNamedChannel returns an unbuffered Channel with the given name.
func NewNamedChannel(ctx Context, name string) Channel { return wfsync.NewNamedChannel(ctx, name) }

// NewBufferedChannel returns a Channel that holds up to size values
// without a receiver.
func NewBufferedChannel(ctx Context, size int) Channel { return wfsync.NewBufferedChannel(ctx, size) }

// NewNamedBufferedChannel is NewBufferedChannel with a name.
func NewNamedBufferedChannel(ctx Context, name string, size int) Channel {
	return wfsync.NewNamedBufferedChannel(ctx, name, size)
}

// NewFuture returns a Future and the Settable that sets it.
func NewFuture(ctx Context) (Future, Settable) {
	f := wfsync.NewFuture(ctx)
	return f, settable{f}
}

// settable is a future as its Settable: Chain takes this package's
// Future, which wfsync cannot name.
type settable struct{ *wfsync.SettableFuture }

func (s settable) Chain(future Future) { s.SettableFuture.Chain(future) }

// NewSelector returns a Selector named "selector-N", N counting the run's
// unnamed selectors from 1.
func NewSelector(ctx Context) Selector {
	return &selector{wfsync.MakeSelector[Future](ctx)}
}

// NewNamedSelector returns a Selector with a name, which shows in stack
// traces of a coroutine blocked in its Select.
func NewNamedSelector(ctx Context, name string) Selector {
	return &selector{wfsync.MakeNamedSelector[Future](ctx, name)}
}

// selector is wfsync's Selector as this package's: its Add methods return
// the Selector interface.
type selector struct{ wfsync.Selector[Future] }

func (s *selector) AddReceive(c ReceiveChannel, f func(c ReceiveChannel, more bool)) Selector {
	s.Selector.AddReceive(c, f)
	return s
}

func (s *selector) AddSend(c SendChannel, v any, f func()) Selector {
	s.Selector.AddSend(c, v, f)
	return s
}

func (s *selector) AddFuture(future Future, f func(f Future)) Selector {
	s.Selector.AddFuture(future, f)
	return s
}

// NewMutex returns an unlocked Mutex; see wfsync.NewMutex.
func NewMutex(ctx Context) Mutex { return wfsync.NewMutex(ctx) }

// NewSemaphore returns a Semaphore of n units; see wfsync.NewSemaphore.
func NewSemaphore(ctx Context, n int64) Semaphore { return wfsync.NewSemaphore(ctx, n) }

// NewWaitGroup returns a WaitGroup with a zero counter.
func NewWaitGroup(ctx Context) WaitGroup { return wfsync.NewWaitGroup(ctx) }

// WithValue returns a child of parent in which key is bound to value.
func WithValue(parent Context, key any, value any) Context {
	return wfsync.WithValue(parent, key, value)
}

// WithCancel returns a child of parent with its own Done channel, closed
// when the returned CancelFunc is called or when parent is canceled; see
// wfsync.WithCancel.
func WithCancel(parent Context) (Context, CancelFunc) { return wfsync.WithCancel(parent) }

// NewDisconnectedContext returns a child of parent that keeps parent's
// values but not its cancellation.
func NewDisconnectedContext(parent Context) (Context, CancelFunc) {
	return wfsync.NewDisconnectedContext(parent)
}
