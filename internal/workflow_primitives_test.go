package internal

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/wfsync/wfsynctest"
)

// The primitives are tested in package wfsync; these tests and
// benchmarks go through this package's API, as workflow code does.

func TestErrorsAreTheFailureTypes(t *testing.T) {
	var canceled *failure.CanceledError
	if !errors.As(ErrCanceled, &canceled) {
		t.Fatalf("ErrCanceled is a %T", ErrCanceled)
	}
	var timeout *failure.TimeoutError
	if !errors.As(ErrDeadlineExceeded, &timeout) || timeout.TimeoutType() != enumspb.TIMEOUT_TYPE_SCHEDULE_TO_CLOSE {
		t.Fatalf("ErrDeadlineExceeded is %#v", ErrDeadlineExceeded)
	}
}

// TestSelectorAndSettableThroughTheAPI: this package's Selector and
// Settable wrap wfsync's; their methods reach it, and Add chains.
func TestSelectorAndSettableThroughTheAPI(t *testing.T) {
	var fired []string
	err := wfsynctest.Run(func(ctx Context) {
		source, setSource := NewFuture(ctx)
		chained, setChained := NewFuture(ctx)
		setChained.Chain(source)
		in, out := NewBufferedChannel(ctx, 1), NewBufferedChannel(ctx, 1)
		sel := NewNamedSelector(ctx, "api").
			AddFuture(chained, func(f Future) {
				var v int
				err := f.Get(ctx, &v)
				fired = append(fired, fmt.Sprintf("future %d %v %v", v, err, f == chained))
			}).
			AddReceive(in, func(c ReceiveChannel, more bool) {
				var v string
				c.Receive(ctx, &v)
				fired = append(fired, "receive "+v)
			}).
			AddSend(out, "sent", func() { fired = append(fired, "send") })
		sel.Select(ctx) // out has room
		in.SendAsync("hello")
		sel.Select(ctx) // out is full, in has a value
		Go(ctx, func(ctx Context) { setSource.SetValue(7) })
		sel.Select(ctx) // blocks until the chained future is set
		if sel.HasPending() {
			t.Error("HasPending with no case ready")
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(fired, ", "); got != "send, receive hello, future 7 <nil> true" {
		t.Errorf("fired %s", got)
	}
}

// BenchmarkChannelPingPong measures two coroutines passing a value back
// and forth over an unbuffered channel. One op is one round trip: a value
// from ping to pong and one back, so two coroutine switches.
func BenchmarkChannelPingPong(b *testing.B) {
	n := b.N
	b.ResetTimer()
	err := wfsynctest.Run(func(ctx Context) {
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
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkSelectTwoChannels measures a Select over two channels fed by
// two coroutines in turn. One op is one Select.
func BenchmarkSelectTwoChannels(b *testing.B) {
	n := b.N
	b.ResetTimer()
	err := wfsynctest.Run(func(ctx Context) {
		a, c := NewChannel(ctx), NewChannel(ctx)
		for _, ch := range []Channel{a, c} {
			Go(ctx, func(ctx Context) {
				for i := 0; i < n/2+1; i++ {
					ch.Send(ctx, i)
				}
			})
		}
		sel := NewSelector(ctx)
		for _, ch := range []Channel{a, c} {
			sel.AddReceive(ch, func(c ReceiveChannel, more bool) { c.Receive(ctx, nil) })
		}
		for range 2 * (n/2 + 1) {
			sel.Select(ctx)
		}
	})
	if err != nil {
		b.Fatal(err)
	}
}
