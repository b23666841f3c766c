package typed

import (
	"time"

	"github.com/durable-go/sdk/workflow"
)

// Signal is a signal's definition: its name and the type of its payload.
// Declare it once, beside the workflow, and use it on both sides, so that
// the sender and the workflow cannot disagree on either:
//
//	var OrderPaid = typed.NewSignal[Payment]("order-paid")
//
//	// in the workflow
//	payment, _ := typed.GetSignalChannel(ctx, OrderPaid).Receive(ctx)
//
//	// in a client
//	err := typed.SignalWorkflow(ctx, c, orderID, "", OrderPaid, payment)
//
// A Signal[None] carries no payload: it sends what the untyped calls send
// for a nil argument.
type Signal[T any] struct {
	name string
}

// NewSignal defines the signal name with payloads of type T.
func NewSignal[T any](name string) Signal[T] { return Signal[T]{name: name} }

// Name returns the signal's name, the one the untyped calls take.
func (s Signal[T]) Name() string { return s.name }

// payload is what the untyped calls send for v: v itself, or nil for a
// Signal[None].
func (s Signal[T]) payload(v T) any {
	if isNone[T]() {
		return nil
	}
	return v
}

// GetSignalChannel returns the channel of the workflow's signals of the
// given definition, as workflow.GetSignalChannel(ctx, signal.Name()) does.
func GetSignalChannel[T any](ctx workflow.Context, signal Signal[T]) ReceiveChannel[T] {
	return ReceiveChannel[T]{ch: workflow.GetSignalChannel(ctx, signal.name)}
}

// GetSignalChannelWithOptions is GetSignalChannel with the options of
// workflow.GetSignalChannelWithOptions (a description for the workflow's
// metadata).
func GetSignalChannelWithOptions[T any](ctx workflow.Context, signal Signal[T], options workflow.SignalChannelOptions) ReceiveChannel[T] {
	return ReceiveChannel[T]{ch: workflow.GetSignalChannelWithOptions(ctx, signal.name, options)}
}

// SignalExternalWorkflow sends the signal with payload v to another
// workflow, as workflow.SignalExternalWorkflow does; the Future is ready
// when the server delivered it (or could not).
func SignalExternalWorkflow[T any](ctx workflow.Context, workflowID, runID string, signal Signal[T], v T) Future[None] {
	return Future[None]{future: workflow.SignalExternalWorkflow(ctx, workflowID, runID, signal.name, signal.payload(v))}
}

// SignalChildWorkflow sends the signal with payload v to a child started
// with ExecuteChildWorkflow, once it started, as the untyped
// ChildWorkflowFuture.SignalChildWorkflow does.
func SignalChildWorkflow[R, T any](ctx workflow.Context, child ChildWorkflowFuture[R], signal Signal[T], v T) Future[None] {
	return Future[None]{future: child.child.SignalChildWorkflow(ctx, signal.name, signal.payload(v))}
}

// ReceiveChannel is a channel that a workflow receives values of type T
// from: a signal's channel (GetSignalChannel) or the receiving side of a
// Channel. It wraps the untyped workflow.ReceiveChannel (Untyped).
type ReceiveChannel[T any] struct {
	ch workflow.ReceiveChannel
}

// Receive blocks until a value arrives and returns it; more is false when
// the channel was closed and is empty (the value is then the zero T).
func (c ReceiveChannel[T]) Receive(ctx workflow.Context) (value T, more bool) {
	more = c.ch.Receive(ctx, target(&value))
	return value, more
}

// ReceiveWithTimeout is Receive that gives up after timeout on the
// workflow's clock: ok is false when nothing arrived in time.
func (c ReceiveChannel[T]) ReceiveWithTimeout(ctx workflow.Context, timeout time.Duration) (value T, ok, more bool) {
	ok, more = c.ch.ReceiveWithTimeout(ctx, timeout, target(&value))
	return value, ok, more
}

// ReceiveAsync returns a value if one is waiting, without blocking: ok is
// false when there was none.
func (c ReceiveChannel[T]) ReceiveAsync() (value T, ok bool) {
	ok = c.ch.ReceiveAsync(target(&value))
	return value, ok
}

// ReceiveAsyncWithMoreFlag is ReceiveAsync that also says whether the
// channel is still open (more).
func (c ReceiveChannel[T]) ReceiveAsyncWithMoreFlag() (value T, ok, more bool) {
	ok, more = c.ch.ReceiveAsyncWithMoreFlag(target(&value))
	return value, ok, more
}

// Len returns the number of values waiting in the channel.
func (c ReceiveChannel[T]) Len() int { return c.ch.Len() }

// Name returns the channel's name: for a signal channel, the signal's.
func (c ReceiveChannel[T]) Name() string { return c.ch.Name() }

// Untyped returns the workflow.ReceiveChannel this channel wraps, for the
// calls that take one, such as workflow.Selector.AddReceive.
func (c ReceiveChannel[T]) Untyped() workflow.ReceiveChannel { return c.ch }

// AddReceive adds ch to the selector, as selector.AddReceive(ch.Untyped(),
// ...) does: when Select picks it, a value is waiting, and the callback
// must take it (ch.ReceiveAsync or ch.Receive), as with the untyped call.
//
//	typed.AddReceive(selector, paid, func(ch typed.ReceiveChannel[Payment], more bool) {
//		payment, _ = ch.ReceiveAsync()
//	})
func AddReceive[T any](selector workflow.Selector, ch ReceiveChannel[T], ready func(ch ReceiveChannel[T], more bool)) workflow.Selector {
	return selector.AddReceive(ch.ch, func(_ workflow.ReceiveChannel, more bool) { ready(ch, more) })
}
