package wfsync

import "testing"

// The dispatcher's hot paths as workflow code meets them, each run as the
// root coroutine of a runtime with no engine. One op is one round trip
// between two coroutines.

// BenchmarkChannelPingPong passes a value to another coroutine over an
// unbuffered channel and gets one back.
func BenchmarkChannelPingPong(b *testing.B) {
	n := b.N
	b.ReportAllocs()
	b.ResetTimer()
	run(b, func(ctx Context) {
		ping, pong := NewChannel(ctx), NewChannel(ctx)
		Go(ctx, func(ctx Context) {
			var v int
			for ping.Receive(ctx, &v) {
				pong.Send(ctx, v+1)
			}
		})
		v := 0
		for range n {
			ping.Send(ctx, v)
			pong.Receive(ctx, &v)
		}
		ping.Close()
		if v != n {
			b.Errorf("ping-pong counted %d, want %d", v, n)
		}
	})
}

// BenchmarkFutureGet makes a future, hands its Settable to another
// coroutine, which sets it, and gets its value.
func BenchmarkFutureGet(b *testing.B) {
	n := b.N
	b.ReportAllocs()
	b.ResetTimer()
	run(b, func(ctx Context) {
		settables := setter(ctx)
		total := 0
		for range n {
			f, s := newFuture(ctx)
			settables.Send(ctx, s)
			var v int
			if err := f.Get(ctx, &v); err != nil {
				b.Fatal(err)
			}
			total += v
		}
		settables.Close()
		if total != n {
			b.Errorf("got %d ones, want %d", total, n)
		}
	})
}

// BenchmarkSelectFuture is BenchmarkFutureGet through a Selector made for
// the future, as workflow code waits for an activity or a timer.
func BenchmarkSelectFuture(b *testing.B) {
	n := b.N
	b.ReportAllocs()
	b.ResetTimer()
	run(b, func(ctx Context) {
		settables := setter(ctx)
		total := 0
		for range n {
			f, s := newFuture(ctx)
			settables.Send(ctx, s)
			NewSelector(ctx).AddFuture(f, func(f Future) {
				var v int
				if err := f.Get(ctx, &v); err != nil {
					b.Fatal(err)
				}
				total += v
			}).Select(ctx)
		}
		settables.Close()
		if total != n {
			b.Errorf("got %d ones, want %d", total, n)
		}
	})
}

// setter starts a coroutine that sets to 1 each future whose Settable it
// receives, until the channel closes.
func setter(ctx Context) Channel {
	settables := NewChannel(ctx)
	Go(ctx, func(ctx Context) {
		var s Settable
		for settables.Receive(ctx, &s) {
			s.SetValue(1)
		}
	})
	return settables
}

// run runs root until every coroutine has returned.
func run(b *testing.B, root func(ctx Context)) {
	b.Helper()
	tr := newTestRun(b)
	tr.start(root)
	tr.run()
	if !tr.done() {
		b.Fatal("coroutines are still blocked with nothing left to wake them")
	}
}
