package coro

import (
	"errors"
	"fmt"
	"runtime"
	"testing"
	"time"
)

func TestCloseUnwindsEveryCoroutineAndLeavesNoGoroutineBehind(t *testing.T) {
	baseline := runtime.NumGoroutine()
	d := New(Options{DeadlockTimeout: 30 * time.Second})
	var r recorder
	never := &flag{}
	for i := range 10 {
		name := fmt.Sprint("c", i)
		d.Spawn(name, func() {
			defer r.add("unwound-" + name)
			switch i % 3 {
			case 0:
				d.Block("forever", never)
			case 1:
				d.Poll("forever", func() bool { return false })
			case 2:
				for {
					d.Block("forever", never)
				}
			}
			r.add("unreachable")
		})
	}
	mustRun(t, d)
	d.Spawn("never-started", func() { r.add("never-started ran") })
	if runtime.NumGoroutine() < baseline+10 {
		t.Fatalf("expected a goroutine per started coroutine, have %d (baseline %d)", runtime.NumGoroutine(), baseline)
	}

	if err := d.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	assertEvents(t, &r, "unwound-c0 unwound-c1 unwound-c2 unwound-c3 unwound-c4 unwound-c5 unwound-c6 unwound-c7 unwound-c8 unwound-c9")
	settleGoroutines(t, baseline)

	if err := d.RunUntilBlocked(); !errors.Is(err, ErrClosed) {
		t.Fatalf("RunUntilBlocked after Close returned %v, want ErrClosed", err)
	}
	if _, err := d.StackTraces(); !errors.Is(err, ErrClosed) {
		t.Fatalf("StackTraces after Close returned %v, want ErrClosed", err)
	}
	if err := d.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

func TestCloseDuringARunStopsItAtTheNextSwitch(t *testing.T) {
	baseline := runtime.NumGoroutine()
	d := New(Options{DeadlockTimeout: 30 * time.Second})
	unwound := 0
	for i := range 3 {
		d.Spawn(fmt.Sprint("busy", i), func() {
			defer func() { unwound++ }()
			for {
				d.Yield("busy loop")
			}
		})
	}
	closeErr := make(chan error, 1)
	go func() {
		time.Sleep(20 * time.Millisecond)
		closeErr <- d.Close()
	}()
	if err := d.RunUntilBlocked(); !errors.Is(err, ErrClosed) {
		t.Fatalf("RunUntilBlocked returned %v, want ErrClosed", err)
	}
	if err := <-closeErr; err != nil {
		t.Fatalf("Close: %v", err)
	}
	if unwound != 3 {
		t.Fatalf("%d coroutines unwound, want 3", unwound)
	}
	settleGoroutines(t, baseline)
}

func TestBlockingInADeferredFunctionDuringCloseIsUnwoundToo(t *testing.T) {
	d := New(Options{DeadlockTimeout: 30 * time.Second})
	var r recorder
	d.Spawn("root", func() {
		defer r.add("outer defer")
		defer func() {
			d.Block("in defer", &flag{})
			r.add("after blocking defer")
		}()
		defer func() {
			if recover() != nil {
				r.add("recovered")
			}
			d.Yield("after recover")
			r.add("after yielding defer")
		}()
		d.Block("forever", &flag{})
	})
	mustRun(t, d)
	if err := d.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	assertEvents(t, &r, "recovered outer defer")
}

func TestSpawnAfterCloseNeverRuns(t *testing.T) {
	d := New(Options{})
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	ran := false
	c := d.Spawn("late", func() { ran = true })
	if !c.Finished() {
		t.Fatal("coroutine spawned after Close is not finished")
	}
	if err := d.RunUntilBlocked(); !errors.Is(err, ErrClosed) || ran {
		t.Fatalf("RunUntilBlocked = %v, ran = %v", err, ran)
	}
}

func TestGoexitInACoroutineIsReportedAndTheDispatcherCarriesOn(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	var r recorder
	d.Spawn("quitter", func() {
		defer r.add("quitter defers ran")
		runtime.Goexit()
	})
	d.Spawn("other", func() {
		d.Yield("test")
		r.add("other finished")
	})
	err := d.RunUntilBlocked()
	var perr *PanicError
	if !errors.As(err, &perr) || perr.Coroutine != "quitter" {
		t.Fatalf("RunUntilBlocked returned %v, want a *PanicError for quitter", err)
	}
	mustRun(t, d)
	assertEvents(t, &r, "quitter defers ran other finished")
	if !d.Done() {
		t.Fatal("Done() = false after every coroutine ended")
	}
}
