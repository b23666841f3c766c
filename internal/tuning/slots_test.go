package tuning

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/internal/logging"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/internal/workerrt"
	"github.com/durable-go/sdk/log"
)

// reservation is a SlotReservationInfo with a given number of issued slots.

type reservation struct{ issued int }

func (r reservation) TaskQueue() string { return "tq" }

func (r reservation) TaskQueueKind() enumspb.TaskQueueKind { return enumspb.TASK_QUEUE_KIND_NORMAL }

func (r reservation) WorkerBuildId() string { return "" }

func (r reservation) WorkerIdentity() string { return "me" }

func (r reservation) NumIssuedSlots() int { return r.issued }

func (r reservation) Logger() log.Logger { return logging.NewTextLogger(discardWriter{}, 0) }

func (r reservation) MetricsHandler() sdkmetrics.Handler { return sdkmetrics.NopHandler }

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
		// Those left at zero take go.temporal.io/sdk's default.
		"local activity": {tuner.GetLocalActivitySlotSupplier(), 1000},
		"nexus":          {tuner.GetNexusSlotSupplier(), 1000},
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
	rt := RuntimeSlots(custom, logging.NewTextLogger(discardWriter{}, 0), nil)
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
	if _, ok := RuntimeSlots(fixed, nil, nil).(*workerrt.FixedSlots); !ok {
		t.Error("a fixed-size supplier is wrapped for the runtime; want it as it is")
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
	rt := RuntimeSlots(s, logging.NewTextLogger(discardWriter{}, 0), nil)
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

// tunerPlugin is a worker plugin that sets the worker's tuner.
