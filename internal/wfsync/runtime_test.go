package wfsync

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/durable-go/sdk/internal/coro"
	"github.com/durable-go/sdk/internal/failure"
)

// testRun is a workflow runtime with no engine, driven by a test the way
// the engine drives a real one.
type testRun struct {
	t      testing.TB
	rt     *Runtime
	ctx    Context // the root context
	cancel CancelFunc
	timers []*fakeTimer
}

// fakeTimer is a timer the test fires by hand.
type fakeTimer struct {
	ctx      Context
	duration time.Duration
	summary  string
	future   *SettableFuture
}

// newTestRun returns a runtime whose deadlock timeout is long, since tests
// run on loaded machines and under the race detector.
func newTestRun(t testing.TB) *testRun {
	t.Helper()
	rt := NewRuntime(coro.Options{DeadlockTimeout: 30 * time.Second})
	tr := &testRun{t: t, rt: rt}
	tr.ctx, tr.cancel = NewRootContext(rt)
	rt.timers = fakeTimers{tr}
	t.Cleanup(func() { _ = rt.dispatcher.Close() })
	return tr
}

// fakeTimers are timers the test fires by hand.
type fakeTimers struct{ tr *testRun }

func (f fakeTimers) StartTimer(ctx Context, d time.Duration, summary string) *SettableFuture {
	timer := &fakeTimer{ctx: ctx, duration: d, summary: summary, future: &SettableFuture{}}
	f.tr.timers = append(f.tr.timers, timer)
	return timer.future
}

// Now stands still: the fake timers fire when a test says.
func (fakeTimers) Now() time.Time { return time.Time{} }

// start makes fn the root coroutine.
func (tr *testRun) start(fn func(ctx Context)) { tr.rt.StartRoot(tr.ctx, fn) }

// run runs until every coroutine is blocked or done, failing on an error.
func (tr *testRun) run() {
	tr.t.Helper()
	if err := tr.rt.dispatcher.RunUntilBlocked(); err != nil {
		tr.t.Fatalf("RunUntilBlocked: %v", err)
	}
}

// runExpectingPanic runs and returns the panic a coroutine raised.
func (tr *testRun) runExpectingPanic() *coro.PanicError {
	tr.t.Helper()
	err := tr.rt.dispatcher.RunUntilBlocked()
	var perr *coro.PanicError
	if !errors.As(err, &perr) {
		tr.t.Fatalf("RunUntilBlocked returned %v, want a panic", err)
	}
	return perr
}

func (tr *testRun) done() bool { return tr.rt.dispatcher.Done() }

// trace records what coroutines did, in order.
type trace []string

func (tr *trace) add(format string, args ...any) { *tr = append(*tr, fmt.Sprintf(format, args...)) }

func (tr trace) String() string { return strings.Join(tr, " ") }

func assertTrace(t testing.TB, got trace, want string) {
	t.Helper()
	if got.String() != want {
		t.Fatalf("trace:\n got: %s\nwant: %s", got, want)
	}
}

func isCanceledError(err error) bool {
	var canceled *failure.CanceledError
	return errors.As(err, &canceled)
}

func TestGoRunsCoroutinesInCreationOrderAfterTheCurrentBlocks(t *testing.T) {
	tr := newTestRun(t)
	var events trace
	tr.start(func(ctx Context) {
		for i := 1; i <= 3; i++ {
			Go(ctx, func(ctx Context) { events.add("child%d", i) })
		}
		events.add("root-before-blocking")
		_ = Await(ctx, func() bool { return len(events) == 4 })
		events.add("root-after")
	})
	tr.run()
	assertTrace(t, events, "root-before-blocking child1 child2 child3 root-after")
}

func TestCoroutineNamesShowInStackTraces(t *testing.T) {
	tr := newTestRun(t)
	tr.start(func(ctx Context) {
		Go(ctx, func(ctx Context) { NewChannel(ctx).Receive(ctx, nil) })
		GoNamed(ctx, "signal-handler", func(ctx Context) { NewNamedChannel(ctx, "approvals").Receive(ctx, nil) })
		Go(ctx, func(ctx Context) { _, _ = newFuture(ctx); NewSelector(ctx).Select(ctx) })
		_ = Await(ctx, func() bool { return false })
	})
	tr.run()
	text, err := tr.rt.dispatcher.StackTrace()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"coroutine root [Await]:\ngithub.com/durable-go/sdk/internal/wfsync.Await(",
		"coroutine 2 [blocked on chan-1.Receive]:\ngithub.com/durable-go/sdk/internal/wfsync.(*Chan).Receive(",
		"coroutine signal-handler [blocked on approvals.Receive]:",
		"coroutine 4 [blocked on selector-1.Select]:",
		"runtime_test.go:",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("stack trace lacks %q:\n%s", want, text)
		}
	}
}

