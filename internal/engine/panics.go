package engine

import (
	"fmt"
	"runtime/debug"

	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/internal/failure"
)

// The engine runs user code outside the workflow's coroutines: the data
// converter and payload codec decode a start input, a marker's data or a
// query's arguments and encode results; the failure converter, the
// interceptors and the context propagators run around them. A panic there
// must not take the worker down. The entry points that run such code
// (ProcessTask, ResolveLocalActivity, Query) recover it as a UserPanic: a
// task fails as for a panic of workflow code (the server retries it), a
// query fails and leaves the run as it was.

// UserPanic is a panic of user code that the engine ran outside the
// workflow's coroutines.
type UserPanic struct {
	// Who panicked, when the code that recovered it knows ("a workflow
	// interceptor or context propagator handling a signal").
	Who string
	// Value is the value passed to panic.
	Value any
	// Stack is the goroutine's stack where it panicked.
	Stack string
}

// Error names what panicked and the panic value, without the stack, which
// PanicStack gives.
func (p *UserPanic) Error() string {
	if p.Who != "" {
		return fmt.Sprintf("%s panicked: %v", p.Who, p.Value)
	}
	return fmt.Sprintf("user code run by the worker outside the workflow function panicked (a data converter, payload codec, failure converter, interceptor or context propagator): %v", p.Value)
}

// PanicValue returns the value passed to panic (Panicked).
func (p *UserPanic) PanicValue() any { return p.Value }

// PanicStack returns the stack where it panicked (Panicked).
func (p *UserPanic) PanicStack() string { return p.Stack }

// Unwrap returns the panic value if it is an error, or, when the value's
// chain cannot be walked, the error that says so (failure.SafeChain).
func (p *UserPanic) Unwrap() error {
	err, _ := p.Value.(error)
	return failure.SafeChain(err)
}

// recoverAt, deferred, turns a panic into *err, naming the event being
// applied when there is one.
func recoverAt(err *error, ev **historypb.HistoryEvent) {
	p := recover()
	if p == nil {
		return
	}
	var e error = &UserPanic{Value: p, Stack: string(debug.Stack())}
	if ev != nil && *ev != nil {
		e = atEvent(*ev, e)
	}
	*err = e
}
