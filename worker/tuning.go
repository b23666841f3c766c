package worker

import (
	"github.com/durable-go/sdk/internal/resourcetuner"
	"github.com/durable-go/sdk/internal/tuning"
)

// A worker runs each task in a slot; Options.Tuner decides how many slots
// of each kind there are. Without one, a fixed-size tuner sized by the
// MaxConcurrent...ExecutionSize options does.

// WorkerTuner supplies the slots of each kind of task (Options.Tuner):
// its GetWorkflowTaskSlotSupplier, GetActivityTaskSlotSupplier,
// GetLocalActivitySlotSupplier and GetSessionActivitySlotSupplier return
// the SlotSupplier of that kind; GetNexusSlotSupplier is never asked, as
// this SDK runs no Nexus tasks. Make one with NewFixedSizeTuner,
// NewResourceBasedTuner or NewCompositeTuner.
type WorkerTuner = tuning.WorkerTuner

// SlotSupplier hands out the slots of one kind of task. Implement it for
// slots of your own rules; the worker calls it from several goroutines.
//
//   - ReserveSlot(ctx, info) waits until a slot may be used and returns
//     its permit; an error other than ctx's end is logged and the
//     reservation tried again a second later.
//   - TryReserveSlot(info) returns a permit if a slot is free now, else
//     nil (for eager activities and eager workflow starts).
//   - MarkSlotUsed(info) is called when a reserved slot receives a task.
//   - ReleaseSlot(info) is called when a slot is given back, whether or
//     not it ran a task.
//   - MaxSlots returns the most slots ever handed out, or 0 for no bound.
type SlotSupplier = tuning.SlotSupplier

// SlotPermit is a reserved slot, as a SlotSupplier issues it; UserData is
// for the supplier's own bookkeeping.
type SlotPermit = tuning.SlotPermit

// SlotReservationInfo tells a SlotSupplier about a reservation: TaskQueue
// and TaskQueueKind (normal, sticky, or unspecified for local activities)
// of the task to come, WorkerBuildId (empty: this SDK has no build-ID
// versioning) and WorkerIdentity of the worker, NumIssuedSlots (slots of
// this kind the worker holds now), and the worker's Logger and
// MetricsHandler.
type SlotReservationInfo = tuning.SlotReservationInfo

// SlotMarkUsedInfo tells a SlotSupplier which slot received a task:
// Permit, and the worker's Logger and MetricsHandler.
type SlotMarkUsedInfo = tuning.SlotMarkUsedInfo

// SlotReleaseInfo tells a SlotSupplier which slot is given back: Permit,
// Reason (whether it ran a task), and the worker's Logger and
// MetricsHandler.
type SlotReleaseInfo = tuning.SlotReleaseInfo

// FixedSizeTunerOptions configure NewFixedSizeTuner: the number of slots
// of each kind.
//
//   - NumWorkflowSlots: workflow task slots.
//   - NumActivitySlots: activity slots, and session activity slots.
//   - NumLocalActivitySlots: local activity slots.
//   - NumNexusSlots: Nexus task slots (unused by this SDK).
type FixedSizeTunerOptions = tuning.FixedSizeTunerOptions

// CompositeTunerOptions configure NewCompositeTuner: one supplier per
// kind of task (WorkflowSlotSupplier, ActivitySlotSupplier,
// LocalActivitySlotSupplier, SessionActivitySlotSupplier, and
// NexusSlotSupplier, unused by this SDK).
type CompositeTunerOptions = tuning.CompositeTunerOptions

// SysInfoProvider measures the machine's resources for resource-based
// tuning: MemoryUsage and CpuUsage return the fraction (0 to 1) in use.
type SysInfoProvider = tuning.SysInfoProvider

// SysInfoContext is passed to a SysInfoProvider's calls: Logger is the
// worker's logger.
type SysInfoContext = tuning.SysInfoContext

// HasSysInfoProvider is a slot supplier that tells which SysInfoProvider
// it measures with.
type HasSysInfoProvider = tuning.HasSysInfoProvider

// ResourceBasedTunerOptions configure NewResourceBasedTuner.
//
//   - TargetMem: the memory use, a fraction in (0, 1], to stay below.
//   - TargetCpu: the CPU use, a fraction in (0, 1], to aim at.
//   - InfoSupplier: measures memory and CPU use. Default (nil): cgroups
//     and /proc, as on Linux (go.temporal.io/sdk requires it).
//   - ActivityRampThrottle: the least time between two activity slots
//     beyond the minimum. Default: 50ms.
//   - WorkflowRampThrottle: the same for workflow task slots. Default:
//     none.
type ResourceBasedTunerOptions = resourcetuner.ResourceBasedTunerOptions

// ResourceBasedSlotSupplierOptions configure NewResourceBasedSlotSupplier.
//
//   - MinSlots: slots issued without asking the controller.
//   - MaxSlots: the most slots ever issued.
//   - RampThrottle: the least time between two slots beyond MinSlots, so
//     that what a task uses shows in the measurements before the next.
type ResourceBasedSlotSupplierOptions = resourcetuner.ResourceBasedSlotSupplierOptions

// ResourceBasedSlotSupplier issues slots while memory and CPU use stay
// under its controller's targets. It is a SlotSupplier, and its
// SysInfoProvider method returns the provider its controller measures
// with.
type ResourceBasedSlotSupplier = resourcetuner.ResourceBasedSlotSupplier

