package worker_test

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/devserver"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/internal/tuning"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// concurrency tracks how many calls of an activity run at once.
type concurrency struct {
	running, peak atomic.Int32
}

func (c *concurrency) enter() {
	n := c.running.Add(1)
	for {
		p := c.peak.Load()
		if n <= p || c.peak.CompareAndSwap(p, n) {
			return
		}
	}
}

func (c *concurrency) exit() { c.running.Add(-1) }

// fanOut runs n activities at once and returns how many succeeded.
func fanOut(ctx workflow.Context, n int) (int, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var futures []workflow.Future
	for i := range n {
		futures = append(futures, workflow.ExecuteActivity(ctx, "Slow", i))
	}
	done := 0
	for _, f := range futures {
		if err := f.Get(ctx, nil); err != nil {
			return done, err
		}
		done++
	}
	return done, nil
}

func slowActivity(c *concurrency, d time.Duration) func(context.Context, int) error {
	return func(ctx context.Context, _ int) error {
		c.enter()
		defer c.exit()
		time.Sleep(d)
		return nil
	}
}

// countingSupplier wraps a supplier and counts what the worker tells it.
type countingSupplier struct {
	worker.SlotSupplier
	mu                   sync.Mutex
	used, processed, not int
}

func (s *countingSupplier) MarkSlotUsed(info worker.SlotMarkUsedInfo) {
	s.mu.Lock()
	s.used++
	s.mu.Unlock()
	s.SlotSupplier.MarkSlotUsed(info)
}

func (s *countingSupplier) ReleaseSlot(info worker.SlotReleaseInfo) {
	s.mu.Lock()
	if info.Reason() == tuning.SlotReleaseReasonTaskProcessed {
		s.processed++
	} else {
		s.not++
	}
	s.mu.Unlock()
	s.SlotSupplier.ReleaseSlot(info)
}

// TestFixedSizeTunerBoundsConcurrentActivities runs 8 activities at once
// on a worker whose tuner has 2 activity slots: never more than 2 run at
// once, and a custom supplier wrapped around them sees each slot used and,
// by the time the worker has stopped, released.
func TestFixedSizeTunerBoundsConcurrentActivities(t *testing.T) {
	c := dial(t)
	fixed, err := worker.NewFixedSizeSlotSupplier(2)
	if err != nil {
		t.Fatal(err)
	}
	activities := &countingSupplier{SlotSupplier: fixed}
	workflows, _ := worker.NewFixedSizeSlotSupplier(10)
	local, _ := worker.NewFixedSizeSlotSupplier(10)
	tuner, err := worker.NewCompositeTuner(worker.CompositeTunerOptions{
		WorkflowSlotSupplier: workflows, ActivitySlotSupplier: activities, LocalActivitySlotSupplier: local})
	if err != nil {
		t.Fatal(err)
	}
	var act concurrency
	tq, w := startWorker(t, c, worker.Options{Tuner: tuner}, func(w worker.Worker) {
		w.RegisterWorkflow(fanOut)
		w.RegisterActivityWithOptions(slowActivity(&act, 200*time.Millisecond), activity.RegisterOptions{Name: "Slow"})
	})
	ctx := testCtx(t)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: tq}, fanOut, 8)
	if err != nil {
		t.Fatal(err)
	}
	var done int
	if err := run.Get(ctx, &done); err != nil || done != 8 {
		t.Fatalf("fanOut: %d done, error %v; want 8", done, err)
	}
	if p := act.peak.Load(); p != 2 {
		t.Errorf("at most %d activities ran at once with 2 activity slots, want 2", p)
	}
	// The last slot may be released after the workflow's result is in;
	// a stopped worker has released them all.
	w.Stop()
	activities.mu.Lock()
	defer activities.mu.Unlock()
	if activities.used != 8 || activities.processed != 8 {
		t.Errorf("custom supplier: %d slots marked used, %d released after a task; want 8 and 8", activities.used, activities.processed)
	}
}

// loadedMachine reports memory over any target: a resource-based tuner
// then issues only its minimum of slots.
type loadedMachine struct{}

func (loadedMachine) MemoryUsage(*worker.SysInfoContext) (float64, error) { return 0.99, nil }
func (loadedMachine) CpuUsage(*worker.SysInfoContext) (float64, error)    { return 0.99, nil }

