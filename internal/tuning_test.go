package internal

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
	"github.com/durable-go/sdk/internal/workerrt"
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

func TestFixedSizeTunerSizes(t *testing.T) {
	tuner, err := NewFixedSizeTuner(FixedSizeTunerOptions{NumWorkflowSlots: 3, NumActivitySlots: 4})
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		s    SlotSupplier
		want int
	}{
		"workflow":         {tuner.GetWorkflowTaskSlotSupplier(), 3},
		"activity":         {tuner.GetActivityTaskSlotSupplier(), 4},
		"session activity": {tuner.GetSessionActivitySlotSupplier(), 4},
		"local activity":   {tuner.GetLocalActivitySlotSupplier(), defaultSlots},
		"nexus":            {tuner.GetNexusSlotSupplier(), defaultSlots},
	} {
		if got := c.s.MaxSlots(); got != c.want {
			t.Errorf("%s slots: %d, want %d", name, got, c.want)
		}
	}
	if tuner.GetActivityTaskSlotSupplier() == tuner.GetSessionActivitySlotSupplier() {
		t.Error("activities and session activities share one supplier; want one each")
	}
	if _, err := NewFixedSizeSlotSupplier(0); err == nil || !strings.Contains(err.Error(), "positive") {
		t.Errorf("NewFixedSizeSlotSupplier(0): error %v, want one asking for a positive number", err)
	}
}

func TestFixedSizeSlotSupplierBoundsSlots(t *testing.T) {
	s, _ := NewFixedSizeSlotSupplier(2)
	ctx := context.Background()
	a, err := s.ReserveSlot(ctx, reservation{})
	if err != nil {
		t.Fatal(err)
	}
	if s.TryReserveSlot(reservation{}) == nil {
		t.Fatal("no second slot out of 2")
	}
	if s.TryReserveSlot(reservation{}) != nil {
		t.Fatal("a third slot out of 2")
	}
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, err := s.ReserveSlot(short, reservation{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("reserving a third slot: %v, want to wait until the context ends", err)
	}
	s.ReleaseSlot(slotUse{permit: a})
	if s.TryReserveSlot(reservation{}) == nil {
		t.Fatal("no slot after one was released")
	}
}

// recordingSupplier is a custom supplier that records what the worker
// tells it.
type recordingSupplier struct {
	mu       sync.Mutex
	reserved []SlotReservationInfo
	issued   []int
	used     []*SlotPermit
	released []SlotReleaseReason
	n        int
}

func (r *recordingSupplier) ReserveSlot(_ context.Context, info SlotReservationInfo) (*SlotPermit, error) {
	return r.TryReserveSlot(info), nil
}

func (r *recordingSupplier) TryReserveSlot(info SlotReservationInfo) *SlotPermit {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n++
	r.reserved = append(r.reserved, info)
	r.issued = append(r.issued, info.NumIssuedSlots())
	return &SlotPermit{UserData: r.n}
}

func (r *recordingSupplier) MarkSlotUsed(info SlotMarkUsedInfo) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.used = append(r.used, info.Permit())
}

func (r *recordingSupplier) ReleaseSlot(info SlotReleaseInfo) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.released = append(r.released, info.Reason())
}

func (r *recordingSupplier) MaxSlots() int { return 0 }

