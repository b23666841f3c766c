package failure

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// selfError's Unwrap returns itself. Its Error would recurse for ever
// through the chain, so nothing may call it.
type selfError struct{ name string }

func (e *selfError) Error() string { return e.name + ": " + e.Unwrap().Error() }
func (e *selfError) Unwrap() error { return e }

// pingError and pongError unwrap to each other.
type pingError struct{ pong *pongError }
type pongError struct{ ping *pingError }

func (e *pingError) Error() string { return "ping" }
func (e *pingError) Unwrap() error { return e.pong }
func (e *pongError) Error() string { return "pong" }
func (e *pongError) Unwrap() error { return e.ping }

// valueLoop is a value that unwraps to an equal value.
type valueLoop struct{ n int }

func (e valueLoop) Error() string { return "value loop" }
func (e valueLoop) Unwrap() error { return e }

// endless unwraps to a new, uncomparable value each time: a chain that
// never repeats and never ends.
type endless struct{ path []int }

func (e endless) Error() string { return "endless" }
func (e endless) Unwrap() error { return endless{path: append(e.path, len(e.path))} }

// joinedSelf's Unwrap() []error holds itself.
type joinedSelf struct{ others []error }

func (e *joinedSelf) Error() string   { return "joined" }
func (e *joinedSelf) Unwrap() []error { return append(e.others, e) }

// outer wraps an error without formatting it.
type outer struct{ inner error }

func (e *outer) Error() string { return "outer" }
func (e *outer) Unwrap() error { return e.inner }

// panicky's Unwrap panics.
type panicky struct{}

func (panicky) Error() string { return "panicky" }
func (panicky) Unwrap() error { panic("no unwrapping today") }

// wrapDepth wraps a sentinel in depth-1 layers: a chain of depth errors.
func wrapDepth(depth int) error {
	err := errors.New("bottom")
	for i := 1; i < depth; i++ {
		err = fmt.Errorf("layer %d: %w", i, err)
	}
	return err
}

// safeChainWithin calls SafeChain, failing t if it does not return in
// time (it would spin for ever).
func safeChainWithin(t *testing.T, err error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- SafeChain(err) }()
	select {
	case got := <-done:
		return got
	case <-time.After(30 * time.Second):
		t.Fatalf("SafeChain(%T) did not return", err)
		return nil
	}
}

func TestSafeChainReplacesAChainThatCannotBeWalked(t *testing.T) {
	ping := &pingError{}
	ping.pong = &pongError{ping: ping}
	looped := NewApplicationErrorWithCause("outer", "Outer", &selfError{name: "inner"})
	for _, c := range []struct {
		name     string
		err      error
		typeName string
		want     string
	}{
		{"an error that unwraps to itself", &selfError{name: "me"}, "selfError",
			"the error (*failure.selfError) cannot be reported: its chain of wrapped errors is cyclic: the Unwrap method of *failure.selfError returns that very error"},
		{"two errors that unwrap to each other", fmt.Errorf("wrapped: %w", ping), "wrapError",
			"its chain of wrapped errors is cyclic: *failure.pingError → *failure.pongError → back to the first"},
		{"a cycle below an error of the SDK", looped, "ApplicationError",
			"the error (*failure.ApplicationError) cannot be reported: its chain of wrapped errors is cyclic: the Unwrap method of *failure.selfError returns that very error"},
		{"a value that unwraps to an equal value", valueLoop{n: 1}, "valueLoop",
			"the Unwrap method of failure.valueLoop returns that very error"},
		{"a joined error that holds itself", &joinedSelf{others: []error{errors.New("a")}}, "joinedSelf",
			"its chain of wrapped errors is cyclic: the Unwrap method of *failure.joinedSelf returns that very error"},
		{"a chain that never ends", endless{}, "endless",
			"its chain of wrapped errors is deeper than 1000 errors, the most the SDK walks (it begins failure.endless → failure.endless"},
		{"a chain one error too deep", wrapDepth(MaxErrorChainDepth + 1), "wrapError",
			"its chain of wrapped errors is deeper than 1000 errors, the most the SDK walks (it begins *fmt.wrapError → *fmt.wrapError"},
		{"an Unwrap that panics", fmt.Errorf("wrapped: %w", panicky{}), "wrapError",
			"the Unwrap method of failure.panicky in its chain of wrapped errors panicked: no unwrapping today"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := safeChainWithin(t, c.err)
			var app *ApplicationError
			if !errors.As(got, &app) {
				t.Fatalf("got %T %v, want an ApplicationError", got, got)
			}
			if !strings.Contains(app.Message(), c.want) {
				t.Errorf("its message is %q, want it to hold %q", app.Message(), c.want)
			}
			if app.Type() != c.typeName || app.NonRetryable() {
				t.Errorf("its type is %q (non-retryable %v), want %q and retryable, as the error would be", app.Type(), app.NonRetryable(), c.typeName)
			}
			if errors.Unwrap(got) != nil {
				t.Error("it wraps something: the chain it stands for must not be reachable from it")
			}
			if SafeChain(got) != got {
				t.Error("the error standing in is not walkable itself")
			}
		})
	}
}