// TestResourceBasedTunerHoldsBackOnALoadedMachine: on a machine whose
// memory is over target, the resource-based tuner runs activities one at
// a time (the minimum of activity slots), and the workflow still
// completes.
func TestResourceBasedTunerHoldsBackOnALoadedMachine(t *testing.T) {
	c := dial(t)
	tuner, err := worker.NewResourceBasedTuner(worker.ResourceBasedTunerOptions{TargetMem: 0.8, TargetCpu: 0.9, InfoSupplier: loadedMachine{}})
	if err != nil {
		t.Fatal(err)
	}
	var act concurrency
	tq, _ := startWorker(t, c, worker.Options{Tuner: tuner}, func(w worker.Worker) {
		w.RegisterWorkflow(fanOut)
		w.RegisterActivityWithOptions(slowActivity(&act, 100*time.Millisecond), activity.RegisterOptions{Name: "Slow"})
	})
	ctx := testCtx(t)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: tq}, fanOut, 4)
	if err != nil {
		t.Fatal(err)
	}
	var done int
	if err := run.Get(ctx, &done); err != nil || done != 4 {
		t.Fatalf("fanOut: %d done, error %v; want 4", done, err)
	}
	if p := act.peak.Load(); p != 1 {
		t.Errorf("at most %d activities ran at once on a loaded machine, want 1 (the minimum)", p)
	}
}

// rpcWatch is a gRPC client interceptor that counts, per method, the
// calls open at once and the responses that carried tasks.
type rpcWatch struct {
	mu    sync.Mutex
	open  map[string]int
	peak  map[string]int
	tasks map[string]int
}

func newRPCWatch() *rpcWatch {
	return &rpcWatch{open: map[string]int{}, peak: map[string]int{}, tasks: map[string]int{}}
}

func (r *rpcWatch) intercept(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	r.mu.Lock()
	r.open[method]++
	r.peak[method] = max(r.peak[method], r.open[method])
	r.mu.Unlock()
	err := invoker(ctx, method, req, reply, cc, opts...)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.open[method]--
	switch resp := reply.(type) {
	case *workflowservice.PollActivityTaskQueueResponse:
		if len(resp.GetTaskToken()) > 0 {
			r.tasks["polled activity"]++
		}
		if d := resp.GetPollerScalingDecision(); d != nil {
			r.tasks[fmt.Sprintf("activity scaling decision %+d", d.GetPollRequestDeltaSuggestion())]++
		}
	case *workflowservice.PollWorkflowTaskQueueResponse:
		if len(resp.GetTaskToken()) > 0 {
			r.tasks["polled workflow"]++
		}
	case *workflowservice.RespondWorkflowTaskCompletedResponse:
		r.tasks["eager activity"] += len(resp.GetActivityTasks())
	case *workflowservice.StartWorkflowExecutionResponse:
		if resp.GetEagerWorkflowTask() != nil {
			r.tasks["eager workflow"]++
		}
	}
	return err
}

func (r *rpcWatch) get(m map[string]int, key string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return m[key]
}

const pollActivityMethod = "/temporal.api.workflowservice.v1.WorkflowService/PollActivityTaskQueue"

// TestOnATunedDevServer runs against a dev server of its own, with eager
// activities enabled (system.enableActivityEagerExecution), long polls that
// expire after 2s (matching.longPollExpirationInterval) so idle pollers
// come back empty soon, and one partition per task queue.
func TestOnATunedDevServer(t *testing.T) {
	testharness.RequireCLI(t)
	server, err := devserver.Start(context.Background(), devserver.Options{Stderr: &bytes.Buffer{}, DynamicConfig: map[string]string{
		"system.enableActivityEagerExecution":  "true",
		"matching.longPollExpirationInterval":  `"2s"`,
		"matching.numTaskqueueReadPartitions":  "1",
		"matching.numTaskqueueWritePartitions": "1",
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = server.Stop() })
	dialWatched := func(t *testing.T) (client.Client, *rpcWatch) {
		watch := newRPCWatch()
		c, err := client.Dial(client.Options{HostPort: server.HostPort(), ConnectionOptions: client.ConnectionOptions{
			DialOptions: []grpc.DialOption{grpc.WithChainUnaryInterceptor(watch.intercept)}}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		return c, watch
	}
	t.Run("EagerActivitiesSkipThePoll", func(t *testing.T) { testEagerActivities(t, dialWatched) })
	t.Run("EagerWorkflowStartSkipsThePoll", func(t *testing.T) { testEagerWorkflowStart(t, dialWatched) })
	t.Run("AutoscaledPollersGrowUnderABacklogAndShrinkWhenIdle", func(t *testing.T) { testAutoscaledPollers(t, dialWatched) })
}

// sequence runs n activities one after the other, the last with eager
// execution disabled by its options when lastNotEager is set.
func sequence(ctx workflow.Context, n int, lastNotEager bool) (int, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	sum := 0
	for i := range n {
		actx := ctx
		if lastNotEager && i == n-1 {
			actx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute, DisableEagerExecution: true})
		}
		var v int
		if err := workflow.ExecuteActivity(actx, Increment, i).Get(ctx, &v); err != nil {
			return 0, err
		}
		sum += v
	}
	return sum, nil
}

func testEagerActivities(t *testing.T, dial func(*testing.T) (client.Client, *rpcWatch)) {
	run := func(t *testing.T, opts worker.Options, lastNotEager bool) *rpcWatch {
		c, watch := dial(t)
		tq, _ := startWorker(t, c, opts, func(w worker.Worker) {
			w.RegisterWorkflow(sequence)
			w.RegisterActivity(Increment)
		})
		ctx := testCtx(t)
		r, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: tq}, sequence, 4, lastNotEager)
		if err != nil {
			t.Fatal(err)
		}
		var sum int
		if err := r.Get(ctx, &sum); err != nil || sum != 1+2+3+4 {
			t.Fatalf("sequence: %d, error %v; want 10", sum, err)
		}
		return watch
	}
	t.Run("Enabled", func(t *testing.T) {
		watch := run(t, worker.Options{}, true)
		if eager, polled := watch.get(watch.tasks, "eager activity"), watch.get(watch.tasks, "polled activity"); eager != 3 || polled != 1 {
			t.Errorf("%d activities came eagerly and %d through polls; want 3 eagerly, and by a poll the one whose options disable it", eager, polled)
		}
	})
	t.Run("Disabled", func(t *testing.T) {
		watch := run(t, worker.Options{DisableEagerActivities: true}, false)
		if eager, polled := watch.get(watch.tasks, "eager activity"), watch.get(watch.tasks, "polled activity"); eager != 0 || polled != 4 {
			t.Errorf("with DisableEagerActivities: %d activities came eagerly and %d through polls; want 0 and 4", eager, polled)
		}
	})
}

