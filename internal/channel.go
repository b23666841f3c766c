package internal

import (
	"fmt"
	"reflect"
	"time"

	"github.com/durable-go/sdk/internal/wfctx"
)

// Channel is a deterministic channel for workflow code; see the package
// doc for its rules.
type Channel = wfctx.Channel

// SendChannel is the sending half of a Channel.
type SendChannel = wfctx.SendChannel

// ReceiveChannel is the receiving half of a Channel.
type ReceiveChannel = wfctx.ReceiveChannel

// NewChannel returns an unbuffered Channel named "chan-N", N counting the
// run's unnamed channels from 1.
func NewChannel(ctx Context) Channel {
	rt := runtimeOf(ctx)
	rt.channelSeq++
	return newChannel(fmt.Sprintf("chan-%d", rt.channelSeq), 0)
}

// NewNamedChannel returns an unbuffered Channel with the given name, which
// shows in stack traces of coroutines blocked on it.
func NewNamedChannel(ctx Context, name string) Channel {
	runtimeOf(ctx)
	return newChannel(name, 0)
}

// NewBufferedChannel returns a Channel that holds up to size values
// without a receiver. As in the official SDK, it has no name. A size of
// zero or less makes it unbuffered.
func NewBufferedChannel(ctx Context, size int) Channel {
	runtimeOf(ctx)
	return newChannel("", size)
}

