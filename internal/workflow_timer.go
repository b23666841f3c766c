package internal

import (
	"time"

	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/wfsync"
)

// TimerOptions configure a timer (workflow.TimerOptions).
type TimerOptions struct {
	// Summary is shown in the UI next to the timer.
	Summary string
	// EventGroups are groups the timer's commands belong to, besides the
	// context's (see WithEventGroups).
	EventGroups []EventGroup
}

// AwaitOptions configure AwaitWithOptions (workflow.AwaitOptions).
type AwaitOptions struct {
	// Timeout is how long to wait for the condition.
	Timeout time.Duration
	// TimerOptions configure the timer that measures Timeout.
	TimerOptions TimerOptions
}

// newTimer starts a workflow timer; canceling ctx cancels it. A duration
// of zero or less is ready at once (with the value true) and starts no
// timer, as in go.temporal.io/sdk: its histories of such code have no
// timer, and Sleep(ctx, -d) returns nil. The options' summary is shown in
// the UI beside the timer.
func (r *workflowRun) newTimer(ctx Context, d time.Duration, options TimerOptions) *wfsync.SettableFuture {
	f := &wfsync.SettableFuture{}
	if d <= 0 {
		f.Set(true, nil)
		return f
	}
	if d < time.Millisecond {
		d = time.Millisecond // the server's smallest timer
	}
	if markers := r.eventGroupMarkers(ctx, options.EventGroups); markers != nil {
		defer r.exec.SetEventGroups(r.exec.SetEventGroups(markers))
	}
	timer, err := r.exec.StartTimer(d, options.Summary, func(err error) { f.Set(nil, err) })
	if err != nil {
		f.Set(nil, err)
		return f
	}
	wfsync.OnCancel(ctx, f, timer.Cancel)
	return f
}

// StartTimer implements wfsync.Timers: the timer of the primitives
// (ReceiveWithTimeout), one with a summary, in the context's event groups.
func (r *workflowRun) StartTimer(ctx Context, d time.Duration, summary string) *wfsync.SettableFuture {
	return r.newTimer(ctx, d, TimerOptions{Summary: summary})
}

// Now implements wfsync.Timers: the workflow's clock.
func (r *workflowRun) Now() time.Time { return r.exec.Now() }

// NewTimer returns a Future that is ready after d of workflow time, with a
// CanceledError if ctx is canceled first.
func NewTimer(ctx Context, d time.Duration) Future {
	return runOf(ctx).outbound.NewTimer(ctx, d)
}

// NewTimerWithOptions is NewTimer with options.
func NewTimerWithOptions(ctx Context, d time.Duration, options TimerOptions) Future {
	return runOf(ctx).outbound.NewTimerWithOptions(ctx, d, options)
}

// Sleep pauses the workflow for d of workflow time. It returns a
// CanceledError if ctx is canceled first.
func Sleep(ctx Context, d time.Duration) error {
	return runOf(ctx).outbound.Sleep(ctx, d)
}

// AwaitWithTimeout waits until condition is true (returning true), the
// timeout passes (false), or ctx is canceled (a CanceledError).
func AwaitWithTimeout(ctx Context, timeout time.Duration, condition func() bool) (ok bool, err error) {
	return runOf(ctx).outbound.AwaitWithTimeout(ctx, timeout, condition)
}

// AwaitWithOptions is AwaitWithTimeout with timer options.
func AwaitWithOptions(ctx Context, options AwaitOptions, condition func() bool) (ok bool, err error) {
	return runOf(ctx).outbound.AwaitWithOptions(ctx, options, condition)
}

// awaitWithOptions is AwaitWithOptions at the end of the interceptor chain.
func (r *workflowRun) awaitWithOptions(ctx Context, options AwaitOptions, condition func() bool) (ok bool, err error) {
	start := func(timerCtx Context) *wfsync.SettableFuture {
		return r.newTimer(timerCtx, options.Timeout, options.TimerOptions)
	}
	// By default go.temporal.io/sdk always starts the timer and never
	// cancels it; a history that used the flag says otherwise.
	if r.exec.FlagInHistory(engine.FlagCancelAwaitTimer) {
		return wfsync.AwaitWithTimer(ctx, "AwaitWithTimeout", start, condition)
	}
	timer := start(ctx)
	return wfsync.AwaitWithTimer(ctx, "AwaitWithTimeout", func(Context) *wfsync.SettableFuture { return timer }, condition)
}
