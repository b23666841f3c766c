package testserver

import (
	"container/heap"
	"sync"
	"time"
)

// Clock is the test environment's virtual clock. Virtual time is wall time
// plus an offset; the offset grows whenever the clock skips ahead. Work in
// flight is counted with Busy; while the count is zero the clock skips to
// the next timer instead of waiting for it.
type Clock struct {
	mu      sync.Mutex
	offset  time.Duration
	timers  timerHeap
	seq     uint64
	busy    int
	wake    chan struct{} // closed and replaced when timers or busy change
	running bool
	stop    chan struct{}
	done    chan struct{}
	// idleLimit is how long the clock waits, in wall time, with nothing in
	// flight and no timer; then onStuck runs (nothing can happen any more
	// unless the test itself acts).
	idleLimit time.Duration
	onStuck   func()
}

// NewClock returns a clock that reads start now.
func NewClock(start time.Time) *Clock {
	return &Clock{offset: time.Until(start), wake: make(chan struct{})}
}

// Now is the virtual time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nowLocked()
}

func (c *Clock) nowLocked() time.Time { return time.Now().Add(c.offset) }

// ToWall converts a virtual instant to the wall-clock instant it will be
// reached at if the clock does not skip before then: activity deadlines,
// which run on wall time in the worker.
func (c *Clock) ToWall(t time.Time) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return t.Add(-c.offset)
}

// Timer is a callback scheduled on the clock.
type Timer struct {
	at    time.Time
	seq   uint64
	fn    func()
	index int // in the heap; -1 once fired or stopped
}

// AfterFunc runs fn on the clock's goroutine once virtual time reaches
// now+d. Timers due at the same instant run in the order they were made.
func (c *Clock) AfterFunc(d time.Duration, fn func()) *Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	t := &Timer{at: c.nowLocked().Add(d), seq: c.seq, fn: fn}
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

func (c *Clock) signalLocked() {
	close(c.wake)
	c.wake = make(chan struct{})
}

// Start runs the clock's goroutine: it fires due timers, and skips ahead
// when nothing is in flight. When nothing is in flight and no timer is
// set for idleLimit of wall time, it calls onStuck once.
func (c *Clock) Start(idleLimit time.Duration, onStuck func()) {
	c.mu.Lock()
	if c.running {
		c.mu.Unlock()
		return
	}
	c.running = true
	c.idleLimit, c.onStuck = idleLimit, onStuck
	c.stop, c.done = make(chan struct{}), make(chan struct{})
	c.mu.Unlock()
	go c.loop()
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

func (c *Clock) loop() {
	defer close(c.done)
	stuckReported := false
	for {
		c.mu.Lock()
		wake := c.wake
		var wait time.Duration = -1
		var due *Timer
		if len(c.timers) > 0 {
			next := c.timers[0]
			now := c.nowLocked()
			switch {
			case !next.at.After(now):
				due = next
			case c.busy == 0:
				c.offset += next.at.Sub(now) // skip: nothing can happen before it
				due = next
			default:
				wait = next.at.Sub(now)
			}
		}
		if due != nil {
			heap.Remove(&c.timers, due.index)
			c.mu.Unlock()
			stuckReported = false
			due.fn()
			continue
		}
		idle := c.busy == 0 && len(c.timers) == 0
		c.mu.Unlock()

		var timeout <-chan time.Time
		switch {
		case wait >= 0:
			timeout = time.After(wait)
		case idle && !stuckReported && c.onStuck != nil && c.idleLimit > 0:
			timeout = time.After(c.idleLimit)
		}
		select {
		case <-c.stop:
			return
		case <-wake:
		case <-timeout:
			if wait < 0 {
				stuckReported = true
				c.onStuck()
			}
		}
	}
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
