package coro

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// newTestDispatcher returns a dispatcher closed at the end of the test. The
// deadlock timeout is long unless the test sets one: tests run on loaded
// machines and under the race detector, and only the deadlock tests want
// the detector to fire.
func newTestDispatcher(t testing.TB, opts Options) *Dispatcher {
	t.Helper()
	if opts.DeadlockTimeout == 0 {
		opts.DeadlockTimeout = 30 * time.Second
	}
	d := New(opts)
	t.Cleanup(func() { _ = d.Close() })
	return d
}

// flag is a Condition the test sets.
type flag struct{ set bool }

func (f *flag) Ready() bool { return f.set }

// recorder collects what coroutines did, in order.
type recorder struct{ events []string }

func (r *recorder) add(event string) { r.events = append(r.events, event) }

func (r *recorder) String() string { return strings.Join(r.events, " ") }

func mustRun(t testing.TB, d *Dispatcher) {
	t.Helper()
	if err := d.RunUntilBlocked(); err != nil {
		t.Fatalf("RunUntilBlocked: %v", err)
	}
}

func assertEvents(t testing.TB, r *recorder, want string) {
	t.Helper()
	if got := r.String(); got != want {
		t.Fatalf("events:\n got: %s\nwant: %s", got, want)
	}
}

// settleGoroutines waits until the number of goroutines drops to at most
// want, since exiting goroutines take a moment to be accounted.
func settleGoroutines(t testing.TB, want int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > want {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			n := runtime.Stack(buf, true)
			t.Fatalf("%d goroutines remain, want at most %d:\n%s", runtime.NumGoroutine(), want, buf[:n])
		}
		time.Sleep(5 * time.Millisecond)
	}
}