// TestCustomSupplierThroughTheRuntime: the runtime's calls reach a custom
// supplier with the reservation's details, the permits it issued, and the
// reason each slot comes back.
func TestCustomSupplierThroughTheRuntime(t *testing.T) {
	custom := &recordingSupplier{}
	rt := runtimeSlots(custom, logging.NewTextLogger(discardWriter{}, 0), nil)
	info := &workerrt.SlotInfo{TaskQueue: "orders", Kind: enumspb.TASK_QUEUE_KIND_STICKY, Identity: "worker-1"}
	p, err := rt.ReserveSlot(context.Background(), info)
	if err != nil {
		t.Fatal(err)
	}
	got := custom.reserved[0]
	if got.TaskQueue() != "orders" || got.TaskQueueKind() != enumspb.TASK_QUEUE_KIND_STICKY || got.WorkerIdentity() != "worker-1" {
		t.Errorf("reservation info: queue %q, kind %v, identity %q", got.TaskQueue(), got.TaskQueueKind(), got.WorkerIdentity())
	}
	if got.MetricsHandler() == nil || got.Logger() == nil {
		t.Error("reservation info without a metrics handler or logger")
	}
	rt.MarkSlotUsed(p)
	rt.ReleaseSlot(p, true)
	q := rt.TryReserveSlot(info)
	rt.ReleaseSlot(q, false)
	if len(custom.used) != 1 || custom.used[0].UserData != 1 {
		t.Errorf("marked used: %v, want the first permit", custom.used)
	}
	if len(custom.released) != 2 || custom.released[0] != SlotReleaseReasonTaskProcessed || custom.released[1] != SlotReleaseReasonUnused {
		t.Errorf("release reasons %v, want task processed, then unused", custom.released)
	}
	// A fixed-size supplier goes to the runtime as it is.
	fixed, _ := NewFixedSizeSlotSupplier(3)
	if _, ok := runtimeSlots(fixed, nil, nil).(*workerrt.FixedSlots); !ok {
		t.Error("a fixed-size supplier is wrapped for the runtime; want it as it is")
	}
}

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

func (f *fakeSysInfo) MemoryUsage(*SysInfoContext) (float64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	return f.mem, f.err
}

func (f *fakeSysInfo) CpuUsage(*SysInfoContext) (float64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.cpu, f.err
}

func resourceSupplier(t *testing.T, info SysInfoProvider, o ResourceBasedSlotSupplierOptions) *ResourceBasedSlotSupplier {
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
		t.Error("SysInfoProvider is not the controller's provider")
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

func TestPollerBehaviors(t *testing.T) {
	if n, s := NewPollerBehaviorSimpleMaximum(PollerBehaviorSimpleMaximumOptions{}).pollers(); n != 2 || s != nil {
		t.Errorf("simple maximum by default: %d fixed, scaling %v; want 2 fixed", n, s)
	}
	if n, _ := NewPollerBehaviorSimpleMaximum(PollerBehaviorSimpleMaximumOptions{MaximumNumberOfPollers: 7}).pollers(); n != 7 {
		t.Errorf("simple maximum of 7: %d fixed", n)
	}
	if _, s := NewPollerBehaviorAutoscaling(PollerBehaviorAutoscalingOptions{}).pollers(); s == nil || *s != (workerrt.PollerScaling{Initial: 5, Min: 1, Max: 100}) {
		t.Errorf("autoscaling by default: %+v, want from 5 within [1, 100]", s)
	}
	if _, s := NewPollerBehaviorAutoscaling(PollerBehaviorAutoscalingOptions{InitialNumberOfPollers: 50, MaximumNumberOfPollers: 10}).pollers(); s.Initial != 10 {
		t.Errorf("initial 50 with maximum 10: initial %d, want 10", s.Initial)
	}
}

func TestContradictoryTuningOptionsPanic(t *testing.T) {
	tuner, _ := NewFixedSizeTuner(FixedSizeTunerOptions{})
	zero := 0
	for _, c := range []struct {
		opts WorkerOptions
		want string
	}{
		{WorkerOptions{Tuner: tuner, MaxConcurrentActivityExecutionSize: 5}, "Tuner"},
		{WorkerOptions{MaxConcurrentWorkflowTaskPollers: 4, WorkflowTaskPollerBehavior: NewPollerBehaviorAutoscaling(PollerBehaviorAutoscalingOptions{})}, "WorkflowTaskPollerBehavior"},
		{WorkerOptions{MaxConcurrentActivityTaskPollers: 4, ActivityTaskPollerBehavior: NewPollerBehaviorSimpleMaximum(PollerBehaviorSimpleMaximumOptions{})}, "ActivityTaskPollerBehavior"},
		{WorkerOptions{MaxConcurrentWorkflowTaskPollers: 1}, "cannot be 1"},
		{WorkerOptions{MaxConcurrentWorkflowTaskExecutionSize: 1}, "cannot be 1"},
		{WorkerOptions{ActivityTaskPollerBehavior: NewPollerBehaviorAutoscaling(PollerBehaviorAutoscalingOptions{MinimumNumberOfPollers: 10, MaximumNumberOfPollers: 5})}, "exceeds"},
		{WorkerOptions{MaxEagerActivityReservationsPerWorkflowTask: &zero}, "DisableEagerActivities"},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), c.want) {
					t.Errorf("options %+v: panic %v, want one naming %q", c.opts, r, c.want)
				}
			}()
			checkTuning(c.opts)
		}()
	}
	checkTuning(WorkerOptions{Tuner: tuner, MaxConcurrentWorkflowTaskPollers: 4, ActivityTaskPollerBehavior: NewPollerBehaviorAutoscaling(PollerBehaviorAutoscalingOptions{})})
}

