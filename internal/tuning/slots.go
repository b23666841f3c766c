package tuning

import (
	"context"
	"fmt"
	"reflect"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/internal/workerrt"
	"github.com/durable-go/sdk/log"
)

// WorkerTuner supplies the slots of each kind of task (worker.WorkerTuner).
type WorkerTuner interface {
	// GetWorkflowTaskSlotSupplier supplies workflow task slots.
	GetWorkflowTaskSlotSupplier() SlotSupplier
	// GetActivityTaskSlotSupplier supplies activity slots.
	GetActivityTaskSlotSupplier() SlotSupplier
	// GetLocalActivitySlotSupplier supplies local activity slots.
	GetLocalActivitySlotSupplier() SlotSupplier
	// GetNexusSlotSupplier supplies Nexus task slots; this SDK runs no
	// Nexus tasks and never asks for them.
	GetNexusSlotSupplier() SlotSupplier
	// GetSessionActivitySlotSupplier supplies the slots of activities that
	// run in sessions (with Options.EnableSessionWorker).
	GetSessionActivitySlotSupplier() SlotSupplier
}

// SlotSupplier hands out the slots of one kind of task
// (worker.SlotSupplier). A worker reserves a slot before it polls for a
// task, so a slot may be given back unused. Its methods may be called
// concurrently, and several workers may share one supplier.
type SlotSupplier interface {
	// ReserveSlot waits until a slot may be used and returns its permit.
	// An error other than the end of ctx is logged, and the reservation
	// tried again a second later.
	ReserveSlot(ctx context.Context, info SlotReservationInfo) (*SlotPermit, error)
	// TryReserveSlot returns a permit if a slot is free now, else nil. It
	// is asked for the slots of eager activities and eager workflow starts.
	TryReserveSlot(info SlotReservationInfo) *SlotPermit
	// MarkSlotUsed is called when a reserved slot receives a task.
	MarkSlotUsed(info SlotMarkUsedInfo)
	// ReleaseSlot is called when a slot is given back: its task is done,
	// or it received none.
	ReleaseSlot(info SlotReleaseInfo)
	// MaxSlots is the most slots the supplier ever hands out, or 0 when it
	// has no such bound (temporal_worker_task_slots_available is then not
	// reported).
	MaxSlots() int
}

// SlotPermit is a reserved slot (worker.SlotPermit).
type SlotPermit struct {
	// UserData is for the supplier that issued the permit.
	UserData any
}

// SlotReservationInfo describes a slot reservation to the supplier
// (worker.SlotReservationInfo).
type SlotReservationInfo interface {
	// TaskQueue is the task queue of the worker reserving the slot.
	TaskQueue() string
	// TaskQueueKind is the kind of queue the slot's task comes from:
	// normal, or sticky for a workflow task poll of the worker's sticky
	// queue; unspecified for local activities, which are not polled.
	TaskQueueKind() enumspb.TaskQueueKind
	// WorkerBuildId is the worker's build ID; empty, since this SDK does
	// not support build-ID versioning.
	WorkerBuildId() string
	// WorkerIdentity is the identity of the worker.
	WorkerIdentity() string
	// NumIssuedSlots is how many slots of this kind the worker holds now,
	// reserved or running a task; it may change during the reservation.
	NumIssuedSlots() int
	// Logger is the worker's logger.
	Logger() log.Logger
	// MetricsHandler is the worker's metrics handler, for the supplier's
	// own metrics.
	MetricsHandler() sdkmetrics.Handler
}

// SlotMarkUsedInfo describes a slot that received a task
// (worker.SlotMarkUsedInfo).
type SlotMarkUsedInfo interface {
	// Permit is the slot's permit.
	Permit() *SlotPermit
	// Logger is the worker's logger.
	Logger() log.Logger
	// MetricsHandler is the worker's metrics handler.
	MetricsHandler() sdkmetrics.Handler
}

// SlotReleaseReason says why a slot is given back.
type SlotReleaseReason int

const (
	// SlotReleaseReasonTaskProcessed: the slot's task is done.
	SlotReleaseReasonTaskProcessed SlotReleaseReason = iota
	// SlotReleaseReasonUnused: the slot received no task.
	SlotReleaseReasonUnused
)

// SlotReleaseInfo describes a slot given back (worker.SlotReleaseInfo).
type SlotReleaseInfo interface {
	// Permit is the slot's permit.
	Permit() *SlotPermit
	// Reason says whether the slot ran a task.
	Reason() SlotReleaseReason
	// Logger is the worker's logger.
	Logger() log.Logger
	// MetricsHandler is the worker's metrics handler.
	MetricsHandler() sdkmetrics.Handler
}

