// Package resourcetuner is the resource-based worker tuner
// (worker.NewResourceBasedTuner, worker.NewResourceBasedSlotSupplier): its
// slot suppliers issue slots while the machine's (or container's)
// memory and CPU use stay under targets: every reservation beyond a
// supplier's minimum asks a ResourceController, which feeds the measured
// use into one PID controller per resource and says yes while both
// controllers' outputs are above their thresholds, never when memory is at
// its target. Activities are issued at most one per ramp throttle, so the
// effect of one shows in the measurements before the next starts. It is
// built on package tuning's API; the worker package and contrib/sysinfo
// import it.
package resourcetuner

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/durable-go/sdk/internal/sysinfo"
	"github.com/durable-go/sdk/internal/tuning"
)

// The gauges the controller reports, in percent, as go.temporal.io/sdk.
const (
	resourceSlotsCPUUsage = "temporal_resource_slots_cpu_usage"
	resourceSlotsMemUsage = "temporal_resource_slots_mem_usage"
)

// reserveRetryInterval is how long ReserveSlot waits before asking the
// controller again after it said no.
const reserveRetryInterval = 10 * time.Millisecond

// procSysInfo is the default SysInfoProvider: it reads cgroups and /proc
// (package sysinfo), measuring a container against its limits.
type procSysInfo struct{ reader *sysinfo.Reader }

func (p procSysInfo) MemoryUsage(*tuning.SysInfoContext) (float64, error) {
	return p.reader.MemoryUsage()
}
func (p procSysInfo) CpuUsage(*tuning.SysInfoContext) (float64, error) { return p.reader.CPUUsage() }

// DefaultSysInfoProvider returns the provider resource-based tuning uses
// when given none: on Linux it reads the process's cgroup (v2 or v1), so
// that in a container memory and CPU are measured against the container's
// limits, and otherwise /proc/meminfo and /proc/stat; elsewhere its calls
// fail with an error saying to supply a provider.
func DefaultSysInfoProvider() tuning.SysInfoProvider { return procSysInfo{sysinfo.New()} }

// ResourceBasedTunerOptions configure NewResourceBasedTuner
// (worker.ResourceBasedTunerOptions).
type ResourceBasedTunerOptions struct {
	// TargetMem is the memory use, a fraction above 0 and at most 1, the
	// tuner keeps below.
	TargetMem float64
	// TargetCpu is the CPU use, a fraction above 0 and at most 1, the tuner
	// aims at.
	TargetCpu float64
	// InfoSupplier measures memory and CPU use. Unlike go.temporal.io/sdk,
	// where it is required, nil takes DefaultSysInfoProvider, which reads
	// cgroups and /proc on Linux.
	InfoSupplier tuning.SysInfoProvider
	// ActivityRampThrottle is the least time between two activity slots
	// beyond the minimum (50ms).
	ActivityRampThrottle time.Duration
	// WorkflowRampThrottle is the same for workflow task slots (none).
	WorkflowRampThrottle time.Duration
}

// NewResourceBasedTuner returns a tuner whose slots of every kind are
// issued while memory and CPU use stay under the targets
// (worker.NewResourceBasedTuner). Its suppliers share one controller.
func NewResourceBasedTuner(opts ResourceBasedTunerOptions) (tuning.WorkerTuner, error) {
	for _, t := range []struct {
		name  string
		value float64
	}{{"TargetMem", opts.TargetMem}, {"TargetCpu", opts.TargetCpu}} {
		if t.value <= 0 || t.value > 1 {
			return nil, fmt.Errorf("ResourceBasedTunerOptions.%s is %v; it is a fraction of the machine's resources, above 0 and at most 1 (0.8 for 80%%)", t.name, t.value)
		}
	}
	if opts.ActivityRampThrottle < 0 || opts.WorkflowRampThrottle < 0 {
		return nil, errors.New("ResourceBasedTunerOptions: ActivityRampThrottle and WorkflowRampThrottle must not be negative")
	}
	controllerOpts := DefaultResourceControllerOptions()
	controllerOpts.MemTargetPercent = opts.TargetMem
	controllerOpts.CpuTargetPercent = opts.TargetCpu
	controllerOpts.InfoSupplier = opts.InfoSupplier
	controller := NewResourceController(controllerOpts)
	workflows := DefaultWorkflowResourceBasedSlotSupplierOptions()
	if opts.WorkflowRampThrottle > 0 {
		workflows.RampThrottle = opts.WorkflowRampThrottle
	}
	activities := DefaultActivityResourceBasedSlotSupplierOptions()
	if opts.ActivityRampThrottle > 0 {
		activities.RampThrottle = opts.ActivityRampThrottle
	}
	supplier := func(o ResourceBasedSlotSupplierOptions) tuning.SlotSupplier {
		return &ResourceBasedSlotSupplier{controller: controller, options: o}
	}
	return tuning.NewCompositeTuner(tuning.CompositeTunerOptions{
		WorkflowSlotSupplier:        supplier(workflows),
		ActivitySlotSupplier:        supplier(activities),
		LocalActivitySlotSupplier:   supplier(activities),
		NexusSlotSupplier:           supplier(workflows),
		SessionActivitySlotSupplier: supplier(activities),
	})
}