func testEagerWorkflowStart(t *testing.T, dial func(*testing.T) (client.Client, *rpcWatch)) {
	c, watch := dial(t)
	tq, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) {
		w.RegisterWorkflow(sequence)
		w.RegisterActivity(Increment)
	})
	ctx := testCtx(t)
	for _, eager := range []bool{true, false} {
		r, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: tq, EnableEagerStart: eager}, sequence, 0, false)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Get(ctx, nil); err != nil {
			t.Fatal(err)
		}
		want := 1 // the non-eager start's task, through a poll
		if eager {
			want = 0
		}
		if n := watch.get(watch.tasks, "polled workflow"); n != want {
			t.Errorf("EnableEagerStart %v: %d workflow tasks came through polls, want %d", eager, n, want)
		}
	}
	if n := watch.get(watch.tasks, "eager workflow"); n != 1 {
		t.Errorf("%d starts brought their first task eagerly, want 1", n)
	}
}

func testAutoscaledPollers(t *testing.T, dial func(*testing.T) (client.Client, *rpcWatch)) {
	c, watch := dial(t)
	tq := unique(t, "tq")
	// A worker that polls no activities schedules a backlog of them...
	scheduler := worker.New(c, tq, worker.Options{LocalActivityWorkerOnly: true})
	scheduler.RegisterWorkflow(fanOut)
	if err := scheduler.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(scheduler.Stop)
	ctx := testCtx(t)
	r, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: tq}, fanOut, 300)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	// ... that a worker with autoscaled activity pollers drains.
	var act concurrency
	w := worker.New(c, tq, worker.Options{DisableWorkflowWorker: true, ActivityTaskPollerBehavior: worker.NewPollerBehaviorAutoscaling(
		worker.PollerBehaviorAutoscalingOptions{InitialNumberOfPollers: 1, MinimumNumberOfPollers: 1, MaximumNumberOfPollers: 6})})
	w.RegisterActivityWithOptions(slowActivity(&act, 20*time.Millisecond), activity.RegisterOptions{Name: "Slow"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	var done int
	if err := r.Get(ctx, &done); err != nil || done != 300 {
		t.Fatalf("fanOut: %d done, error %v; want 300", done, err)
	}
	if p := watch.get(watch.peak, pollActivityMethod); p < 4 {
		t.Errorf("at most %d activity polls open while a backlog of 300 drained, want the pollers to grow from 1 (to at least 4 of 6)", p)
	}
	// Idle, polls expire empty every 2s and the pollers shrink to 1.
	deadline := time.Now().Add(30 * time.Second)
	for watch.get(watch.open, pollActivityMethod) > 1 {
		if time.Now().After(deadline) {
			t.Fatalf("%d activity polls still open after 30s idle, want 1", watch.get(watch.open, pollActivityMethod))
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("activity polls: %d at most under the backlog, 1 when idle; the server's scaling decisions: %d up, %d down",
		watch.get(watch.peak, pollActivityMethod), watch.get(watch.tasks, "activity scaling decision +1"), watch.get(watch.tasks, "activity scaling decision -1"))
}
