package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// bench runs the workloads against one dev server.
type bench struct {
	cfg       *config
	hostPort  string
	namespace string
	stdout    io.Writer
	stderr    io.Writer
	starters  map[string]starter
}

// sideRun is one SDK's run of one workload.
type sideRun struct {
	side      string
	taskQueue string
	// cpuProfile, when set, receives a CPU profile of the worker (or
	// replayer) over the measured part; heapProfile a heap profile at the
	// memory workload's measuring point (and a goroutine profile beside
	// it), or, for a workload the worker runs, at the end of the measured
	// part: its alloc_space shows what the worker allocated.
	cpuProfile  string
	heapProfile string
	// nexus starts the worker with the nexus workloads' Nexus service.
	nexus bool
	// deployment, when set, starts a versioned worker of this version.
	deployment *deploymentVersion
}

// figures are one side's results, by metric key.
type figures map[string]float64

// workload is one line group of the report.
type workload struct {
	name    string // as printed, e.g. "scale x4"
	group   string // as -only names it, e.g. "scale"
	run     func(ctx context.Context, r *sideRun) (figures, error)
	metrics []metric
	// profiles are the kinds of profile our side can be run with, "cpu"
	// or "heap"; the first shows where the time or memory its target
	// measures goes.
	profiles []string
}

func (b *bench) dial() error {
	b.starters = map[string]starter{}
	logger := quietLogger(b.stderr)
	for side, dial := range map[string]func(string, string, *slog.Logger) (starter, error){
		sideOurs: newOursStarter, sideOfficial: newOfficialStarter,
	} {
		s, err := dial(b.hostPort, b.namespace, logger)
		if err != nil {
			b.close()
			return fmt.Errorf("connecting the %s client: %w", side, err)
		}
		b.starters[side] = s
	}
	return nil
}

// logf reports progress on stderr with -v.
func (b *bench) logf(format string, args ...any) {
	if b.cfg.verbose {
		fmt.Fprintf(b.stderr, "sidebyside: "+format+"\n", args...)
	}
}

func (b *bench) close() {
	for _, s := range b.starters {
		s.close()
	}
}

func (b *bench) workloads() []workload {
	c := b.cfg
	ws := []workload{
		{name: "latency", group: "latency", profiles: cpuAndHeap, run: b.latencyOf(sequentialName, 1, c.latencyRuns), metrics: latencyMetrics()},
		{name: "throughput", group: "throughput", profiles: cpuAndHeap, run: b.throughputOf(1, c.workflows), metrics: throughputMetrics()},
		{name: "replay", group: "replay", profiles: []string{"cpu"}, run: b.replayOf(c.replayFile, sequentialName), metrics: []metric{
			{key: "cpu", label: "CPU / replay", unit: unitDuration, target: &target{atMost: true, ratio: 0.2}},
			{key: "alloc", label: "allocated / replay", unit: unitBytes},
		}},
		{name: "dispatcher", group: "dispatcher", profiles: []string{"cpu"}, run: b.replayOf(c.dispatcherFile, pingPongName), metrics: []metric{
			{key: "cpu", label: "CPU / replay", unit: unitDuration, target: &target{atMost: true, ratio: 0.1}},
			{key: "alloc", label: "allocated / replay", unit: unitBytes},
		}},
		{name: "memory", group: "memory", profiles: []string{"heap"}, run: b.memory, metrics: []metric{
			{key: "total", label: "heap+stack / workflow", unit: unitBytes, target: &target{atMost: true, ratio: 0.5}},
			{key: "heap", label: "heap / workflow", unit: unitBytes},
			{key: "stack", label: "stack / workflow", unit: unitBytes},
			{key: "goroutines", label: "goroutines / workflow", unit: unitCount},
			{key: "rssPerWorkflow", label: "process RSS / workflow", unit: unitBytes},
			{key: "rss", label: "process RSS, all cached", unit: unitBytes},
			{key: "retained", label: "kept after completion / wf", unit: unitBytes},
		}},
	}
	ws = append(ws, workload{name: "localactivities", group: "localactivities", profiles: cpuAndHeap,
		run: b.latencyOf(localActivitiesName, localActivitiesPerWorkflow, c.localActivityRuns), metrics: latencyMetrics()})
	for _, n := range c.scaleActivities {
		ws = append(ws, workload{name: fmt.Sprintf("scale x%d", n), group: "scale", profiles: cpuAndHeap,
			run: b.throughputOf(n, c.scaleWorkflows), metrics: throughputMetrics()})
	}
	ws = append(ws,
		workload{name: "nexus sync", group: "nexus", profiles: cpuAndHeap, run: b.nexusOf(nexusSyncOperation, c.nexusWorkflows), metrics: nexusMetrics()},
		workload{name: "nexus async", group: "nexus", profiles: cpuAndHeap, run: b.nexusOf(nexusWorkflowOperation, c.nexusWorkflows), metrics: nexusMetrics()},
		workload{name: "versioning", group: "versioning", profiles: cpuAndHeap, run: b.versioningOf(c.versioningWorkflows), metrics: versioningMetrics()},
		workload{name: "typed", group: "typed", profiles: cpuAndHeap, run: b.typedOf(c.typedWorkflows), metrics: typedMetrics()})
	if c.metrics {
		// Both sides recorded the SDK's metrics, in series of similar
		// number.
		for i := range ws {
			if ws[i].name == "latency" || ws[i].group == "throughput" || ws[i].group == "scale" || ws[i].group == "localactivities" || ws[i].group == "nexus" {
				ws[i].metrics = append(ws[i].metrics, metric{key: "series", label: "SDK metric series", unit: unitCount})
			}
		}
	}
	if c.only != nil {
		ws = slices.DeleteFunc(ws, func(w workload) bool { return !c.only[w.group] })
	}
	return ws
}