func TestSafeChainKeepsAChainThatCanBeWalked(t *testing.T) {
	wide := make([]error, 40_000) // 80,001 errors in all
	for i := range wide {
		wide[i] = fmt.Errorf("item %d: %w", i, errors.New("invalid"))
	}
	for _, c := range []struct {
		name string
		err  error
	}{
		{"a sentinel", errors.New("plain")},
		{"an SDK error with a cause", NewApplicationErrorWithCause("charge failed", "CardDeclined", fmt.Errorf("bank: %w", errors.New("no")))},
		{"a chain at the limit", wrapDepth(MaxErrorChainDepth)},
		{"errors.Join of 40,000 wrapped errors", errors.Join(wide...)},
		{"the same error joined twice", func() error { e := errors.New("twice"); return errors.Join(e, e) }()},
		{"fmt.Errorf with two %w", fmt.Errorf("%w and %w", errors.New("a"), errors.New("b"))},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := safeChainWithin(t, c.err); got != c.err {
				t.Errorf("replaced by %v", got)
			}
		})
	}
	if SafeChain(nil) != nil {
		t.Error("SafeChain(nil) is not nil")
	}
}

// Joined errors that repeat an error at every level make a tree whose walk
// doubles with each level: past maxErrorChainSize errors it is refused.
func TestSafeChainRefusesATreeTooLargeToWalk(t *testing.T) {
	err := errors.New("leaf")
	for range 20 { // 2^20 paths to the leaf
		err = errors.Join(err, err)
	}
	got := safeChainWithin(t, err)
	if want := "its tree of wrapped errors holds more than 100000 errors"; !strings.Contains(got.Error(), want) {
		t.Errorf("got %q, want it to say %q", got, want)
	}
}

func TestSafeChainAllocatesNothingForAChainThatCanBeWalked(t *testing.T) {
	err := typicalError()
	if n := testing.AllocsPerRun(100, func() { _ = SafeChain(err) }); n != 0 {
		t.Errorf("SafeChain of a typical error allocated %v times", n)
	}
}

// ErrorToFailure converts a cyclic error as the error that says so, where
// it would recurse without end.
func TestErrorToFailureOfACyclicError(t *testing.T) {
	done := make(chan string, 1)
	go func() {
		f := GetDefaultFailureConverter().ErrorToFailure(&outer{inner: &selfError{name: "me"}})
		done <- fmt.Sprintf("%s|%s|%v", f.GetMessage(), f.GetApplicationFailureInfo().GetType(), f.GetCause() == nil)
	}()
	select {
	case got := <-done:
		want := "the error (*failure.outer) cannot be reported: its chain of wrapped errors is cyclic: the Unwrap method of *failure.selfError returns that very error"
		if !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "|outer|true") {
			t.Errorf("the failure is %q, want its message to start %q, its type outer, and no cause", got, want)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("ErrorToFailure of a cyclic error did not return")
	}
}
