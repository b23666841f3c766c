package wfsync

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/durable-go/sdk/internal/coro"
	"github.com/durable-go/sdk/internal/failure"
)

// Runtime is the state shared by all coroutines of one workflow run.
// The run's root context carries it, so every Context derived from that
// context reaches it (see RuntimeOf).
//
// It holds what the deterministic primitives need: the dispatcher, the
// names of channels and selectors, and a way to start timers. Everything
// else of a run (its engine execution, signal channels, query handlers,
// logger) lives in package internal's workflowRun, which run is.
type Runtime struct {
	dispatcher *coro.Dispatcher

	channelSeq  int // names NewChannel channels "chan-N"
	selectorSeq int // names NewSelector selectors "selector-N"
	waiters     waiterPool

	// run is the workflow run the runtime belongs to; nil in tests of the
	// primitives alone.
	run Run
	// timers are the engine's timers and clock (ReceiveWithTimeout uses
	// them); nil in tests that need none.
	timers Timers
}

// NewRuntime returns the runtime of one workflow run, with no
// coroutine yet.
func NewRuntime(opts coro.Options) *Runtime {
	return &Runtime{dispatcher: coro.New(opts)}
}

// Run is the workflow run a Runtime belongs to, as the primitives see it:
// Go and Await go through the run's outbound interceptors, whose chain
// ends in Runtime.Spawn and in an AwaitCheck polled on the dispatcher.
// Package internal's workflowRun implements it.
type Run interface {
	Go(ctx Context, name string, f func(ctx Context)) Context
	Await(ctx Context, condition func() bool) error
}

// Timers are a run's workflow timers and clock, as the engine keeps them.
// Package internal's workflowRun implements it (an interface rather than
// two functions: a method value is an allocation each cached run keeps).
type Timers interface {
	// StartTimer starts a workflow timer that fires after d; canceling
	// ctx cancels it.
	StartTimer(ctx Context, d time.Duration, summary string) *SettableFuture
	// Now is the workflow's clock.
	Now() time.Time
}

// Attach ties the runtime to its run, and to the engine's timers and
// clock.
func (rt *Runtime) Attach(run Run, timers Timers) { rt.run, rt.timers = run, timers }

// Run returns the run the runtime belongs to, nil if none.
func (rt *Runtime) Run() Run { return rt.run }

// Dispatcher returns the dispatcher of the run's coroutines.
func (rt *Runtime) Dispatcher() *coro.Dispatcher { return rt.dispatcher }

// RuntimeKey is the context key of the *Runtime.
type RuntimeKey struct{}

// RuntimeOf returns the runtime that ctx belongs to. It panics if ctx was
// not derived from a workflow's root context: blocking workflow calls make
// sense only in workflow code.
func RuntimeOf(ctx Context) *Runtime {
	if ctx != nil {
		if rt, ok := ctx.Value(RuntimeKey{}).(*Runtime); ok && rt != nil {
			return rt
		}
	}
	panic(fmt.Sprintf("workflow: %T is not a workflow Context; pass the Context the workflow function received, or one derived from it", ctx))
}

// errNoTimers is the panic value of a timer-based call in a runtime without
// an engine (unit tests of this package).
var errNoTimers = errors.New("workflow: this workflow runtime has no timers (no engine attached)")

func (rt *Runtime) newTimer(ctx Context, d time.Duration, summary string) *SettableFuture {
	if rt.timers == nil {
		panic(errNoTimers)
	}
	return rt.timers.StartTimer(ctx, d, summary)
}

// now is the workflow's clock.
func (rt *Runtime) now() time.Time {
	if rt.timers == nil {
		panic(errNoTimers)
	}
	return rt.timers.Now()
}

// StartRoot creates the root coroutine, named "root" as in the official
// SDK, which runs fn with ctx. It runs at the next RunUntilBlocked.
func (rt *Runtime) StartRoot(ctx Context, fn func(ctx Context)) {
	rt.dispatcher.Spawn("root", func() { fn(ctx) })
}

// Go starts f in a new coroutine. It has the semantics of a go statement,
// but the coroutine runs only when the ones created before it have
// blocked, in the deterministic order described in the package doc. Use it
// instead of the go statement in workflow code.
func Go(ctx Context, f func(ctx Context)) {
	GoNamed(ctx, "", f)
}