// localActivitiesPerWorkflow is how many local activities each workflow
// of the localactivities workload runs, one after the other.
const localActivitiesPerWorkflow = 10

func latencyMetrics() []metric {
	return []metric{
		{key: "p50", label: "start-to-result p50", unit: unitDuration, target: &target{atMost: true, ratio: 1.0}},
		{key: "p90", label: "start-to-result p90", unit: unitDuration},
		{key: "p99", label: "start-to-result p99", unit: unitDuration},
		{key: "cpu", label: "worker CPU / workflow", unit: unitDuration},
	}
}

// cpuAndHeap are the profiles of the workloads a worker runs.
var cpuAndHeap = []string{"cpu", "heap"}

func throughputMetrics() []metric {
	return []metric{
		{key: "rate", label: "workflows / second", unit: unitRate, target: &target{atMost: false, ratio: 1.0}},
		{key: "cpu", label: "worker CPU / workflow", unit: unitDuration, target: &target{atMost: true, ratio: 0.5}},
		{key: "cores", label: "worker CPU / wall time", unit: unitCount},
		{key: "goroutines", label: "goroutines started / workflow", unit: unitCount},
		{key: "sleeps", label: "thread sleeps / workflow", unit: unitCount},
		{key: "syscalls", label: "reads+writes / workflow", unit: unitCount},
	}
}

// cacheSize is the sticky cache size of every worker, on both sides: room
// for every workflow of the memory workload.
func (b *bench) cacheSize() int { return max(10000, 2*b.cfg.memoryWorkflows) }

func (b *bench) startWorker(ctx context.Context, r *sideRun) (*child, error) {
	cfg := childConfig{Side: r.side, HostPort: b.hostPort, Namespace: b.namespace, TaskQueue: r.taskQueue, CacheSize: b.cacheSize(), Metrics: b.cfg.metrics, Nexus: r.nexus, Deployment: r.deployment}
	if r.heapProfile != "" {
		cfg.MemProfileRate = 4096
	}
	return startChild(ctx, cfg, b.stderr)
}

// usage is what the worker spent on a measured part.
type usage struct {
	cpu, wall         time.Duration
	goroutinesCreated uint64
	threadSleeps      uint64
	readWriteCalls    uint64
}

// measure runs f and returns the worker's CPU time and the wall time it
// took, with a CPU profile around it if r asks for one.
func measure(ctx context.Context, c *child, r *sideRun, f func() error) (cpu, wall time.Duration, err error) {
	u, err := measureUsage(ctx, c, r, f)
	return u.cpu, u.wall, err
}

