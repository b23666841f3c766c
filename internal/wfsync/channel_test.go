package wfsync

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestSendToAWaitingReceiverReturnsAtOnce(t *testing.T) {
	tr := newTestRun(t)
	var events trace
	tr.start(func(ctx Context) {
		ch := NewChannel(ctx)
		Go(ctx, func(ctx Context) {
			var v string
			for ch.Receive(ctx, &v) {
				events.add("got:%s", v)
			}
			events.add("closed")
		})
		yieldOnce(ctx) // the receiver is now waiting
		for _, v := range []string{"a", "b"} {
			ch.Send(ctx, v)
			events.add("sent:%s", v)
		}
		ch.Close()
		events.add("root-done")
	})
	tr.run()
	// "a" goes to the waiting receiver, so Send returns without blocking;
	// "b" finds no receiver waiting (it has not had its turn yet) and
	// blocks; on its turn the receiver takes "a", then "b" straight from
	// the blocked sender, and waits again.
	assertTrace(t, events, "sent:a got:a got:b sent:b root-done closed")
}

func TestBlockedReceiversAreServedInTheOrderTheyStartedWaiting(t *testing.T) {
	tr := newTestRun(t)
	var events trace
	tr.start(func(ctx Context) {
		ch := NewNamedChannel(ctx, "work")
		// Created in order r1, r2, r3; they start waiting in order r3, r1, r2.
		for i, delay := range []int{1, 2, 0} {
			GoNamed(ctx, fmt.Sprint("r", i+1), func(ctx Context) {
				for range delay {
					yieldOnce(ctx)
				}
				var v string
				ch.Receive(ctx, &v)
				events.add("r%d:%s", i+1, v)
			})
		}
		for range 3 {
			yieldOnce(ctx)
		}
		for _, v := range []string{"x", "y", "z"} {
			if !ch.SendAsync(v) {
				t.Errorf("SendAsync(%s) found no waiting receiver", v)
			}
		}
	})
	tr.run()
	// Values go in waiting order (r3, r1, r2); the receivers then run in
	// creation order.
	assertTrace(t, events, "r1:y r2:z r3:x")
}

func TestBlockedSendersAreServedInTheOrderTheyStartedWaiting(t *testing.T) {
	tr := newTestRun(t)
	var got []string
	tr.start(func(ctx Context) {
		ch := NewChannel(ctx)
		for i, delay := range []int{2, 0, 1} {
			Go(ctx, func(ctx Context) {
				for range delay {
					yieldOnce(ctx)
				}
				ch.Send(ctx, fmt.Sprint("s", i+1))
			})
		}
		for range 4 {
			yieldOnce(ctx)
		}
		if ch.Len() != 3 {
			t.Errorf("Len() = %d with three blocked senders", ch.Len())
		}
		var v string
		for range 3 {
			ch.Receive(ctx, &v)
			got = append(got, v)
		}
	})
	tr.run()
	if strings.Join(got, ",") != "s2,s3,s1" {
		t.Fatalf("received %v, want the senders in waiting order s2,s3,s1", got)
	}
	if !tr.done() {
		t.Fatal("senders did not finish")
	}
}

func TestBufferedChannelHoldsValuesInOrderAndRefillsFromBlockedSenders(t *testing.T) {
	tr := newTestRun(t)
	var events trace
	tr.start(func(ctx Context) {
		ch := NewBufferedChannel(ctx, 2)
		if ch.Name() != "" {
			t.Errorf("NewBufferedChannel named %q, want no name as in the official SDK", ch.Name())
		}
		if !ch.SendAsync(1) || !ch.SendAsync(2) || ch.SendAsync(3) {
			t.Error("SendAsync should take two values and refuse the third")
		}
		Go(ctx, func(ctx Context) {
			ch.Send(ctx, 3)
			events.add("sender-unblocked")
		})
		yieldOnce(ctx)
		events.add("len:%d", ch.Len())
		var v int
		for range 3 {
			ok := ch.ReceiveAsync(&v)
			events.add("recv:%v:%d", ok, v)
		}
		ok, more := ch.ReceiveAsyncWithMoreFlag(&v)
		events.add("empty:%v:%v", ok, more)
	})
	tr.run()
	assertTrace(t, events, "len:3 recv:true:1 recv:true:2 recv:true:3 empty:false:true sender-unblocked")
}

