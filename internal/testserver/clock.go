package testserver

import (
	"container/heap"
	"sync"
	"time"
)

// Clock is the test environment's virtual clock. Like go.temporal.io/sdk's
// test clock it stands still while work runs: the time workflow code and
// the server read moves only when a timer fires, and then to the very
// instant the timer was due, so that times a test computes from its start
// time compare exactly. Work in flight is counted with Busy. While the
// count is zero the clock skips to the next timer at once; while it is
// not, a timer fires once its duration has passed in wall time since it
// was set (so that a running activity's timeouts measure the time it
// really takes), and the clock jumps to the timer's due time.
type Clock struct {
	mu      sync.Mutex
	now     time.Time
	timers  timerHeap // by virtual due time
	seq     uint64
	busy    int
	held    bool          // no timer fires (Hold)
	wake    chan struct{} // closed and replaced when timers or busy change
	running bool
	stop    chan struct{}
	done    chan struct{}
	// wall: the clock reads the wall clock and fires every timer once its
	// duration has passed in wall time, skipping nothing (NewWallClock).
	wall bool
}

// NewClock returns a clock that reads start until a timer fires.
func NewClock(start time.Time) *Clock {
	return &Clock{now: start, wake: make(chan struct{})}
}

// NewWallClock returns a clock that never skips: it reads the wall clock,
// and a timer fires once its duration has passed in wall time, work in
// flight or not, as on a Temporal server (the embedded server without
// time skipping).
func NewWallClock() *Clock {
	return &Clock{now: time.Now(), wake: make(chan struct{}), wall: true}
}

// Set moves the clock to start, before it runs: timers already set keep
// their distance from it.
func (c *Clock) Set(start time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.wall {
		return
	}
	shift := start.Sub(c.now)
	for _, t := range c.timers {
		t.at = t.at.Add(shift)
	}
	c.now = start
}

// Now is the virtual time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nowLocked()
}

func (c *Clock) nowLocked() time.Time {
	if c.wall {
		return time.Now()
	}
	return c.now
}

// ToWall converts a virtual instant to the wall-clock instant it will be
// reached at if the clock does not skip before then: activity deadlines,
// which run on wall time in the worker.
func (c *Clock) ToWall(t time.Time) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(t.Sub(c.nowLocked()))
}

// Idle reports whether no work is in flight.
func (c *Clock) Idle() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.busy == 0
}

// Timer is a callback scheduled on the clock.
type Timer struct {
	at     time.Time // virtual due time
	wallAt time.Time // when it fires while work is in flight
	seq    uint64
	fn     func()
	index  int // in the heap; -1 once fired or stopped
}

// AfterFunc runs fn on the clock's goroutine once d has passed: at once
// in virtual time when nothing is in flight, else in wall time. Timers due
// at the same instant run in the order they were made.
func (c *Clock) AfterFunc(d time.Duration, fn func()) *Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	t := &Timer{at: c.nowLocked().Add(d), wallAt: time.Now().Add(d), seq: c.seq, fn: fn}
	heap.Push(&c.timers, t)
	c.signalLocked()
	return t
}

// Stop cancels a timer; it reports whether the timer had not run yet.
func (c *Clock) Stop(t *Timer) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t == nil || t.index < 0 {
		return false
	}
	heap.Remove(&c.timers, t.index)
	c.signalLocked()
	return true
}

// Busy adds delta to the count of work in flight.
func (c *Clock) Busy(delta int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	was := c.busy
	c.busy += delta
	if c.busy < 0 {
		panic("testserver: the clock's count of work in flight went negative")
	}
	if was == 0 || c.busy == 0 { // idle no more, or idle now: the loop decides anew
		c.signalLocked()
	}
}

// Sleep blocks for d of virtual time without counting as work in flight,
// so the clock may skip over it (a mocked activity's delay). It returns
// early, false, when done is closed.
func (c *Clock) Sleep(d time.Duration, done <-chan struct{}) bool {
	woke := make(chan struct{})
	c.Busy(-1)
	t := c.AfterFunc(d, func() {
		c.Busy(1) // in flight again before the clock looks for idleness
		close(woke)
	})
	select {
	case <-woke:
		return true
	case <-done:
		if c.Stop(t) {
			c.Busy(1)
		} else {
			<-woke
		}
		return false
	}
}

