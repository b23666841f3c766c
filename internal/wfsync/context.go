package wfsync

import (
	"time"
)

// NewRootContext returns the root context of a workflow run, from which
// every Context of the run derives and through which they reach rt, and
// the function the engine calls when the workflow is asked to cancel.
func NewRootContext(rt *Runtime) (Context, CancelFunc) {
	return WithCancel(&runtimeContext{rt: rt})
}

// runtimeContext is the base of a run's contexts: it is never canceled and
// has one value, the run's runtime.
type runtimeContext struct {
	rt *Runtime
}

func (*runtimeContext) Deadline() (time.Time, bool) { return time.Time{}, false }

// Done returns nil: this context is never canceled.
func (*runtimeContext) Done() Channel { return nil }

func (*runtimeContext) Err() error { return nil }

func (c *runtimeContext) Value(key any) any {
	if key == (RuntimeKey{}) {
		return c.rt
	}
	return nil
}

// WithValue returns a child of parent in which key is bound to value.
func WithValue(parent Context, key any, value any) Context {
	return &valueCtx{Context: parent, key: key, value: value}
}

type valueCtx struct {
	Context
	key, value any
}

func (c *valueCtx) Value(key any) any {
	if c.key == key {
		return c.value
	}
	return c.Context.Value(key)
}

// WithCancel returns a child of parent with its own Done channel, closed
// when the returned CancelFunc is called or when parent is canceled,
// whichever comes first. Canceling a context closes its Done channel, then
// cancels its children in the order they were created; each Done channel
// wakes its waiters in the order they started waiting.
func WithCancel(parent Context) (Context, CancelFunc) {
	c := newCancelCtx(parent)
	c.attach(parent)
	return c, func() { c.cancel(true, ErrCanceled) }
}

// NewDisconnectedContext returns a child of parent that keeps parent's
// values but not its cancellation: canceling parent does not cancel it.
// Use it for cleanup after the workflow is canceled.
func NewDisconnectedContext(parent Context) (Context, CancelFunc) {
	c := newCancelCtx(parent)
	return c, func() { c.cancel(true, ErrCanceled) }
}

// cancelCtxKey makes a cancelCtx return itself from Value, which lets a
// child find it through any wrapper that forwards Value.
type cancelCtxKey struct{}

// cancelCtx is a context with its own cancellation.
type cancelCtx struct {
	Context // the parent: values

	done *Chan // made on first need: many contexts are never waited on
	err  error

	// parent is the context whose cancellation cancels this one, nil once
	// canceled or if disconnected. Children form a list in creation
	// order: first/last here, prev/next in each child.
	parent           *cancelCtx
	first, last      *cancelCtx
	prevSib, nextSib *cancelCtx
}

func newCancelCtx(parent Context) *cancelCtx {
	return &cancelCtx{Context: parent}
}

// Done returns the channel closed when the context is canceled. Receiving
// from it returns false (closed) once canceled, and blocks until then.
func (c *cancelCtx) Done() Channel { return c.doneChannel() }

func (c *cancelCtx) doneChannel() *Chan {
	if c.done == nil {
		c.done = newChannel("cancelCtx-done-channel", 0)
		if c.err != nil {
			c.done.Close()
		}
	}
	return c.done
}

// Err is nil until the context is canceled, then ErrCanceled (or the
// error its parent was canceled with).
func (c *cancelCtx) Err() error { return c.err }

func (c *cancelCtx) Value(key any) any {
	if key == (cancelCtxKey{}) {
		return c
	}
	return c.Context.Value(key)
}

// attach makes c canceled with parent: at once if parent already is.
func (c *cancelCtx) attach(parent Context) {
	done := parent.Done()
	if done == nil {
		return // parent is never canceled
	}
	p, _ := parent.Value(cancelCtxKey{}).(*cancelCtx)
	if p == nil || Channel(p.doneChannel()) != done {
		panic("workflow: WithCancel parent's Done channel does not come from a workflow context; " +
			"wrap workflow contexts without replacing Done")
	}
	if p.err != nil {
		c.cancel(false, p.err)
		return
	}
	c.parent, c.prevSib = p, p.last
	if p.last == nil {
		p.first = c
	} else {
		p.last.nextSib = c
	}
	p.last = c
}

// detach removes c from its parent's children.
func (c *cancelCtx) detach() {
	p := c.parent
	if p == nil {
		return
	}
	if c.prevSib == nil {
		p.first = c.nextSib
	} else {
		c.prevSib.nextSib = c.nextSib
	}
	if c.nextSib == nil {
		p.last = c.prevSib
	} else {
		c.nextSib.prevSib = c.prevSib
	}
	c.parent, c.prevSib, c.nextSib = nil, nil, nil
}

func (c *cancelCtx) cancel(removeFromParent bool, err error) {
	if c.err != nil {
		return
	}
	c.err = err
	if c.done != nil {
		c.done.Close()
	}
	child := c.first
	c.first, c.last = nil, nil
	for child != nil {
		next := child.nextSib
		child.parent, child.prevSib, child.nextSib = nil, nil, nil
		child.cancel(false, err)
		child = next
	}
	if removeFromParent {
		c.detach()
	}
}
