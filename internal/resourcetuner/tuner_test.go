package resourcetuner

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/internal/logging"
	"github.com/durable-go/sdk/internal/metricstest"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/internal/tuning"
	"github.com/durable-go/sdk/log"
)

// reservation is a SlotReservationInfo with a given number of issued slots.
type reservation struct{ issued int }

func (r reservation) TaskQueue() string                    { return "tq" }
func (r reservation) TaskQueueKind() enumspb.TaskQueueKind { return enumspb.TASK_QUEUE_KIND_NORMAL }
func (r reservation) WorkerBuildId() string                { return "" }
func (r reservation) WorkerIdentity() string               { return "me" }
func (r reservation) NumIssuedSlots() int                  { return r.issued }
func (r reservation) Logger() log.Logger                   { return logging.NewTextLogger(discardWriter{}, 0) }
func (r reservation) MetricsHandler() sdkmetrics.Handler   { return sdkmetrics.NopHandler }

type discardWriter struct{}

func (discardWriter) Write(p []byte) (int, error) { return len(p), nil }

// fakeSysInfo is a SysInfoProvider whose readings the test sets.
type fakeSysInfo struct {
	mu       sync.Mutex
	mem, cpu float64
	err      error
	calls    int
}

func (f *fakeSysInfo) set(mem, cpu float64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mem, f.cpu = mem, cpu
}

func (f *fakeSysInfo) MemoryUsage(*tuning.SysInfoContext) (float64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	return f.mem, f.err
}

func (f *fakeSysInfo) CpuUsage(*tuning.SysInfoContext) (float64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.cpu, f.err
}

