package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/testsuite"
)

// TestBothSDKsEmitTheSameWorkerMetrics runs the same workflows on a worker
// of each SDK, each recording its metrics, and compares the series: the
// names and tags of the worker's metrics, and of the request metrics of
// its polls and reports, must be the same, and so must the counts that do
// not depend on timing.
func TestBothSDKsEmitTheSameWorkerMetrics(t *testing.T) {
	cli := testharness.RequireCLI(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	server, err := testsuite.StartDevServer(ctx, testsuite.DevServerOptions{ExistingPath: cli, LogLevel: "error"})
	if err != nil {
		t.Fatal(err)
	}
	defer server.Stop()
	series := map[string]map[string]int64{}
	for _, side := range []string{sideOurs, sideOfficial} {
		series[side] = recordWorkerMetrics(ctx, t, server.FrontendHostPort(), side)
	}
	ours, official := series[sideOurs], series[sideOfficial]
	for _, key := range slices.Sorted(maps.Keys(official)) {
		if _, ok := ours[key]; !ok {
			t.Errorf("only the official SDK emits %s", key)
		}
	}
	for _, key := range slices.Sorted(maps.Keys(ours)) {
		if _, ok := official[key]; !ok {
			t.Errorf("only ours emits %s", key)
		}
	}
	for _, name := range []string{
		"temporal_workflow_completed", "temporal_workflow_endtoend_latency",
		"temporal_activity_execution_latency", "temporal_activity_succeed_endtoend_latency",
		"temporal_worker_start", "temporal_poller_start",
	} {
		for key, n := range official {
			if strings.HasPrefix(key, name+",") && ours[key] != n {
				t.Errorf("%s: ours %d, official %d", key, ours[key], n)
			}
		}
	}
}

// recordWorkerMetrics runs three workflows of two activities each on a
// worker of side and returns the series its metrics handler recorded (the
// task queue's name replaced by TQ), with their counts. It leaves out what
// differs for reasons other than the metrics code:
//
//   - the local activity worker's series (worker_type LocalActivityWorker):
//     this workload runs no local activity;
//   - go.temporal.io/sdk v1.50 counts a sticky cache forced eviction for
//     every completed workflow (it clears the run's state before its
//     eviction callback reads it), against its own stated intent that only
//     open runs count; this SDK counts only those;
//   - the requests of worker start and shutdown (GetSystemInfo,
//     DescribeNamespace, ShutdownWorker), polls cut short by the shutdown,
//     and empty polls, which depend on timing.
func recordWorkerMetrics(ctx context.Context, t *testing.T, hostPort, side string) map[string]int64 {
	t.Helper()
	childMetrics = &registry{series: map[string]*series{}}
	eng, err := engineFor(side)
	if err != nil {
		t.Fatal(err)
	}
	taskQueue := fmt.Sprintf("metrics-%s-%d", side, time.Now().UnixNano())
	logger := quietLogger(io.Discard)
	w, err := eng.startWorker(childConfig{HostPort: hostPort, Namespace: "default", TaskQueue: taskQueue, CacheSize: 100, Metrics: true}, logger)
	if err != nil {
		t.Fatal(err)
	}
	newStarter := newOursStarter
	if side == sideOfficial {
		newStarter = newOfficialStarter
	}
	s, err := newStarter(hostPort, "default", logger)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	for i := range 3 {
		run, err := s.start(ctx, fmt.Sprintf("%s-%d", taskQueue, i), taskQueue, sequentialName, 2)
		if err != nil {
			t.Fatal(err)
		}
		var n int
		if err := run.Get(ctx, &n); err != nil {
			t.Fatal(err)
		}
	}
	// The worker records a completion once the server took it, which may
	// be after the client saw the result.
	for deadline := time.Now().Add(10 * time.Second); childMetrics.total("temporal_workflow_completed") < 3; {
		if time.Now().After(deadline) {
			t.Fatalf("%s: the worker recorded %d completions, want 3", side, childMetrics.total("temporal_workflow_completed"))
		}
		time.Sleep(20 * time.Millisecond)
	}
	w.stop()
	out := map[string]int64{}
	childMetrics.mu.Lock()
	defer childMetrics.mu.Unlock()
	for key, s := range childMetrics.series {
		if !strings.HasPrefix(key, "temporal_") || leftOut(key) {
			continue
		}
		out[strings.ReplaceAll(key, taskQueue, "TQ")] = s.count.Load()
	}
	return out
}

// total sums the counts of the metric's series.
func (r *registry) total(name string) int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	var n int64
	for key, s := range r.series {
		if strings.HasPrefix(key, name+",") {
			n += s.count.Load()
		}
	}
	return n
}

func leftOut(key string) bool {
	for _, part := range []string{
		"worker_type=LocalActivityWorker", "temporal_sticky_cache_total_forced_eviction", "temporal_workflow_task_queue_poll_empty",
		"operation=GetSystemInfo", "operation=DescribeNamespace", "operation=ShutdownWorker", "status_code=CANCELLED",
	} {
		if strings.Contains(key, part) {
			return true
		}
	}
	return false
}
