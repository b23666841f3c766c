package workerrt

import (
	"container/list"
	"sync"
	"sync/atomic"

	"github.com/durable-go/sdk/internal/engine"
)

// cachedRun is a workflow run whose state stays in memory between tasks.
// Its mutex serializes the run's workflow tasks and queries, and guards
// closed: a task that finds its run closed (evicted meanwhile) starts over
// from the full history.
type cachedRun struct {
	mu       sync.Mutex
	runID    string
	workflow workflowKey
	exec     *engine.Run
	closed   bool
	// purged is set when the cache was purged while a task held the run:
	// that task must not put it back, so the next task replays it.
	purged  atomic.Bool
	elem    *list.Element
	metrics *workerMetrics // of the worker that made the run; may be nil
	// owner is the worker whose sticky queue the run's next task comes
	// to, set when the run is cached (under the cache's mutex).
	owner *Worker
}

// workflowKey names a workflow. A namespace has at most one open run of a
// workflow ID at a time.
type workflowKey struct {
	namespace, workflowID string
}

// closeLocked releases the run's coroutines; r.mu must be held.
func (r *cachedRun) closeLocked() {
	if !r.closed {
		r.closed = true
		r.exec.Close()
	}
}

// StickyCache is an LRU of workflow runs, bounded in size, shared by the
// workers of a process. An evicted run is replayed from its full history
// on its next task.
//
// Runs also leave it as soon as the worker learns they closed: a run that
// completes, fails, continues as new or is canceled at its own task (the
// worker does not cache it), one whose workflow has a newer run (a
// workflow has one open run at a time, so the older one was terminated,
// timed out or reset), one a query shows closed, and the runs of a worker
// that stops. The server tells a worker nothing else: a run terminated or
// timed out with no new run and no query stays until it is evicted.
type StickyCache struct {
	mu    sync.Mutex
	size  int
	order *list.List // front = most recently used
	runs  map[string]*cachedRun
	// byWorkflow finds the cached run of a workflow.
	byWorkflow map[workflowKey]*cachedRun
}

// NewStickyCache returns a cache of at most size runs; 0 disables it.
func NewStickyCache(size int) *StickyCache {
	return &StickyCache{size: size, order: list.New(), runs: make(map[string]*cachedRun), byWorkflow: make(map[workflowKey]*cachedRun)}
}

// get returns the cached run, marking it recently used.
func (c *StickyCache) get(runID string) *cachedRun {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.runs[runID]
	if r != nil {
		c.order.MoveToFront(r.elem)
	}
	return r
}

// put caches a run that owner's sticky queue serves, evicting another run
// of its workflow (which is closed) and, if full, the least recently used
// run. The runs it drops are closed once no task holds them. The caller
// holds r.mu.
func (c *StickyCache) put(r *cachedRun, owner *Worker) {
	if c.size <= 0 || r.closed || r.purged.Load() {
		return
	}
	c.mu.Lock()
	r.owner = owner
	if c.runs[r.runID] == r {
		c.order.MoveToFront(r.elem)
		c.mu.Unlock()
		return
	}
	var dropped []*cachedRun
	if old := c.runs[r.runID]; old != nil {
		c.drop(old)
		dropped = append(dropped, old)
	}
	if other := c.byWorkflow[r.workflow]; other != nil {
		c.drop(other)
		dropped = append(dropped, other)
	}
	r.elem = c.order.PushFront(r)
	c.runs[r.runID] = r
	c.byWorkflow[r.workflow] = r
	var forced *cachedRun
	if c.order.Len() > c.size {
		// Make room: the least recently used run is still open (closed
		// runs never stay cached), so this eviction is forced.
		forced = c.order.Back().Value.(*cachedRun)
		c.drop(forced)
		dropped = append(dropped, forced)
	}
	c.mu.Unlock()
	if forced != nil {
		forced.metrics.cachedRunEvicted()
	}
	for _, d := range dropped {
		go closeRun(d)
	}
}

// drop takes r out of the cache; c.mu must be held.
func (c *StickyCache) drop(r *cachedRun) {
	c.order.Remove(r.elem)
	if c.runs[r.runID] == r {
		delete(c.runs, r.runID)
	}
	if c.byWorkflow[r.workflow] == r {
		delete(c.byWorkflow, r.workflow)
	}
}

// remove drops a run from the cache, reporting whether it was there; the
// caller closes it.
func (c *StickyCache) remove(r *cachedRun) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.runs[r.runID] != r {
		return false
	}
	c.drop(r)
	return true
}

// removeOtherRun drops, and returns, the cached run of the workflow if it
// is not runID: a task of runID shows it closed. The caller closes it.
func (c *StickyCache) removeOtherRun(workflow workflowKey, runID string) *cachedRun {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.byWorkflow[workflow]
	if r == nil || r.runID == runID {
		return nil
	}
	c.drop(r)
	return r
}

// removeOwnedBy drops, and returns, the runs whose tasks come to w's
// sticky queue, which no one polls once w stops. The caller closes them.
func (c *StickyCache) removeOwnedBy(w *Worker) []*cachedRun {
	c.mu.Lock()
	defer c.mu.Unlock()
	var owned []*cachedRun
	for _, r := range c.runs {
		if r.owner == w {
			owned = append(owned, r)
		}
	}
	for _, r := range owned {
		c.drop(r)
	}
	return owned
}

// Len is the number of cached runs.
func (c *StickyCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

// Purge closes and drops every run (worker.PurgeStickyWorkflowCache),
// without waiting for those a task or query holds.
func (c *StickyCache) Purge() {
	c.mu.Lock()
	runs := c.runs
	for _, r := range runs {
		r.purged.Store(true) // under c.mu, so that no put takes it back
	}
	c.runs = make(map[string]*cachedRun)
	c.byWorkflow = make(map[workflowKey]*cachedRun)
	c.order.Init()
	c.mu.Unlock()
	for _, r := range runs {
		if r.mu.TryLock() {
			r.closeLocked()
			r.mu.Unlock()
		} else {
			// A task or query holds it (one a stopping worker left to end
			// in the background): it closes once that ends, and the task
			// does not cache it again.
			go closeRun(r)
		}
	}
}

// closeRun closes a run once no task or query holds it.
func closeRun(r *cachedRun) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closeLocked()
}
