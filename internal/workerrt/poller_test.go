package workerrt

import (
	"context"
	"errors"
	"math"
	"sync/atomic"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"

	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/logging"
)

// testTask is a poll response for pollGroup tests.
type testTask struct {
	decision *taskqueuepb.PollerScalingDecision
}

func (t testTask) GetPollerScalingDecision() *taskqueuepb.PollerScalingDecision { return t.decision }

func testGroup(slotCount int, pollers *pollerCount, poll func(context.Context) (testTask, bool, error), handle func(testTask), running *taskGroup) *pollGroup[testTask] {
	return &pollGroup[testTask]{what: "test", kind: enumspb.TASK_QUEUE_KIND_NORMAL,
		slots: newSlots(NewFixedSlots(slotCount), "tq", "me", nil), pollers: pollers,
		logger: logging.NewTextLogger(discard{}, 0), poll: poll, handle: handle, running: running}
}

// releaseWatch is a fixed supplier that records, at each release of a
// slot that ran a task, whether the task still counted as running: Stop
// waits for running tasks, so a slot released later would be released by
// a worker already stopped.
type releaseWatch struct {
	*FixedSlots
	group                  *taskGroup
	released, afterStopped atomic.Int32
}

func (r *releaseWatch) ReleaseSlot(p Permit, used bool) {
	if used {
		r.released.Add(1)
		if r.group.running.Load() == 0 {
			r.afterStopped.Add(1)
		}
	}
	r.FixedSlots.ReleaseSlot(p, used)
}

// TestPollerNeverHoldsMoreTasksThanSlots polls with 4 pollers, 2 slots and
// slow tasks: no poll is made while both slots are busy, and each task's
// slot is released before Stop's wait for the task ends.
func TestPollerNeverHoldsMoreTasksThanSlots(t *testing.T) {
	var running, maxRunning, polls atomic.Int32
	var group taskGroup
	ctx, cancel := context.WithCancel(context.Background())
	release := make(chan struct{})
	poll := func(ctx context.Context) (testTask, bool, error) {
		polls.Add(1)
		if n := running.Load(); n >= 2 {
			t.Errorf("polled while %d tasks run in 2 slots", n)
		}
		return testTask{}, true, nil
	}
	handle := func(testTask) {
		n := running.Add(1)
		for {
			m := maxRunning.Load()
			if n <= m || maxRunning.CompareAndSwap(m, n) {
				break
			}
		}
		<-release
		running.Add(-1)
	}
	supplier := &releaseWatch{FixedSlots: NewFixedSlots(2), group: &group}
	g := testGroup(2, fixedPollers(4), poll, handle, &group)
	g.slots = newSlots(supplier, "tq", "me", nil)
	done := make(chan struct{})
	go func() {
		g.run(ctx)
		close(done)
	}()
	waitFor(t, 30*time.Second, "both slots to run a task", func() bool { return running.Load() == 2 })
	time.Sleep(50 * time.Millisecond) // a third poll, if there were one, would come now
	if p := polls.Load(); p != 2 {
		t.Fatalf("%d polls with 2 slots and no task finished, want 2", p)
	}
	cancel()
	close(release)
	<-done
	group.Wait()
	if maxRunning.Load() > 2 {
		t.Fatalf("%d tasks ran at once in 2 slots", maxRunning.Load())
	}
	if n, late := supplier.released.Load(), supplier.afterStopped.Load(); n < 2 || late != 0 {
		t.Errorf("%d slots released after a task, %d of them once no task counted as running; want 2 or more, none late", n, late)
	}
}

// TestFixedPollersKeepThatManyPollsOpen: with slots to spare, 3 fixed
// pollers keep exactly 3 long polls open.
func TestFixedPollersKeepThatManyPollsOpen(t *testing.T) {
	var open, maxOpen atomic.Int32
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	poll := func(ctx context.Context) (testTask, bool, error) {
		n := open.Add(1)
		defer open.Add(-1)
		for {
			m := maxOpen.Load()
			if n <= m || maxOpen.CompareAndSwap(m, n) {
				break
			}
		}
		select { // a long poll that expires empty
		case <-time.After(50 * time.Millisecond):
		case <-ctx.Done():
		}
		return testTask{}, false, nil
	}
	var group taskGroup
	done := make(chan struct{})
	go func() {
		testGroup(100, fixedPollers(3), poll, func(testTask) {}, &group).run(ctx)
		close(done)
	}()
	waitFor(t, 30*time.Second, "3 polls open at once", func() bool { return maxOpen.Load() >= 3 })
	time.Sleep(200 * time.Millisecond) // polls expire and are made again, never a fourth at once
	cancel()
	<-done
	if maxOpen.Load() != 3 {
		t.Fatalf("at most %d polls open with 3 fixed pollers, want 3", maxOpen.Load())
	}
}

