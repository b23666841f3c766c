package wfsync

import (
	"fmt"
	"time"
)

// NewChannel returns an unbuffered Channel named "chan-N", N counting the
// run's unnamed channels from 1.
func NewChannel(ctx Context) Channel {
	rt := RuntimeOf(ctx)
	rt.channelSeq++
	return newChannel(fmt.Sprintf("chan-%d", rt.channelSeq), 0)
}

// NewNamedChannel returns an unbuffered Channel with the given name, which
// shows in stack traces of coroutines blocked on it.
func NewNamedChannel(ctx Context, name string) Channel {
	RuntimeOf(ctx)
	return newChannel(name, 0)
}

// NewBufferedChannel returns a Channel that holds up to size values
// without a receiver. As in the official SDK, it has no name. A size of
// zero or less makes it unbuffered.
func NewBufferedChannel(ctx Context, size int) Channel {
	RuntimeOf(ctx)
	return newChannel("", size)
}

// NewNamedBufferedChannel is NewBufferedChannel with a name.
func NewNamedBufferedChannel(ctx Context, name string, size int) Channel {
	RuntimeOf(ctx)
	return newChannel(name, size)
}

// sender is a blocked Send, or a Select's send case, waiting for a
// receiver.
type sender interface {
	// take hands over the value. ok is false if the sender withdrew (its
	// Select already chose another case); it is then dropped.
	take() (v any, ok bool)
}

// receiver is a blocked Receive, or a Select's receive case, waiting for a
// value.
type receiver interface {
	// give delivers v, or reports the channel closed with more false. It
	// returns false if the receiver withdrew; it is then dropped.
	give(v any, more bool) bool
}

// Chan implements Channel. Waiting senders and receivers are served in
// the order they started waiting.
type Chan struct {
	name     string
	capacity int

	parked    queue[any] // values a Select took and put back for its case function
	buffer    queue[any]
	senders   queue[sender]
	receivers queue[receiver]
	closed    bool

	// dropCorrupt, set on a signal's channel, is told of a value that
	// cannot be decoded into the receiver's pointer: the value is dropped
	// and the receive goes on to the next one, as in go.temporal.io/sdk,
	// so that one bad client cannot wedge a workflow. Without it (a
	// channel of the workflow's own), such a value is a bug of the
	// workflow, and the receive panics.
	dropCorrupt func(channel string, err error)
}

func newChannel(name string, capacity int) *Chan {
	return &Chan{name: name, capacity: max(capacity, 0)}
}

// Init makes c, the zero Chan embedded in a struct (a run's signal
// channels), a channel. dropCorrupt, if set, is told of each value a
// receive drops because it cannot be stored in the receiver's pointer
// (see Chan.dropCorrupt). It sets the fields in place: a Chan built by
// value and copied would take a frame of its size on the stack of the
// coroutine that asks for a signal channel.
func (c *Chan) Init(name string, capacity int, dropCorrupt func(channel string, err error)) {
	c.name, c.capacity, c.dropCorrupt = name, max(capacity, 0), dropCorrupt
}

// Name returns the channel's name ("" for NewBufferedChannel).
func (c *Chan) Name() string { return c.name }

// Len returns the number of values a receiver could take without blocking
// on a sender that is not there yet: buffered values, values parked by a
// Select, and blocked senders.
func (c *Chan) Len() int { return c.parked.len() + c.buffer.len() + c.senders.len() }

// Receive takes the next value into valuePtr (which may be nil to discard
// it) and returns true, blocking until there is one. Once the channel is
// closed and drained it returns false and leaves valuePtr alone. It does
// not watch ctx for cancellation: select on ctx.Done() for that. A value
// that cannot be stored in valuePtr makes it panic with an error naming
// both types and the channel, except on a signal's channel, which drops
// it and waits for the next (see dropCorrupt).
func (c *Chan) Receive(ctx Context, valuePtr any) (more bool) {
	for {
		v, ok, more := c.tryReceive(nil)
		if !ok && more {
			rt := RuntimeOf(ctx)
			w := rt.waiters.receive(c)
			c.receivers.push(w)
			rt.dispatcher.Block("", w)
			v, more = w.value, w.more
			rt.waiters.recycleReceive(w) // give popped it from the queue
		}
		if !more || c.assign(v, valuePtr) {
			return more
		}
	}
}

