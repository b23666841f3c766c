package coro

import (
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultDeadlockTimeout is how long a coroutine may run without yielding
// before RunUntilBlocked reports a deadlock, unless Options say otherwise.
const DefaultDeadlockTimeout = time.Second

// Options configure a Dispatcher.
type Options struct {
	// DeadlockTimeout is how long one coroutine may run without suspending
	// or returning. Zero means DefaultDeadlockTimeout; a negative value
	// turns deadlock detection off (for debugging).
	DeadlockTimeout time.Duration
	// OnAllBlocked, if set, is called when a pass made no progress. It may
	// create coroutines or satisfy conditions; returning true asks for
	// another pass. It runs on the dispatcher's goroutine, not in a
	// coroutine, and is not covered by deadlock detection.
	OnAllBlocked func() bool
}

// Dispatcher owns a set of coroutines and runs them one at a time in a
// deterministic order. Its methods are not safe for concurrent use, except
// Close, PauseDeadlockDetection, and the fact that RunUntilBlocked returns
// while its drive is stuck in a deadlock.
type Dispatcher struct {
	deadlockTimeout time.Duration
	onAllBlocked    func() bool

	// Owned by whichever goroutine drives the coroutines: the run
	// goroutine during RunUntilBlocked, the caller otherwise.
	order   []*Coroutine // live coroutines in turn order
	firsts  []*Coroutine // made by SpawnFirst, waiting to be placed
	created int
	current *Coroutine // the coroutine being resumed, if any
	closing bool       // unwinding: suspensions panic with unwind

	// Shared between the caller, the run goroutine, the monitor and Close.
	mu     sync.Mutex
	busy   bool // some goroutine is driving the coroutines
	closed bool // Close was called
	// done is closed when that drive ends or is abandoned, whichever
	// comes first; its waiters then tell which by abandoned.
	done      chan struct{}
	abandoned chan struct{} // done of the drive given up on (deadlock), if any
	broken    error         // returned by every later RunUntilBlocked
	runErr    error         // result of the last drive that ended

	stopRequested atomic.Bool // the drive must unwind everything and stop
	watch         watchdog
}

// New returns a Dispatcher with no coroutines.
func New(opts Options) *Dispatcher {
	timeout := opts.DeadlockTimeout
	if timeout == 0 {
		timeout = DefaultDeadlockTimeout
	}
	return &Dispatcher{deadlockTimeout: timeout, onAllBlocked: opts.OnAllBlocked}
}

// Spawn creates a coroutine that runs fn. It takes its first turn at the
// end of the current pass, or in the next run if no run is in progress.
// name is only for stack traces and errors.
func (d *Dispatcher) Spawn(name string, fn func()) *Coroutine {
	c := newCoroutine(d, name, fn)
	if d.refuses(c) {
		return c
	}
	d.order = append(d.order, c)
	return c
}

// SpawnFirst creates a coroutine that runs ahead of the others: right after
// the calling coroutine when called from one, else at the front of the
// list when the next pass starts. (The official SDK runs update handlers
// this way.)
func (d *Dispatcher) SpawnFirst(name string, fn func()) *Coroutine {
	c := newCoroutine(d, name, fn)
	if d.refuses(c) {
		return c
	}
	d.firsts = append(d.firsts, c)
	return c
}

// refuses marks c finished, never to run, if the dispatcher is closing or
// closed.
func (d *Dispatcher) refuses(c *Coroutine) bool {
	if !d.closing && !d.stopRequested.Load() {
		return false
	}
	c.status = statusFinished
	return true
}

// SetOnAllBlocked sets Options.OnAllBlocked, for a dispatcher that needs
// it only from some point on (a run, once updates wait for a handler):
// a function kept from the start would be one more object each waiting
// run keeps. It must not be called while RunUntilBlocked runs.
func (d *Dispatcher) SetOnAllBlocked(f func() bool) { d.onAllBlocked = f }

// Created returns how many coroutines the dispatcher has created.
func (d *Dispatcher) Created() int { return d.created }

// Current returns the coroutine being run, or nil outside coroutines.
func (d *Dispatcher) Current() *Coroutine { return d.current }

// Done reports whether every coroutine has finished.
func (d *Dispatcher) Done() bool { return len(d.order) == 0 && len(d.firsts) == 0 }

// Block suspends the calling coroutine until until.Ready() holds, as seen
// by the dispatcher on the coroutine's turn. It always suspends, so the
// caller checks the condition first. reason shows in stack traces; when
// it is "", until's Describe does, if it has one (see Describer).
func (d *Dispatcher) Block(reason string, until Condition) {
	c := d.caller("Block")
	c.status, c.reason, c.until, c.stalled = statusBlocked, reason, until, false
	c.suspend()
	c.until = nil
}

// Poll suspends the calling coroutine until ready returns true. The
// coroutine evaluates ready itself, once per pass, starting with the
// pass after this one; a false result counts as no progress. The caller
// checks the condition before calling Poll if it must not wait a turn.
func (d *Dispatcher) Poll(reason string, ready func() bool) {
	c := d.caller("Poll")
	c.reason, c.stalled = reason, false
	for {
		c.status = statusPolling
		c.suspend()
		if ready() {
			c.stalled = false
			return
		}
		c.stalled = true
	}
}

// Yield suspends the calling coroutine until its next turn, letting every
// other coroutine run first. It counts as progress, so a coroutine that
// yields in a loop keeps the run going.
func (d *Dispatcher) Yield(reason string) {
	c := d.caller("Yield")
	c.status, c.reason, c.stalled = statusYielded, reason, false
	c.suspend()
}

// caller returns the running coroutine, or panics if there is none: the
// suspension calls make sense only inside a coroutine.
func (d *Dispatcher) caller(what string) *Coroutine {
	c := d.current
	if c == nil {
		outsideCoroutines(what)
	}
	return c
}

// outsideCoroutines panics for caller. Kept out of line, so that the
// suspension calls, whose frames stay on a waiting coroutine's stack,
// stay small.
//
//go:noinline
func outsideCoroutines(what string) {
	panic("coro: " + what + " called outside the dispatcher's coroutines; " +
		"blocking workflow calls must be made from workflow code, with its Context")
}

// RunUntilBlocked runs coroutines, pass after pass, until every coroutine
// has finished or is blocked (see the package doc for the order). It
// returns a *PanicError if a coroutine panicked, a *DeadlockError if one
// ran too long without yielding, and ErrClosed if the dispatcher was
// closed. After a deadlock the dispatcher is unusable: every later call
// returns the same error.
func (d *Dispatcher) RunUntilBlocked() error {
	done, err := d.acquire()
	if err != nil {
		return err
	}
	monitor.watch(d)
	go d.drive(done)
	derr, runErr := d.await(done)
	if derr != nil {
		return derr // not as a nil *DeadlockError in a non-nil error
	}
	return runErr
}

// await waits until the drive whose done channel is done ends or is
// abandoned, and returns its result or the deadlock that abandoned it.
func (d *Dispatcher) await(done chan struct{}) (deadlock *DeadlockError, runErr error) {
	<-done
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.abandoned == done {
		return d.broken.(*DeadlockError), nil
	}
	return nil, d.runErr
}

// acquire claims the coroutines for one drive.
func (d *Dispatcher) acquire() (chan struct{}, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case d.broken != nil:
		return nil, d.broken
	case d.closed:
		return nil, ErrClosed
	case d.busy:
		return nil, errBusy
	}
	d.busy = true
	d.done = make(chan struct{})
	return d.done, nil
}

