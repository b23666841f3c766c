package workflow

import (
	"time"

	"github.com/durable-go/sdk/internal"
)

// TimerOptions configure NewTimerWithOptions.
//
//   - Summary: a short text the UI shows for the timer ("wait for
//     payment"). Default: none.
//   - EventGroups: more event groups for the timer's commands, besides the
//     Context's (see WithEventGroups). Default: none.
type TimerOptions = internal.TimerOptions

// AwaitOptions configure AwaitWithOptions.
//
//   - Timeout: how long to wait for the condition; AwaitWithOptions then
//     returns false. It is measured by a workflow timer.
//   - TimerOptions: the options of that timer (its Summary in the UI).
type AwaitOptions = internal.AwaitOptions

// Now returns the workflow's current time: the time at which the current
// workflow task started, as the server recorded it. It does not advance
// while workflow code runs, and it returns the same time on every replay,
// so use it instead of time.Now.
func Now(ctx Context) time.Time { return internal.Now(ctx) }

// NewTimer returns a Future that is ready, with a nil error, after d of
// workflow time. The timer is durable: it lives on the server, so it fires
// even when no worker runs at that moment (the workflow resumes when one
// does). A d of zero or less is ready at once (with the value true) and
// starts no timer, as in go.temporal.io/sdk. Canceling ctx cancels the
// timer, and the Future is ready with a *temporal.CanceledError.
//
// Combine it with a Selector to wait for something with a deadline:
//
//	timerCtx, cancelTimer := workflow.WithCancel(ctx)
//	selector := workflow.NewSelector(ctx)
//	selector.AddFuture(workflow.NewTimer(timerCtx, time.Hour), func(workflow.Future) {
//		remind = true
//	})
//	selector.AddReceive(approved, func(c workflow.ReceiveChannel, more bool) {
//		c.Receive(ctx, &approval)
//		cancelTimer() // no need for the timer anymore
//	})
//	selector.Select(ctx)
func NewTimer(ctx Context, d time.Duration) Future { return internal.NewTimer(ctx, d) }

// NewTimerWithOptions is NewTimer with options: a Summary for the UI.
func NewTimerWithOptions(ctx Context, d time.Duration, options TimerOptions) Future {
	return internal.NewTimerWithOptions(ctx, d, options)
}

// Sleep pauses the calling coroutine for d of workflow time, on a durable
// timer (see NewTimer). It returns nil when d has passed (at once for a d
// of zero or less, with no timer), or a *temporal.CanceledError when ctx
// is canceled first.
func Sleep(ctx Context, d time.Duration) error { return internal.Sleep(ctx, d) }

// AwaitWithTimeout blocks the calling coroutine until condition returns
// true, timeout passes, or ctx is canceled. It returns (true, nil) when the
// condition holds, (false, nil) on timeout, and a *temporal.CanceledError
// when ctx is canceled. The condition is evaluated at once, then again
// each time other coroutines have run (after a signal, an activity result,
// ...); it must only read workflow state.
//
//	ok, err := workflow.AwaitWithTimeout(ctx, 24*time.Hour, func() bool { return approved })
func AwaitWithTimeout(ctx Context, timeout time.Duration, condition func() bool) (bool, error) {
	return internal.AwaitWithTimeout(ctx, timeout, condition)
}

// AwaitWithOptions is AwaitWithTimeout with options: the Timeout and the
// options of the timer that measures it.
func AwaitWithOptions(ctx Context, options AwaitOptions, condition func() bool) (bool, error) {
	return internal.AwaitWithOptions(ctx, options, condition)
}
