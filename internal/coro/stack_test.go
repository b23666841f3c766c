package coro

import (
	"errors"
	"strings"
	"testing"
)

//go:noinline
func waitForSignal(d *Dispatcher, f *flag) {
	d.Block("blocked on signal", f)
}

//go:noinline
func rootWorkflow(d *Dispatcher, f *flag) {
	waitForSignal(d, f)
}

func TestStackTracesListLiveCoroutinesInCreationOrder(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	var signal flag
	done := 0
	d.Spawn("root", func() { rootWorkflow(d, &signal); done++ })
	d.Spawn("poller", func() {
		d.Poll("Await", func() bool { return signal.set })
		done++
	})
	mustRun(t, d)
	d.SpawnFirst("update-handler", func() { waitForSignal(d, &signal); done++ }) // runs first, created third
	mustRun(t, d)
	d.Spawn("late", func() { done++ })

	traces, err := d.StackTraces()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tr := range traces {
		names = append(names, tr.Coroutine+"["+tr.Status+"]")
	}
	if got, want := strings.Join(names, " "), "root[blocked on signal] poller[Await] update-handler[blocked on signal] late[not started]"; got != want {
		t.Fatalf("traces:\n got %s\nwant %s", got, want)
	}
	root := traces[0].Stack
	if !strings.HasPrefix(root, "github.com/durable-go/sdk/internal/coro.waitForSignal(") ||
		!strings.Contains(root, "coro.rootWorkflow(") || !strings.Contains(root, "stack_test.go:") {
		t.Fatalf("root's stack does not show where it blocked:\n%s", root)
	}
	for _, noise := range []string{"(*Coroutine).suspend", "(*Dispatcher).Block", "(*Coroutine).start", "iter.Pull", "created by"} {
		if strings.Contains(root, noise) {
			t.Errorf("stack contains dispatcher frame %q:\n%s", noise, root)
		}
	}
	if !strings.Contains(traces[3].Stack, "TestStackTracesListLiveCoroutinesInCreationOrder") {
		t.Errorf("a coroutine not started shows %q, want its function", traces[3].Stack)
	}

	text, err := d.StackTrace()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(text, "coroutine root [blocked on signal]:\ngithub.com/durable-go/sdk/internal/coro.waitForSignal(") ||
		!strings.Contains(text, "\n\ncoroutine poller [Await]:\n") {
		t.Fatalf("StackTrace text:\n%s", text)
	}

	// Capturing stacks did not disturb the coroutines.
	signal.set = true
	mustRun(t, d)
	if done != 4 || !d.Done() {
		t.Fatalf("%d of 4 coroutines finished after the signal", done)
	}
}

func TestStackTracesFromInsideACoroutineFail(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	var err error
	d.Spawn("root", func() { _, err = d.StackTraces() })
	mustRun(t, d)
	if !errors.Is(err, errBusy) {
		t.Fatalf("StackTraces during a run returned %v, want errBusy", err)
	}
}
