package wfsync

// OnCancel arranges for cancel to run when ctx is canceled, unless f is
// set by then. It runs synchronously, at the moment of cancellation (which
// may be while the engine applies a WorkflowExecutionCancelRequested
// event), in registration order: go.temporal.io/sdk does the same, and the
// order of the cancel commands it produces must agree with its histories.
// A context that is already canceled cancels at once.
func OnCancel(ctx Context, f *SettableFuture, cancel func()) {
	done, ok := ctx.Done().(*Chan)
	if !ok || done == nil {
		return // a context that is never canceled
	}
	if done.closed {
		cancel()
		return
	}
	cb := &cancelCallback{f: f, cancel: cancel}
	done.receivers.push(cb)
	f.onSet = func() { done.receivers.remove(cb) }
}

// cancelCallback is a receiver on a Done channel that cancels an operation
// when the channel closes.
type cancelCallback struct {
	f      *SettableFuture
	cancel func()
}

func (c *cancelCallback) give(any, bool) bool {
	if c.f.ready {
		return false
	}
	c.cancel()
	return true
}
