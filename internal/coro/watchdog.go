package coro

import (
	"sync/atomic"
	"time"
)

// watchdog is what a goroutine waiting on a drive can see of it. The drive
// publishes each turn with one atomic store; the waiter samples it and
// declares a deadlock when the same turn lasts longer than the timeout.
type watchdog struct {
	// turn is (turn count << 32 | seq of the coroutine holding the turn);
	// seq 0 means the dispatcher is between turns, doing its own work.
	turn  atomic.Uint64
	count uint64 // turn count; owned by the driving goroutine

	paused      atomic.Int32  // PauseDeadlockDetection calls not yet resumed
	pauseEpochs atomic.Uint64 // ended pauses: each restarts the clock

	// running is the coroutine of the latest turn, stored before the turn,
	// so that the waiter can name the coroutine a stuck turn belongs to.
	running atomic.Pointer[Coroutine]
}

func (w *watchdog) enter(c *Coroutine) {
	w.running.Store(c)
	w.count++
	w.turn.Store(w.count<<32 | uint64(uint32(c.seq)))
}

// leave marks time spent between turns, on the dispatcher's own work. To
// keep turns cheap it is called only before work slower than evaluating
// conditions.
func (w *watchdog) leave() {
	w.count++
	w.turn.Store(w.count << 32)
	w.running.Store(nil)
}

// holder returns the coroutine that holds turn, or nil if the turn is
// over or is the dispatcher's own.
func (w *watchdog) holder(turn uint64) *Coroutine {
	c := w.running.Load()
	if c == nil || uint32(c.seq) != uint32(turn) || w.turn.Load() != turn {
		return nil
	}
	return c
}

// PauseDeadlockDetection stops the deadlock clock until the returned
// function is called, for work that is legitimately slow but does not
// touch workflow state, such as data conversion through a remote codec.
// Calls may nest; the clock restarts from zero when a pause ends. It may
// be called from any goroutine.
func (d *Dispatcher) PauseDeadlockDetection() (resume func()) {
	d.watch.paused.Add(1)
	var resumed atomic.Bool
	return func() {
		if resumed.Swap(true) {
			return
		}
		d.watch.pauseEpochs.Add(1)
		d.watch.paused.Add(-1)
	}
}

// supervise waits until idle is closed. If one turn lasts longer than the
// deadlock timeout, it abandons the drive and returns the deadlock.
//
// A turn's duration is counted in ticks of this waiter, each worth at most
// two periods: on a machine so loaded that the waiter itself runs late,
// the lost time is not blamed on the coroutine.
func (d *Dispatcher) supervise(idle <-chan struct{}) *DeadlockError {
	timeout := d.deadlockTimeout
	if timeout < 0 {
		<-idle
		return nil
	}
	period := max(timeout/8, time.Millisecond)
	ticker := time.NewTicker(period)
	defer ticker.Stop()
	lastTurn, lastEpoch, lastTick := d.watch.turn.Load(), d.watch.pauseEpochs.Load(), time.Now()
	var stalled time.Duration
	for {
		select {
		case <-idle:
			return nil
		case now := <-ticker.C:
			elapsed := min(now.Sub(lastTick), 2*period)
			lastTick = now
			turn, epoch := d.watch.turn.Load(), d.watch.pauseEpochs.Load()
			if turn != lastTurn || epoch != lastEpoch || d.watch.paused.Load() > 0 || uint32(turn) == 0 {
				lastTurn, lastEpoch, stalled = turn, epoch, 0
				continue
			}
			if stalled += elapsed; stalled < timeout {
				continue
			}
			if derr := d.abandon(idle, turn); derr != nil {
				return derr
			}
		}
	}
}

// abandon gives up on a drive stuck in turn, unless it moved on meanwhile.
func (d *Dispatcher) abandon(idle <-chan struct{}, turn uint64) *DeadlockError {
	c := d.watch.holder(turn)
	if c == nil {
		return nil
	}
	stack := stuckStack(c) // stops the world: do it before taking the lock
	d.mu.Lock()
	defer d.mu.Unlock()
	select {
	case <-idle:
		return nil
	default:
	}
	if d.watch.turn.Load() != turn {
		return nil
	}
	if derr, ok := d.broken.(*DeadlockError); ok {
		return derr // another waiter got here first
	}
	derr := &DeadlockError{Coroutine: c.name, Timeout: d.deadlockTimeout, Stack: stack}
	d.abandoned = true
	d.broken = derr
	d.stopRequested.Store(true)
	return derr
}
