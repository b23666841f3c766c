package coro

import (
	"testing"
)

// BenchmarkYieldRoundTrip measures one turn: the dispatcher resumes a
// coroutine, which suspends again at once.
func BenchmarkYieldRoundTrip(b *testing.B) {
	d := New(Options{})
	defer d.Close()
	n := b.N
	d.Spawn("yielder", func() {
		for range n {
			d.Yield("bench")
		}
	})
	b.ResetTimer()
	if err := d.RunUntilBlocked(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkBlockHandoff measures two coroutines waking each other through
// conditions, the dispatcher-level core of a channel ping-pong. One op is
// one handoff (one turn).
func BenchmarkBlockHandoff(b *testing.B) {
	d := New(Options{})
	defer d.Close()
	n := b.N
	turn := 0
	isTurn := func(me int) Condition { return ConditionFunc(func() bool { return turn%2 == me }) }
	for me := range 2 {
		ready := isTurn(me)
		d.Spawn("player", func() {
			for turn < n {
				if !ready.Ready() {
					d.Block("bench", ready)
				}
				turn++
			}
		})
	}
	b.ResetTimer()
	if err := d.RunUntilBlocked(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkRunUntilBlocked measures what the engine pays per run when one
// event wakes one coroutine: the hand-off to the run goroutine, the
// deadlock watch, and one turn.
func BenchmarkRunUntilBlocked(b *testing.B) {
	d := New(Options{})
	defer d.Close()
	var event flag
	d.Spawn("waiter", func() {
		for {
			d.Block("bench", &event)
			event.set = false
		}
	})
	if err := d.RunUntilBlocked(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		event.set = true
		if err := d.RunUntilBlocked(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSpawn measures creating, starting and finishing a coroutine.
func BenchmarkSpawn(b *testing.B) {
	d := New(Options{})
	defer d.Close()
	for b.Loop() {
		d.Spawn("child", func() {})
		if err := d.RunUntilBlocked(); err != nil {
			b.Fatal(err)
		}
	}
}