// release ends a drive; err is what RunUntilBlocked returns.
func (d *Dispatcher) release(done chan struct{}, err error) {
	monitor.unwatch(d) // before the waiters wake and start another drive
	d.mu.Lock()
	d.busy = false
	d.runErr = err
	if d.abandoned != done {
		close(done)
	}
	d.done = nil // a dispatcher waiting in a cache keeps no channel
	d.mu.Unlock()
}

// drive is the run goroutine.
func (d *Dispatcher) drive(done chan struct{}) {
	ended := false
	defer func() {
		if ended {
			return
		}
		if p := recover(); p != nil {
			// A panic outside every coroutine, in Options.OnAllBlocked,
			// which may run user code: it must not end the process.
			d.endDrive(done, &PanicError{Value: p, Stack: string(debug.Stack())})
			return
		}
		// A coroutine called runtime.Goexit, which iter.Pull passes on to
		// this goroutine. Report it like a panic.
		c := d.current
		d.endDrive(done, &PanicError{Coroutine: c.name, Value: "runtime.Goexit called in a coroutine", Stack: "(unavailable: the goroutine has exited)"})
	}()
	err := d.runPasses()
	ended = true
	d.release(done, err)
}

// endDrive ends a drive that did not return: a coroutine called
// runtime.Goexit, or OnAllBlocked panicked.
func (d *Dispatcher) endDrive(done chan struct{}, err *PanicError) {
	d.current = nil
	d.watch.leave()
	if d.stopRequested.Load() {
		go func() {
			d.unwindAll()
			d.release(done, err)
		}()
		return
	}
	d.release(done, err)
}

