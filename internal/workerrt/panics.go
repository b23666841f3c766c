package workerrt

import (
	"errors"
	"fmt"
	"runtime/debug"

	failurepb "go.temporal.io/api/failure/v1"

	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/log"
)

// A worker runs user code at every task boundary, not only workflow and
// activity functions: data converters, payload codecs, failure converters,
// interceptors and context propagators. A panic in any of them fails the
// task it belongs to and never the process, as in go.temporal.io/sdk: the
// engine turns a panic during a workflow task or a query into an error
// (engine.UserPanic), the activity executor turns one during an activity
// into a PanicError, and what is left is guarded here: the failure
// converter that reports those outcomes, and a backstop on every task's
// goroutine.

// toFailure converts err with fc for a report to the server. A failure
// converter that panics is a bug of the user's that must not lose the
// report: the failure then says that it panicked, and what err was, as a
// PanicError (retryable, as go.temporal.io/sdk makes a panic).
func toFailure(fc engine.FailureConverter, err error) (f *failurepb.Failure) {
	defer func() {
		if p := recover(); p != nil {
			// %v, not err.Error(): fmt recovers an Error method that panics.
			msg := fmt.Sprintf("the failure converter panicked converting an error (%T: %v) for the server: %v", err, err, p)
			f = failure.GetDefaultFailureConverter().ErrorToFailure(failure.NewPanicError(msg, string(debug.Stack())))
		}
	}()
	return fc.ErrorToFailure(err)
}

// backstop, deferred first on the goroutine that runs a task, stops a
// panic that escaped the task's own handling (none should) from ending
// the process. The task is not reported: the server retries it after its
// timeout.
func backstop(logger log.Logger, what string) {
	if p := recover(); p != nil {
		logger.Error("a panic escaped the worker's handling of a task; the server will retry the task after its timeout",
			"TaskKind", what, "PanicError", fmt.Sprint(p), "PanicStack", string(debug.Stack()))
	}
}

// panicStack returns the stack of a panic that err holds, for the log.
func panicStack(err error) (string, bool) {
	var p engine.Panicked
	if errors.As(err, &p) {
		return p.PanicStack(), true
	}
	return "", false
}
