package coro

import (
	"context"
	"iter"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"sync/atomic"
)

// Condition is what a coroutine blocked by [Dispatcher.Block] waits for.
// The dispatcher calls Ready on its own goroutine, so Ready must be cheap,
// must not block, panic or change state.
type Condition interface {
	Ready() bool
}

// Describer is implemented by a Condition that says what its coroutine
// waits for: Block with no reason shows Describe in stack traces. The
// text is made only when a stack trace asks for it: a coroutine that
// blocks makes no string, which would be an allocation at the deepest
// point of its stack (see Coroutine.start) and one more object a cached
// workflow keeps.
type Describer interface {
	Describe() string
}

// ConditionFunc adapts a function to Condition.
type ConditionFunc func() bool

// Ready calls f.
func (f ConditionFunc) Ready() bool { return f() }

// status is where a coroutine is in its life.
type status uint8

const (
	statusNew      status = iota // created, never resumed
	statusRunning                // executing, or about to be resumed
	statusBlocked                // suspended by Block until its Condition holds
	statusPolling                // suspended by Poll; resumed every pass
	statusYielded                // suspended by Yield; resumed next turn
	statusFinished               // returned, panicked or unwound
)

// labelKey is the pprof goroutine label that identifies a coroutine's
// goroutine in a goroutine profile, so a stuck coroutine's stack can be
// found from outside it.
const labelKey = "durable-go.coroutine"

// labelCounter makes the label value unique in the process.
var labelCounter atomic.Uint64

// unwind is the panic value that unwinds a coroutine when its dispatcher
// closes. Only the coroutine's own wrapper recovers it.
type unwind struct{}

// Coroutine is one function run by a Dispatcher.
type Coroutine struct {
	d     *Dispatcher
	name  string
	seq   int    // creation order, from 1
	label uint64 // pprof label value (see labelText), unique in the process
	fn    func()

	// Set when the coroutine first runs.
	next  func() (struct{}, bool)
	stop  func()
	yield func(struct{}) bool

	status  status
	reason  string    // why it is suspended, for stack traces
	until   Condition // what a blocked coroutine waits for
	stalled bool      // its last turn was a failed poll: no progress

	capture bool   // resumed only to record its stack
	stack   string // the recorded stack

	panicErr *PanicError
}

// Name returns the name given when the coroutine was created.
func (c *Coroutine) Name() string { return c.name }

// Finished reports whether the coroutine has returned, panicked or been
// unwound.
func (c *Coroutine) Finished() bool { return c.status == statusFinished }

// start prepares the goroutine behind the coroutine. It is deferred to the
// first turn so that coroutines closed before running cost no goroutine.
func (c *Coroutine) start() {
	c.label = labelCounter.Add(1)
	// The body of the coroutine's goroutine. Its frame stays under the
	// coroutine's code for as long as the coroutine lives, so it does
	// little itself, and it is a function literal rather than a method
	// value, whose wrapper would add a frame.
	c.next, c.stop = iter.Pull(func(yield func(struct{}) bool) {
		c.yield = yield
		c.setLabel()
		defer c.exit()
		c.fn()
	})
	c.status = statusRunning
}

// setLabel labels the coroutine's goroutine (see labelKey).
//
//go:noinline
func (c *Coroutine) setLabel() {
	pprof.SetGoroutineLabels(pprof.WithLabels(context.Background(), pprof.Labels(labelKey, c.labelText())))
}

// labelText is the value of the coroutine's label (see labelKey).
func (c *Coroutine) labelText() string { return strconv.FormatUint(c.label, 10) }

// exit records how the coroutine ended. It must be deferred by main, so
// that its recover stops any panic before iter.Pull passes it on.
func (c *Coroutine) exit() {
	r := recover()
	c.status = statusFinished
	c.until, c.fn = nil, nil
	if r == nil {
		return
	}
	if _, ok := r.(unwind); ok || c.d.closing {
		return
	}
	c.panicErr = &PanicError{Coroutine: c.name, Value: r, Stack: trimPanicStack(debug.Stack())}
}

// suspend hands control back to the dispatcher and returns when it resumes
// this coroutine to run. It panics with unwind when the dispatcher closes.
func (c *Coroutine) suspend() {
	for {
		if c.d.closing || !c.yield(struct{}{}) {
			panic(unwind{})
		}
		if c.capture {
			c.stack = captureOwnStack()
			c.capture = false
			continue
		}
		c.status = statusRunning
		return
	}
}

// wantsTurn reports whether the dispatcher should resume c on its turn.
func (c *Coroutine) wantsTurn() bool {
	switch c.status {
	case statusNew, statusYielded, statusPolling:
		return true
	case statusBlocked:
		return c.until.Ready()
	}
	return false
}

// statusText describes c for stack traces.
func (c *Coroutine) statusText() string {
	switch c.status {
	case statusNew:
		return "not started"
	case statusRunning:
		return "running"
	case statusFinished:
		return "finished"
	}
	if c.reason != "" {
		return c.reason
	}
	if d, ok := c.until.(Describer); ok && c.status == statusBlocked {
		return d.Describe()
	}
	return "blocked"
}

func newCoroutine(d *Dispatcher, name string, fn func()) *Coroutine {
	d.created++
	return &Coroutine{
		d:    d,
		name: name,
		seq:  d.created,
		fn:   fn,
	}
}
