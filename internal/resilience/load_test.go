package resilience

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
)

// TestLoadThroughSmallCache runs 2,000 workflows of mixed shapes
// (activities, timers, signals, child workflows) through one worker whose sticky cache
// holds 20 runs, so that most workflow tasks find their run evicted and
// replay its history. Every workflow completes with its result, the
// worker's heap stays bounded, and once the worker stops no goroutine of
// it is left.
func TestLoadThroughSmallCache(t *testing.T) {
	// It bounds the heap of the test process: an embedded server's would
	// count there too.
	testharness.NeedsDevServer(t, "a server in another process")
	const cacheSize = 20
	n, heapLimit := 2000, uint64(64<<20)
	if heavy() {
		n = 10000
	}
	worker.SetStickyWorkflowCacheSize(cacheSize)
	defer worker.SetStickyWorkflowCacheSize(10000)

	calls := &callCounter{}
	c, err := client.Dial(client.Options{
		HostPort:          testharness.HostPort(t),
		Logger:            &lineLogger{},
		ConnectionOptions: client.ConnectionOptions{DialOptions: []grpc.DialOption{grpc.WithChainUnaryInterceptor(calls.count)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	starter := dialDirect(t)

	before := settledGoroutines()
	heap := startHeapMonitor()
	tq := unique(t, "tq")
	w := newMixedWorker(c, tq, worker.Options{MaxConcurrentWorkflowTaskPollers: 4, MaxConcurrentActivityTaskPollers: 4})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	ins := mixedInputs(n, 200*time.Millisecond, 0)
	start := time.Now()
	ids := startMixed(t, starter, tq, unique(t, "wf"), ins, client.StartWorkflowOptions{})
	started := time.Since(start)
	// 2,000 workflows take under 20 s on a quiet machine without -race,
	// and 4-5 minutes with -race on a 2-core machine loaded 4-5 times
	// over: the deadline only bounds a run that stopped making progress.
	requireResults(t, starter, ids, ins, 10*time.Minute)
	elapsed := time.Since(start)
	w.Stop()
	peak := heap.stop()
	after := waitGoroutines(t, before, 5*time.Second)

	tasks, replays := calls.get(completeTaskMethod), calls.get(historyMethod)
	t.Logf("%d workflows in %v (started in %v, %.0f workflows/s); %d workflow tasks, %d full-history fetches (cache of %d runs); peak heap in use %.1f MiB; goroutines %d before the worker, %d after Stop",
		n, elapsed.Round(time.Millisecond), started.Round(time.Millisecond), float64(n)/elapsed.Seconds(), tasks, replays, cacheSize,
		float64(peak)/(1<<20), before, after)
	if replays < int64(n)/2 {
		t.Errorf("only %d of %d workflow tasks replayed history: the cache was not small enough to test evictions", replays, tasks)
	}
	if peak > heapLimit {
		t.Errorf("peak heap in use %.1f MiB, want at most %.0f MiB", float64(peak)/(1<<20), float64(heapLimit)/(1<<20))
	}
}

const (
	completeTaskMethod = "/temporal.api.workflowservice.v1.WorkflowService/RespondWorkflowTaskCompleted"
	historyMethod      = "/temporal.api.workflowservice.v1.WorkflowService/GetWorkflowExecutionHistory"
)

// TestStopLeavesNoGoroutine stops a worker whose cache holds runs of
// workflows still open: the runs' coroutines end with the worker, as in
// go.temporal.io/sdk, where the last worker of a process to stop clears
// the cache they share.
func TestStopLeavesNoGoroutine(t *testing.T) {
	c := dialDirect(t)
	before := settledGoroutines()
	tq := unique(t, "tq")
	w := newMixedWorker(c, tq, worker.Options{})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	// Workflows that wait for a signal nobody sends stay open, cached.
	ins := make([]MixedInput, 20)
	for i := range ins {
		ins[i] = MixedInput{Shape: ShapeSignal, N: i}
	}
	ctx := context.Background()
	var ids []string
	for i := range ins {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, Mixed, ins[i])
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, run.GetID())
	}
	defer func() {
		for _, id := range ids {
			_ = c.TerminateWorkflow(ctx, id, "", "test done")
		}
	}()
	waitUntil(t, 30*time.Second, "the workflows' first tasks", func() bool {
		return runtime.NumGoroutine() >= before+len(ids)
	})
	w.Stop()
	after := waitGoroutines(t, before, 5*time.Second)
	t.Logf("goroutines: %d before the worker started, %d after Stop", before, after)
}

// callCounter counts the calls of a connection by method.
type callCounter struct {
	mu    sync.Mutex
	calls map[string]int64
}

func (cc *callCounter) count(ctx context.Context, method string, req, reply any, conn *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	cc.mu.Lock()
	if cc.calls == nil {
		cc.calls = map[string]int64{}
	}
	cc.calls[method]++
	cc.mu.Unlock()
	return invoker(ctx, method, req, reply, conn, opts...)
}

func (cc *callCounter) get(method string) int64 {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	return cc.calls[method]
}

// heapMonitor samples the heap in use until stopped.
type heapMonitor struct {
	peak atomic.Uint64
	done chan struct{}
	wg   sync.WaitGroup
}

func startHeapMonitor() *heapMonitor {
	m := &heapMonitor{done: make(chan struct{})}
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > m.peak.Load() {
				m.peak.Store(ms.HeapInuse)
			}
			select {
			case <-tick.C:
			case <-m.done:
				return
			}
		}
	}()
	return m
}

// stop ends sampling and returns the peak heap in use.
func (m *heapMonitor) stop() uint64 {
	close(m.done)
	m.wg.Wait()
	return m.peak.Load()
}

// settledGoroutines is the goroutine count once it stops falling.
func settledGoroutines() int {
	n := runtime.NumGoroutine()
	for range 50 {
		time.Sleep(20 * time.Millisecond)
		m := runtime.NumGoroutine()
		if m >= n {
			return m
		}
		n = m
	}
	return n
}

// waitGoroutines waits until at most before goroutines run, and fails t
// with their stacks if that does not happen within limit.
func waitGoroutines(t *testing.T, before int, limit time.Duration) int {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		n := runtime.NumGoroutine()
		if n <= before {
			return n
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines left after Stop, %d before the worker started:\n%s", n, before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}
