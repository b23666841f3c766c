package wfsync

import (
	"testing"
)

func TestSelectRunsTheFirstReadyCaseInTheOrderAdded(t *testing.T) {
	tr := newTestRun(t)
	var events trace
	tr.start(func(ctx Context) {
		a, b := NewBufferedChannel(ctx, 2), NewBufferedChannel(ctx, 2)
		b.SendAsync("b1")
		a.SendAsync("a1")
		b.SendAsync("b2")
		sel := NewSelector(ctx)
		var v string
		sel.AddReceive(a, func(c ReceiveChannel, more bool) { c.Receive(ctx, &v); events.add("a:%s", v) })
		sel.AddReceive(b, func(c ReceiveChannel, more bool) { c.Receive(ctx, &v); events.add("b:%s", v) })
		sel.AddDefault(func() { events.add("default") })
		for range 4 {
			sel.Select(ctx)
		}
	})
	tr.run()
	assertTrace(t, events, "a:a1 b:b1 b:b2 default")
}

func TestBlockedSelectRunsTheCaseWhoseEventHappensFirst(t *testing.T) {
	tr := newTestRun(t)
	var events trace
	tr.start(func(ctx Context) {
		first, second := NewNamedChannel(ctx, "first"), NewNamedChannel(ctx, "second")
		Go(ctx, func(ctx Context) {
			second.Send(ctx, "s") // the Select is waiting: taken at once
			events.add("sent-second")
			events.add("first-taken:%v", first.SendAsync("f")) // the Select has chosen already
		})
		var v string
		NewSelector(ctx).
			AddReceive(first, func(c ReceiveChannel, more bool) { c.Receive(ctx, &v); events.add("first:%s", v) }).
			AddReceive(second, func(c ReceiveChannel, more bool) { c.Receive(ctx, &v); events.add("second:%s", v) }).
			Select(ctx)
		events.add("left:%d", first.Len())
	})
	tr.run()
	assertTrace(t, events, "sent-second first-taken:false second:s left:0")
}

func TestReceiveCaseFunctionMustReceiveTheValueItself(t *testing.T) {
	tr := newTestRun(t)
	var events trace
	tr.start(func(ctx Context) {
		ch := NewChannel(ctx)
		Go(ctx, func(ctx Context) { ch.Send(ctx, 1); ch.Send(ctx, 2) })
		sel := NewSelector(ctx).AddReceive(ch, func(c ReceiveChannel, more bool) { events.add("ready:len=%d", c.Len()) })
		sel.Select(ctx) // blocks; the sender hands 1 to the case, then blocks sending 2
		sel.Select(ctx) // 1 was put back, so the case is ready at once
		var v int
		ch.Receive(ctx, &v)
		events.add("got:%d", v)
		ch.Receive(ctx, &v)
		events.add("got:%d", v)
	})
	tr.run()
	assertTrace(t, events, "ready:len=2 ready:len=2 got:1 got:2")
}

func TestFutureCaseFiresOncePerSelector(t *testing.T) {
	tr := newTestRun(t)
	var events trace
	tr.start(func(ctx Context) {
		f1, s1 := newFuture(ctx)
		f2, s2 := newFuture(ctx)
		sel := NewSelector(ctx)
		for i, f := range []Future{f1, f2} {
			sel.AddFuture(f, func(f Future) {
				var v string
				_ = f.Get(ctx, &v)
				events.add("f%d:%s", i+1, v)
			})
		}
		sel.AddDefault(func() { events.add("default") })
		s2.SetValue("two")
		s1.SetValue("one")
		for range 3 {
			sel.Select(ctx)
		}
		events.add("pending:%v", sel.HasPending())
	})
	tr.run()
	assertTrace(t, events, "f1:one f2:two default pending:false")
}

func TestBlockedSelectOnFuturesFiresInTheOrderTheyAreSet(t *testing.T) {
	tr := newTestRun(t)
	var events trace
	tr.start(func(ctx Context) {
		f1, s1 := newFuture(ctx)
		f2, s2 := newFuture(ctx)
		Go(ctx, func(ctx Context) {
			s2.SetValue(2)
			s1.SetValue(1)
		})
		sel := NewSelector(ctx)
		for _, f := range []Future{f1, f2} {
			sel.AddFuture(f, func(f Future) {
				var v int
				_ = f.Get(ctx, &v)
				events.add("future:%d", v)
			})
		}
		sel.Select(ctx)
		sel.Select(ctx)
	})
	tr.run()
	assertTrace(t, events, "future:2 future:1")
}

