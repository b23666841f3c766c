package workerrt

import (
	"context"
	"sync"

	"github.com/durable-go/sdk/internal/sdkmetrics"
)

// slots bounds how many tasks of one kind run at once. A poller takes a
// slot before it polls, so the worker never holds a task it has no room to
// run (the server can give it to another worker instead).
type slots struct {
	free   chan struct{}
	size   int
	gauges *slotGauges // nil without metrics
}

func newSlots(n int, gauges *slotGauges) *slots {
	s := &slots{free: make(chan struct{}, n), size: n, gauges: gauges}
	for range n {
		s.free <- struct{}{}
	}
	s.gauges.publish(n, 0)
	return s
}

// acquire waits for a free slot or for ctx to end.
func (s *slots) acquire(ctx context.Context) error {
	select {
	case <-s.free:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// release frees a slot whose poll brought no task.
func (s *slots) release() { s.free <- struct{}{} }

// markUsed notes that the slot's poll brought a task.
func (s *slots) markUsed() { s.gauges.add(s.size, 1) }

// releaseUsed frees a slot that held a task.
func (s *slots) releaseUsed() {
	s.gauges.add(s.size, -1)
	s.free <- struct{}{}
}

// slotGauges are temporal_worker_task_slots_available and _used of one
// worker type. As in go.temporal.io/sdk, a slot is used while it holds a
// task; a slot waiting on a poll is available.
type slotGauges struct {
	mu              sync.Mutex
	inUse           int
	available, used sdkmetrics.Gauge
}

func (g *slotGauges) add(size, d int) {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.inUse += d
	g.publish(size, g.inUse)
}

func (g *slotGauges) publish(size, inUse int) {
	if g == nil {
		return
	}
	g.available.Update(float64(size - inUse))
	g.used.Update(float64(inUse))
}
