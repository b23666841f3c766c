package coro

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestEveryCoroutineGetsOneTurnPerPassInCreationOrder(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	var r recorder
	for _, name := range []string{"a", "b", "c"} {
		d.Spawn(name, func() {
			for i := 1; i <= 3; i++ {
				r.add(fmt.Sprint(name, i))
				d.Yield("test")
			}
		})
	}
	mustRun(t, d)
	assertEvents(t, &r, "a1 b1 c1 a2 b2 c2 a3 b3 c3")
	if !d.Done() {
		t.Fatal("Done() = false after every coroutine returned")
	}
}

func TestSpawnDuringPassRunsLaterInTheSamePass(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	var r recorder
	d.Spawn("a", func() {
		r.add("a")
		d.Spawn("x", func() { r.add("x") })
		d.Yield("test")
		r.add("a-again")
	})
	d.Spawn("b", func() { r.add("b") })
	mustRun(t, d)
	assertEvents(t, &r, "a b x a-again")
}

func TestSpawnFirstFromCoroutineRunsRightAfterIt(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	var r recorder
	d.Spawn("a", func() {
		r.add("a")
		d.SpawnFirst("x", func() { r.add("x") })
		d.SpawnFirst("y", func() { r.add("y") })
	})
	d.Spawn("b", func() { r.add("b") })
	mustRun(t, d)
	assertEvents(t, &r, "a x y b")
}

func TestSpawnFirstBetweenRunsGoesToTheFront(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	var r recorder
	var wake flag
	for _, name := range []string{"a", "b"} {
		d.Spawn(name, func() {
			d.Block("test", &wake)
			r.add(name)
		})
	}
	mustRun(t, d)
	wake.set = true
	d.SpawnFirst("u1", func() { r.add("u1") })
	d.SpawnFirst("u2", func() { r.add("u2") })
	mustRun(t, d)
	assertEvents(t, &r, "u1 u2 a b")
}

func TestBlockAlwaysSuspendsEvenIfConditionHolds(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	var r recorder
	var ready flag
	d.Spawn("early", func() {
		d.Block("test", &ready)
		r.add("early")
	})
	d.Spawn("setter", func() {
		r.add("set")
		ready.set = true
		d.Yield("test")
		r.add("setter-pass2")
	})
	d.Spawn("late", func() {
		d.Block("test", &ready) // already true, but the turn ends here
		r.add("late")
	})
	mustRun(t, d)
	assertEvents(t, &r, "set early setter-pass2 late")
}

func TestWokenCoroutineRunsInThisPassIfAfterTheWakerElseInTheNext(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	var r recorder
	var start, ready flag
	d.Spawn("waiter-before", func() {
		d.Block("test", &ready)
		r.add("before")
	})
	d.Spawn("setter", func() {
		d.Block("test", &start)
		r.add("set")
		ready.set = true
	})
	d.Spawn("waiter-after", func() {
		d.Block("test", &ready)
		r.add("after")
	})
	mustRun(t, d) // all three blocked
	start.set = true
	mustRun(t, d)
	assertEvents(t, &r, "set after before")
}

func TestRunReturnsWhenAllBlockedAndResumesAfterOutsideWakeUp(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	var r recorder
	var event flag
	d.Spawn("root", func() {
		r.add("start")
		d.Block("waiting for event", &event)
		r.add("woken")
	})
	mustRun(t, d)
	assertEvents(t, &r, "start")
	if d.Done() {
		t.Fatal("Done() = true while a coroutine is blocked")
	}
	mustRun(t, d) // nothing changed: returns at once
	assertEvents(t, &r, "start")
	event.set = true // the engine delivers an event
	mustRun(t, d)
	assertEvents(t, &r, "start woken")
	if !d.Done() {
		t.Fatal("Done() = false after the coroutine returned")
	}
}

func TestPollIsEvaluatedByTheCoroutineOncePerPassAndFailureIsNoProgress(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	evaluations := 0
	var pollers []*Coroutine
	target := 0
	pollers = append(pollers, d.Spawn("poller", func() {
		d.Poll("test", func() bool {
			evaluations++
			if d.Current() != pollers[0] {
				t.Error("Poll condition evaluated outside its coroutine")
			}
			return target >= 3
		})
	}))
	d.Spawn("counter", func() {
		for target < 3 {
			target++
			d.Yield("test")
		}
	})
	mustRun(t, d)
	// Passes 2, 3 and 4 evaluate (target 1, 2, 3); the poller returns in
	// pass 4 and the counter in pass 4.
	if evaluations != 3 {
		t.Fatalf("condition evaluated %d times, want 3", evaluations)
	}
	if !d.Done() {
		t.Fatal("poller did not finish")
	}
}

