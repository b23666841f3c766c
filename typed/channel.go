package typed

import "github.com/durable-go/sdk/workflow"

// Channel is a workflow channel of values of type T: workflow.Channel
// (Untyped) with typed Send and Receive. Like the untyped channel, it is
// deterministic, made for coroutines of one workflow (Go, workflow.Go),
// and writes nothing to the history. Its receiving side is
// ReceiveChannel, embedded, so Receive, ReceiveAsync, Len and the rest
// are Channel's methods too.
type Channel[T any] struct {
	// ReceiveChannel is the channel's receiving side: pass it to the
	// calls that take one, such as AddReceive.
	ReceiveChannel[T]
	ch workflow.Channel
}

// NewChannel returns an unbuffered channel, as workflow.NewChannel does.
func NewChannel[T any](ctx workflow.Context) Channel[T] {
	return wrapChannel[T](workflow.NewChannel(ctx))
}

// NewNamedChannel returns an unbuffered channel whose name the stack
// traces of blocked coroutines show, as workflow.NewNamedChannel does.
func NewNamedChannel[T any](ctx workflow.Context, name string) Channel[T] {
	return wrapChannel[T](workflow.NewNamedChannel(ctx, name))
}

// NewBufferedChannel returns a channel that holds up to size values
// before Send blocks, as workflow.NewBufferedChannel does.
func NewBufferedChannel[T any](ctx workflow.Context, size int) Channel[T] {
	return wrapChannel[T](workflow.NewBufferedChannel(ctx, size))
}

// NewNamedBufferedChannel is NewBufferedChannel with a name, as
// workflow.NewNamedBufferedChannel.
func NewNamedBufferedChannel[T any](ctx workflow.Context, name string, size int) Channel[T] {
	return wrapChannel[T](workflow.NewNamedBufferedChannel(ctx, name, size))
}

func wrapChannel[T any](ch workflow.Channel) Channel[T] {
	return Channel[T]{ReceiveChannel: ReceiveChannel[T]{ch: ch}, ch: ch}
}

// Send blocks until the channel takes v (a receiver, or room in the
// buffer).
func (c Channel[T]) Send(ctx workflow.Context, v T) { c.ch.Send(ctx, v) }

// SendAsync sends v if the channel can take it without blocking, and
// reports whether it did.
func (c Channel[T]) SendAsync(v T) (ok bool) { return c.ch.SendAsync(v) }

// Close closes the channel: receivers get the values still buffered, then
// more == false.
func (c Channel[T]) Close() { c.ch.Close() }

// Untyped returns the workflow.Channel this channel wraps, for the calls
// that take one, such as workflow.Selector.AddSend.
func (c Channel[T]) Untyped() workflow.Channel { return c.ch }