// ReceiveAsync is Receive without blocking: it reports whether it took a
// value.
func (c *Chan) ReceiveAsync(valuePtr any) (ok bool) {
	ok, _ = c.ReceiveAsyncWithMoreFlag(valuePtr)
	return ok
}

// ReceiveAsyncWithMoreFlag is ReceiveAsync that also reports, with more
// false, that the channel is closed and drained.
func (c *Chan) ReceiveAsyncWithMoreFlag(valuePtr any) (ok bool, more bool) {
	for {
		v, ok, more := c.tryReceive(nil)
		if !ok || c.assign(v, valuePtr) {
			return ok, more
		}
	}
}

// ReceiveWithTimeout waits, like Await, until the channel has a value, the
// timeout passes or ctx is canceled; then it receives without blocking.
// On timeout or cancellation it returns ok false and more true, as the
// official SDK does, even for a closed channel. It needs the engine's
// timers. When every value that arrived was a corrupt signal, dropped, it
// waits again for what is left of the timeout.
func (c *Chan) ReceiveWithTimeout(ctx Context, timeout time.Duration, valuePtr any) (ok, more bool) {
	rt := RuntimeOf(ctx)
	deadline := rt.now().Add(timeout)
	for {
		left := deadline.Sub(rt.now()) // a corrupt signal took some
		if left <= 0 {
			return false, true
		}
		startTimer := func(timerCtx Context) *SettableFuture {
			return rt.newTimer(timerCtx, left, "AwaitWithTimeout")
		}
		arrived, err := AwaitWithTimer(ctx, "AwaitWithTimeout", startTimer, func() bool { return c.Len() > 0 })
		if err != nil || !arrived {
			return false, true
		}
		if ok, more = c.ReceiveAsyncWithMoreFlag(valuePtr); ok || !more {
			return ok, more
		}
	}
}

// Send hands v to a waiting receiver or the buffer, else blocks until a
// receiver takes it. It panics if the channel is closed, or gets closed
// while Send waits and no receiver took v. It does not watch ctx for
// cancellation.
func (c *Chan) Send(ctx Context, v any) {
	if c.trySend(v, nil) {
		return
	}
	rt := RuntimeOf(ctx)
	w := rt.waiters.send(v, c)
	c.senders.push(w)
	rt.dispatcher.Block("", w)
	if !w.taken {
		panic(c.sendOnClosed()) // w stays queued: a drain may still take it
	}
	rt.waiters.recycleSend(w) // take popped it from the queue
}

// SendAsync is Send without blocking: it reports whether v was taken. It
// panics if the channel is closed.
func (c *Chan) SendAsync(v any) (ok bool) {
	return c.trySend(v, nil)
}

// Close marks the channel closed and wakes every waiting receiver, in the
// order they started waiting, with "closed". Buffered and parked values
// can still be received; waiting senders panic when they resume, unless a
// receiver draining the buffer takes their value first. Closing twice is
// allowed, as in the official SDK.
func (c *Chan) Close() {
	c.closed = true
	for c.receivers.len() > 0 {
		c.receivers.pop().give(nil, false)
	}
}

// tryReceive takes a value if one is there: first a parked value, then the
// buffer (refilled from the first waiting sender), then, unless closed, a
// waiting sender. Otherwise it queues r, if given. ok reports a value;
// more false reports the channel closed and drained.
func (c *Chan) tryReceive(r receiver) (v any, ok, more bool) {
	if c.parked.len() > 0 {
		return c.parked.pop(), true, true
	}
	if c.buffer.len() > 0 {
		v = c.buffer.pop()
		for c.senders.len() > 0 {
			if sent, taken := c.senders.pop().take(); taken {
				c.buffer.push(sent)
				break
			}
		}
		return v, true, true
	}
	if c.closed {
		return nil, false, false
	}
	for c.senders.len() > 0 {
		if sent, taken := c.senders.pop().take(); taken {
			return sent, true, true
		}
	}
	if r != nil {
		c.receivers.push(r)
	}
	return nil, false, true
}