// measureUsage is measure with the scheduler's counts.
func measureUsage(ctx context.Context, c *child, r *sideRun, f func() error) (u usage, err error) {
	if r.cpuProfile != "" {
		if _, err := c.call(ctx, request{Op: "cpuprofile-start", Path: r.cpuProfile}); err != nil {
			return usage{}, err
		}
	}
	s0, err := c.snap(ctx, false)
	if err != nil {
		return usage{}, err
	}
	t0 := time.Now()
	if err := f(); err != nil {
		return usage{}, err
	}
	wall := time.Since(t0)
	s1, err := c.snap(ctx, false)
	if err != nil {
		return usage{}, err
	}
	if r.cpuProfile != "" {
		if _, err := c.call(ctx, request{Op: "cpuprofile-stop"}); err != nil {
			return usage{}, err
		}
	}
	if r.heapProfile != "" {
		if _, err := c.call(ctx, request{Op: "profile", Profile: "heap", Path: r.heapProfile}); err != nil {
			return usage{}, err
		}
	}
	return usage{
		cpu:               s1.CPU - s0.CPU,
		wall:              wall,
		goroutinesCreated: s1.GoroutinesCreated - s0.GoroutinesCreated,
		threadSleeps:      s1.ThreadSleeps - s0.ThreadSleeps,
		readWriteCalls:    s1.ReadWriteCalls - s0.ReadWriteCalls,
	}, nil
}

