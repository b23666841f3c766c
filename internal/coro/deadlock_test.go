package coro

import (
	"errors"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

//go:noinline
func spinUntil(stop *atomic.Bool) {
	for !stop.Load() {
	}
}

//go:noinline
func waitOnNativeChannel(ch chan struct{}) {
	<-ch
}

func TestDeadlockReportNamesTheCoroutineAndShowsWhereItSpins(t *testing.T) {
	baseline := runtime.NumGoroutine()
	d := New(Options{DeadlockTimeout: 100 * time.Millisecond})
	var stop atomic.Bool
	defer stop.Store(true)
	unwound := make(chan struct{})
	d.Spawn("bystander", func() {
		defer close(unwound)
		d.Block("waiting forever", &flag{})
	})
	d.Spawn("spinner", func() {
		spinUntil(&stop)
		d.Yield("after spinning")
	})

	start := time.Now()
	err := d.RunUntilBlocked()
	var derr *DeadlockError
	if !errors.As(err, &derr) {
		t.Fatalf("RunUntilBlocked returned %v, want a *DeadlockError", err)
	}
	if elapsed := time.Since(start); elapsed < 100*time.Millisecond {
		t.Fatalf("deadlock reported after %v, before the timeout", elapsed)
	}
	if derr.Coroutine != "spinner" || derr.Timeout != 100*time.Millisecond {
		t.Fatalf("DeadlockError names %q after %v", derr.Coroutine, derr.Timeout)
	}
	// The innermost frames are the loop in spinUntil (or the atomic load
	// inlined into it).
	frames := strings.Split(derr.Stack, "\n")
	if len(frames) < 4 || !slices.Contains(frames[:4], "github.com/durable-go/sdk/internal/coro.spinUntil") {
		t.Fatalf("stack does not start in the spinning function:\n%s", derr.Stack)
	}
	msg := err.Error()
	for _, want := range []string{`coroutine "spinner" did not yield or return within 100ms`, "coro.spinUntil", "deadlock_test.go:"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}

	if again := d.RunUntilBlocked(); again != err {
		t.Fatalf("RunUntilBlocked after a deadlock returned %v, want the same deadlock", again)
	}
	if err := d.Close(); err != nil {
		t.Fatalf("Close after a deadlock: %v", err)
	}

	// Once the stuck coroutine yields, the abandoned drive unwinds everything.
	stop.Store(true)
	select {
	case <-unwound:
	case <-time.After(5 * time.Second):
		t.Fatal("the other coroutine was not unwound after the stuck one yielded")
	}
	settleGoroutines(t, baseline)
}

func TestDeadlockOnNativeBlockingShowsTheBlockingCall(t *testing.T) {
	d := newTestDispatcher(t, Options{DeadlockTimeout: 50 * time.Millisecond})
	release := make(chan struct{})
	defer close(release)
	d.Spawn("root", func() { waitOnNativeChannel(release) })
	err := d.RunUntilBlocked()
	var derr *DeadlockError
	if !errors.As(err, &derr) {
		t.Fatalf("RunUntilBlocked returned %v, want a *DeadlockError", err)
	}
	if !strings.HasPrefix(derr.Stack, "github.com/durable-go/sdk/internal/coro.waitOnNativeChannel\n") {
		t.Errorf("stack does not start at the native channel receive:\n%s", derr.Stack)
	}
}

func TestPausedDeadlockDetectionAllowsSlowWork(t *testing.T) {
	d := newTestDispatcher(t, Options{DeadlockTimeout: 50 * time.Millisecond})
	finished := false
	d.Spawn("converter", func() {
		resume := d.PauseDeadlockDetection()
		time.Sleep(300 * time.Millisecond) // a slow remote codec, say
		resume()
		resume() // idempotent
		finished = true
	})
	mustRun(t, d)
	if !finished {
		t.Fatal("coroutine did not finish")
	}

	// The same work without the pause is a deadlock.
	d2 := newTestDispatcher(t, Options{DeadlockTimeout: 50 * time.Millisecond})
	// Long enough that a loaded machine's late watchdog still sees it; the
	// drive returns as soon as the deadlock is found.
	d2.Spawn("converter", func() { time.Sleep(3 * time.Second) })
	var derr *DeadlockError
	if err := d2.RunUntilBlocked(); !errors.As(err, &derr) {
		t.Fatalf("unpaused slow work returned %v, want a *DeadlockError", err)
	}
}

func TestDeadlockDetectionCanBeTurnedOff(t *testing.T) {
	d := newTestDispatcher(t, Options{DeadlockTimeout: -1})
	d.Spawn("slow", func() { time.Sleep(50 * time.Millisecond) })
	mustRun(t, d)
}