func TestPollWithoutProgressEndsTheRun(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	evaluations := 0
	open := false
	d.Spawn("poller", func() {
		d.Poll("test", func() bool { evaluations++; return open })
	})
	mustRun(t, d)
	if evaluations != 1 {
		t.Fatalf("condition evaluated %d times in a run without progress, want 1", evaluations)
	}
	open = true
	mustRun(t, d)
	if !d.Done() {
		t.Fatal("poller did not finish after its condition held")
	}
}

func TestOnAllBlockedCanAskForAnotherPass(t *testing.T) {
	var r recorder
	var wake flag
	calls := 0
	d := newTestDispatcher(t, Options{OnAllBlocked: func() bool {
		calls++
		r.add(fmt.Sprint("all-blocked", calls))
		if calls == 1 {
			wake.set = true
			return true
		}
		return false
	}})
	d.Spawn("a", func() {
		d.Block("test", &wake)
		r.add("a")
	})
	mustRun(t, d)
	assertEvents(t, &r, "all-blocked1 a all-blocked2")
}

// TestPanicInOnAllBlockedIsAnError: the callback runs outside the
// coroutines, on the dispatcher's goroutine, and may run user code (an
// update's context propagators): its panic is returned, not fatal, and the
// coroutines can still be closed, their deferred functions run.
func TestPanicInOnAllBlockedIsAnError(t *testing.T) {
	d := newTestDispatcher(t, Options{OnAllBlocked: func() bool { panic("a propagator's bug") }})
	var wake flag
	unwound := false
	d.Spawn("a", func() {
		defer func() { unwound = true }()
		d.Block("test", &wake)
	})
	err := d.RunUntilBlocked()
	var pe *PanicError
	if !errors.As(err, &pe) || pe.Coroutine != "" || pe.Value != "a propagator's bug" {
		t.Fatalf("RunUntilBlocked returned %v, want a PanicError outside the coroutines", err)
	}
	if !strings.Contains(err.Error(), "outside the workflow's coroutines") || !strings.Contains(pe.Stack, "TestPanicInOnAllBlockedIsAnError") {
		t.Errorf("the error does not say where the panic was: %v", err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if !unwound {
		t.Error("closing after the panic did not unwind the blocked coroutine")
	}
}

func TestUnnamedCoroutineCountAndCurrent(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	if d.Current() != nil {
		t.Fatal("Current() is not nil outside coroutines")
	}
	var seen []string
	d.Spawn("root", func() {
		seen = append(seen, d.Current().Name())
		d.Spawn(fmt.Sprint(d.Created()+1), func() { seen = append(seen, d.Current().Name()) })
	})
	mustRun(t, d)
	if got := strings.Join(seen, ","); got != "root,2" {
		t.Fatalf("coroutines saw themselves as %q, want root,2", got)
	}
}

func TestSuspendingOutsideACoroutinePanics(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(fmt.Sprint(r), "outside the dispatcher's coroutines") {
			t.Fatalf("recovered %v, want a panic explaining Block needs a coroutine", r)
		}
	}()
	d.Block("test", &flag{})
}

func TestRunUntilBlockedFromACoroutineFails(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	var inner error
	d.Spawn("root", func() { inner = d.RunUntilBlocked() })
	mustRun(t, d)
	if !errors.Is(inner, errBusy) {
		t.Fatalf("nested RunUntilBlocked returned %v, want errBusy", inner)
	}
}

// TestSameProgramSameTrace runs a program whose coroutines interleave
// through conditions, polls, yields and spawns 50 times and expects the
// same trace each time.
func TestSameProgramSameTrace(t *testing.T) {
	var first string
	for run := range 50 {
		trace := runInterleavedProgram(t)
		if run == 0 {
			first = trace
			continue
		}
		if trace != first {
			t.Fatalf("run %d produced a different trace:\n%s\nfirst run:\n%s", run, trace, first)
		}
	}
	if strings.Count(first, " ")+1 != 20*6+5 {
		t.Fatalf("trace does not have every step of every coroutine: %s", first)
	}
}

func runInterleavedProgram(t *testing.T) string {
	d := newTestDispatcher(t, Options{})
	var r recorder
	counter := 0
	gates := make([]flag, 8)
	for w := range 20 {
		d.Spawn(fmt.Sprint("w", w), func() {
			for step := range 6 {
				switch (w + step) % 3 {
				case 0:
					d.Yield("test")
				case 1:
					gate := &gates[(w*7+step)%len(gates)]
					if !gate.set {
						d.Block("gate", gate)
					}
				case 2:
					goal := counter + 2
					d.Poll("counter", func() bool { return counter >= goal })
				}
				counter++
				gates[(w+step)%len(gates)].set = true
				r.add(fmt.Sprintf("w%d.%d", w, step))
				if step == 3 && w%4 == 0 {
					d.Spawn(fmt.Sprint("child-of-w", w), func() {
						d.Yield("test")
						counter++
						r.add(fmt.Sprint("child", w))
					})
				}
			}
		})
	}
	mustRun(t, d)
	if !d.Done() {
		t.Fatalf("program did not finish; trace so far: %s", r.String())
	}
	return r.String()
}
