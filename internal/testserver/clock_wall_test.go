package testserver

import (
	"testing"
	"time"
)

func TestAWallClockFiresTimersInWallTimeWhileIdle(t *testing.T) {
	c := NewWallClock()
	c.Start()
	defer c.StopRunning()
	if c.Skips() {
		t.Fatal("a wall clock says it skips")
	}
	began := time.Now()
	fired := make(chan time.Time, 1)
	c.AfterFunc(50*time.Millisecond, func() { fired <- c.Now() })
	at := <-fired
	if waited := time.Since(began); waited < 50*time.Millisecond {
		t.Fatalf("a 50ms timer fired after %v with nothing in flight", waited)
	}
	if drift := time.Since(at); drift < 0 || drift > time.Second {
		t.Fatalf("the wall clock read %v at the timer, %v before now", at, drift)
	}
	if c.Advance(time.Hour) {
		t.Fatal("a wall clock moved ahead")
	}
}

func TestAdvanceFiresTheTimersDueInOrderAndMovesTheClock(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := NewClock(start)
	c.Busy(1) // not running anyway: only Advance fires
	var order []time.Duration
	for _, d := range []time.Duration{3 * time.Hour, time.Hour, 2 * time.Hour} {
		c.AfterFunc(d, func() { order = append(order, c.Now().Sub(start)) })
	}
	if !c.Advance(150 * time.Minute) {
		t.Fatal("a skipping clock refused to move")
	}
	if len(order) != 2 || order[0] != time.Hour || order[1] != 2*time.Hour {
		t.Fatalf("timers fired at %v; want [1h 2h]", order)
	}
	if got := c.Now().Sub(start); got != 150*time.Minute {
		t.Fatalf("the clock reads start+%v; want +2h30m", got)
	}
}
