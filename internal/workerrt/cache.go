package workerrt

import (
	"container/list"
	"sync"

	"github.com/durable-go/sdk/internal/engine"
)

// cachedRun is a workflow run whose state stays in memory between tasks.
// Its mutex serializes the run's workflow tasks and queries, and guards
// closed: a task that finds its run closed (evicted meanwhile) starts over
// from the full history.
type cachedRun struct {
	mu      sync.Mutex
	runID   string
	exec    *engine.Execution
	closed  bool
	elem    *list.Element
	metrics *workerMetrics // of the worker that made the run; may be nil
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
type StickyCache struct {
	mu    sync.Mutex
	size  int
	order *list.List // front = most recently used
	runs  map[string]*cachedRun
}

// NewStickyCache returns a cache of at most size runs; 0 disables it.
func NewStickyCache(size int) *StickyCache {
	return &StickyCache{size: size, order: list.New(), runs: make(map[string]*cachedRun)}
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

// put caches a run, evicting the least recently used one if full. The
// evicted run is closed once no task holds it. The caller holds r.mu.
func (c *StickyCache) put(r *cachedRun) {
	if c.size <= 0 || r.closed {
		return
	}
	c.mu.Lock()
	if c.runs[r.runID] == r {
		c.order.MoveToFront(r.elem)
		c.mu.Unlock()
		return
	}
	var evicted *cachedRun
	forced := false
	if old := c.runs[r.runID]; old != nil {
		c.order.Remove(old.elem)
		evicted = old
	}
	r.elem = c.order.PushFront(r)
	c.runs[r.runID] = r
	if c.order.Len() > c.size && evicted == nil {
		// Make room: the least recently used run is still open (closed
		// runs never stay cached), so this eviction is forced.
		evicted = c.order.Remove(c.order.Back()).(*cachedRun)
		delete(c.runs, evicted.runID)
		forced = true
	}
	c.mu.Unlock()
	if forced {
		evicted.metrics.cachedRunEvicted()
	}
	if evicted != nil {
		go closeRun(evicted)
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
	c.order.Remove(r.elem)
	delete(c.runs, r.runID)
	return true
}

// Len is the number of cached runs.
func (c *StickyCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

// Purge closes and drops every run (worker.PurgeStickyWorkflowCache).
func (c *StickyCache) Purge() {
	c.mu.Lock()
	runs := c.runs
	c.runs = make(map[string]*cachedRun)
	c.order.Init()
	c.mu.Unlock()
	for _, r := range runs {
		closeRun(r)
	}
}

// closeRun closes a run once no task or query holds it.
func closeRun(r *cachedRun) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closeLocked()
}
