package workerimpl

import (
	"sync"

	"github.com/durable-go/sdk/internal/workerrt"
)

// The sticky cache is shared by the running workers of a process; the
// last of them to stop clears it, as go.temporal.io/sdk does, so that no
// workflow run (its coroutines, its state) outlives the workers.
var (
	stickyCacheMu   sync.Mutex
	stickyCacheSize = 10000
	stickyCache     *sharedCache
)

// sharedCache is a sticky cache and the number of running workers using it.
type sharedCache struct {
	cache *workerrt.StickyCache
	users int
}

// SetStickyWorkflowCacheSize sets how many workflow runs the process keeps
// in memory between tasks (10000). Call it before starting any worker.
func SetStickyWorkflowCacheSize(size int) {
	stickyCacheMu.Lock()
	defer stickyCacheMu.Unlock()
	stickyCacheSize = size
	stickyCache = nil
}

// PurgeStickyWorkflowCache drops every cached workflow run; their next
// tasks replay history.
func PurgeStickyWorkflowCache() {
	stickyCacheMu.Lock()
	c := stickyCache
	stickyCacheMu.Unlock()
	if c != nil {
		c.cache.Purge()
	}
}

// acquireStickyCache returns the process's cache for a starting worker,
// which must release it when it stops.
func acquireStickyCache() *sharedCache {
	stickyCacheMu.Lock()
	defer stickyCacheMu.Unlock()
	if stickyCache == nil {
		stickyCache = &sharedCache{cache: workerrt.NewStickyCache(stickyCacheSize)}
	}
	stickyCache.users++
	return stickyCache
}

// release is a worker's stop: the last user clears the cache.
func (c *sharedCache) release() {
	stickyCacheMu.Lock()
	c.users--
	last := c.users == 0
	if last && stickyCache == c {
		stickyCache = nil
	}
	stickyCacheMu.Unlock()
	if last {
		c.cache.Purge()
	}
}
