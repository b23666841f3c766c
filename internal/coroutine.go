package internal

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/durable-go/sdk/internal/commands"
	"github.com/durable-go/sdk/internal/coro"
	"github.com/durable-go/sdk/internal/failure"
)

// workflowRuntime is the state shared by all coroutines of one workflow run.
// The run's root context carries it, so every Context derived from that
// context reaches it (see runtimeOf).
//
// It holds what the deterministic primitives need: the dispatcher, the
// names of channels and selectors, and a way to start timers. Everything
// else of a run (its engine execution, signal channels, query handlers,
// logger) lives in the workflowRun that run points to.
type workflowRuntime struct {
	dispatcher *coro.Dispatcher

	channelSeq  int // names NewChannel channels "chan-N"
	selectorSeq int // names NewSelector selectors "selector-N"
	waiters     waiterPool

	// run is the workflow run the runtime belongs to; nil in tests of the
	// primitives alone.
	run *workflowRun

	// startTimer starts a workflow timer that fires after d; canceling ctx
	// cancels it. The engine sets it; ReceiveWithTimeout needs it.
	startTimer func(ctx Context, d time.Duration, summary string) Future
	// now is the workflow's clock, set with startTimer.
	now func() time.Time
}

// newWorkflowRuntime returns the runtime of one workflow run, with no
// coroutine yet.
func newWorkflowRuntime(opts coro.Options) *workflowRuntime {
	return &workflowRuntime{dispatcher: coro.New(opts)}
}

// runtimeKey is the context key of the *workflowRuntime.
type runtimeKey struct{}

// runtimeOf returns the runtime that ctx belongs to. It panics if ctx was
// not derived from a workflow's root context: blocking workflow calls make
// sense only in workflow code.
func runtimeOf(ctx Context) *workflowRuntime {
	if ctx != nil {
		if rt, ok := ctx.Value(runtimeKey{}).(*workflowRuntime); ok && rt != nil {
			return rt
		}
	}
	panic(fmt.Sprintf("workflow: %T is not a workflow Context; pass the Context the workflow function received, or one derived from it", ctx))
}

// errNoTimers is the panic value of a timer-based call in a runtime without
// an engine (unit tests of this package).
var errNoTimers = errors.New("workflow: this workflow runtime has no timers (no engine attached)")

func (rt *workflowRuntime) newTimer(ctx Context, d time.Duration, summary string) Future {
	if rt.startTimer == nil {
		panic(errNoTimers)
	}
	return rt.startTimer(ctx, d, summary)
}

// startRoot creates the root coroutine, named "root" as in the official
// SDK, which runs fn with ctx. It runs at the next RunUntilBlocked.
func (rt *workflowRuntime) startRoot(ctx Context, fn func(ctx Context)) {
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
	rt := runtimeOf(ctx)
	if rt.run != nil {
		rt.run.outbound.Go(ctx, name, f)
		return
	}
	rt.spawn(ctx, name, f)
}

// spawn creates a coroutine that runs f with ctx: what Go does at the end
// of the interceptor chain.
func (rt *workflowRuntime) spawn(ctx Context, name string, f func(ctx Context)) {
	if rt.run != nil && rt.run.readOnly {
		panic(&commands.ReadOnlyError{What: "a coroutine (workflow.Go)"})
	}
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
	rt := runtimeOf(ctx)
	if rt.run != nil {
		return rt.run.outbound.Await(ctx, condition)
	}
	// A runtime without a run (tests of the primitives) has no chain. The
	// wait is here, not in a helper, so that stacks show Await itself.
	w := &awaitCheck{ctx: ctx, condition: condition}
	if !w.over() {
		rt.dispatcher.Poll("Await", w.over)
	}
	return w.result()
}

// awaitCheck is Await's test: the condition, then ctx's cancellation.
type awaitCheck struct {
	ctx       Context
	condition func() bool
	satisfied bool
}

// over reports whether the wait is over, noting whether the condition
// held.
func (w *awaitCheck) over() bool {
	if w.condition() {
		w.satisfied = true
		return true
	}
	return isCanceled(w.ctx)
}

// result is what Await returns once the wait is over.
func (w *awaitCheck) result() error {
	if w.satisfied {
		return nil
	}
	return failure.NewCanceledError("Await context canceled")
}

// awaitWithTimer is the body of AwaitWithTimeout and AwaitWithOptions
// (added with the engine's timers): it waits like Await, but also gives up
// when the timer fires, returning false and no error. It calls startTimer
// only if condition is not already true, with a child of ctx that it
// cancels when the condition comes true first. functionName names the
// caller in the CanceledError and in stack traces.
func awaitWithTimer(ctx Context, functionName string, startTimer func(timerCtx Context) Future, condition func() bool) (ok bool, err error) {
	d := runtimeOf(ctx).dispatcher
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

// RunStandalone runs root as the root coroutine of a new workflow runtime
// that has no engine behind it (no timers, activities or signals), until
// every coroutine has returned or is blocked, then closes the runtime. It
// returns a panic or deadlock as the dispatcher reports it, and an error
// if coroutines were left blocked. It exists for benchmarks and tests of
// the deterministic primitives from outside this package.
func RunStandalone(root func(ctx Context)) error {
	rt := newWorkflowRuntime(coro.Options{})
	ctx, _ := newRootContext(rt)
	rt.startRoot(ctx, root)
	err := rt.dispatcher.RunUntilBlocked()
	done := rt.dispatcher.Done()
	if closeErr := rt.dispatcher.Close(); err == nil {
		err = closeErr
	}
	if err == nil && !done {
		err = errors.New("workflow: coroutines are still blocked with nothing left to wake them")
	}
	return err
}
