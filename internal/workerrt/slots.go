package workerrt

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/internal/sdkmetrics"
)

// A worker runs a task only in a slot: a poller reserves one before it
// polls, so the worker never holds a task it has no room to run (the
// server can give it to another worker instead); an eager task's slot is
// reserved before the server is asked for it. A SlotSupplier hands the
// slots of one kind of task out: a fixed number (FixedSlots), or whatever
// a worker.WorkerTuner's supplier decides (package internal adapts it).

// Permit is a reserved slot; what it holds is the supplier's business.
type Permit any

// SlotSupplier hands out the slots of one kind of task: workflow tasks,
// activities or local activity attempts. Its methods may be called
// concurrently.
type SlotSupplier interface {
	// ReserveSlot waits for a slot; it fails only when ctx ends or the
	// supplier cannot work (the poller logs the error and tries again).
	ReserveSlot(ctx context.Context, info *SlotInfo) (Permit, error)
	// TryReserveSlot returns a slot if one is free at once, else nil.
	TryReserveSlot(info *SlotInfo) Permit
	// MarkSlotUsed says the slot now holds a task.
	MarkSlotUsed(p Permit)
	// ReleaseSlot gives the slot back; used says whether it held a task.
	ReleaseSlot(p Permit, used bool)
	// MaxSlots is the most slots it ever hands out, 0 if it has no bound.
	MaxSlots() int
}

// SlotInfo describes a reservation to the supplier.
type SlotInfo struct {
	TaskQueue string
	// Kind is the kind of queue the slot's poll goes to (normal or
	// sticky); unspecified for local activities, which are not polled.
	Kind     enumspb.TaskQueueKind
	Identity string
	issued   *atomic.Int32
}

// NumIssued is how many slots of this kind the worker holds now, reserved
// or running a task (0 for info not made by a worker).
func (i *SlotInfo) NumIssued() int {
	if i.issued == nil {
		return 0
	}
	return int(i.issued.Load())
}

// FixedSlots is a supplier of at most n slots at once.
type FixedSlots struct {
	free chan struct{}
}

// NewFixedSlots returns a supplier of n slots; n must be positive.
func NewFixedSlots(n int) *FixedSlots {
	s := &FixedSlots{free: make(chan struct{}, n)}
	for range n {
		s.free <- struct{}{}
	}
	return s
}

// fixedPermit is a slot of FixedSlots.
type fixedPermit struct{}

// Acquire waits for a free slot or for ctx to end.
func (s *FixedSlots) Acquire(ctx context.Context) error {
	select {
	case <-s.free:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// TryAcquire takes a free slot if there is one.
func (s *FixedSlots) TryAcquire() bool {
	select {
	case <-s.free:
		return true
	default:
		return false
	}
}

// Release frees a slot taken by Acquire or TryAcquire.
func (s *FixedSlots) Release() { s.free <- struct{}{} }

// Size is the number of slots.
func (s *FixedSlots) Size() int { return cap(s.free) }

// ReserveSlot implements SlotSupplier.
func (s *FixedSlots) ReserveSlot(ctx context.Context, _ *SlotInfo) (Permit, error) {
	if err := s.Acquire(ctx); err != nil {
		return nil, err
	}
	return fixedPermit{}, nil
}

// TryReserveSlot implements SlotSupplier.
func (s *FixedSlots) TryReserveSlot(*SlotInfo) Permit {
	if s.TryAcquire() {
		return fixedPermit{}
	}
	return nil
}

// MarkSlotUsed implements SlotSupplier.
func (s *FixedSlots) MarkSlotUsed(Permit) {}

// ReleaseSlot implements SlotSupplier.
func (s *FixedSlots) ReleaseSlot(Permit, bool) { s.Release() }

// MaxSlots implements SlotSupplier.
func (s *FixedSlots) MaxSlots() int { return s.Size() }

// errNilPermit is a supplier's mistake: no slot and no error.
var errNilPermit = errors.New("the slot supplier's ReserveSlot returned neither a permit nor an error")

// slots is the worker's view of one supplier: it counts the slots it
// holds (SlotInfo.NumIssued) and those running a task, for the slot
// gauges.
type slots struct {
	supplier SlotSupplier
	info     SlotInfo // TaskQueue, Identity and issued; Kind set per call
	issued   atomic.Int32
	gauges   *slotGauges // nil without metrics
	// used, processed and failed are the worker's Status: slots holding
	// a task, tasks that ended, tasks that failed.
	used              atomic.Int32
	processed, failed atomic.Int64
}

func newSlots(supplier SlotSupplier, taskQueue, identity string, gauges *slotGauges) *slots {
	s := &slots{supplier: supplier, gauges: gauges}
	s.info = SlotInfo{TaskQueue: taskQueue, Identity: identity, issued: &s.issued}
	s.gauges.publish(supplier.MaxSlots(), 0)
	return s
}

// reserve waits for a slot for a poll to a queue of that kind.
func (s *slots) reserve(ctx context.Context, kind enumspb.TaskQueueKind) (Permit, error) {
	info := s.info
	info.Kind = kind
	p, err := s.supplier.ReserveSlot(ctx, &info)
	if err == nil && p == nil {
		err = errNilPermit
	}
	if err != nil {
		return nil, err
	}
	s.issued.Add(1)
	return p, nil
}

// tryReserve takes a slot if one is free at once (for an eager task).
func (s *slots) tryReserve(kind enumspb.TaskQueueKind) Permit {
	info := s.info
	info.Kind = kind
	p := s.supplier.TryReserveSlot(&info)
	if p != nil {
		s.issued.Add(1)
	}
	return p
}

// markUsed notes that the slot holds a task.
func (s *slots) markUsed(p Permit) {
	s.used.Add(1)
	s.gauges.add(s.supplier.MaxSlots(), 1)
	s.supplier.MarkSlotUsed(p)
}

// release gives a slot back; used says whether markUsed was called on it.
func (s *slots) release(p Permit, used bool) {
	if used {
		s.used.Add(-1)
		s.processed.Add(1)
		s.gauges.add(s.supplier.MaxSlots(), -1)
	}
	s.supplier.ReleaseSlot(p, used)
	s.issued.Add(-1)
}

// slotGauges are temporal_worker_task_slots_available and _used of one
// worker type. As in go.temporal.io/sdk, a slot is used while it holds a
// task; a slot waiting on a poll is available; a supplier without a bound
// reports no available slots.
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
	if size > 0 {
		g.available.Update(float64(size - inUse))
	}
	g.used.Update(float64(inUse))
}