func resourceSupplier(t *testing.T, info tuning.SysInfoProvider, o ResourceBasedSlotSupplierOptions) *ResourceBasedSlotSupplier {
	t.Helper()
	opts := DefaultResourceControllerOptions()
	opts.InfoSupplier = info
	s, err := NewResourceBasedSlotSupplier(NewResourceController(opts), o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestResourceBasedSupplierFollowsUsage issues slots while memory and CPU
// are under target, and none once either is at it.
func TestResourceBasedSupplierFollowsUsage(t *testing.T) {
	info := &fakeSysInfo{}
	s := resourceSupplier(t, info, ResourceBasedSlotSupplierOptions{MinSlots: 2, MaxSlots: 10})
	info.set(0.95, 0.99) // over both targets
	for issued := range 2 {
		if s.TryReserveSlot(reservation{issued: issued}) == nil {
			t.Fatalf("no slot with %d issued, below the minimum of 2", issued)
		}
	}
	if info.calls != 0 {
		t.Errorf("the controller measured %d times below the minimum, want none", info.calls)
	}
	if s.TryReserveSlot(reservation{issued: 2}) != nil {
		t.Error("a slot with memory at 95% of a target of 80%")
	}
	info.set(0.2, 0.1)
	if s.TryReserveSlot(reservation{issued: 2}) == nil {
		t.Error("no slot with memory at 20% and CPU at 10%")
	}
	info.set(0.2, 0.95)
	if s.TryReserveSlot(reservation{issued: 3}) != nil {
		t.Error("a slot with CPU at 95% of a target of 90%")
	}
	info.set(0.8, 0.1)
	if s.TryReserveSlot(reservation{issued: 3}) != nil {
		t.Error("a slot with memory at its target of 80%")
	}
	info.set(0.1, 0.1)
	if s.TryReserveSlot(reservation{issued: 10}) != nil {
		t.Error("a slot beyond MaxSlots")
	}
	info.err = errors.New("no /proc")
	if s.TryReserveSlot(reservation{issued: 3}) != nil {
		t.Error("a slot when memory and CPU could not be measured")
	}
	if s.MaxSlots() != 0 {
		t.Errorf("MaxSlots %d, want 0: no fixed bound to report", s.MaxSlots())
	}
	if s.SysInfoProvider() != info {
		t.Error("tuning.SysInfoProvider is not the controller's provider")
	}
}

// TestResourceBasedSupplierRampThrottle issues slots beyond the minimum
// at most once per ramp throttle; ReserveSlot waits for the next.
func TestResourceBasedSupplierRampThrottle(t *testing.T) {
	info := &fakeSysInfo{}
	info.set(0.1, 0.1)
	s := resourceSupplier(t, info, ResourceBasedSlotSupplierOptions{MinSlots: 0, MaxSlots: 100, RampThrottle: 100 * time.Millisecond})
	if s.TryReserveSlot(reservation{issued: 0}) == nil {
		t.Fatal("no first slot")
	}
	if s.TryReserveSlot(reservation{issued: 1}) != nil {
		t.Fatal("a second slot within the ramp throttle")
	}
	start := time.Now()
	if _, err := s.ReserveSlot(context.Background(), reservation{issued: 1}); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 80*time.Millisecond {
		t.Errorf("second slot after %v, want after the ramp throttle of 100ms", d)
	}
	// Waiting for the controller ends with the context.
	info.set(0.9, 0.9)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := s.ReserveSlot(ctx, reservation{issued: 2}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("reserving with memory over target: %v, want to wait until the context ends", err)
	}
}

func TestResourceControllerReportsUsage(t *testing.T) {
	info := &fakeSysInfo{}
	info.set(0.5, 0.25)
	opts := DefaultResourceControllerOptions()
	opts.InfoSupplier = info
	c := NewResourceController(opts)
	metrics := metricstest.NewHandler()
	if _, err := c.decide(logging.NewTextLogger(discardWriter{}, 0), metrics); err != nil {
		t.Fatal(err)
	}
	mem, _ := metrics.GaugeValue(resourceSlotsMemUsage, nil)
	cpu, _ := metrics.GaugeValue(resourceSlotsCPUUsage, nil)
	if mem != 50 || cpu != 25 {
		t.Errorf("usage gauges: memory %v%%, CPU %v%%; want 50 and 25", mem, cpu)
	}
}

// TestPIDController: proportional to the error at first, then with the
// error's rate of change and its integral.
func TestPIDController(t *testing.T) {
	c := pid{p: 5, i: 2, d: 1}
	if out := c.update(0.1, 0); !near(out, 0.5) {
		t.Errorf("first output %v, want 5 x 0.1", out)
	}
	// Error fell by 0.3 in 0.5s: derivative -0.6; integral -0.2 x 0.5.
	if out := c.update(-0.2, 500*time.Millisecond); !near(out, 5*-0.2+2*-0.1+1*-0.6) {
		t.Errorf("second output %v, want %v", out, 5*-0.2+2*-0.1+1*-0.6)
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// TestResourceBasedTunerRespondsToLoad runs the tuner's activity supplier
// with a fake provider: slots flow while the machine is idle and stop
// when it is loaded.
func TestResourceBasedTunerRespondsToLoad(t *testing.T) {
	info := &fakeSysInfo{}
	info.set(0.3, 0.2)
	tuner, err := NewResourceBasedTuner(ResourceBasedTunerOptions{TargetMem: 0.8, TargetCpu: 0.9, InfoSupplier: info, ActivityRampThrottle: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	s := tuner.GetActivityTaskSlotSupplier()
	issued := 0
	deadline := time.Now().Add(30 * time.Second)
	for issued < 20 && time.Now().Before(deadline) {
		if s.TryReserveSlot(reservation{issued: issued}) != nil {
			issued++
		}
		time.Sleep(2 * time.Millisecond)
	}
	if issued < 20 {
		t.Fatalf("%d activity slots issued in 30s on an idle machine, want 20", issued)
	}
	info.set(0.85, 0.2)
	time.Sleep(5 * time.Millisecond)
	if s.TryReserveSlot(reservation{issued: issued}) != nil {
		t.Error("a slot with memory over target")
	}
	ws := tuner.GetWorkflowTaskSlotSupplier().(*ResourceBasedSlotSupplier)
	if ws.controller != s.(*ResourceBasedSlotSupplier).controller {
		t.Error("the tuner's suppliers have controllers of their own; want one shared")
	}
	if ws.options != DefaultWorkflowResourceBasedSlotSupplierOptions() {
		t.Errorf("workflow slot options %+v, want the defaults", ws.options)
	}
}

func TestResourceBasedOptionsAreChecked(t *testing.T) {
	for _, c := range []struct {
		opts ResourceBasedTunerOptions
		want string
	}{
		{ResourceBasedTunerOptions{TargetCpu: 0.9}, "TargetMem"},
		{ResourceBasedTunerOptions{TargetMem: 80, TargetCpu: 0.9}, "TargetMem is 80"},
		{ResourceBasedTunerOptions{TargetMem: 0.8}, "TargetCpu"},
		{ResourceBasedTunerOptions{TargetMem: 0.8, TargetCpu: 0.9, ActivityRampThrottle: -1}, "negative"},
	} {
		if _, err := NewResourceBasedTuner(c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewResourceBasedTuner(%+v): error %v, want one naming %q", c.opts, err, c.want)
		}
	}
	if _, err := NewResourceBasedTuner(ResourceBasedTunerOptions{TargetMem: 0.8, TargetCpu: 0.9}); err != nil {
		t.Errorf("without InfoSupplier: %v, want the default provider", err)
	}
	controller := NewResourceController(DefaultResourceControllerOptions())
	for _, o := range []ResourceBasedSlotSupplierOptions{{MinSlots: -1, MaxSlots: 2}, {MinSlots: 3, MaxSlots: 2}, {MaxSlots: 2, RampThrottle: -time.Second}} {
		if _, err := NewResourceBasedSlotSupplier(controller, o); err == nil {
			t.Errorf("NewResourceBasedSlotSupplier(%+v): no error", o)
		}
	}
	if _, err := NewResourceBasedSlotSupplier(nil, DefaultActivityResourceBasedSlotSupplierOptions()); err == nil {
		t.Error("NewResourceBasedSlotSupplier without a controller: no error")
	}
}