func TestAwaitEvaluatesItsConditionOnTheCoroutinesTurns(t *testing.T) {
	tr := newTestRun(t)
	var events trace
	counter := 0
	tr.start(func(ctx Context) {
		Go(ctx, func(ctx Context) {
			for counter < 3 {
				counter++
				events.add("tick%d", counter)
				yieldOnce(ctx)
			}
		})
		err := Await(ctx, func() bool { events.add("check%d", counter); return counter >= 2 })
		events.add("awaited:%v", err)
	})
	tr.run()
	assertTrace(t, events, "check0 tick1 check1 tick2 check2 awaited:<nil> tick3")
}

// yieldOnce lets the other coroutines have a turn, through Await on a
// condition that holds from the next pass on.
func yieldOnce(ctx Context) {
	passed := false
	_ = Await(ctx, func() bool { was := passed; passed = true; return was })
}

func TestAwaitReturnsCanceledErrorWhenContextIsCanceled(t *testing.T) {
	tr := newTestRun(t)
	var err error
	returned := false
	tr.start(func(ctx Context) {
		err = Await(ctx, func() bool { return false })
		returned = true
	})
	tr.run()
	if returned {
		t.Fatal("Await returned before cancellation")
	}
	tr.cancel()
	tr.run()
	if !returned || !isCanceledError(err) || err.Error() != "canceled" {
		t.Fatalf("Await returned %v (returned=%v), want a CanceledError", err, returned)
	}

	// On an already canceled context a true condition still wins.
	tr2 := newTestRun(t)
	tr2.cancel()
	var err2, err3 error = errors.New("unset"), nil
	tr2.start(func(ctx Context) {
		err2 = Await(ctx, func() bool { return true })
		err3 = Await(ctx, func() bool { return false })
	})
	tr2.run()
	if err2 != nil || !isCanceledError(err3) {
		t.Fatalf("Await on a canceled context returned %v and %v, want nil and a CanceledError", err2, err3)
	}
}

//go:noinline
func brokenCondition() bool {
	var m map[string]bool
	//lint:ignore SA5000 the panic is what the test needs
	m["x"] = true
	return true
}

func TestPanicInAwaitConditionIsReportedAgainstItsCoroutine(t *testing.T) {
	tr := newTestRun(t)
	flip := false
	tr.start(func(ctx Context) {
		GoNamed(ctx, "checker", func(ctx Context) {
			_ = Await(ctx, func() bool { return flip && brokenCondition() })
		})
		Go(ctx, func(ctx Context) { flip = true })
	})
	perr := tr.runExpectingPanic()
	if perr.Coroutine != "checker" || !strings.HasPrefix(perr.Stack, "github.com/durable-go/sdk/internal/wfsync.brokenCondition(") {
		t.Fatalf("panic reported against %q with stack:\n%s", perr.Coroutine, perr.Stack)
	}
}

//go:noinline
func pollInventoryForever(ctx Context, stock *atomic.Int64) {
	for stock.Load() >= 0 { // never yields: a bug the deadlock detector reports
		stock.Add(1)
	}
}

func TestDeadlockReportNamesWorkflowCoroutineAndFunction(t *testing.T) {
	rt := NewRuntime(coro.Options{DeadlockTimeout: 100 * time.Millisecond})
	ctx, _ := NewRootContext(rt)
	var stock atomic.Int64
	rt.StartRoot(ctx, func(ctx Context) {
		GoNamed(ctx, "inventory-poller", func(ctx Context) { pollInventoryForever(ctx, &stock) })
	})
	err := rt.dispatcher.RunUntilBlocked()
	stock.Store(-1 << 62) // lets the loop end, so the abandoned coroutine unwinds
	var derr *coro.DeadlockError
	if !errors.As(err, &derr) {
		t.Fatalf("RunUntilBlocked returned %v, want a deadlock", err)
	}
	msg := err.Error()
	for _, want := range []string{`coroutine "inventory-poller" did not yield`, "wfsync.pollInventoryForever", "runtime_test.go:"} {
		if !strings.Contains(msg, want) {
			t.Errorf("deadlock report lacks %q:\n%s", want, msg)
		}
	}
	_ = rt.dispatcher.Close()
}

// foreignContext is a Context that does not come from a workflow.
type foreignContext struct{ Context }

func (foreignContext) Value(any) any { return nil }