// ResourceControllerOptions configure NewResourceController; start from
// DefaultResourceControllerOptions.
//
//   - MemTargetPercent: the memory use, a fraction from 0 to 1, to stay
//     below.
//   - CpuTargetPercent: the CPU use, a fraction from 0 to 1, to aim at.
//   - InfoSupplier: measures memory and CPU use. Default (nil): cgroups
//     and /proc.
//   - MemOutputThreshold, CpuOutputThreshold: the output each PID
//     controller must exceed for a slot to be issued.
//   - MemPGain, MemIGain, MemDGain: the gains of the memory controller.
//   - CpuPGain, CpuIGain, CpuDGain: the gains of the CPU controller.
type ResourceControllerOptions = resourcetuner.ResourceControllerOptions

// ResourceController decides, from measured memory and CPU use, whether
// there is room for another slot. Make one per process
// (NewResourceController) and share it between suppliers.
type ResourceController = resourcetuner.ResourceController

// PollerBehavior says how many long polls a worker keeps open for one
// kind of task (Options.WorkflowTaskPollerBehavior,
// ActivityTaskPollerBehavior).
type PollerBehavior = tuning.PollerBehavior

// PollerBehaviorSimpleMaximumOptions configure
// NewPollerBehaviorSimpleMaximum.
//
//   - MaximumNumberOfPollers: the number of polls kept open. Default: 2.
type PollerBehaviorSimpleMaximumOptions = tuning.PollerBehaviorSimpleMaximumOptions

// PollerBehaviorAutoscalingOptions configure NewPollerBehaviorAutoscaling.
//
//   - InitialNumberOfPollers: the polls at start, within the bounds.
//     Default: 5.
//   - MinimumNumberOfPollers: the fewest polls kept open. Default: 1.
//   - MaximumNumberOfPollers: the most polls kept open. Default: 100. A
//     workflow worker scales its polls of the normal and of the sticky
//     queue each within these bounds.
type PollerBehaviorAutoscalingOptions = tuning.PollerBehaviorAutoscalingOptions

// NewFixedSizeTuner returns a tuner of fixed numbers of slots; a number
// left at zero takes the default of the Options field it stands for
// (MaxConcurrentWorkflowTaskExecutionSize, ...).
func NewFixedSizeTuner(options FixedSizeTunerOptions) (WorkerTuner, error) {
	return tuning.NewFixedSizeTuner(options)
}

// NewCompositeTuner returns a tuner of the given suppliers, one per kind
// of task.
func NewCompositeTuner(options CompositeTunerOptions) (WorkerTuner, error) {
	return tuning.NewCompositeTuner(options)
}

// NewFixedSizeSlotSupplier returns a supplier of at most numSlots slots
// at once.
func NewFixedSizeSlotSupplier(numSlots int) (SlotSupplier, error) {
	return tuning.NewFixedSizeSlotSupplier(numSlots)
}

// NewResourceBasedTuner returns a tuner that issues slots while memory and
// CPU use stay under the targets (fractions, e.g. 0.8). Without an
// InfoSupplier it measures with cgroups and /proc, as on Linux: inside a
// container, against the container's limits.
func NewResourceBasedTuner(opts ResourceBasedTunerOptions) (WorkerTuner, error) {
	return resourcetuner.NewResourceBasedTuner(opts)
}

// NewResourceBasedSlotSupplier returns a supplier that asks controller
// for each slot beyond its minimum; combine such suppliers, sharing one
// controller, with NewCompositeTuner.
func NewResourceBasedSlotSupplier(controller *ResourceController, options ResourceBasedSlotSupplierOptions) (*ResourceBasedSlotSupplier, error) {
	return resourcetuner.NewResourceBasedSlotSupplier(controller, options)
}

// NewResourceController returns a controller; start its options from
// DefaultResourceControllerOptions.
func NewResourceController(options ResourceControllerOptions) *ResourceController {
	return resourcetuner.NewResourceController(options)
}

// DefaultResourceControllerOptions are the controller's defaults: targets
// of 80% memory and 90% CPU, and the PID gains of go.temporal.io/sdk.
func DefaultResourceControllerOptions() ResourceControllerOptions {
	return resourcetuner.DefaultResourceControllerOptions()
}

// DefaultWorkflowResourceBasedSlotSupplierOptions are the options of the
// workflow task slots of NewResourceBasedTuner: 5 to 1000.
func DefaultWorkflowResourceBasedSlotSupplierOptions() ResourceBasedSlotSupplierOptions {
	return resourcetuner.DefaultWorkflowResourceBasedSlotSupplierOptions()
}

// DefaultActivityResourceBasedSlotSupplierOptions are the options of the
// activity slots of NewResourceBasedTuner: 1 to 10000, 50ms apart.
func DefaultActivityResourceBasedSlotSupplierOptions() ResourceBasedSlotSupplierOptions {
	return resourcetuner.DefaultActivityResourceBasedSlotSupplierOptions()
}

// NewPollerBehaviorSimpleMaximum keeps a fixed number of long polls open
// (2 by default).
func NewPollerBehaviorSimpleMaximum(options PollerBehaviorSimpleMaximumOptions) PollerBehavior {
	return tuning.NewPollerBehaviorSimpleMaximum(options)
}

// NewPollerBehaviorAutoscaling scales the number of long polls between a
// minimum (1) and a maximum (100), from 5: up while polls bring tasks that
// were waiting or the server's scaling decisions say so, down while polls
// come back empty.
func NewPollerBehaviorAutoscaling(options PollerBehaviorAutoscalingOptions) PollerBehavior {
	return tuning.NewPollerBehaviorAutoscaling(options)
}
