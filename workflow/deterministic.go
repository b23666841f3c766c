package workflow

import (
	"cmp"
	"slices"

	"github.com/durable-go/sdk/internal"
)

type (
	// Context is the context of workflow code: values and cancellation,
	// with a Done channel that is a workflow Channel. Workflow contexts
	// have no deadline.
	Context = internal.Context

	// CancelFunc cancels a Context; calls after the first do nothing.
	CancelFunc = internal.CancelFunc

	// Channel is a deterministic channel for workflow code. Values are
	// received in the order sent; blocked receivers and senders are served
	// in the order they started waiting.
	Channel = internal.Channel

	// ReceiveChannel is the receiving half of a Channel.
	ReceiveChannel = internal.ReceiveChannel

	// SendChannel is the sending half of a Channel.
	SendChannel = internal.SendChannel

	// Selector waits on several channels and futures, like select. Select
	// runs the first ready case in the order added, else the default, else
	// waits for the first case to become ready.
	Selector = internal.Selector

	// Future is the result of an asynchronous operation.
	Future = internal.Future

	// Settable sets the result of a Future made by NewFuture.
	Settable = internal.Settable

	// Mutex is a lock for workflow coroutines.
	Mutex = internal.Mutex

	// Semaphore is a weighted semaphore for workflow coroutines.
	Semaphore = internal.Semaphore

	// WaitGroup waits for a set of coroutines to finish.
	WaitGroup = internal.WaitGroup
)

var (
	// ErrCanceled is the error Context.Err returns once the context is
	// canceled.
	ErrCanceled = internal.ErrCanceled

	// ErrDeadlineExceeded is the error Context.Err returns when a context's
	// deadline passes.
	ErrDeadlineExceeded = internal.ErrDeadlineExceeded
)

// WithCancel returns a child of parent that is canceled when the returned
// CancelFunc is called or parent is canceled.
func WithCancel(parent Context) (ctx Context, cancel CancelFunc) {
	return internal.WithCancel(parent)
}

// WithValue returns a child of parent in which key is bound to val.
func WithValue(parent Context, key any, val any) Context {
	return internal.WithValue(parent, key, val)
}

// NewDisconnectedContext returns a child of parent that keeps its values
// but is not canceled with it, for cleanup after cancellation.
func NewDisconnectedContext(parent Context) (ctx Context, cancel CancelFunc) {
	return internal.NewDisconnectedContext(parent)
}

// Go runs f in a new workflow coroutine; use it instead of the go
// statement.
func Go(ctx Context, f func(ctx Context)) {
	internal.Go(ctx, f)
}

// GoNamed is Go with a name shown in stack traces and error reports.
func GoNamed(ctx Context, name string, f func(ctx Context)) {
	internal.GoNamed(ctx, name, f)
}

// NewChannel returns an unbuffered Channel.
func NewChannel(ctx Context) Channel {
	return internal.NewChannel(ctx)
}

// NewNamedChannel returns an unbuffered Channel whose name shows in stack
// traces.
func NewNamedChannel(ctx Context, name string) Channel {
	return internal.NewNamedChannel(ctx, name)
}

// NewBufferedChannel returns a Channel that holds up to size values.
func NewBufferedChannel(ctx Context, size int) Channel {
	return internal.NewBufferedChannel(ctx, size)
}

// NewNamedBufferedChannel returns a named Channel that holds up to size
// values.
func NewNamedBufferedChannel(ctx Context, name string, size int) Channel {
	return internal.NewNamedBufferedChannel(ctx, name, size)
}

// NewSelector returns a Selector.
func NewSelector(ctx Context) Selector {
	return internal.NewSelector(ctx)
}

// NewNamedSelector returns a Selector whose name shows in stack traces.
func NewNamedSelector(ctx Context, name string) Selector {
	return internal.NewNamedSelector(ctx, name)
}

// NewFuture returns a Future and the Settable that sets it.
func NewFuture(ctx Context) (Future, Settable) {
	return internal.NewFuture(ctx)
}

// Await blocks until condition returns true, or returns a CanceledError
// when ctx is canceled. condition is evaluated at once, then each time
// other coroutines have had their turn.
func Await(ctx Context, condition func() bool) error {
	return internal.Await(ctx, condition)
}

// NewMutex returns an unlocked Mutex.
func NewMutex(ctx Context) Mutex {
	return internal.NewMutex(ctx)
}

// NewSemaphore returns a Semaphore of n units.
func NewSemaphore(ctx Context, n int64) Semaphore {
	return internal.NewSemaphore(ctx, n)
}

// NewWaitGroup returns a WaitGroup.
func NewWaitGroup(ctx Context) WaitGroup {
	return internal.NewWaitGroup(ctx)
}

// DeterministicKeys returns the keys of m in sorted order, for ranging
// over a map in workflow code.
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
// one when after, and zero when they are equal. The sort is stable, but keys that compare equal come in
// map order: cmp should order all keys.
func DeterministicKeysFunc[K comparable, V any](m map[K]V, cmp func(K, K) int) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortStableFunc(keys, cmp)
	return keys
}
