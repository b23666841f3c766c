package workerrt

import (
	"testing"

	"github.com/durable-go/sdk/internal/engine"
)

func cachedRunOf(id string) *cachedRun {
	return &cachedRun{runID: id, workflow: workflowKey{"ns", "wf-" + id}, exec: engine.NewRun(&engine.Options{})}
}

// get returns the cached run runID, marking it recently used, for tests
// that know only the run's ID.
func (c *StickyCache) get(runID string) *cachedRun {
	c.mu.Lock()
	var workflow workflowKey
	for k, r := range c.runs {
		if r.runID == runID {
			workflow = k
		}
	}
	c.mu.Unlock()
	return c.lookup(workflow, runID)
}

func TestStickyCacheIsBoundedLRU(t *testing.T) {
	c := NewStickyCache(2)
	a, b, d := cachedRunOf("a"), cachedRunOf("b"), cachedRunOf("d")
	c.put(a, nil)
	c.put(b, nil)
	c.put(a, nil) // a task of a cached run: a becomes the most recent, no copy
	if c.Len() != 2 {
		t.Fatalf("len %d after re-putting a cached run, want 2", c.Len())
	}
	c.put(d, nil) // evicts b, the least recently used
	if c.get("b") != nil || c.get("a") != a || c.get("d") != d || c.Len() != 2 {
		t.Fatalf("want a and d cached, b evicted; len %d", c.Len())
	}
	c.remove(a)
	if c.get("a") != nil || c.Len() != 1 {
		t.Fatal("a removed run must be gone")
	}
	c.Purge()
	if c.Len() != 0 {
		t.Fatal("purge must empty the cache")
	}
}

func TestStickyCacheOfSizeZeroKeepsNothing(t *testing.T) {
	c := NewStickyCache(0)
	c.put(cachedRunOf("a"), nil)
	if c.Len() != 0 {
		t.Fatal("a cache of size 0 must keep nothing")
	}
}

// A run a task holds while the cache is purged is not put back when the
// task ends: its next task must replay it, as the purge asked.
func TestAPurgedRunATaskHoldsIsNotCachedAgain(t *testing.T) {
	c := NewStickyCache(2)
	r := cachedRunOf("a")
	c.put(r, nil)
	r.mu.Lock() // a task holds the run
	c.Purge()
	c.put(r, nil) // the task ends and caches its run
	r.mu.Unlock()
	if c.get("a") != nil || c.Len() != 0 {
		t.Fatal("the task put a purged run back in the cache")
	}
	closeRun(r) // as the purge's goroutine does, if it has not yet
	if !r.closed {
		t.Fatal("a purged run must be closed once the task lets go")
	}
}

// The runs leave a full cache least recently used first, a lookup or a
// task counting as a use; a purged cache fills again in the same order.
func TestStickyCacheEvictsTheLeastRecentlyUsedRun(t *testing.T) {
	c := NewStickyCache(3)
	for round := range 2 {
		runs := map[string]*cachedRun{}
		for _, id := range []string{"a", "b", "d", "e", "f", "g"} {
			runs[id] = cachedRunOf(id)
		}
		cached := func(want ...string) {
			t.Helper()
			if c.Len() != len(want) {
				t.Fatalf("round %d: len %d, want %v", round, c.Len(), want)
			}
			for _, id := range want {
				if c.get(id) != runs[id] {
					t.Fatalf("round %d: %s is not cached, want %v", round, id, want)
				}
			}
		}
		c.put(runs["a"], nil)
		c.put(runs["b"], nil)
		c.put(runs["d"], nil)
		c.lookup(runs["a"].workflow, "a") // order now a, d, b
		c.put(runs["e"], nil)             // evicts b
		if c.get("b") != nil {
			t.Fatalf("round %d: b, the least recently used, was not evicted", round)
		}
		c.put(runs["d"], nil) // a task of d: d, e, a
		c.put(runs["f"], nil) // evicts a
		cached("d", "e", "f")
		c.remove(runs["e"])
		c.put(runs["g"], nil) // room for it: nothing evicted
		cached("d", "f", "g")
		c.Purge()
		cached()
	}
}
