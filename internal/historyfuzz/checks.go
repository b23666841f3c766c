package historyfuzz

import (
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// NamesEvent matches what an error must say about where history went
// wrong: an event by its ID, or the event the history lacks.
var NamesEvent = regexp.MustCompile(`events? -?\d+|WorkflowExecutionStarted event|history has no event|no WorkflowExecutionStarted`)

// RequireEventInError fails t when err does not say which event it is about.
func RequireEventInError(t testing.TB, err error) {
	t.Helper()
	if err != nil && !NamesEvent.MatchString(err.Error()) {
		t.Fatalf("the error does not name the event it is about:\n%v", err)
	}
}

// RunBounded runs fn and fails t if it does not return within limit.
func RunBounded(t testing.TB, limit time.Duration, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(limit):
		buf := make([]byte, 1<<20)
		t.Fatalf("still running after %v; goroutines:\n%s", limit, buf[:runtime.Stack(buf, true)])
	}
}

// RequireNoGoroutineLeak fails t unless the goroutine count comes back to
// at most before within a second: goroutines of finished work may take a
// moment to exit, leaked ones never do.
func RequireNoGoroutineLeak(t testing.TB, before int) {
	t.Helper()
	deadline := time.Now().Add(time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines, %d before: leaked\n%s", runtime.NumGoroutine(), before,
				strings.TrimSpace(string(buf[:runtime.Stack(buf, true)])))
		}
		time.Sleep(time.Millisecond)
	}
}