// trySend gives v to the first waiting receiver that takes it, else to the
// buffer if there is room; otherwise it queues s, if given, and returns
// false.
func (c *Chan) trySend(v any, s sender) bool {
	if c.closed {
		panic(c.sendOnClosed())
	}
	for c.receivers.len() > 0 {
		if c.receivers.pop().give(v, true) {
			return true
		}
	}
	if c.buffer.len() < c.capacity {
		c.buffer.push(v)
		return true
	}
	if s != nil {
		c.senders.push(s)
	}
	return false
}

func (c *Chan) sendOnClosed() string {
	return fmt.Sprintf("workflow: send on closed channel %q", c.name)
}

func (c *Chan) displayName() string {
	if c.name == "" {
		return "unnamed-channel"
	}
	return c.name
}

// assign stores a received value and reports whether it did. A value that
// cannot be stored is a corrupt signal on a signal's channel, dropped
// (false); on any other channel it is a bug of the workflow, and assign
// panics with a clear error, since Receive has no error result.
func (c *Chan) assign(v, valuePtr any) bool {
	err := assignValue(v, valuePtr)
	switch {
	case err == nil:
		return true
	case c.dropCorrupt != nil:
		c.dropCorrupt(c.name, err)
		return false
	}
	panic(fmt.Errorf("%w received from channel %q", err, c.name))
}

// blockedReceive is the waiter of a blocking Receive.
type blockedReceive struct {
	value any
	ch    *Chan // the channel it waits on, for Describe
	more  bool
	done  bool
}

func (r *blockedReceive) give(v any, more bool) bool {
	r.value, r.more, r.done = v, more, true
	return true
}

// Ready is the dispatcher's wake-up condition.
func (r *blockedReceive) Ready() bool { return r.done }

// Describe says what the receive waits for, in stack traces.
func (r *blockedReceive) Describe() string { return "blocked on " + r.ch.displayName() + ".Receive" }

// blockedSend is the waiter of a blocking Send.
type blockedSend struct {
	value any
	ch    *Chan
	taken bool
}

func (s *blockedSend) take() (any, bool) {
	s.taken = true
	return s.value, true
}

// Ready is the dispatcher's wake-up condition: taken, or never will be.
func (s *blockedSend) Ready() bool { return s.taken || s.ch.closed }

// Describe says what the send waits for, in stack traces.
func (s *blockedSend) Describe() string { return "blocked on " + s.ch.displayName() + ".Send" }

// waiterPool recycles the waiters of blocking Receive and Send calls, the
// hottest allocations of channel traffic. A waiter is recycled only once
// it has left its channel's queue.
type waiterPool struct {
	receives []*blockedReceive
	sends    []*blockedSend
}

func (p *waiterPool) receive(c *Chan) *blockedReceive {
	if n := len(p.receives); n > 0 {
		w := p.receives[n-1]
		p.receives = p.receives[:n-1]
		w.ch = c
		return w
	}
	return &blockedReceive{ch: c}
}

func (p *waiterPool) recycleReceive(w *blockedReceive) {
	*w = blockedReceive{}
	p.receives = append(p.receives, w)
}

func (p *waiterPool) send(v any, c *Chan) *blockedSend {
	if n := len(p.sends); n > 0 {
		w := p.sends[n-1]
		p.sends = p.sends[:n-1]
		w.value, w.ch = v, c
		return w
	}
	return &blockedSend{value: v, ch: c}
}

func (p *waiterPool) recycleSend(w *blockedSend) {
	*w = blockedSend{}
	p.sends = append(p.sends, w)
}
