package workerrt

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	commonpb "go.temporal.io/api/common/v1"
)

// taskGroup counts a worker's running tasks, and knows which of them are
// activities whose code is running, so that Stop can wait for the
// worker's own work (workflow tasks, reports) and leave behind only
// activity code that ignores its canceled context, which it names.
//
// Unlike a sync.WaitGroup, a wait can give up without leaving a goroutine
// behind: a stopped worker keeps no goroutine of its own.
type taskGroup struct {
	running atomic.Int64

	// watched is set while Stop waits: only then do tasks that end take
	// mu to wake it.
	watched atomic.Bool
	mu      sync.Mutex
	changed chan struct{} // closed at the next change a waiter watches for
	inCode  map[*ActivityTask]time.Time
}

func (g *taskGroup) Add(n int) { g.running.Add(int64(n)) }

func (g *taskGroup) Done() {
	g.running.Add(-1)
	if g.watched.Load() {
		g.notify()
	}
}

// Wait waits for every task to end.
func (g *taskGroup) Wait() { g.waitUntil(g.idle, nil) }

// idle reports that no task runs; g.mu is held.
func (g *taskGroup) idle() bool { return g.running.Load() == 0 }

// onlyActivityCodeLeft reports that every task still running is an
// activity whose code has not returned; g.mu is held.
func (g *taskGroup) onlyActivityCodeLeft() bool { return g.running.Load() <= int64(len(g.inCode)) }

// waitUntil waits until done holds (checked with g.mu held, after each
// change) or until giveUp is closed (nil: never); it reports whether done
// held.
func (g *taskGroup) waitUntil(done func() bool, giveUp <-chan struct{}) bool {
	for {
		g.mu.Lock()
		// Set before reading the count: a task ending after the read sees
		// it and wakes this waiter.
		g.watched.Store(true)
		if done() {
			g.mu.Unlock()
			return true
		}
		if g.changed == nil {
			g.changed = make(chan struct{})
		}
		changed := g.changed
		g.mu.Unlock()
		select {
		case <-changed:
		case <-giveUp:
			return false
		}
	}
}

// notify wakes the waiter, if any.
func (g *taskGroup) notify() {
	g.mu.Lock()
	g.wakeLocked()
	g.mu.Unlock()
}

// wakeLocked wakes the waiter, if any; g.mu is held.
func (g *taskGroup) wakeLocked() {
	if g.changed != nil {
		close(g.changed)
		g.changed = nil
	}
}

// enterCode counts an activity's code as running, until leaveCode. Both
// wake a waiter: an activity entering its code may be the last task Stop
// waits for.
func (g *taskGroup) enterCode(t *ActivityTask) {
	g.mu.Lock()
	if g.inCode == nil {
		g.inCode = make(map[*ActivityTask]time.Time)
	}
	g.inCode[t] = time.Now()
	g.wakeLocked()
	g.mu.Unlock()
}

func (g *taskGroup) leaveCode(t *ActivityTask) {
	g.mu.Lock()
	delete(g.inCode, t)
	g.wakeLocked()
	g.mu.Unlock()
}

// activitiesInCode describes the activities whose code is running, oldest
// first: "Type (activity ID id, workflow ID wid, running for 3s)".
func (g *taskGroup) activitiesInCode() []string {
	g.mu.Lock()
	type running struct {
		t     *ActivityTask
		since time.Time
	}
	var all []running
	for t, since := range g.inCode {
		all = append(all, running{t, since})
	}
	g.mu.Unlock()
	slices.SortFunc(all, func(a, b running) int { return a.since.Compare(b.since) })
	out := make([]string, len(all))
	for i, r := range all {
		task := r.t.Task
		var b strings.Builder
		b.WriteString(task.GetActivityType().GetName())
		b.WriteString(" (activity ID ")
		b.WriteString(task.GetActivityId())
		if wid := task.GetWorkflowExecution().GetWorkflowId(); wid != "" {
			b.WriteString(", workflow ID ")
			b.WriteString(wid)
		}
		b.WriteString(", running for ")
		b.WriteString(time.Since(r.since).Round(time.Millisecond).String())
		b.WriteString(")")
		out[i] = b.String()
	}
	return out
}

// trackedActivities is an ActivityExecutor that counts the code of the
// activities it runs in a taskGroup.
type trackedActivities struct {
	ActivityExecutor
	group *taskGroup
}

func (e trackedActivities) Execute(ctx context.Context, t *ActivityTask) (*commonpb.Payloads, error) {
	e.group.enterCode(t)
	defer e.group.leaveCode(t)
	return e.ActivityExecutor.Execute(ctx, t)
}
