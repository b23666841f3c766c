// Package wfctx declares the workflow Context and Channel interfaces.
//
// They live in a leaf package so that the public converter package can name
// the workflow context (converter.WorkflowContext) without depending on the
// workflow runtime. Everything else refers to them through the aliases in
// package internal and the public facades.
package wfctx

import "time"

// Context is the context of workflow code. It mirrors context.Context, but
// its Done channel is a workflow Channel, so waiting on it is deterministic.
type Context interface {
	// Deadline reports when work done for this context should be canceled.
	Deadline() (deadline time.Time, ok bool)
	// Done is closed when this context is canceled.
	Done() Channel
	// Err is nil until Done is closed, then explains why.
	Err() error
	// Value returns the value associated with key, or nil.
	Value(key any) any
}

// SendChannel is the sending half of a workflow Channel.
type SendChannel interface {
	// Name is the channel's name; for signal channels, the signal name.
	Name() string
	// Send blocks the calling coroutine until a receiver or buffer takes v.
	Send(ctx Context, v any)
	// SendAsync sends v without blocking and reports whether it was taken.
	SendAsync(v any) (ok bool)
	// Close forbids further sends; receivers drain what is buffered.
	Close()
}

// ReceiveChannel is the receiving half of a workflow Channel.
type ReceiveChannel interface {
	// Name is the channel's name; for signal channels, the signal name.
	Name() string
	// Receive blocks until a value arrives and stores it in valuePtr.
	// It returns false once the channel is closed and drained.
	Receive(ctx Context, valuePtr any) (more bool)
	// ReceiveWithTimeout is Receive that gives up after timeout or when ctx
	// is canceled, with ok false and valuePtr untouched.
	ReceiveWithTimeout(ctx Context, timeout time.Duration, valuePtr any) (ok, more bool)
	// ReceiveAsync receives without blocking and reports whether it did.
	ReceiveAsync(valuePtr any) (ok bool)
	// ReceiveAsyncWithMoreFlag is ReceiveAsync that also reports whether
	// the channel is still open.
	ReceiveAsyncWithMoreFlag(valuePtr any) (ok bool, more bool)
	// Len is the number of buffered values plus blocked senders.
	Len() int
}

// Channel is a deterministic channel for workflow code, used instead of Go
// channels.
type Channel interface {
	SendChannel
	ReceiveChannel
}