func TestClosedChannelDrainsThenReportsClosed(t *testing.T) {
	tr := newTestRun(t)
	var events trace
	tr.start(func(ctx Context) {
		ch := NewBufferedChannel(ctx, 2)
		ch.SendAsync("last")
		ch.Close()
		ch.Close() // allowed, as in the official SDK
		v := "untouched"
		events.add("%v:%s", ch.Receive(ctx, &v), v)
		v = "untouched"
		events.add("%v:%s", ch.Receive(ctx, &v), v)
		ok, more := ch.ReceiveAsyncWithMoreFlag(&v)
		events.add("async:%v:%v:%s", ok, more, v)
		for _, send := range []func(){func() { ch.Send(ctx, 1) }, func() { ch.SendAsync(1) }} {
			func() {
				defer func() { events.add("panic:%v", recover()) }()
				send()
			}()
		}
	})
	tr.run()
	assertTrace(t, events, `true:last false:untouched async:false:false:untouched `+
		`panic:workflow: send on closed channel "" panic:workflow: send on closed channel ""`)
}

func TestCloseWakesBlockedReceiversAndFailsBlockedSenders(t *testing.T) {
	tr := newTestRun(t)
	var events trace
	tr.start(func(ctx Context) {
		in := NewNamedChannel(ctx, "in")
		for i := range 2 {
			Go(ctx, func(ctx Context) {
				more := in.Receive(ctx, nil)
				events.add("receiver%d:more=%v", i, more)
			})
		}
		out := NewNamedChannel(ctx, "out")
		GoNamed(ctx, "stuck-sender", func(ctx Context) {
			out.Send(ctx, "never received")
			events.add("unreachable")
		})
		yieldOnce(ctx)
		in.Close()
		out.Close()
	})
	perr := tr.runExpectingPanic()
	assertTrace(t, events, "receiver0:more=false receiver1:more=false")
	if perr.Coroutine != "stuck-sender" || fmt.Sprint(perr.Value) != `workflow: send on closed channel "out"` {
		t.Fatalf("blocked sender panicked in %q with %v", perr.Coroutine, perr.Value)
	}
}

func TestClosingABufferedChannelLetsReceiversTakeBlockedSendersValues(t *testing.T) {
	tr := newTestRun(t)
	var events trace
	tr.start(func(ctx Context) {
		ch := NewBufferedChannel(ctx, 1)
		ch.SendAsync(1)
		Go(ctx, func(ctx Context) {
			ch.Send(ctx, 2) // blocks: the buffer is full
			events.add("sender-returned")
		})
		yieldOnce(ctx)
		ch.Close()
		var v int
		for ch.Receive(ctx, &v) { // taking 1 moves 2 into the buffer
			events.add("got:%d", v)
		}
		events.add("drained")
	})
	tr.run()
	assertTrace(t, events, "got:1 got:2 drained sender-returned")
}

func TestReceiveOfTheWrongTypePanicsWithAClearMessage(t *testing.T) {
	tr := newTestRun(t)
	tr.start(func(ctx Context) {
		orders := NewNamedBufferedChannel(ctx, "orders", 1)
		orders.SendAsync("order-17")
		var n int
		orders.Receive(ctx, &n)
	})
	perr := tr.runExpectingPanic()
	err, _ := perr.Value.(error)
	if err == nil || err.Error() != `cannot assign value of type string to *int received from channel "orders"` {
		t.Fatalf("panic value %v", perr.Value)
	}
}

type order struct{ ID int }

// encoded is a value that decodes itself, like converter.EncodedValue.
type encoded struct{ id int }

func (encoded) HasValue() bool { return true }

func (e encoded) Get(valuePtr any) error {
	o, ok := valuePtr.(*order)
	if !ok {
		return errors.New("can only decode into *order")
	}
	o.ID = e.id
	return nil
}