// GoNamed is Go with a name shown in stack traces (the __stack_trace
// query) and in panic and deadlock reports. Without a name a coroutine is
// named by its creation number: the root coroutine is "root", the next
// one "2", and so on.
func GoNamed(ctx Context, name string, f func(ctx Context)) {
	rt := RuntimeOf(ctx)
	if rt.run != nil {
		rt.run.Go(ctx, name, f)
		return
	}
	rt.Spawn(ctx, name, f)
}

// Spawn creates a coroutine that runs f with ctx: what Go does at the end
// of the interceptor chain (where package internal refuses it while a
// query handler or an update validator runs).
func (rt *Runtime) Spawn(ctx Context, name string, f func(ctx Context)) {
	d := rt.dispatcher
	if name == "" {
		name = strconv.Itoa(d.Created() + 1)
	}
	d.Spawn(name, func() { f(ctx) })
}

// Await blocks the calling coroutine until condition returns true, or
// until ctx is canceled, when it returns a CanceledError. condition is
// evaluated first at once, then once per pass of the dispatcher while the
// coroutine waits (after other coroutines have had their turn), always in
// the waiting coroutine. It must not block and should not have side
// effects. If condition holds and ctx is canceled, Await returns nil.
func Await(ctx Context, condition func() bool) error {
	rt := RuntimeOf(ctx)
	if rt.run != nil {
		return rt.run.Await(ctx, condition)
	}
	// A runtime without a run (tests of the primitives) has no chain. The
	// wait is here, not in a helper, so that stacks show Await itself.
	w := &AwaitCheck{ctx: ctx, condition: condition}
	if !w.Over() {
		rt.dispatcher.Poll("Await", w.Over)
	}
	return w.Result()
}

// NewAwaitCheck returns Await's test of condition, for the end of the
// outbound interceptor chain in package internal to poll.
func NewAwaitCheck(ctx Context, condition func() bool) *AwaitCheck {
	return &AwaitCheck{ctx: ctx, condition: condition}
}

// AwaitCheck is Await's test: the condition, then ctx's cancellation.
type AwaitCheck struct {
	ctx       Context
	condition func() bool
	satisfied bool
}

// Over reports whether the wait is Over, noting whether the condition
// held.
func (w *AwaitCheck) Over() bool {
	if w.condition() {
		w.satisfied = true
		return true
	}
	return isCanceled(w.ctx)
}

// Result is what Await returns once the wait is over.
func (w *AwaitCheck) Result() error {
	if w.satisfied {
		return nil
	}
	return failure.NewCanceledError("Await context canceled")
}

// AwaitWithTimer is the body of AwaitWithTimeout and AwaitWithOptions
// (added with the engine's timers): it waits like Await, but also gives up
// when the timer fires, returning false and no error. It calls startTimer
// only if condition is not already true, with a child of ctx that it
// cancels when the condition comes true first. functionName names the
// caller in the CanceledError and in stack traces.
func AwaitWithTimer(ctx Context, functionName string, startTimer func(timerCtx Context) *SettableFuture, condition func() bool) (ok bool, err error) {
	d := RuntimeOf(ctx).dispatcher
	if condition() {
		return true, nil
	}
	timerCtx, cancelTimer := WithCancel(ctx)
	timer := startTimer(timerCtx)
	canceledError := func() error { return failure.NewCanceledError("%s context canceled", functionName) }
	if isCanceled(ctx) {
		return false, canceledError()
	}
	if timer.IsReady() {
		return false, nil
	}
	satisfied := false
	d.Poll(functionName, func() bool {
		if condition() {
			satisfied = true
			return true
		}
		return isCanceled(ctx) || timer.IsReady()
	})
	switch {
	case satisfied:
		cancelTimer()
		return true, nil
	case isCanceled(ctx):
		return false, canceledError()
	}
	return false, nil
}

// isCanceled reports whether ctx's Done channel is closed, the way the
// official SDK checks it (a context without a Done channel never is).
func isCanceled(ctx Context) bool {
	done := ctx.Done()
	if done == nil {
		return false
	}
	_, more := done.ReceiveAsyncWithMoreFlag(nil)
	return !more
}
