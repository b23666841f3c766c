package workerrt

import (
	"sync"
	"sync/atomic"
	"time"
)

// Status is what a worker's heartbeat tells the server of it
// (client.Options.WorkerHeartbeatInterval): for each kind of task it runs,
// its slots and how many tasks ended and failed; for each kind of poll,
// how many are open and when one last brought a task; its sticky cache's
// hits and misses. The counters are kept whether or not anyone reads them:
// an atomic add per task.
type Status struct {
	WorkflowTasks, Activities, LocalActivities, NexusTasks *TaskStatus
	WorkflowPolls, StickyPolls, ActivityPolls, NexusPolls  *PollStatus
	CacheHits, CacheMisses                                 int64
	CacheSize                                              int
}

// TaskStatus is one kind of task's slots and counts. AvailableSlots is -1
// for a slot supplier without a bound.
type TaskStatus struct {
	UsedSlots, AvailableSlots int
	// SupplierKind is "Fixed", "ResourceBased" or "Custom", as
	// go.temporal.io/sdk names them.
	SupplierKind      string
	Processed, Failed int64
}

// PollStatus is one kind of poll: open and targeted polls, whether their
// number scales, and when one last brought a task (zero if none has).
type PollStatus struct {
	Open, Target int
	Autoscaling  bool
	LastTask     time.Time
}

// SlotSupplierKind, when a SlotSupplier implements it, names its kind for
// Status (the tuner's adapters do); one that does not is "Fixed" if it is
// FixedSlots and "Custom" otherwise.
type SlotSupplierKind interface {
	SlotSupplierKind() string
}

// pollTracker is a poll group's part of Status.
type pollTracker struct {
	pollers  *pollerCount
	lastTask atomic.Int64 // unix nanoseconds
}

func (p *pollTracker) gotTask() {
	if p != nil {
		p.lastTask.Store(time.Now().UnixNano())
	}
}

func (p *pollTracker) status() *PollStatus {
	if p == nil {
		return nil
	}
	open, target := p.pollers.counts()
	s := &PollStatus{Open: open, Target: target, Autoscaling: p.pollers.scaling != nil}
	if t := p.lastTask.Load(); t != 0 {
		s.LastTask = time.Unix(0, t)
	}
	return s
}

// statusTrackers are the worker's, set as its polls start.
type statusTrackers struct {
	mu                                sync.Mutex
	workflow, sticky, activity, nexus *pollTracker
	cacheHits, cacheMisses            atomic.Int64
}

// track returns the tracker of a new poll group, kept in *slot.
func (t *statusTrackers) track(slot **pollTracker, pollers *pollerCount) *pollTracker {
	p := &pollTracker{pollers: pollers}
	t.mu.Lock()
	*slot = p
	t.mu.Unlock()
	return p
}

// cacheLookup counts how the sticky cache served a task (see
// workflowMetrics.cacheLookup).
func (t *statusTrackers) cacheLookup(hit, partial bool) {
	switch {
	case hit:
		t.cacheHits.Add(1)
	case partial:
		t.cacheMisses.Add(1)
	}
}

// Status reports the worker's state for its heartbeat.
func (w *Worker) Status() Status {
	t := &w.status
	t.mu.Lock()
	s := Status{WorkflowPolls: t.workflow.status(), StickyPolls: t.sticky.status(),
		ActivityPolls: t.activity.status(), NexusPolls: t.nexus.status()}
	t.mu.Unlock()
	s.WorkflowTasks, s.Activities = w.workflowSlots.status(), w.activitySlots.status()
	s.LocalActivities, s.NexusTasks = w.localActivitySlots.status(), w.nexusSlots.status()
	s.CacheHits, s.CacheMisses = t.cacheHits.Load(), t.cacheMisses.Load()
	if w.opts.Cache != nil {
		s.CacheSize = w.opts.Cache.Len()
	}
	return s
}

func (s *slots) status() *TaskStatus {
	if s == nil {
		return nil
	}
	used := int(s.used.Load())
	st := &TaskStatus{UsedSlots: used, AvailableSlots: -1, Processed: s.processed.Load(), Failed: s.failed.Load(), SupplierKind: "Custom"}
	if n := s.supplier.MaxSlots(); n > 0 {
		st.AvailableSlots = max(n-used, 0)
	}
	switch k := s.supplier.(type) {
	case SlotSupplierKind:
		st.SupplierKind = k.SlotSupplierKind()
	case *FixedSlots:
		st.SupplierKind = "Fixed"
	}
	return st
}

// taskFailed counts a failed task of the slots' kind.
func (s *slots) taskFailed() {
	if s != nil {
		s.failed.Add(1)
	}
}