func TestReceiveCaseOnAClosedChannelFiresOnceThenIsSkipped(t *testing.T) {
	tr := newTestRun(t)
	var events trace
	tr.start(func(ctx Context) {
		closed, other := NewNamedChannel(ctx, "closed"), NewBufferedChannel(ctx, 1)
		closed.Close()
		other.SendAsync("x")
		sel := NewSelector(ctx).
			AddReceive(closed, func(c ReceiveChannel, more bool) { events.add("closed:more=%v", more) }).
			AddReceive(other, func(c ReceiveChannel, more bool) { c.Receive(ctx, nil); events.add("other") })
		sel.AddDefault(func() { events.add("default") })
		for range 3 {
			sel.Select(ctx)
		}
	})
	tr.run()
	assertTrace(t, events, "closed:more=false other default")
}

func TestSelectSendCase(t *testing.T) {
	tr := newTestRun(t)
	var events trace
	tr.start(func(ctx Context) {
		out := NewChannel(ctx)
		Go(ctx, func(ctx Context) {
			var v string
			for out.Receive(ctx, &v) {
				events.add("received:%s", v)
			}
		})
		sel := NewSelector(ctx).AddSend(out, "hello", func() { events.add("sent") })
		sel.Select(ctx) // blocks until the receiver, on its first turn, takes it
		sel.Select(ctx) // the receiver waits again: taken at once
		out.Close()
	})
	tr.run()
	assertTrace(t, events, "received:hello sent sent received:hello")
}

func TestSelectDoesNotWatchCancellationUnlessDoneIsACase(t *testing.T) {
	tr := newTestRun(t)
	var events trace
	tr.start(func(ctx Context) {
		child, cancel := WithCancel(ctx)
		never := NewChannel(ctx)
		Go(ctx, func(ctx Context) {
			NewSelector(ctx).
				AddReceive(never, func(ReceiveChannel, bool) { events.add("never") }).
				Select(child)
			events.add("unreachable")
		})
		Go(ctx, func(ctx Context) {
			NewSelector(ctx).
				AddReceive(never, func(ReceiveChannel, bool) { events.add("never") }).
				AddReceive(child.Done(), func(c ReceiveChannel, more bool) { events.add("done:more=%v:err=%v", more, child.Err()) }).
				Select(child)
		})
		yieldOnce(ctx)
		cancel()
	})
	tr.run()
	assertTrace(t, events, "done:more=false:err=canceled")
	if tr.done() {
		t.Fatal("the Select without a Done case returned on cancellation")
	}
}

func TestHasPending(t *testing.T) {
	tr := newTestRun(t)
	tr.start(func(ctx Context) {
		in, out := NewBufferedChannel(ctx, 1), NewChannel(ctx)
		f, s := newFuture(ctx)
		rs := NewSelector(ctx).AddReceive(in, func(ReceiveChannel, bool) {})
		ss := NewSelector(ctx).AddSend(out, 1, func() {})
		fs := NewSelector(ctx).AddFuture(f, func(Future) {})
		if rs.HasPending() || ss.HasPending() || fs.HasPending() {
			t.Error("HasPending before anything is ready")
		}
		in.SendAsync(1)
		s.SetValue(1)
		if !rs.HasPending() || !fs.HasPending() {
			t.Error("HasPending false with a value buffered and a future set")
		}
		Go(ctx, func(ctx Context) { out.Receive(ctx, nil) })
		yieldOnce(ctx)
		if !ss.HasPending() {
			t.Error("HasPending false with a receiver waiting")
		}
	})
	tr.run()
}

func TestDefaultFunctionThatBlocksKeepsOtherCasesRegistered(t *testing.T) {
	// As in the official SDK, a Select's case waiters stay registered
	// until Select returns, even while its default function blocks; a value
	// sent meanwhile is parked in the channel, not lost.
	tr := newTestRun(t)
	var events trace
	tr.start(func(ctx Context) {
		signals, wake := NewNamedChannel(ctx, "signals"), NewChannel(ctx)
		Go(ctx, func(ctx Context) {
			events.add("sent:%v", signals.SendAsync("sig"))
			wake.Send(ctx, nil)
		})
		sel := NewSelector(ctx).AddReceive(signals, func(ReceiveChannel, bool) { events.add("case-ran") })
		sel.AddDefault(func() { wake.Receive(ctx, nil); events.add("default") })
		sel.Select(ctx)
		var v string
		events.add("after:%v:%s", signals.ReceiveAsync(&v), v)
	})
	tr.run()
	assertTrace(t, events, "sent:true default after:true:sig")
}

func TestSelectorNames(t *testing.T) {
	tr := newTestRun(t)
	tr.start(func(ctx Context) {
		for _, name := range []string{"selector-1", "mine", "selector-2"} {
			var sel *Selector[Future]
			if name == "mine" {
				sel = NewNamedSelector(ctx, name)
			} else {
				sel = NewSelector(ctx)
			}
			if got := sel.name; got != name {
				t.Errorf("selector named %q, want %q", got, name)
			}
		}
	})
	tr.run()
}