func TestPollerBacksOffOnErrors(t *testing.T) {
	var polls atomic.Int32
	ctx, cancel := context.WithTimeout(context.Background(), 700*time.Millisecond)
	defer cancel()
	var group taskGroup
	testGroup(1, fixedPollers(1), func(context.Context) (testTask, bool, error) {
		polls.Add(1)
		return testTask{}, false, errors.New("server unavailable")
	}, func(testTask) {}, &group).run(ctx)
	// 100-200ms, then 200-400ms, then 400-800ms: at most 3 or 4 polls
	// (fewer on a loaded machine).
	if p := polls.Load(); p > 5 {
		t.Fatalf("%d polls in 700ms of errors; want a handful, backing off", p)
	}
}

// failingSupplier fails its first reservations, then hands out slots.
type failingSupplier struct {
	*FixedSlots
	failures atomic.Int32
}

func (s *failingSupplier) ReserveSlot(ctx context.Context, info *SlotInfo) (Permit, error) {
	if s.failures.Add(-1) >= 0 {
		return nil, errors.New("supplier broken")
	}
	return s.FixedSlots.ReserveSlot(ctx, info)
}

// TestFailingSlotSupplierIsAskedAgain: a supplier error is logged and the
// reservation retried a second later, as go.temporal.io/sdk does.
func TestFailingSlotSupplierIsAskedAgain(t *testing.T) {
	supplier := &failingSupplier{FixedSlots: NewFixedSlots(1)}
	supplier.failures.Store(1)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	polled := make(chan time.Time, 1)
	start := time.Now()
	g := testGroup(1, fixedPollers(1), func(context.Context) (testTask, bool, error) {
		select {
		case polled <- time.Now():
		default:
		}
		<-ctx.Done()
		return testTask{}, false, nil
	}, func(testTask) {}, new(taskGroup))
	g.slots = newSlots(supplier, "tq", "me", nil)
	go g.run(ctx)
	select {
	case at := <-polled:
		if d := at.Sub(start); d < 900*time.Millisecond {
			t.Errorf("polled %v after a failed reservation, want after the 1s pause", d)
		}
	case <-ctx.Done():
		t.Fatal("no poll after the supplier recovered")
	}
}

// current returns the target and the polls open.
func (c *pollerCount) current() (target, open int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.target, c.open
}

func TestPollerCountScales(t *testing.T) {
	grow := &taskqueuepb.PollerScalingDecision{PollRequestDeltaSuggestion: 1}
	shrink := &taskqueuepb.PollerScalingDecision{PollRequestDeltaSuggestion: -1}
	target := func(c *pollerCount) int { n, _ := c.current(); return n }

	c := scaledPollers(PollerScaling{Initial: 50, Min: 2, Max: 10})
	if n := target(c); n != 10 {
		t.Fatalf("initial 50 within [2, 10]: target %d, want 10", n)
	}
	c = scaledPollers(PollerScaling{Initial: 3, Min: 2, Max: 6})
	// A server that has sent no decision: a task that came at once means
	// tasks wait; one that came after a long wait does not.
	c.gotTask(nil, time.Millisecond)
	c.gotTask(nil, 5*time.Second)
	if n := target(c); n != 4 {
		t.Errorf("after a waiting task and a late one: target %d, want 4", n)
	}
	for range 10 {
		c.gotTask(nil, 0)
	}
	if n := target(c); n != 6 {
		t.Errorf("after a backlog: target %d, want the maximum 6", n)
	}
	c.empty()
	if n := target(c); n != 5 {
		t.Errorf("after an empty poll: target %d, want 5", n)
	}
	// Once the server advises, its decisions count, and tasks without one
	// do not.
	c.gotTask(shrink, 0)
	c.gotTask(nil, 0)
	if n := target(c); n != 4 {
		t.Errorf("after the server's -1 and a task without a decision: target %d, want 4", n)
	}
	c.gotTask(grow, 0)
	if n := target(c); n != 5 {
		t.Errorf("after the server's +1: target %d, want 5", n)
	}
	c.failed(errors.New("unavailable"))
	if n := target(c); n != 5 {
		t.Errorf("after an error: target %d, want 5 (the backoff deals with errors)", n)
	}
	c.failed(serviceerror.NewResourceExhausted(0, "busy"))
	if n := target(c); n != 2 {
		t.Errorf("after ResourceExhausted: target %d, want half, 2", n)
	}
	for range 10 {
		c.empty()
	}
	if n := target(c); n != 2 {
		t.Errorf("after idle polls: target %d, want the minimum 2", n)
	}
	// Fixed pollers never change.
	f := fixedPollers(4)
	f.gotTask(grow, 0)
	f.empty()
	f.failed(serviceerror.NewResourceExhausted(0, "busy"))
	if n := target(f); n != 4 {
		t.Errorf("fixed pollers: target %d, want 4", n)
	}
}