// runMany calls f(ctx, i) for i in [0, n) from conc goroutines; the first
// error cancels the rest and is returned.
func runMany(ctx context.Context, n, conc int, f func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(conc, n) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				if err := f(ctx, i); err != nil {
					cancel(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return ctx.Err()
}

// execute starts a workflow of n activities (SequentialActivitiesWorkflow,
// or LocalActivitiesWorkflow) and waits for its result.
func (b *bench) execute(ctx context.Context, r *sideRun, workflowType, id string, n int) error {
	run, err := b.starters[r.side].start(ctx, id, r.taskQueue, workflowType, n)
	if err != nil {
		return fmt.Errorf("starting %s: %w", id, err)
	}
	var v int
	if err := run.Get(ctx, &v); err != nil {
		return fmt.Errorf("result of %s: %w", id, err)
	}
	if v != n {
		return fmt.Errorf("result of %s: got %d, want %d", id, v, n)
	}
	return nil
}

// latencyOf returns the workload that runs runs workflows of
// workflowType, each with n activities, one after the other, and takes
// the percentiles of their start-to-result times.
func (b *bench) latencyOf(workflowType string, n, runs int) func(context.Context, *sideRun) (figures, error) {
	return func(ctx context.Context, r *sideRun) (figures, error) {
		return b.latency(ctx, r, workflowType, n, runs)
	}
}

func (b *bench) latency(ctx context.Context, r *sideRun, workflowType string, activities, n int) (figures, error) {
	c, err := b.startWorker(ctx, r)
	if err != nil {
		return nil, err
	}
	defer c.kill()
	for i := range b.cfg.warmup {
		if err := b.execute(ctx, r, workflowType, fmt.Sprintf("%s-warmup-%d", r.taskQueue, i), activities); err != nil {
			return nil, err
		}
	}
	times := make([]time.Duration, n)
	cpu, _, err := measure(ctx, c, r, func() error {
		for i := range n {
			t0 := time.Now()
			if err := b.execute(ctx, r, workflowType, fmt.Sprintf("%s-%d", r.taskQueue, i), activities); err != nil {
				return err
			}
			times[i] = time.Since(t0)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	series, err := b.metricSeries(ctx, c)
	if err != nil {
		return nil, err
	}
	if err := c.stop(ctx); err != nil {
		return nil, err
	}
	slices.Sort(times)
	return figures{
		"p50":    float64(percentile(times, 0.50)),
		"p90":    float64(percentile(times, 0.90)),
		"p99":    float64(percentile(times, 0.99)),
		"cpu":    float64(cpu) / float64(n),
		"series": series,
	}, nil
}

// metricSeries is the number of series of the SDK's own metrics the
// worker recorded, with -metrics.
func (b *bench) metricSeries(ctx context.Context, c *child) (float64, error) {
	if !b.cfg.metrics {
		return 0, nil
	}
	s, err := c.snap(ctx, false)
	if err != nil {
		return 0, err
	}
	return float64(s.MetricSeries), nil
}

// percentile is the nearest-rank percentile of sorted times.
func percentile(sorted []time.Duration, p float64) time.Duration {
	i := int(float64(len(sorted))*p+0.999999) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// throughputOf returns the workload that runs n workflows of activities
// activities each from the concurrent starters, each starter waiting for
// its workflow's result before starting the next.
func (b *bench) throughputOf(activities, n int) func(context.Context, *sideRun) (figures, error) {
	return func(ctx context.Context, r *sideRun) (figures, error) {
		c, err := b.startWorker(ctx, r)
		if err != nil {
			return nil, err
		}
		defer c.kill()
		conc := b.cfg.concurrency
		warm := min(b.cfg.warmup*5, conc)
		if err := runMany(ctx, warm, conc, func(ctx context.Context, i int) error {
			return b.execute(ctx, r, sequentialName, fmt.Sprintf("%s-warmup-%d", r.taskQueue, i), activities)
		}); err != nil {
			return nil, err
		}
		u, err := measureUsage(ctx, c, r, func() error {
			return runMany(ctx, n, conc, func(ctx context.Context, i int) error {
				return b.execute(ctx, r, sequentialName, fmt.Sprintf("%s-%d", r.taskQueue, i), activities)
			})
		})
		if err != nil {
			return nil, err
		}
		series, err := b.metricSeries(ctx, c)
		if err != nil {
			return nil, err
		}
		if err := c.stop(ctx); err != nil {
			return nil, err
		}
		return figures{
			"rate":       float64(n) / u.wall.Seconds(),
			"cpu":        float64(u.cpu) / float64(n),
			"cores":      u.cpu.Seconds() / u.wall.Seconds(),
			"goroutines": float64(u.goroutinesCreated) / float64(n),
			"sleeps":     float64(u.threadSleeps) / float64(n),
			"syscalls":   float64(u.readWriteCalls) / float64(n),
			"series":     series,
		}, nil
	}
}

// replayOf returns the workload that replays a recorded history in a
// fresh child process.
func (b *bench) replayOf(file, workflowType string) func(context.Context, *sideRun) (figures, error) {
	return func(ctx context.Context, r *sideRun) (figures, error) {
		c, err := startChild(ctx, childConfig{Side: r.side}, b.stderr)
		if err != nil {
			return nil, err
		}
		defer c.kill()
		resp, err := c.call(ctx, request{Op: "replay", History: filepath.Join(b.cfg.histories, file), Workflow: workflowType,
			MinTime: b.cfg.replayTime, MinIters: b.cfg.replayIters, Path: r.cpuProfile})
		if err != nil {
			return nil, err
		}
		if err := c.stop(ctx); err != nil {
			return nil, err
		}
		res := resp.Replay
		return figures{
			"cpu":   float64(res.CPU) / float64(res.Iters),
			"alloc": float64(res.Alloc) / float64(res.Iters),
		}, nil
	}
}

// memory starts workflows that wait for a signal, waits until each has
// completed its first workflow task (so it sits in the sticky cache), and
// measures the worker's heap, stacks and goroutines before and after;
// then it signals them all and waits for them to complete.
func (b *bench) memory(ctx context.Context, r *sideRun) (figures, error) {
	c, err := b.startWorker(ctx, r)
	if err != nil {
		return nil, err
	}
	defer c.kill()
	// Warm up: a few complete before the first reading.
	warm, err := b.startWaiting(ctx, c, r, r.taskQueue+"-warmup", max(b.cfg.warmup, 1))
	if err == nil {
		err = b.release(ctx, r, warm)
	}
	if err != nil {
		return nil, err
	}
	n := b.cfg.memoryWorkflows
	before, err := c.snap(ctx, true)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	cached, err := b.startWaiting(ctx, c, r, r.taskQueue, n)
	if err != nil {
		return nil, err
	}
	b.logf("memory, %s: %d workflows cached after %s", r.side, n, time.Since(t0).Round(time.Millisecond))
	after, err := c.snap(ctx, true)
	if err != nil {
		return nil, err
	}
	if r.heapProfile != "" {
		if _, err := c.call(ctx, request{Op: "profile", Profile: "heap", Path: r.heapProfile}); err != nil {
			return nil, err
		}
		goroutines := strings.TrimSuffix(r.heapProfile, filepath.Ext(r.heapProfile)) + ".goroutines.txt"
		if _, err := c.call(ctx, request{Op: "profile", Profile: "goroutine", Debug: 1, Path: goroutines}); err != nil {
			return nil, err
		}
	}
	per := func(a, b uint64) float64 { return (float64(a) - float64(b)) / float64(n) }
	figs := figures{
		"heap":           per(after.HeapInuse, before.HeapInuse),
		"stack":          per(after.StackInuse, before.StackInuse),
		"total":          per(after.HeapInuse+after.StackInuse, before.HeapInuse+before.StackInuse),
		"goroutines":     float64(after.Goroutines-before.Goroutines) / float64(n),
		"rssPerWorkflow": per(after.RSS, before.RSS),
		"rss":            float64(after.RSS),
		"retained":       math.NaN(),
	}
	if b.cfg.memoryRelease {
		t0 = time.Now()
		if err := b.release(ctx, r, cached); err != nil {
			return nil, err
		}
		b.logf("memory, %s: %d workflows signaled and completed in %s", r.side, n, time.Since(t0).Round(time.Millisecond))
		final, err := c.snap(ctx, true)
		if err != nil {
			return nil, err
		}
		figs["retained"] = per(final.HeapInuse+final.StackInuse, before.HeapInuse+before.StackInuse)
	}
	if err := c.stop(ctx); err != nil {
		return nil, err
	}
	return figs, nil
}

// waiting are started WaitSignalWorkflow runs.
type waiting struct {
	ids  []string
	runs []getter
}

// startWaiting starts n WaitSignalWorkflows and returns once each has
// completed its first workflow task with none pending.
func (b *bench) startWaiting(ctx context.Context, c *child, r *sideRun, prefix string, n int) (*waiting, error) {
	s0, err := c.snap(ctx, false)
	if err != nil {
		return nil, err
	}
	st := b.starters[r.side]
	w := &waiting{ids: make([]string, n), runs: make([]getter, n)}
	if err := runMany(ctx, n, b.cfg.concurrency, func(ctx context.Context, i int) error {
		w.ids[i] = fmt.Sprintf("%s-%d", prefix, i)
		run, err := st.start(ctx, w.ids[i], r.taskQueue, waitSignalName)
		if err != nil {
			return fmt.Errorf("starting %s: %w", w.ids[i], err)
		}
		w.runs[i] = run
		return nil
	}); err != nil {
		return nil, err
	}
	// Wait until the worker has entered every workflow function before
	// describing them: describing all of them again and again would load
	// the server while it dispatches their tasks.
	for {
		s, err := c.snap(ctx, false)
		if err != nil {
			return nil, err
		}
		if s.Entered-s0.Entered >= int64(n) {
			break
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for the worker to run %d workflows (it entered %d): %w", n, s.Entered-s0.Entered, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
	err = runMany(ctx, n, b.cfg.concurrency, func(ctx context.Context, i int) error {
		return waitFirstTask(ctx, st, w.ids[i])
	})
	return w, err
}

// release signals the workflows and waits for them to complete. Each
// starter signals one and waits for its result before signaling the next:
// signaling all at once would queue more sticky tasks than the server
// dispatches within the sticky schedule-to-start timeout, and they would
// time out to the normal queue.
func (b *bench) release(ctx context.Context, r *sideRun, w *waiting) error {
	st := b.starters[r.side]
	return runMany(ctx, len(w.ids), b.cfg.concurrency, func(ctx context.Context, i int) error {
		if err := st.signal(ctx, w.ids[i], releaseSignal, "done"); err != nil {
			return fmt.Errorf("signaling %s: %w", w.ids[i], err)
		}
		var s string
		if err := w.runs[i].Get(ctx, &s); err != nil {
			return fmt.Errorf("result of %s: %w", w.ids[i], err)
		}
		if s != "done" {
			return fmt.Errorf("result of %s: got %q, want %q", w.ids[i], s, "done")
		}
		return nil
	})
}

// waitFirstTask polls until the workflow has completed its first workflow
// task and has none pending.
func waitFirstTask(ctx context.Context, st starter, id string) error {
	for {
		resp, err := st.describe(ctx, id)
		if err != nil {
			return fmt.Errorf("describing %s: %w", id, err)
		}
		// Started, task scheduled, task started, task completed.
		if resp.GetPendingWorkflowTask() == nil && resp.GetWorkflowExecutionInfo().GetHistoryLength() >= 4 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for the first workflow task of %s: %w", id, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}