// CompositeTunerOptions are the suppliers of a tuner made by
// NewCompositeTuner (worker.CompositeTunerOptions).
type CompositeTunerOptions struct {
	// WorkflowSlotSupplier supplies workflow task slots.
	WorkflowSlotSupplier SlotSupplier
	// ActivitySlotSupplier supplies activity slots.
	ActivitySlotSupplier SlotSupplier
	// LocalActivitySlotSupplier supplies local activity slots.
	LocalActivitySlotSupplier SlotSupplier
	// NexusSlotSupplier supplies Nexus task slots (unused by this SDK).
	NexusSlotSupplier SlotSupplier
	// SessionActivitySlotSupplier supplies the slots of session
	// activities.
	SessionActivitySlotSupplier SlotSupplier
}

// compositeTuner is a WorkerTuner of given suppliers.
type compositeTuner struct{ CompositeTunerOptions }

func (c *compositeTuner) GetWorkflowTaskSlotSupplier() SlotSupplier { return c.WorkflowSlotSupplier }
func (c *compositeTuner) GetActivityTaskSlotSupplier() SlotSupplier { return c.ActivitySlotSupplier }
func (c *compositeTuner) GetLocalActivitySlotSupplier() SlotSupplier {
	return c.LocalActivitySlotSupplier
}
func (c *compositeTuner) GetNexusSlotSupplier() SlotSupplier { return c.NexusSlotSupplier }
func (c *compositeTuner) GetSessionActivitySlotSupplier() SlotSupplier {
	return c.SessionActivitySlotSupplier
}

// NewCompositeTuner returns a tuner of the given suppliers
// (worker.NewCompositeTuner). A worker started with it fails to start if
// it needs a supplier that is nil.
func NewCompositeTuner(options CompositeTunerOptions) (WorkerTuner, error) {
	return &compositeTuner{options}, nil
}

// FixedSizeTunerOptions are the slot counts of a tuner made by
// NewFixedSizeTuner (worker.FixedSizeTunerOptions); zero takes
// workerrt.DefaultMaxConcurrentTasks.
type FixedSizeTunerOptions struct {
	// NumWorkflowSlots is the number of workflow task slots.
	NumWorkflowSlots int
	// NumActivitySlots is the number of activity slots, and of session
	// activity slots.
	NumActivitySlots int
	// NumLocalActivitySlots is the number of local activity slots.
	NumLocalActivitySlots int
	// NumNexusSlots is the number of Nexus task slots (unused by this SDK).
	NumNexusSlots int
}

// NewFixedSizeTuner returns a tuner of fixed numbers of slots
// (worker.NewFixedSizeTuner).
func NewFixedSizeTuner(options FixedSizeTunerOptions) (WorkerTuner, error) {
	var t compositeTuner
	for _, s := range []struct {
		n    int
		into *SlotSupplier
	}{
		{options.NumWorkflowSlots, &t.WorkflowSlotSupplier},
		{options.NumActivitySlots, &t.ActivitySlotSupplier},
		{options.NumLocalActivitySlots, &t.LocalActivitySlotSupplier},
		{options.NumNexusSlots, &t.NexusSlotSupplier},
		{options.NumActivitySlots, &t.SessionActivitySlotSupplier},
	} {
		n := s.n
		if n <= 0 {
			n = workerrt.DefaultMaxConcurrentTasks
		}
		supplier, err := NewFixedSizeSlotSupplier(n)
		if err != nil {
			return nil, err
		}
		*s.into = supplier
	}
	return &t, nil
}

// FixedSizeSlotSupplier hands out at most a fixed number of slots at once.
type FixedSizeSlotSupplier struct {
	slots *workerrt.FixedSlots
}

// NewFixedSizeSlotSupplier returns a supplier of numSlots slots
// (worker.NewFixedSizeSlotSupplier).
func NewFixedSizeSlotSupplier(numSlots int) (*FixedSizeSlotSupplier, error) {
	if numSlots <= 0 {
		return nil, fmt.Errorf("a fixed-size slot supplier needs a positive number of slots, got %d", numSlots)
	}
	return &FixedSizeSlotSupplier{slots: workerrt.NewFixedSlots(numSlots)}, nil
}

// ReserveSlot waits for a free slot.
func (f *FixedSizeSlotSupplier) ReserveSlot(ctx context.Context, _ SlotReservationInfo) (*SlotPermit, error) {
	if err := f.slots.Acquire(ctx); err != nil {
		return nil, err
	}
	return &SlotPermit{}, nil
}

// TryReserveSlot takes a free slot, if any.
func (f *FixedSizeSlotSupplier) TryReserveSlot(SlotReservationInfo) *SlotPermit {
	if f.slots.TryAcquire() {
		return &SlotPermit{}
	}
	return nil
}

// MarkSlotUsed does nothing: a slot counts from its reservation.
func (f *FixedSizeSlotSupplier) MarkSlotUsed(SlotMarkUsedInfo) {}