// runPasses makes passes until one makes no progress.
func (d *Dispatcher) runPasses() error {
	defer d.watch.leave()
	for {
		progressed := false
		if len(d.firsts) > 0 {
			d.order = append(d.firsts, d.order...)
			d.firsts = nil
		}
		createdBefore := d.created
		for i := 0; i < len(d.order); i++ {
			c := d.order[i]
			if c.status != statusFinished { // else it ended by runtime.Goexit
				if !c.wantsTurn() {
					continue
				}
				if d.resume(c) {
					progressed = true
				}
				if d.stopRequested.Load() {
					d.unwindAll()
					return ErrClosed
				}
			}
			if c.status == statusFinished {
				d.order = slices.Delete(d.order, i, i+1)
				i--
				if c.panicErr != nil {
					return c.panicErr
				}
			}
			if len(d.firsts) > 0 {
				d.order = slices.Insert(d.order, i+1, d.firsts...)
				d.firsts = nil
			}
		}
		if d.created != createdBefore {
			progressed = true
		}
		if !progressed && !d.allBlocked() {
			return nil
		}
	}
}

// allBlocked asks Options.OnAllBlocked whether there is more to do.
func (d *Dispatcher) allBlocked() bool {
	if d.onAllBlocked == nil {
		return false
	}
	d.watch.leave()
	return d.onAllBlocked()
}

// resume gives c one turn and reports whether it made progress.
func (d *Dispatcher) resume(c *Coroutine) bool {
	if c.status == statusNew {
		c.start()
	}
	d.current = c
	d.watch.enter(c)
	c.next()
	d.current = nil
	return c.status == statusFinished || !c.stalled
}

// unwindAll ends every coroutine, running their deferred functions.
func (d *Dispatcher) unwindAll() {
	d.closing = true
	for _, list := range [][]*Coroutine{d.order, d.firsts} {
		for _, c := range list {
			if c.stop != nil && c.status != statusFinished {
				d.current = c
				d.watch.enter(c)
				c.stop()
				d.current = nil
			}
			c.status = statusFinished
		}
	}
	d.order, d.firsts = nil, nil
	d.watch.leave()
}

// Close unwinds every coroutine: each resumes into a panic that only its
// own wrapper recovers, so its deferred functions run and its goroutine
// exits. A deferred function that blocks is unwound again. Close waits for
// the unwinding, but gives up on a coroutine that runs longer than the
// deadlock timeout without suspending and returns a *DeadlockError; that
// coroutine's goroutine finishes the unwinding if it ever suspends. If a
// run is in progress on another goroutine, it stops at its next switch
// and returns ErrClosed. After a deadlock, Close returns at once. Calling
// Close again does nothing.
func (d *Dispatcher) Close() error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil
	}
	d.closed = true
	d.stopRequested.Store(true)
	if d.busy {
		done, abandoned := d.done, d.abandoned != nil
		d.mu.Unlock()
		if abandoned {
			return nil
		}
		if derr, _ := d.await(done); derr != nil {
			return derr
		}
		return nil
	}
	d.busy = true
	d.done = make(chan struct{})
	done := d.done
	d.mu.Unlock()
	monitor.watch(d)
	go d.unwindOnce(done)
	if derr, _ := d.await(done); derr != nil {
		return derr
	}
	return nil
}

// unwindOnce is the goroutine that unwinds for Close. If a coroutine calls
// runtime.Goexit while unwinding, this goroutine dies with it, and a new
// one carries on.
func (d *Dispatcher) unwindOnce(done chan struct{}) {
	ended := false
	defer func() {
		if !ended {
			d.current = nil
			go d.unwindOnce(done)
		}
	}()
	d.unwindAll()
	ended = true
	d.release(done, ErrClosed)
}