// ResourceBasedSlotSupplierOptions configure a ResourceBasedSlotSupplier
// (worker.ResourceBasedSlotSupplierOptions).
type ResourceBasedSlotSupplierOptions struct {
	// MinSlots are issued without asking the controller.
	MinSlots int
	// MaxSlots is the most slots ever issued.
	MaxSlots int
	// RampThrottle is the least time between two slots beyond MinSlots:
	// what a task will use is not known before it runs, so the supplier
	// waits to see it in the measurements.
	RampThrottle time.Duration
}

// DefaultWorkflowResourceBasedSlotSupplierOptions are the options of
// workflow task slots: 5 to 1000, no ramp throttle.
func DefaultWorkflowResourceBasedSlotSupplierOptions() ResourceBasedSlotSupplierOptions {
	return ResourceBasedSlotSupplierOptions{MinSlots: 5, MaxSlots: 1000}
}

// DefaultActivityResourceBasedSlotSupplierOptions are the options of
// activity slots: 1 to 10000, at least 50ms apart.
func DefaultActivityResourceBasedSlotSupplierOptions() ResourceBasedSlotSupplierOptions {
	return ResourceBasedSlotSupplierOptions{MinSlots: 1, MaxSlots: 10_000, RampThrottle: 50 * time.Millisecond}
}

// ResourceBasedSlotSupplier issues slots while its controller says the
// machine has room (worker.ResourceBasedSlotSupplier).
type ResourceBasedSlotSupplier struct {
	controller *ResourceController
	options    ResourceBasedSlotSupplierOptions

	mu         sync.Mutex
	lastIssued time.Time
}

// NewResourceBasedSlotSupplier returns a supplier asking controller
// (worker.NewResourceBasedSlotSupplier). The suppliers of a process
// should share one controller: they measure the same machine.
func NewResourceBasedSlotSupplier(controller *ResourceController, options ResourceBasedSlotSupplierOptions) (*ResourceBasedSlotSupplier, error) {
	switch {
	case controller == nil:
		return nil, errors.New("NewResourceBasedSlotSupplier: the controller is nil; make one with NewResourceController")
	case options.MinSlots < 0 || options.MaxSlots < 0 || options.MinSlots > options.MaxSlots:
		return nil, fmt.Errorf("ResourceBasedSlotSupplierOptions: MinSlots %d and MaxSlots %d must not be negative, and MinSlots must not exceed MaxSlots",
			options.MinSlots, options.MaxSlots)
	case options.RampThrottle < 0:
		return nil, fmt.Errorf("ResourceBasedSlotSupplierOptions.RampThrottle is %v; it must not be negative", options.RampThrottle)
	}
	return &ResourceBasedSlotSupplier{controller: controller, options: options}, nil
}

// ReserveSlot waits until the controller allows a slot (at once below
// MinSlots), asking again every 10ms, and at most once per RampThrottle.
func (r *ResourceBasedSlotSupplier) ReserveSlot(ctx context.Context, info tuning.SlotReservationInfo) (*tuning.SlotPermit, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if info.NumIssuedSlots() < r.options.MinSlots {
			return &tuning.SlotPermit{}, nil
		}
		wait := reserveRetryInterval
		if p := r.TryReserveSlot(info); p != nil {
			return p, nil
		} else if throttled := r.throttledFor(); throttled > 0 {
			wait = throttled
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		}
	}
}

// throttledFor is how long the ramp throttle holds the next slot back.
func (r *ResourceBasedSlotSupplier) throttledFor() time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.options.RampThrottle - time.Since(r.lastIssued)
}

// TryReserveSlot issues a slot if the supplier is below MinSlots, or below
// MaxSlots past the ramp throttle with the controller's consent.
func (r *ResourceBasedSlotSupplier) TryReserveSlot(info tuning.SlotReservationInfo) *tuning.SlotPermit {
	r.mu.Lock()
	defer r.mu.Unlock()
	issued := info.NumIssuedSlots()
	if issued >= r.options.MinSlots {
		if issued >= r.options.MaxSlots || time.Since(r.lastIssued) < r.options.RampThrottle {
			return nil
		}
		ok, err := r.controller.decide(info.Logger(), info.MetricsHandler())
		if err != nil {
			info.Logger().Error("measuring memory and CPU use failed; no slot issued", "Error", err)
			return nil
		}
		if !ok {
			return nil
		}
	}
	r.lastIssued = time.Now()
	return &tuning.SlotPermit{}
}

// MarkSlotUsed does nothing: resources are measured, not counted.
func (r *ResourceBasedSlotSupplier) MarkSlotUsed(tuning.SlotMarkUsedInfo) {}

// ReleaseSlot does nothing: resources are measured, not counted.
func (r *ResourceBasedSlotSupplier) ReleaseSlot(tuning.SlotReleaseInfo) {}

// MaxSlots is 0: the supplier has no fixed bound to report (as in
// go.temporal.io/sdk, temporal_worker_task_slots_available is not
// reported for it).
func (r *ResourceBasedSlotSupplier) MaxSlots() int { return 0 }

// SysInfoProvider is the provider its controller measures with.
func (r *ResourceBasedSlotSupplier) SysInfoProvider() tuning.SysInfoProvider {
	return r.controller.options.InfoSupplier
}
