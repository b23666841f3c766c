package workerrt

import (
	"testing"

	"github.com/durable-go/sdk/internal/engine"
)

func cachedRunOf(id string) *cachedRun {
	return &cachedRun{runID: id, workflow: workflowKey{"ns", "wf-" + id}, exec: engine.NewExecution(&engine.Options{})}
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