// ReleaseSlot frees the slot.
func (f *FixedSizeSlotSupplier) ReleaseSlot(SlotReleaseInfo) { f.slots.Release() }

// MaxSlots is the number of slots.
func (f *FixedSizeSlotSupplier) MaxSlots() int { return f.slots.Size() }

// RuntimeSlots adapts a supplier to the worker runtime. A fixed-size one
// is handed over as it is: it needs no reservation info.
func RuntimeSlots(s SlotSupplier, logger log.Logger, metrics sdkmetrics.Handler) workerrt.SlotSupplier {
	if f, ok := s.(*FixedSizeSlotSupplier); ok {
		return f.slots
	}
	if metrics == nil {
		metrics = sdkmetrics.NopHandler
	}
	return &slotAdapter{supplier: s, logger: logger, metrics: metrics}
}

// slotAdapter is a SlotSupplier as the worker runtime calls it.
type slotAdapter struct {
	supplier SlotSupplier
	logger   log.Logger
	metrics  sdkmetrics.Handler
}

// SlotSupplierKind names the supplier's kind in the worker's heartbeat
// (workerrt.SlotSupplierKind), as go.temporal.io/sdk names it: a
// resource-based supplier, which tells its SysInfoProvider (a method
// this package cannot name the type of: the resource-based tuner is
// built on it), or a custom one.
func (a *slotAdapter) SlotSupplierKind() string {
	if m, ok := reflect.TypeOf(a.supplier).MethodByName("SysInfoProvider"); ok && m.Type.NumIn() == 1 && m.Type.NumOut() == 1 {
		return "ResourceBased"
	}
	return "Custom"
}

// ReserveSlot waits for the supplier's permit on a goroutine of its own,
// so that a supplier that does not return when ctx ends cannot hold up the
// worker's stop; a permit it returns after that is given back.
func (a *slotAdapter) ReserveSlot(ctx context.Context, info *workerrt.SlotInfo) (workerrt.Permit, error) {
	type reservation struct {
		permit *SlotPermit
		err    error
	}
	done := make(chan reservation, 1)
	go func() {
		p, err := a.supplier.ReserveSlot(ctx, slotReservation{info, a})
		done <- reservation{p, err}
	}()
	select {
	case r := <-done:
		if r.err != nil || r.permit == nil {
			return nil, r.err // nil, nil is the runtime's error to report
		}
		return r.permit, nil
	case <-ctx.Done():
		go func() {
			if r := <-done; r.permit != nil {
				a.ReleaseSlot(r.permit, false)
			}
		}()
		return nil, ctx.Err()
	}
}

func (a *slotAdapter) TryReserveSlot(info *workerrt.SlotInfo) workerrt.Permit {
	if p := a.supplier.TryReserveSlot(slotReservation{info, a}); p != nil {
		return p
	}
	return nil
}

func (a *slotAdapter) MarkSlotUsed(p workerrt.Permit) {
	a.supplier.MarkSlotUsed(slotUse{permit: p.(*SlotPermit), adapter: a})
}

func (a *slotAdapter) ReleaseSlot(p workerrt.Permit, used bool) {
	reason := SlotReleaseReasonUnused
	if used {
		reason = SlotReleaseReasonTaskProcessed
	}
	a.supplier.ReleaseSlot(slotUse{permit: p.(*SlotPermit), reason: reason, adapter: a})
}

func (a *slotAdapter) MaxSlots() int { return a.supplier.MaxSlots() }

// slotReservation is a SlotReservationInfo.
type slotReservation struct {
	info    *workerrt.SlotInfo
	adapter *slotAdapter
}

func (r slotReservation) TaskQueue() string                    { return r.info.TaskQueue }
func (r slotReservation) TaskQueueKind() enumspb.TaskQueueKind { return r.info.Kind }
func (r slotReservation) WorkerBuildId() string                { return "" }
func (r slotReservation) WorkerIdentity() string               { return r.info.Identity }
func (r slotReservation) NumIssuedSlots() int                  { return r.info.NumIssued() }
func (r slotReservation) Logger() log.Logger                   { return r.adapter.logger }
func (r slotReservation) MetricsHandler() sdkmetrics.Handler   { return r.adapter.metrics }

// slotUse is a SlotMarkUsedInfo and a SlotReleaseInfo.
type slotUse struct {
	permit  *SlotPermit
	reason  SlotReleaseReason
	adapter *slotAdapter
}

func (u slotUse) Permit() *SlotPermit                { return u.permit }
func (u slotUse) Reason() SlotReleaseReason          { return u.reason }
func (u slotUse) Logger() log.Logger                 { return u.adapter.logger }
func (u slotUse) MetricsHandler() sdkmetrics.Handler { return u.adapter.metrics }
