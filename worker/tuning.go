package worker

import "github.com/durable-go/sdk/internal"

// A worker runs each task in a slot; Options.Tuner decides how many slots
// of each kind there are. Without one, a fixed-size tuner sized by the
// MaxConcurrent...ExecutionSize options does.

type (
	// WorkerTuner supplies the slots of each kind of task.
	WorkerTuner = internal.WorkerTuner
	// SlotSupplier hands out the slots of one kind of task. Implement it
	// for slots of your own rules.
	SlotSupplier = internal.SlotSupplier
	// SlotPermit is a reserved slot.
	SlotPermit = internal.SlotPermit
	// SlotReservationInfo describes a slot reservation to a supplier.
	SlotReservationInfo = internal.SlotReservationInfo
	// SlotMarkUsedInfo describes a slot that received a task.
	SlotMarkUsedInfo = internal.SlotMarkUsedInfo
	// SlotReleaseInfo describes a slot given back.
	SlotReleaseInfo = internal.SlotReleaseInfo
	// FixedSizeTunerOptions are the slot counts of NewFixedSizeTuner.
	FixedSizeTunerOptions = internal.FixedSizeTunerOptions
	// CompositeTunerOptions are the suppliers of NewCompositeTuner.
	CompositeTunerOptions = internal.CompositeTunerOptions

	// SysInfoProvider measures the use of the machine's memory and CPU.
	SysInfoProvider = internal.SysInfoProvider
	// SysInfoContext is passed to a SysInfoProvider's calls.
	SysInfoContext = internal.SysInfoContext
	// HasSysInfoProvider is a slot supplier that tells which
	// SysInfoProvider it measures with.
	HasSysInfoProvider = internal.HasSysInfoProvider
	// ResourceBasedTunerOptions configure NewResourceBasedTuner.
	ResourceBasedTunerOptions = internal.ResourceBasedTunerOptions
	// ResourceBasedSlotSupplierOptions configure a ResourceBasedSlotSupplier.
	ResourceBasedSlotSupplierOptions = internal.ResourceBasedSlotSupplierOptions
	// ResourceBasedSlotSupplier issues slots while memory and CPU use stay
	// under its controller's targets.
	ResourceBasedSlotSupplier = internal.ResourceBasedSlotSupplier
	// ResourceControllerOptions configure a ResourceController.
	ResourceControllerOptions = internal.ResourceControllerOptions
	// ResourceController decides, from measured memory and CPU use,
	// whether there is room for another slot. Make one per process.
	ResourceController = internal.ResourceController

	// PollerBehavior says how many long polls a worker keeps open.
	PollerBehavior = internal.PollerBehavior
	// PollerBehaviorSimpleMaximumOptions configure NewPollerBehaviorSimpleMaximum.
	PollerBehaviorSimpleMaximumOptions = internal.PollerBehaviorSimpleMaximumOptions
	// PollerBehaviorAutoscalingOptions configure NewPollerBehaviorAutoscaling.
	PollerBehaviorAutoscalingOptions = internal.PollerBehaviorAutoscalingOptions
)

// NewFixedSizeTuner returns a tuner of fixed numbers of slots (1000 of
// each kind by default).
func NewFixedSizeTuner(options FixedSizeTunerOptions) (WorkerTuner, error) {
	return internal.NewFixedSizeTuner(options)
}

// NewCompositeTuner returns a tuner of the given suppliers, one per kind
// of task.
func NewCompositeTuner(options CompositeTunerOptions) (WorkerTuner, error) {
	return internal.NewCompositeTuner(options)
}

// NewFixedSizeSlotSupplier returns a supplier of at most numSlots slots
// at once.
func NewFixedSizeSlotSupplier(numSlots int) (SlotSupplier, error) {
	return internal.NewFixedSizeSlotSupplier(numSlots)
}

// NewResourceBasedTuner returns a tuner that issues slots while memory and
// CPU use stay under the targets (fractions, e.g. 0.8). Without an
// InfoSupplier it measures with cgroups and /proc, as on Linux: inside a
// container, against the container's limits.
func NewResourceBasedTuner(opts ResourceBasedTunerOptions) (WorkerTuner, error) {
	return internal.NewResourceBasedTuner(opts)
}

// NewResourceBasedSlotSupplier returns a supplier that asks controller
// for each slot beyond its minimum; combine such suppliers, sharing one
// controller, with NewCompositeTuner.
func NewResourceBasedSlotSupplier(controller *ResourceController, options ResourceBasedSlotSupplierOptions) (*ResourceBasedSlotSupplier, error) {
	return internal.NewResourceBasedSlotSupplier(controller, options)
}

// NewResourceController returns a controller; start its options from
// DefaultResourceControllerOptions.
func NewResourceController(options ResourceControllerOptions) *ResourceController {
	return internal.NewResourceController(options)
}

// DefaultResourceControllerOptions are the controller's defaults: targets
// of 80% memory and 90% CPU, and the PID gains of go.temporal.io/sdk.
func DefaultResourceControllerOptions() ResourceControllerOptions {
	return internal.DefaultResourceControllerOptions()
}

// DefaultWorkflowResourceBasedSlotSupplierOptions are the options of the
// workflow task slots of NewResourceBasedTuner: 5 to 1000.
func DefaultWorkflowResourceBasedSlotSupplierOptions() ResourceBasedSlotSupplierOptions {
	return internal.DefaultWorkflowResourceBasedSlotSupplierOptions()
}

// DefaultActivityResourceBasedSlotSupplierOptions are the options of the
// activity slots of NewResourceBasedTuner: 1 to 10000, 50ms apart.
func DefaultActivityResourceBasedSlotSupplierOptions() ResourceBasedSlotSupplierOptions {
	return internal.DefaultActivityResourceBasedSlotSupplierOptions()
}

// NewPollerBehaviorSimpleMaximum keeps a fixed number of long polls open
// (2 by default).
func NewPollerBehaviorSimpleMaximum(options PollerBehaviorSimpleMaximumOptions) PollerBehavior {
	return internal.NewPollerBehaviorSimpleMaximum(options)
}

// NewPollerBehaviorAutoscaling scales the number of long polls between a
// minimum (1) and a maximum (100), from 5: up while polls bring tasks that
// were waiting or the server's scaling decisions say so, down while polls
// come back empty.
func NewPollerBehaviorAutoscaling(options PollerBehaviorAutoscalingOptions) PollerBehavior {
	return internal.NewPollerBehaviorAutoscaling(options)
}