func TestBlockingWithANonWorkflowContextPanicsWithAnExplanation(t *testing.T) {
	tr := newTestRun(t)
	ch := NewChannel(tr.ctx)
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "wfsync.valueCtx is not a workflow Context") {
			t.Fatalf("recovered %v", r)
		}
	}()
	ch.Receive(WithValue(foreignContext{}, "k", "v"), nil)
}

func TestClosingMidRunLeavesNoGoroutineBehind(t *testing.T) {
	baseline := runtime.NumGoroutine()
	rt := NewRuntime(coro.Options{DeadlockTimeout: 30 * time.Second})
	ctx, _ := NewRootContext(rt)
	deferred := 0
	rt.StartRoot(ctx, func(ctx Context) {
		ch := NewChannel(ctx)
		f, _ := newFuture(ctx)
		wg := NewWaitGroup(ctx)
		mu := NewMutex(ctx)
		_ = mu.Lock(ctx)
		for i := range 20 {
			wg.Go(ctx, func(ctx Context) {
				defer func() { deferred++ }()
				switch i % 5 {
				case 0:
					ch.Receive(ctx, nil)
				case 1:
					ch.Send(ctx, i)
				case 2:
					_ = f.Get(ctx, nil)
				case 3:
					_ = mu.Lock(ctx)
				case 4:
					NewSelector(ctx).AddFuture(f, func(Future) {}).Select(ctx)
				}
			})
		}
		defer func() { deferred++ }()
		wg.Wait(ctx)
	})
	if err := rt.dispatcher.RunUntilBlocked(); err != nil {
		t.Fatal(err)
	}
	if runtime.NumGoroutine() <= baseline {
		t.Fatal("coroutines should hold goroutines before Close")
	}
	if err := rt.dispatcher.Close(); err != nil {
		t.Fatal(err)
	}
	// Sends to waiting receivers complete; every other coroutine, root
	// included, was unwound: all 21 ran their deferred functions.
	if deferred != 21 {
		t.Fatalf("%d coroutines ran their deferred functions, want 21", deferred)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > baseline {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines left, baseline %d:\n%s", runtime.NumGoroutine(), baseline, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestSameWorkflowSameTrace runs a program of many coroutines that talk
// through every primitive 50 times and expects the same trace every time.
func TestSameWorkflowSameTrace(t *testing.T) {
	first := runBusyWorkflow(t)
	if len(first) != 20+20+4+1 { // jobs, results, futures, done
		t.Fatalf("trace has %d events, want 45: %s", len(first), first)
	}
	for i := 1; i < 50; i++ {
		if got := runBusyWorkflow(t); got.String() != first.String() {
			t.Fatalf("run %d differs:\n%s\nfirst:\n%s", i, got, first)
		}
	}
}

func runBusyWorkflow(t *testing.T) trace {
	tr := newTestRun(t)
	var events trace
	tr.start(func(ctx Context) {
		jobs := NewBufferedChannel(ctx, 3)
		results := NewNamedChannel(ctx, "results")
		mu := NewMutex(ctx)
		sem := NewSemaphore(ctx, 2)
		wg := NewWaitGroup(ctx)
		shared := 0
		futures := make([]Future, 4)
		settables := make([]Settable, 4)
		for i := range futures {
			futures[i], settables[i] = newFuture(ctx)
		}
		for w := range 6 {
			wg.Go(ctx, func(ctx Context) {
				var job int
				for jobs.Receive(ctx, &job) {
					_ = sem.Acquire(ctx, 1)
					_ = mu.Lock(ctx)
					shared += job
					events.add("w%d:job%d:shared%d", w, job, shared)
					mu.Unlock()
					sem.Release(1)
					results.Send(ctx, fmt.Sprintf("w%d/%d", w, job))
					if job%5 == 0 {
						settables[(job/5)%4].SetValue(job)
					}
				}
			})
		}
		Go(ctx, func(ctx Context) {
			for job := range 20 {
				jobs.Send(ctx, job)
			}
			jobs.Close()
		})
		sel := NewSelector(ctx)
		var result string
		sel.AddReceive(results, func(c ReceiveChannel, more bool) {
			c.Receive(ctx, &result)
			events.add("result:%s", result)
		})
		for i, f := range futures {
			sel.AddFuture(f, func(f Future) {
				var v int
				_ = f.Get(ctx, &v)
				events.add("future%d:%d", i, v)
			})
		}
		for range 20 + len(futures) {
			sel.Select(ctx)
		}
		wg.Wait(ctx)
		events.add("done:%d", shared)
	})
	tr.run()
	if !tr.done() {
		t.Fatalf("workflow did not finish: %s", events)
	}
	return events
}