func TestReceiveAssignsDereferencesAndDecodes(t *testing.T) {
	tr := newTestRun(t)
	tr.start(func(ctx Context) {
		ch := NewBufferedChannel(ctx, 10)
		for _, v := range []any{order{1}, &order{2}, encoded{3}, nil, order{4}, order{5}} {
			ch.SendAsync(v)
		}
		var o order
		for want := 1; want <= 3; want++ {
			ch.Receive(ctx, &o)
			if o.ID != want {
				t.Errorf("received order %d, want %d", o.ID, want)
			}
		}
		ch.Receive(ctx, &o) // nil leaves the target alone
		if o.ID != 3 {
			t.Errorf("receiving nil changed the target to %+v", o)
		}
		var anything any
		ch.Receive(ctx, &anything)
		if anything != (order{4}) {
			t.Errorf("received %v into *any", anything)
		}
		ch.Receive(ctx, nil) // discards
		if ch.Len() != 0 {
			t.Errorf("Len() = %d after receiving everything", ch.Len())
		}
	})
	tr.run()
}

func TestReceiveAndSendDoNotWatchCancellation(t *testing.T) {
	tr := newTestRun(t)
	var events trace
	var in, out Channel
	tr.start(func(ctx Context) {
		in, out = NewChannel(ctx), NewChannel(ctx)
		child, cancel := WithCancel(ctx)
		Go(ctx, func(ctx Context) {
			var v string
			in.Receive(child, &v)
			events.add("received:%s:err=%v", v, child.Err())
		})
		Go(ctx, func(ctx Context) {
			out.Send(child, "x")
			events.add("sent:err=%v", child.Err())
		})
		yieldOnce(ctx)
		cancel()
	})
	tr.run()
	assertTrace(t, events, "")
	in.SendAsync("late")
	out.ReceiveAsync(nil)
	tr.run()
	assertTrace(t, events, "received:late:err=canceled sent:err=canceled")
}

func TestUnnamedChannelsAreNumberedPerRun(t *testing.T) {
	tr := newTestRun(t)
	tr.start(func(ctx Context) {
		names := []string{NewChannel(ctx).Name(), NewNamedChannel(ctx, "x").Name(), NewChannel(ctx).Name(), NewNamedBufferedChannel(ctx, "b", 1).Name()}
		if got := strings.Join(names, ","); got != "chan-1,x,chan-2,b" {
			t.Errorf("names %s", got)
		}
	})
	tr.run()
}

func TestReceiveWithTimeout(t *testing.T) {
	tr := newTestRun(t)
	var events trace
	var ch Channel
	tr.start(func(ctx Context) {
		ch = NewNamedBufferedChannel(ctx, "replies", 10) // like a signal channel
		for range 3 {
			var v string
			ok, more := ch.ReceiveWithTimeout(ctx, time.Minute, &v)
			events.add("ok=%v,more=%v,v=%s", ok, more, v)
		}
	})
	tr.run()
	if len(tr.timers) != 1 || tr.timers[0].duration != time.Minute || tr.timers[0].summary != "AwaitWithTimeout" {
		t.Fatalf("timers started: %+v", tr.timers)
	}
	ch.SendAsync("hello") // arrives before the timer fires
	tr.run()
	if tr.timers[0].ctx.Err() == nil {
		t.Error("the timer of a receive that got its value was not canceled")
	}
	tr.timers[1].future.SetValue(nil) // times out
	tr.run()
	tr.cancel() // canceled
	tr.run()
	assertTrace(t, events, "ok=true,more=true,v=hello ok=false,more=true,v= ok=false,more=true,v=")
	if !tr.done() {
		t.Fatal("workflow did not finish")
	}
}

func TestReceiveWithTimeoutNeedsTimers(t *testing.T) {
	tr := newTestRun(t)
	tr.rt.timers = nil
	tr.start(func(ctx Context) { NewChannel(ctx).ReceiveWithTimeout(ctx, time.Second, nil) })
	if perr := tr.runExpectingPanic(); !errors.Is(perr, errNoTimers) {
		t.Fatalf("panic %v, want errNoTimers", perr.Value)
	}
}
