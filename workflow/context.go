package workflow

import (
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/wfctx"
)

// Context is the context of workflow code, the first parameter of every
// workflow function and of the functions of this package. It works like
// context.Context, but deterministically: its Done method returns a
// workflow Channel (usable in a Selector) rather than a Go channel.
//
// Its methods: Done returns a Channel closed when the context is
// canceled; Err returns nil until then, and then ErrCanceled; Value
// returns the value bound to a key (WithValue), or nil; Deadline reports
// none, as workflow contexts have no deadline (use timers).
//
// The root context is canceled when the workflow is asked to cancel
// (client.Client.CancelWorkflow, or its parent's cancellation). Never
// pass a context.Context, nor store a Context for use in another
// workflow.
type Context = wfctx.Context

// CancelFunc cancels the Context it came with (WithCancel,
// NewDisconnectedContext) and the contexts derived from it. It does not
// wait for canceled work to stop; calls after the first do nothing.
type CancelFunc = internal.CancelFunc

// ErrCanceled is what Context.Err returns once the context is canceled: a
// *temporal.CanceledError. A workflow that returns it (or ctx.Err()) ends
// as canceled.
var ErrCanceled = internal.ErrCanceled

// ErrDeadlineExceeded is what Context.Err returns when a context's
// deadline passes. Workflow contexts have no deadline; it exists for code
// written to context.Context's conventions.
var ErrDeadlineExceeded = internal.ErrDeadlineExceeded

// WithCancel returns a child of parent and the function that cancels it.
// The child is canceled when cancel is called or parent is canceled,
// whichever comes first; the activities, timers and child workflows
// started with it are canceled with it. Call cancel when the operations
// it was made for are done, so nothing waits on it needlessly.
//
//	actCtx, cancel := workflow.WithCancel(ctx)
//	future := workflow.ExecuteActivity(actCtx, LongTask)
//	// ... later, if the result is no longer wanted:
//	cancel()
func WithCancel(parent Context) (ctx Context, cancel CancelFunc) {
	return internal.WithCancel(parent)
}

// WithValue returns a child of parent in which key is bound to val, for
// Value to find. Use a key type of your own, as with context.WithValue.
// Values stay in the worker; to send them with activities and child
// workflows, use a ContextPropagator.
func WithValue(parent Context, key any, val any) Context {
	return internal.WithValue(parent, key, val)
}

// NewDisconnectedContext returns a child of parent that keeps parent's
// values but not its cancellation: canceling parent does not cancel it.
// Use it for cleanup that must run after the workflow was canceled:
//
//	defer func() {
//		if errors.Is(ctx.Err(), workflow.ErrCanceled) {
//			cleanupCtx, _ := workflow.NewDisconnectedContext(ctx)
//			_ = workflow.ExecuteActivity(cleanupCtx, ReleaseHold, order).Get(cleanupCtx, nil)
//		}
//	}()
func NewDisconnectedContext(parent Context) (ctx Context, cancel CancelFunc) {
	return internal.NewDisconnectedContext(parent)
}
