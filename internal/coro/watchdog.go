package coro

import (
	"sync"
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

	// registry maps the seq of every live, started coroutine to it, so the
	// waiter can name the coroutine a stuck turn belongs to.
	mu       sync.Mutex
	registry map[uint32]*Coroutine
}

func (w *watchdog) enter(c *Coroutine) {
	w.count++
	w.turn.Store(w.count<<32 | uint64(uint32(c.seq)))
}

// leave marks time spent between turns, on the dispatcher's own work. To
// keep turns cheap it is called only before work slower than evaluating
// conditions.
func (w *watchdog) leave() {
	w.count++
	w.turn.Store(w.count << 32)
}

func (w *watchdog) register(c *Coroutine) {
	w.mu.Lock()
	if w.registry == nil {
		w.registry = make(map[uint32]*Coroutine)
	}
	w.registry[uint32(c.seq)] = c
	w.mu.Unlock()
}

func (w *watchdog) unregister(c *Coroutine) {
	w.mu.Lock()
	delete(w.registry, uint32(c.seq))
	w.mu.Unlock()
}

func (w *watchdog) lookup(seq uint32) *Coroutine {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.registry[seq]
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
	c := d.watch.lookup(uint32(turn))
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
