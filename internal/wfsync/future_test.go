package wfsync

import (
	"errors"
	"fmt"
	"testing"
)

func TestFutureGetBlocksUntilSetAndWaitersResumeInCreationOrder(t *testing.T) {
	tr := newTestRun(t)
	var events trace
	var settable Settable
	tr.start(func(ctx Context) {
		var f Future
		f, settable = newFuture(ctx)
		// Created g1, g2; they start waiting g2 first.
		for i, delay := range []int{1, 0} {
			Go(ctx, func(ctx Context) {
				for range delay {
					yieldOnce(ctx)
				}
				var v string
				err := f.Get(ctx, &v)
				events.add("g%d:%s:%v", i+1, v, err)
			})
		}
	})
	tr.run()
	assertTrace(t, events, "")
	settable.SetValue("result") // as the engine does between runs
	tr.run()
	assertTrace(t, events, "g1:result:<nil> g2:result:<nil>")
}

func TestFutureErrorIsReturnedWithoutAssigning(t *testing.T) {
	tr := newTestRun(t)
	tr.start(func(ctx Context) {
		f, s := newFuture(ctx)
		boom := errors.New("boom")
		s.Set("ignored", boom)
		v := "untouched"
		if err := f.Get(ctx, &v); err != boom || v != "untouched" {
			t.Errorf("Get = %v, value %q", err, v)
		}
		f2, s2 := newFuture(ctx)
		s2.SetError(boom)
		if err := f2.Get(ctx, nil); err != boom {
			t.Errorf("Get = %v", err)
		}
	})
	tr.run()
}

func TestFutureGetOfTheWrongTypeIsAnError(t *testing.T) {
	tr := newTestRun(t)
	tr.start(func(ctx Context) {
		f, s := newFuture(ctx)
		s.SetValue("text")
		var n int
		err := f.Get(ctx, &n)
		if err == nil || err.Error() != "cannot assign value of type string to *int received from a future" {
			t.Errorf("Get = %v", err)
		}
		if err := f.Get(ctx, n); err == nil {
			t.Error("Get into a non-pointer did not fail")
		}
		var o order
		f2, s2 := newFuture(ctx)
		s2.SetValue(&order{ID: 7})
		if err := f2.Get(ctx, &o); err != nil || o.ID != 7 {
			t.Errorf("Get of a pointer into its element type = %v, %+v", err, o)
		}
	})
	tr.run()
}

// A value that does not decode: Get returns the decoder's error as it is,
// since it already says what could not be decoded into what (issue 32
// item 7: the same words were said again by each wrapper).
func TestFutureGetOfAValueThatDoesNotDecodeIsTheDecodersError(t *testing.T) {
	tr := newTestRun(t)
	tr.start(func(ctx Context) {
		f, s := newFuture(ctx)
		s.SetValue(encoded{id: 7})
		var n int
		if err := f.Get(ctx, &n); err == nil || err.Error() != "can only decode into *order" {
			t.Errorf("Get = %v; want the decoder's error alone", err)
		}
		var o order
		if err := f.Get(ctx, &o); err != nil || o.ID != 7 {
			t.Errorf("Get into the right type = %v, %+v", err, o)
		}
	})
	tr.run()
}

func TestSettingAFutureTwicePanics(t *testing.T) {
	tr := newTestRun(t)
	var recovered []string
	tr.start(func(ctx Context) {
		f, s := newFuture(ctx)
		s.SetValue(1)
		for _, again := range []func(){
			func() { s.SetValue(2) },
			func() { s.SetError(errors.New("x")) },
			func() { s.Chain(f) },
		} {
			func() {
				defer func() { recovered = append(recovered, fmt.Sprint(recover())) }()
				again()
			}()
		}
	})
	tr.run()
	for _, r := range recovered {
		if r != "workflow: future is already set" {
			t.Fatalf("recovered %q", recovered)
		}
	}
	if len(recovered) != 3 {
		t.Fatalf("recovered %d panics, want 3", len(recovered))
	}
}

func TestChainTakesTheOtherFuturesResult(t *testing.T) {
	tr := newTestRun(t)
	var events trace
	tr.start(func(ctx Context) {
		source, setSource := newFuture(ctx)
		early, setEarly := newFuture(ctx)
		setEarly.Chain(source) // not ready: chained
		late, setLate := newFuture(ctx)
		Go(ctx, func(ctx Context) {
			var v int
			err := early.Get(ctx, &v)
			events.add("early:%d:%v", v, err)
		})
		yieldOnce(ctx)
		setSource.SetValue(5)
		setLate.Chain(source) // ready: set at once
		events.add("late-ready:%v", late.IsReady())

		defer func() { events.add("foreign:%v", recover() != nil) }()
		_, s := newFuture(ctx)
		s.Chain(foreignFuture{})
	})
	tr.run()
	assertTrace(t, events, "late-ready:true foreign:true early:5:<nil>")
}

type foreignFuture struct{}

func (foreignFuture) Get(Context, any) error { return nil }
func (foreignFuture) IsReady() bool          { return true }

func TestFutureGetDoesNotWatchCancellation(t *testing.T) {
	tr := newTestRun(t)
	var settable Settable
	var got error = errors.New("Get has not returned")
	tr.start(func(ctx Context) {
		child, cancel := WithCancel(ctx)
		var f Future
		f, settable = newFuture(child)
		cancel()
		got = f.Get(child, nil)
	})
	tr.run()
	if got == nil {
		t.Fatal("Get returned on cancellation")
	}
	settable.SetValue(nil)
	tr.run()
	if got != nil {
		t.Fatalf("Get = %v after the future was set", got)
	}
}