// NewNamedBufferedChannel is NewBufferedChannel with a name.
func NewNamedBufferedChannel(ctx Context, name string, size int) Channel {
	runtimeOf(ctx)
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

// channel implements Channel. Waiting senders and receivers are served in
// the order they started waiting.
type channel struct {
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

	receiveReason, sendReason string // for stack traces, made on first need
}

func newChannel(name string, capacity int) *channel {
	return &channel{name: name, capacity: max(capacity, 0)}
}

// Name returns the channel's name ("" for NewBufferedChannel).
func (c *channel) Name() string { return c.name }

// Len returns the number of values a receiver could take without blocking
// on a sender that is not there yet: buffered values, values parked by a
// Select, and blocked senders.
func (c *channel) Len() int { return c.parked.len() + c.buffer.len() + c.senders.len() }

// Receive takes the next value into valuePtr (which may be nil to discard
// it) and returns true, blocking until there is one. Once the channel is
// closed and drained it returns false and leaves valuePtr alone. It does
// not watch ctx for cancellation: select on ctx.Done() for that. A value
// that cannot be stored in valuePtr makes it panic with an error naming
// both types and the channel, except on a signal's channel, which drops
// it and waits for the next (see dropCorrupt).
func (c *channel) Receive(ctx Context, valuePtr any) (more bool) {
	for {
		v, ok, more := c.tryReceive(nil)
		if !ok && more {
			rt := runtimeOf(ctx)
			w := rt.waiters.receive()
			c.receivers.push(w)
			rt.dispatcher.Block(c.receiveBlockedReason(), w)
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
func (c *channel) ReceiveAsync(valuePtr any) (ok bool) {
	ok, _ = c.ReceiveAsyncWithMoreFlag(valuePtr)
	return ok
}

// ReceiveAsyncWithMoreFlag is ReceiveAsync that also reports, with more
// false, that the channel is closed and drained.
func (c *channel) ReceiveAsyncWithMoreFlag(valuePtr any) (ok bool, more bool) {
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
func (c *channel) ReceiveWithTimeout(ctx Context, timeout time.Duration, valuePtr any) (ok, more bool) {
	rt := runtimeOf(ctx)
	deadline := rt.now().Add(timeout)
	for {
		left := deadline.Sub(rt.now()) // a corrupt signal took some
		if left <= 0 {
			return false, true
		}
		startTimer := func(timerCtx Context) Future {
			return rt.newTimer(timerCtx, left, "AwaitWithTimeout")
		}
		arrived, err := awaitWithTimer(ctx, "AwaitWithTimeout", startTimer, func() bool { return c.Len() > 0 })
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
func (c *channel) Send(ctx Context, v any) {
	if c.trySend(v, nil) {
		return
	}
	rt := runtimeOf(ctx)
	w := rt.waiters.send(v, c)
	c.senders.push(w)
	rt.dispatcher.Block(c.sendBlockedReason(), w)
	if !w.taken {
		panic(c.sendOnClosed()) // w stays queued: a drain may still take it
	}
	rt.waiters.recycleSend(w) // take popped it from the queue
}

// SendAsync is Send without blocking: it reports whether v was taken. It
// panics if the channel is closed.
func (c *channel) SendAsync(v any) (ok bool) {
	return c.trySend(v, nil)
}

// Close marks the channel closed and wakes every waiting receiver, in the
// order they started waiting, with "closed". Buffered and parked values
// can still be received; waiting senders panic when they resume, unless a
// receiver draining the buffer takes their value first. Closing twice is
// allowed, as in the official SDK.
func (c *channel) Close() {
	c.closed = true
	for c.receivers.len() > 0 {
		c.receivers.pop().give(nil, false)
	}
}

// tryReceive takes a value if one is there: first a parked value, then the
// buffer (refilled from the first waiting sender), then, unless closed, a
// waiting sender. Otherwise it queues r, if given. ok reports a value;
// more false reports the channel closed and drained.
func (c *channel) tryReceive(r receiver) (v any, ok, more bool) {
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
func (c *channel) trySend(v any, s sender) bool {
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

func (c *channel) sendOnClosed() string {
	return fmt.Sprintf("workflow: send on closed channel %q", c.name)
}

func (c *channel) receiveBlockedReason() string {
	if c.receiveReason == "" {
		c.receiveReason = "blocked on " + c.displayName() + ".Receive"
	}
	return c.receiveReason
}

func (c *channel) sendBlockedReason() string {
	if c.sendReason == "" {
		c.sendReason = "blocked on " + c.displayName() + ".Send"
	}
	return c.sendReason
}

func (c *channel) displayName() string {
	if c.name == "" {
		return "unnamed-channel"
	}
	return c.name
}

// assign stores a received value and reports whether it did. A value that
// cannot be stored is a corrupt signal on a signal's channel, dropped
// (false); on any other channel it is a bug of the workflow, and assign
// panics with a clear error, since Receive has no error result.
func (c *channel) assign(v, valuePtr any) bool {
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
	more  bool
	done  bool
}

func (r *blockedReceive) give(v any, more bool) bool {
	r.value, r.more, r.done = v, more, true
	return true
}

// Ready is the dispatcher's wake-up condition.
func (r *blockedReceive) Ready() bool { return r.done }

// blockedSend is the waiter of a blocking Send.
type blockedSend struct {
	value any
	ch    *channel
	taken bool
}

func (s *blockedSend) take() (any, bool) {
	s.taken = true
	return s.value, true
}

// Ready is the dispatcher's wake-up condition: taken, or never will be.
func (s *blockedSend) Ready() bool { return s.taken || s.ch.closed }

// waiterPool recycles the waiters of blocking Receive and Send calls, the
// hottest allocations of channel traffic. A waiter is recycled only once
// it has left its channel's queue.
type waiterPool struct {
	receives []*blockedReceive
	sends    []*blockedSend
}

func (p *waiterPool) receive() *blockedReceive {
	if n := len(p.receives); n > 0 {
		w := p.receives[n-1]
		p.receives = p.receives[:n-1]
		return w
	}
	return &blockedReceive{}
}

func (p *waiterPool) recycleReceive(w *blockedReceive) {
	*w = blockedReceive{}
	p.receives = append(p.receives, w)
}

func (p *waiterPool) send(v any, c *channel) *blockedSend {
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

// selfDecodingValue is a value still in its encoded form that can decode
// itself, such as converter.EncodedValue. Signals and activity results
// arrive this way.
type selfDecodingValue interface {
	HasValue() bool
	Get(valuePtr any) error
}

// assignValue stores a value received from a channel or a future into
// *valuePtr; a nil valuePtr discards it, and a nil value leaves *valuePtr
// alone. A value assignable to *valuePtr is assigned; a pointer to that
// type is dereferenced. Otherwise the value is decoded, if it can be.
//
// This is the single place where payload-backed values are decoded:
// values implementing selfDecodingValue (signals, results) decode
// themselves. A signal that does not decode is dropped by its channel
// (channel.dropCorrupt).
func assignValue(value, valuePtr any) error {
	if valuePtr == nil {
		return nil
	}
	target := reflect.ValueOf(valuePtr)
	if target.Kind() != reflect.Pointer || target.IsNil() {
		return fmt.Errorf("cannot store a value in %T: not a non-nil pointer", valuePtr)
	}
	if value == nil {
		return nil
	}
	if assignCommon(value, valuePtr) {
		return nil
	}
	elem := target.Elem()
	v := reflect.ValueOf(value)
	if v.Type() == elem.Type() {
		elem.Set(v)
		return nil
	}
	if v.Kind() == reflect.Pointer && v.Type().Elem() == elem.Type() {
		if v.IsNil() {
			elem.SetZero()
		} else {
			elem.Set(v.Elem())
		}
		return nil
	}
	if v.Type().AssignableTo(elem.Type()) {
		elem.Set(v)
		return nil
	}
	if encoded, ok := value.(selfDecodingValue); ok {
		if !encoded.HasValue() {
			return nil
		}
		if err := encoded.Get(valuePtr); err != nil {
			return fmt.Errorf("cannot decode value into %T: %w", valuePtr, err)
		}
		return nil
	}
	return fmt.Errorf("cannot assign value of type %s to %T", v.Type(), valuePtr)
}

// assignCommon assigns the most common value types without reflection,
// reporting whether it did.
func assignCommon(value, valuePtr any) bool {
	switch p := valuePtr.(type) {
	case *any:
		*p = value
		return true
	case *string:
		if v, ok := value.(string); ok {
			*p = v
			return true
		}
	case *int:
		if v, ok := value.(int); ok {
			*p = v
			return true
		}
	case *int64:
		if v, ok := value.(int64); ok {
			*p = v
			return true
		}
	case *bool:
		if v, ok := value.(bool); ok {
			*p = v
			return true
		}
	case *float64:
		if v, ok := value.(float64); ok {
			*p = v
			return true
		}
	}
	return false
}

// queue is a FIFO that reuses its storage.
type queue[T comparable] struct {
	items []T
	head  int
}

func (q *queue[T]) len() int { return len(q.items) - q.head }

func (q *queue[T]) push(v T) {
	if q.head > 0 && len(q.items) == cap(q.items) {
		n := copy(q.items, q.items[q.head:])
		clear(q.items[n:])
		q.items, q.head = q.items[:n], 0
	}
	q.items = append(q.items, v)
}

// pushFront puts v back at the head, to be popped next.
func (q *queue[T]) pushFront(v T) {
	if q.head > 0 {
		q.head--
		q.items[q.head] = v
		return
	}
	var zero T
	q.items = append(q.items, zero)
	copy(q.items[1:], q.items)
	q.items[0] = v
}

func (q *queue[T]) pop() T {
	v := q.items[q.head]
	var zero T
	q.items[q.head] = zero
	q.head++
	if q.head == len(q.items) {
		q.items, q.head = q.items[:0], 0
	}
	return v
}

// remove deletes the first occurrence of v, keeping the order.
func (q *queue[T]) remove(v T) {
	for i := q.head; i < len(q.items); i++ {
		if q.items[i] == v {
			copy(q.items[i:], q.items[i+1:])
			var zero T
			q.items[len(q.items)-1] = zero
			q.items = q.items[:len(q.items)-1]
			if q.head == len(q.items) {
				q.items, q.head = q.items[:0], 0
			}
			return
		}
	}
}
