package resourcetuner

import (
	"sync"
	"time"

	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/internal/tuning"
	"github.com/durable-go/sdk/log"
)

// ResourceControllerOptions configure a ResourceController
// (worker.ResourceControllerOptions). Start from
// DefaultResourceControllerOptions and set the targets.
type ResourceControllerOptions struct {
	// MemTargetPercent is the memory use, a fraction between 0 and 1, the
	// controller keeps below.
	MemTargetPercent float64
	// CpuTargetPercent is the CPU use, a fraction between 0 and 1, the
	// controller aims at.
	CpuTargetPercent float64
	// InfoSupplier measures memory and CPU use; nil takes
	// DefaultSysInfoProvider.
	InfoSupplier tuning.SysInfoProvider
	// MemOutputThreshold and CpuOutputThreshold are the outputs each PID
	// controller must exceed for a slot to be issued.
	MemOutputThreshold float64
	CpuOutputThreshold float64
	// The gains of the memory PID controller.
	MemPGain, MemIGain, MemDGain float64
	// The gains of the CPU PID controller.
	CpuPGain, CpuIGain, CpuDGain float64
}

// DefaultResourceControllerOptions are go.temporal.io/sdk's: targets of
// 80% memory and 90% CPU, proportional gains 5, derivative gains 1, no
// integral, output thresholds 0.25 (memory) and 0.05 (CPU).
func DefaultResourceControllerOptions() ResourceControllerOptions {
	return ResourceControllerOptions{
		MemTargetPercent: 0.8, CpuTargetPercent: 0.9,
		MemOutputThreshold: 0.25, CpuOutputThreshold: 0.05,
		MemPGain: 5, MemDGain: 1,
		CpuPGain: 5, CpuDGain: 1,
	}
}

// ResourceController decides whether the machine has room for another
// slot (worker.ResourceController). Make one per process.
type ResourceController struct {
	options ResourceControllerOptions

	mu          sync.Mutex
	mem, cpu    pid
	lastDecided time.Time
}

// NewResourceController returns a controller with options
// (worker.NewResourceController).
func NewResourceController(options ResourceControllerOptions) *ResourceController {
	if options.InfoSupplier == nil {
		options.InfoSupplier = DefaultSysInfoProvider()
	}
	return &ResourceController{
		options: options,
		mem:     pid{p: options.MemPGain, i: options.MemIGain, d: options.MemDGain},
		cpu:     pid{p: options.CpuPGain, i: options.CpuIGain, d: options.CpuDGain},
	}
}

// decide measures memory and CPU use, reports them, and says whether a
// slot may be issued: never with memory at its target, else when both PID
// controllers' outputs exceed their thresholds.
func (c *ResourceController) decide(logger log.Logger, metrics sdkmetrics.Handler) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	sc := &tuning.SysInfoContext{Logger: logger}
	mem, err := c.options.InfoSupplier.MemoryUsage(sc)
	if err != nil {
		return false, err
	}
	cpu, err := c.options.InfoSupplier.CpuUsage(sc)
	if err != nil {
		return false, err
	}
	if !sdkmetrics.IsNop(metrics) {
		metrics.Gauge(resourceSlotsMemUsage).Update(mem * 100)
		metrics.Gauge(resourceSlotsCPUUsage).Update(cpu * 100)
	}
	if mem >= c.options.MemTargetPercent {
		return false, nil
	}
	now := time.Now()
	var dt time.Duration // zero at the first decision: no derivative yet
	if !c.lastDecided.IsZero() {
		dt = max(now.Sub(c.lastDecided), time.Millisecond)
	}
	c.lastDecided = now
	memOut := c.mem.update(c.options.MemTargetPercent-mem, dt)
	cpuOut := c.cpu.update(c.options.CpuTargetPercent-cpu, dt)
	return memOut > c.options.MemOutputThreshold && cpuOut > c.options.CpuOutputThreshold, nil
}

// pid is a PID controller of the error between a target and a
// measurement.
type pid struct {
	p, i, d   float64
	integral  float64
	lastError float64
}

// update feeds the error measured dt after the previous one (0 for the
// first) and returns the controller's output.
func (c *pid) update(err float64, dt time.Duration) float64 {
	var derivative float64
	if dt > 0 {
		c.integral += err * dt.Seconds()
		derivative = (err - c.lastError) / dt.Seconds()
	}
	c.lastError = err
	return c.p*err + c.i*c.integral + c.d*derivative
}
