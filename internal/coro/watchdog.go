package coro

import (
	"context"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"time"
)

// watchdog is what the monitor can see of a drive. The drive publishes
// each turn with one atomic store; the monitor samples it and declares a
// deadlock when the same turn lasts longer than the timeout.
type watchdog struct {
	// turn is (turn count << 32 | seq of the coroutine holding the turn);
	// seq 0 means the dispatcher is between turns, doing its own work.
	turn  atomic.Uint64
	count uint64 // turn count; owned by the driving goroutine

	paused atomic.Int32 // PauseDeadlockDetection calls not yet resumed
	// slot is 1 + the drive's index in the monitor's list while the
	// monitor watches it, 0 otherwise; the monitor's lock guards it.
	slot        int32
	pauseEpochs atomic.Uint64 // ended pauses: each restarts the clock

	// running is the coroutine of the latest turn, stored before the turn,
	// so that the monitor can name the coroutine a stuck turn belongs to.
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

// The monitor watches every drive in the process that has deadlock
// detection on, from one goroutine that runs only while there are drives
// to watch. Watching a drive costs two short critical sections. A ticker
// per drive would cost, for every drive, a timer's creation, a select
// over its channel and its removal: a tenth of a replay's CPU, whose
// drives (one per workflow task) are many and short.
var monitor drives

// drives is the monitor's state.
type drives struct {
	mu       sync.Mutex
	watched  []watchedDrive
	ticker   *time.Ticker  // nil while the monitor's goroutine is not running
	period   time.Duration // the ticker's
	newDrive bool          // a drive was added since the last tick
}

// watchedDrive is what the monitor remembers of a drive between ticks.
type watchedDrive struct {
	d       *Dispatcher
	turn    uint64        // the turn seen at the last tick
	epoch   uint64        // the pause epoch seen at the last tick
	at      time.Time     // the last tick; zero until the first
	stalled time.Duration // how long turn has lasted, as the ticks counted it
}

// maxMonitorPeriod bounds the ticker's period, so that the monitor's
// goroutine ends soon after the last drive even when timeouts are long.
const maxMonitorPeriod = 100 * time.Millisecond

// checkPeriod is how often d's turns are sampled: an eighth of its
// timeout (at most maxMonitorPeriod), so that a deadlock is found at most
// two periods late (the first tick starts the clock).
func (d *Dispatcher) checkPeriod() time.Duration {
	return min(max(d.deadlockTimeout/8, time.Millisecond), maxMonitorPeriod)
}

// watch has the monitor watch d's drive, which has just been acquired.
func (m *drives) watch(d *Dispatcher) {
	if d.deadlockTimeout < 0 {
		return
	}
	// No clock reading here, whose cost shows at a drive per workflow
	// task: the first tick starts the drive's clock, so a deadlock is
	// found up to a period late, never early.
	w := watchedDrive{d: d}
	period := d.checkPeriod()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.watched = append(m.watched, w)
	d.watch.slot = int32(len(m.watched))
	m.newDrive = true
	switch {
	case m.ticker == nil:
		m.ticker, m.period = time.NewTicker(period), period
		go m.run(m.ticker)
	case period < m.period:
		m.ticker.Reset(period)
		m.period = period
	}
}

// unwatch stops watching d's drive; it does nothing if the monitor does
// not watch it.
func (m *drives) unwatch(d *Dispatcher) {
	m.mu.Lock()
	defer m.mu.Unlock()
	i := int(d.watch.slot) - 1
	if i < 0 {
		return
	}
	d.watch.slot = 0
	last := len(m.watched) - 1
	if i != last {
		m.watched[i] = m.watched[last]
		m.watched[i].d.watch.slot = int32(i + 1)
	}
	m.watched[last] = watchedDrive{}
	m.watched = m.watched[:last]
}

// run is the monitor's goroutine: it checks the drives at every tick, and
// ends after a tick that finds none and none added since the last.
func (m *drives) run(ticker *time.Ticker) {
	// It serves every drive: it drops the profiler labels it inherited
	// from the caller that happened to start it.
	pprof.SetGoroutineLabels(context.Background())
	for now := range ticker.C {
		stuck, more := m.check(now)
		for _, s := range stuck {
			s.d.abandon(s.turn)
		}
		if !more {
			return
		}
	}
}

// stuckDrive is a drive whose turn has lasted longer than its timeout.
type stuckDrive struct {
	d    *Dispatcher
	turn uint64
}

// check samples every drive's turn at a tick and returns the drives stuck
// in one turn for longer than their timeout. A tick counts for at most two
// periods: on a machine so loaded that the monitor itself runs late, the
// lost time is not blamed on the coroutine. more is false when the
// monitor's goroutine is to end.
func (m *drives) check(now time.Time) (stuck []stuckDrive, more bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.watched) == 0 && !m.newDrive {
		m.ticker.Stop()
		m.ticker = nil
		return nil, false
	}
	m.newDrive = false
	period := maxMonitorPeriod
	for i := range m.watched {
		w := &m.watched[i]
		period = min(period, w.d.checkPeriod())
		first := w.at.IsZero()
		elapsed := min(now.Sub(w.at), 2*m.period)
		w.at = now
		turn, epoch := w.d.watch.turn.Load(), w.d.watch.pauseEpochs.Load()
		if first || turn != w.turn || epoch != w.epoch || w.d.watch.paused.Load() > 0 || uint32(turn) == 0 {
			w.turn, w.epoch, w.stalled = turn, epoch, 0
			continue
		}
		if w.stalled += elapsed; w.stalled >= w.d.deadlockTimeout {
			stuck = append(stuck, stuckDrive{w.d, turn})
		}
	}
	if period != m.period && len(m.watched) > 0 {
		// The drive that wanted a shorter period has ended.
		m.ticker.Reset(period)
		m.period = period
	}
	return stuck, true
}

// abandon gives up on a drive stuck in turn, unless it moved on meanwhile:
// the drive's waiters return a *DeadlockError, and the drive unwinds every
// coroutine if the stuck one ever suspends.
func (d *Dispatcher) abandon(turn uint64) {
	c := d.watch.holder(turn)
	if c == nil {
		return
	}
	stack := stuckStack(c) // stops the world: do it before taking the lock
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.busy || d.abandoned != nil || d.watch.turn.Load() != turn {
		return
	}
	d.broken = &DeadlockError{Coroutine: c.name, Timeout: d.deadlockTimeout, Stack: stack}
	d.abandoned = d.done
	d.stopRequested.Store(true)
	close(d.done)
	monitor.unwatch(d)
}
