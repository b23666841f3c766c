package coro

import (
	"errors"
	"fmt"
	"time"
)

// ErrClosed is returned by a Dispatcher that has been closed.
var ErrClosed = errors.New("coro: dispatcher is closed")

// errBusy is returned when the dispatcher is asked to drive its coroutines
// while it already does (a coroutine calling RunUntilBlocked, say).
var errBusy = errors.New("coro: the dispatcher is already running its coroutines")

// PanicError is a panic that escaped a coroutine. The dispatcher recovers it
// so that it never reaches the goroutine that called RunUntilBlocked.
type PanicError struct {
	// Coroutine is the name of the coroutine that panicked; "" for a
	// panic of Options.OnAllBlocked, which runs outside the coroutines.
	Coroutine string
	// Value is the value passed to panic.
	Value any
	// Stack is the coroutine's stack where it panicked, innermost frame
	// first, without the dispatcher's own frames.
	Stack string
}

// Error names the coroutine and the panic value, then shows the stack.
func (e *PanicError) Error() string {
	if e.Coroutine == "" {
		return fmt.Sprintf("panic outside the workflow's coroutines, while every coroutine was blocked: %v\n\n%s", e.Value, e.Stack)
	}
	return fmt.Sprintf("panic in coroutine %q: %v\n\ncoroutine %s [panic]:\n%s", e.Coroutine, e.Value, e.Coroutine, e.Stack)
}

// PanicValue returns the value passed to panic.
func (e *PanicError) PanicValue() any { return e.Value }

// PanicStack returns the coroutine's stack where it panicked.
func (e *PanicError) PanicStack() string { return e.Stack }

// Unwrap returns the panic value if it is an error, so errors.Is and
// errors.As see through the panic.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// DeadlockError reports a coroutine that held the dispatcher longer than
// the deadlock timeout without suspending or returning.
type DeadlockError struct {
	// Coroutine is the name of the coroutine that did not yield.
	Coroutine string
	// Timeout is the deadlock timeout it exceeded.
	Timeout time.Duration
	// Stack is the coroutine's stack when the deadlock was detected,
	// innermost frame first.
	Stack string
}

// Error names the coroutine and explains the likely causes, then shows the
// stack.
func (e *DeadlockError) Error() string {
	return fmt.Sprintf("potential deadlock detected: coroutine %q did not yield or return within %s; "+
		"workflow code must not block on native Go channels, locks, sleeps or I/O, nor loop without yielding\n\n"+
		"coroutine %s [running]:\n%s", e.Coroutine, e.Timeout, e.Coroutine, e.Stack)
}