// stuckSupplier never returns from ReserveSlot until unblocked, whatever
// its context says, and reports each release.
type stuckSupplier struct {
	recordingSupplier
	unblock  chan struct{}
	releases chan SlotReleaseReason
}

func (s *stuckSupplier) ReserveSlot(_ context.Context, info SlotReservationInfo) (*SlotPermit, error) {
	<-s.unblock
	return s.TryReserveSlot(info), nil
}

func (s *stuckSupplier) ReleaseSlot(info SlotReleaseInfo) {
	s.recordingSupplier.ReleaseSlot(info)
	s.releases <- info.Reason()
}

// TestSupplierIgnoringItsContextCannotHoldUpTheWorker: a reservation from
// a supplier that ignores its context ends with the context, and the
// permit it hands out later is given back, as unused.
func TestSupplierIgnoringItsContextCannotHoldUpTheWorker(t *testing.T) {
	s := &stuckSupplier{unblock: make(chan struct{}), releases: make(chan SlotReleaseReason, 1)}
	rt := runtimeSlots(s, logging.NewTextLogger(discardWriter{}, 0), nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := rt.ReserveSlot(ctx, &workerrt.SlotInfo{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("reservation from a stuck supplier: %v, want the context's end", err)
	}
	close(s.unblock)
	select {
	case reason := <-s.releases:
		if reason != SlotReleaseReasonUnused {
			t.Fatalf("the late permit was released with reason %v, want unused", reason)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the permit handed out after the reservation ended was never released")
	}
}

// TestTuningOptionsAreCheckedAsPluginsLeaveThem: worker.New checks the
// tuning options once the worker's plugins have configured them, as
// go.temporal.io/sdk does: a plugin may set the tuner, which then
// contradicts a slot count the program set.
func TestTuningOptionsAreCheckedAsPluginsLeaveThem(t *testing.T) {
	f := startFakeClientFrontend(t)
	tuner, _ := NewFixedSizeTuner(FixedSizeTunerOptions{NumActivitySlots: 3})
	setsTuner, err := NewSimplePlugin(SimplePluginOptions{Name: "tuning", ConfigureWorker: func(_ context.Context, o WorkerPluginConfigureWorkerOptions) error {
		o.WorkerOptions.Tuner = tuner
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	w := NewWorker(f.client(t, ClientOptions{}), "tq", WorkerOptions{Plugins: []WorkerPlugin{setsTuner}})
	if w.options.Tuner != tuner {
		t.Fatal("the worker does not have the tuner its plugin set")
	}
	defer func() {
		if r, _ := recover().(string); !strings.Contains(r, "Tuner") {
			t.Errorf("panic %q, want one naming Tuner", r)
		}
	}()
	NewWorker(f.client(t, ClientOptions{}), "tq", WorkerOptions{MaxConcurrentActivityExecutionSize: 5, Plugins: []WorkerPlugin{setsTuner}})
	t.Error("a plugin's tuner and the program's MaxConcurrentActivityExecutionSize together: no panic")
}
