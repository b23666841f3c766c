package coro

import (
	"errors"
	"io"
	"strings"
	"testing"
)

//go:noinline
func explode(value any) {
	panic(value)
}

//go:noinline
func writeToNilMap(key string) {
	var m map[string]int
	//lint:ignore SA5000 the panic is what the test needs
	m[key] = 1
}

func TestPanicIsReportedWithCoroutineValueAndStack(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	d.Spawn("order-processor", func() { explode("bad order") })
	err := d.RunUntilBlocked()
	var perr *PanicError
	if !errors.As(err, &perr) {
		t.Fatalf("RunUntilBlocked returned %v, want a *PanicError", err)
	}
	if perr.Coroutine != "order-processor" || perr.Value != "bad order" {
		t.Fatalf("PanicError names coroutine %q with value %v", perr.Coroutine, perr.Value)
	}
	if !strings.HasPrefix(perr.Stack, "github.com/durable-go/sdk/internal/coro.explode(") {
		t.Fatalf("stack does not start at the panicking function:\n%s", perr.Stack)
	}
	for _, noise := range []string{"panic(", "runtime/debug", "(*Coroutine).exit", "(*Coroutine).start", "iter.Pull"} {
		if strings.Contains(perr.Stack, noise) {
			t.Errorf("stack contains dispatcher frame %q:\n%s", noise, perr.Stack)
		}
	}
	msg := err.Error()
	for _, want := range []string{`panic in coroutine "order-processor": bad order`, "coro.explode(", "panic_test.go:"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error message lacks %q:\n%s", want, msg)
		}
	}
	if perr.PanicValue() != "bad order" || perr.PanicStack() != perr.Stack {
		t.Error("PanicValue/PanicStack do not return the fields")
	}
}

func TestRuntimeErrorStackStartsAtTheOffendingFunction(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	d.Spawn("root", func() { writeToNilMap("k") })
	err := d.RunUntilBlocked()
	var perr *PanicError
	if !errors.As(err, &perr) {
		t.Fatalf("RunUntilBlocked returned %v, want a *PanicError", err)
	}
	if !strings.HasPrefix(perr.Stack, "github.com/durable-go/sdk/internal/coro.writeToNilMap(") {
		t.Fatalf("stack does not start at the function that wrote to the nil map:\n%s", perr.Stack)
	}
	if !strings.Contains(err.Error(), "assignment to entry in nil map") {
		t.Fatalf("message lacks the runtime error: %s", err)
	}
}

func TestPanicErrorUnwrapsErrorValues(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	d.Spawn("root", func() { explode(io.ErrUnexpectedEOF) })
	if err := d.RunUntilBlocked(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("errors.Is does not see the panic value through %v", err)
	}
}

func TestPanicEndsTheRunButOtherCoroutinesKeepTheirState(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	var r recorder
	d.Spawn("a", func() {
		r.add("a1")
		d.Yield("test")
		r.add("a2")
	})
	d.Spawn("boom", func() {
		d.Yield("test")
		explode("boom")
	})
	d.Spawn("c", func() {
		r.add("c1")
		d.Yield("test")
		r.add("c2")
	})
	if err := d.RunUntilBlocked(); err == nil {
		t.Fatal("expected the panic to be reported")
	}
	// Pass 2 stopped at "boom": "c" has not had its second turn.
	assertEvents(t, &r, "a1 c1 a2")
	mustRun(t, d)
	assertEvents(t, &r, "a1 c1 a2 c2")
	if !d.Done() {
		t.Fatal("coroutines did not finish after the panic")
	}
}

func TestDeferredFunctionMayBlockWhilePanicking(t *testing.T) {
	d := newTestDispatcher(t, Options{})
	var r recorder
	var cleanupDone flag
	d.Spawn("panicker", func() {
		defer func() {
			d.Block("cleanup", &cleanupDone)
			r.add("cleanup finished")
		}()
		explode("late failure")
	})
	d.Spawn("helper", func() {
		d.Yield("test")
		cleanupDone.set = true
	})
	err := d.RunUntilBlocked()
	var perr *PanicError
	if !errors.As(err, &perr) || perr.Value != "late failure" {
		t.Fatalf("RunUntilBlocked returned %v, want the panic after the cleanup", err)
	}
	assertEvents(t, &r, "cleanup finished")
}
