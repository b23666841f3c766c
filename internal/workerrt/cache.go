package workerrt

import (
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
	purged atomic.Bool
	// prev and next thread the cache's runs into its LRU order (see
	// StickyCache.newest), under the cache's mutex.
	prev, next *cachedRun
	metrics    *workerMetrics // of the worker that made the run; may be nil
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
//
// It holds at most one run of a workflow, so one map by workflow finds a
// run, and the runs themselves form the LRU list: each cached run costs
// one map entry and no object of the cache's own.
type StickyCache struct {
	mu   sync.Mutex
	size int
	runs map[workflowKey]*cachedRun
	// newest and oldest are the ends of the runs' LRU list (cachedRun.prev
	// and next), newest the most recently used.
	newest, oldest *cachedRun
}

// NewStickyCache returns a cache of at most size runs; 0 disables it.
func NewStickyCache(size int) *StickyCache {
	return &StickyCache{size: size, runs: make(map[workflowKey]*cachedRun)}
}

// lookup returns the cached run runID of a workflow, marking it recently
// used.
func (c *StickyCache) lookup(workflow workflowKey, runID string) *cachedRun {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.runs[workflow]
	if r == nil || r.runID != runID {
		return nil
	}
	c.unlink(r)
	c.pushNewest(r)
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
	if c.runs[r.workflow] == r {
		c.unlink(r)
		c.pushNewest(r)
		c.mu.Unlock()
		return
	}
	var dropped []*cachedRun
	if other := c.runs[r.workflow]; other != nil {
		c.drop(other)
		dropped = append(dropped, other)
	}
	c.pushNewest(r)
	c.runs[r.workflow] = r
	var forced *cachedRun
	if len(c.runs) > c.size {
		// Make room: the least recently used run is still open (closed
		// runs never stay cached), so this eviction is forced.
		forced = c.oldest
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

// pushNewest puts r, which is in no list, at the newest end; c.mu must be
// held.
func (c *StickyCache) pushNewest(r *cachedRun) {
	r.prev, r.next = nil, c.newest
	if c.newest != nil {
		c.newest.prev = r
	} else {
		c.oldest = r
	}
	c.newest = r
}

// unlink takes r out of the LRU list; c.mu must be held.
func (c *StickyCache) unlink(r *cachedRun) {
	if r.prev != nil {
		r.prev.next = r.next
	} else if c.newest == r {
		c.newest = r.next
	}
	if r.next != nil {
		r.next.prev = r.prev
	} else if c.oldest == r {
		c.oldest = r.prev
	}
	r.prev, r.next = nil, nil
}

// drop takes r out of the cache; c.mu must be held and r cached.
func (c *StickyCache) drop(r *cachedRun) {
	c.unlink(r)
	delete(c.runs, r.workflow)
}

// remove drops a run from the cache, reporting whether it was there; the
// caller closes it.
func (c *StickyCache) remove(r *cachedRun) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.runs[r.workflow] != r {
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
	r := c.runs[workflow]
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
	return len(c.runs)
}

// Purge closes and drops every run (worker.PurgeStickyWorkflowCache),
// without waiting for those a task or query holds.
func (c *StickyCache) Purge() {
	c.mu.Lock()
	runs := c.runs
	for _, r := range runs {
		r.purged.Store(true) // under c.mu, so that no put takes it back
	}
	c.runs = make(map[workflowKey]*cachedRun)
	for r := c.newest; r != nil; {
		next := r.next
		r.prev, r.next = nil, nil
		r = next
	}
	c.newest, c.oldest = nil, nil
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