// backlogService hands out activity tasks while it has some, and
// otherwise holds a poll for emptyPollAfter (a short long-poll timeout)
// and returns empty. It counts the polls open at once. A poll that gets
// a task keeps it until maxTestPollers polls are open or taskHold has
// passed, so that a worker keeping that many polls open is seen to: with
// tasks returned at once, polls would seldom overlap.
// emptyPollAfter is long enough that the polls open when the backlog runs
// out are all open together, even on a loaded machine.
const (
	emptyPollAfter = 200 * time.Millisecond
	taskHold       = 20 * time.Millisecond // well within taskWaitingWithin
	maxTestPollers = 8
)

type backlogService struct {
	Service
	backlog    atomic.Int32
	open, peak atomic.Int32
}

func (s *backlogService) PollActivityTaskQueue(ctx context.Context, _ *workflowservice.PollActivityTaskQueueRequest, _ ...grpc.CallOption) (*workflowservice.PollActivityTaskQueueResponse, error) {
	n := s.open.Add(1)
	defer s.open.Add(-1)
	for {
		p := s.peak.Load()
		if n <= p || s.peak.CompareAndSwap(p, n) {
			break
		}
	}
	if s.backlog.Add(-1) >= 0 {
		for held := time.After(taskHold); s.open.Load() < maxTestPollers; {
			select {
			case <-held:
				return activityTask("a", time.Now()), nil
			case <-time.After(time.Millisecond):
			}
		}
		return activityTask("a", time.Now()), nil
	}
	s.backlog.Add(1)
	select {
	case <-time.After(emptyPollAfter):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return &workflowservice.PollActivityTaskQueueResponse{}, nil
}

func (s *backlogService) RespondActivityTaskCompleted(context.Context, *workflowservice.RespondActivityTaskCompletedRequest, ...grpc.CallOption) (*workflowservice.RespondActivityTaskCompletedResponse, error) {
	return &workflowservice.RespondActivityTaskCompletedResponse{}, nil
}

// TestAutoscaledPollersGrowUnderABacklogAndShrinkWhenIdle runs a worker
// whose activity pollers scale between 1 and 8 against a service with a
// backlog of tasks: the worker comes to keep 8 polls open at once while
// it lasts, never more, then shrinks back to 1 poll open, and no more,
// as polls come back empty. The backlog lasts until the 8 polls were
// seen (or the wait for them fails), so a slow machine cannot drain it
// first.
func TestAutoscaledPollersGrowUnderABacklogAndShrinkWhenIdle(t *testing.T) {
	svc := &backlogService{}
	svc.backlog.Store(math.MaxInt32)
	w, err := New(Options{Service: svc, Namespace: "ns", TaskQueue: "tq", Logger: logging.NewTextLogger(discard{}, 0),
		FailureConverter:      failure.GetDefaultFailureConverter(),
		ActivityPollerScaling: &PollerScaling{Initial: 1, Min: 1, Max: maxTestPollers},
		Activities: activityFunc(func(context.Context, *ActivityTask) (*commonpb.Payloads, error) {
			time.Sleep(time.Millisecond)
			return nil, nil
		})})
	if err != nil {
		t.Fatal(err)
	}
	w.Start()
	defer w.Stop()
	waitFor(t, 30*time.Second, "8 polls open at once under a backlog", func() bool {
		return svc.peak.Load() >= maxTestPollers
	})
	svc.backlog.Store(0)
	if p := svc.peak.Load(); p > maxTestPollers {
		t.Errorf("%d polls open at once, more than the maximum 8", p)
	}
	// One poll open, and no second one opened while two empty polls'
	// time went by.
	waitFor(t, 30*time.Second, "the pollers to shrink to 1 poll open", func() bool {
		svc.peak.Store(svc.open.Load())
		time.Sleep(2 * emptyPollAfter)
		return svc.peak.Load() == 1 && svc.open.Load() == 1
	})
}

func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func TestRateLimiterSpacesEvents(t *testing.T) {
	r := newRateLimiter(20) // 50ms apart
	start := time.Now()
	for range 5 {
		if err := r.wait(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if d := time.Since(start); d < 190*time.Millisecond {
		t.Fatalf("5 events at 20/s took %v, want at least 200ms minus the first", d)
	}
}
