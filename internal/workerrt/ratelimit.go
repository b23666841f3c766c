package workerrt

import (
	"context"
	"sync"
	"time"

	"github.com/durable-go/sdk/internal/rpc"
)

// rateLimiter spaces events at most perSecond apart on average, with a
// burst of one: the worker-wide activity rate limit.
type rateLimiter struct {
	mu       sync.Mutex
	interval time.Duration
	next     time.Time
}

func newRateLimiter(perSecond float64) *rateLimiter {
	return &rateLimiter{interval: time.Duration(float64(time.Second) / perSecond)}
}

// wait blocks until the next event may happen, or ctx ends.
func (r *rateLimiter) wait(ctx context.Context) error {
	r.mu.Lock()
	now := time.Now()
	at := r.next
	if at.Before(now) {
		at = now
	}
	r.next = at.Add(r.interval)
	r.mu.Unlock()
	if d := time.Until(at); d > 0 && !rpc.Sleep(ctx, d) {
		return ctx.Err()
	}
	return nil
}
