package workerrt

import (
	"testing"

	"github.com/durable-go/sdk/internal/engine"
)

func cachedRunOf(id string) *cachedRun {
	return &cachedRun{runID: id, workflow: workflowKey{"ns", "wf-" + id}, exec: engine.NewRun(&engine.Options{})}
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