// Hold stops timers from firing, and so the clock from moving, until
// Release: the test's run ended, and the time it ended at is the time
// the test reads.
func (c *Clock) Hold() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.held = true
}

// Release undoes Hold.
func (c *Clock) Release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.held = false
	c.signalLocked()
}

func (c *Clock) signalLocked() {
	close(c.wake)
	c.wake = make(chan struct{})
}

// Start runs the clock's goroutine, which fires timers.
func (c *Clock) Start() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.running {
		return
	}
	c.running = true
	c.stop, c.done = make(chan struct{}), make(chan struct{})
	go c.loop(c.stop, c.done)
}

// StopRunning ends the clock's goroutine and waits for it. Timers stay
// set; a later Start runs them.
func (c *Clock) StopRunning() {
	c.mu.Lock()
	if !c.running {
		c.mu.Unlock()
		return
	}
	c.running = false
	close(c.stop)
	done := c.done
	c.mu.Unlock()
	<-done
}

func (c *Clock) loop(stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	for {
		c.mu.Lock()
		wake := c.wake
		due, wait := c.nextLocked()
		if due != nil {
			heap.Remove(&c.timers, due.index)
			if due.at.After(c.now) {
				c.now = due.at
			}
			c.mu.Unlock()
			due.fn()
			continue
		}
		c.mu.Unlock()

		var timeout <-chan time.Time
		if wait >= 0 {
			timeout = time.After(wait)
		}
		select {
		case <-stop:
			return
		case <-wake:
		case <-timeout:
		}
	}
}

// nextLocked picks the timer to fire now, if any, else how long to wait
// for one in wall time (-1: until something changes). With nothing in
// flight it is the first one due; otherwise the first whose wall time has
// come.
func (c *Clock) nextLocked() (*Timer, time.Duration) {
	if len(c.timers) == 0 || c.held {
		return nil, -1
	}
	if c.busy == 0 && !c.wall {
		return c.timers[0], 0
	}
	var first *Timer
	for _, t := range c.timers {
		if first == nil || t.wallAt.Before(first.wallAt) || t.wallAt.Equal(first.wallAt) && t.seq < first.seq {
			first = t
		}
	}
	if wait := time.Until(first.wallAt); wait > 0 {
		return nil, wait
	}
	return first, 0
}

// timerHeap orders timers by due time, then creation.
type timerHeap []*Timer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if h[i].at.Equal(h[j].at) {
		return h[i].seq < h[j].seq
	}
	return h[i].at.Before(h[j].at)
}
func (h timerHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}
func (h *timerHeap) Push(x any) {
	t := x.(*Timer)
	t.index = len(*h)
	*h = append(*h, t)
}
func (h *timerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	old[len(old)-1] = nil
	t.index = -1
	*h = old[:len(old)-1]
	return t
}

// Advance moves a skipping clock d ahead at once: the timers due by then
// fire on the caller's goroutine, in order, each at its due instant, and
// the clock reads d later than before. A wall clock cannot be moved.
func (c *Clock) Advance(d time.Duration) bool {
	c.mu.Lock()
	if c.wall {
		c.mu.Unlock()
		return false
	}
	target := c.now.Add(d)
	for len(c.timers) > 0 && !c.timers[0].at.After(target) {
		due := heap.Pop(&c.timers).(*Timer)
		if due.at.After(c.now) {
			c.now = due.at
		}
		c.mu.Unlock()
		due.fn()
		c.mu.Lock()
	}
	if target.After(c.now) {
		c.now = target
	}
	c.signalLocked()
	c.mu.Unlock()
	return true
}

// Skips reports whether the clock skips to the next timer while nothing
// is in flight (false for a wall clock).
func (c *Clock) Skips() bool { return !c.wall }
