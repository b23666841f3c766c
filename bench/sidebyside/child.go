package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"time"

	officialclient "go.temporal.io/sdk/client"
)

// This file is the child process (a worker or a replayer of one SDK) and
// the parent's handle on it. The parent re-executes its own binary with
// "-child <config>"; the child reports on file descriptor 3, one JSON
// object a line, and reads requests on stdin. Its stdout and stderr are
// the parent's stderr, where SDK warnings and errors show.

// childConfig is the child's command-line configuration.
type childConfig struct {
	Side      string `json:"side"`
	HostPort  string `json:"hostPort,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	// TaskQueue is where the child's worker polls; empty starts no worker
	// (a replay child).
	TaskQueue string `json:"taskQueue,omitempty"`
	CacheSize int    `json:"cacheSize,omitempty"`
	// Metrics gives the worker's client a recording metrics handler.
	Metrics bool `json:"metrics,omitempty"`
	// Nexus registers the nexus workloads' Nexus service with the worker.
	Nexus bool `json:"nexus,omitempty"`
	// Deployment, when set, makes the worker a versioned one: worker
	// deployment versioning on, with this version.
	Deployment *deploymentVersion `json:"deployment,omitempty"`
	// MemProfileRate, when set, is runtime.MemProfileRate from the start:
	// a finer heap profile than the default one sample per 512 KiB.
	MemProfileRate int `json:"memProfileRate,omitempty"`
}

// request is one request of the parent.
type request struct {
	// Op is snap, cpuprofile-start, cpuprofile-stop, profile, replay or stop.
	Op string `json:"op"`
	// GC runs runtime.GC twice before a snap.
	GC bool `json:"gc,omitempty"`
	// Path is a profile's file; for replay, a CPU profile of the measured
	// replays.
	Path string `json:"path,omitempty"`
	// Profile names the runtime/pprof profile of a profile op (heap,
	// goroutine, ...); Debug is its debug level.
	Profile string `json:"profile,omitempty"`
	Debug   int    `json:"debug,omitempty"`
	// History, Workflow, MinTime and MinIters configure a replay op: it
	// replays until both MinTime of CPU and MinIters replays are spent.
	History  string        `json:"history,omitempty"`
	Workflow string        `json:"workflow,omitempty"`
	MinTime  time.Duration `json:"minTime,omitempty"`
	MinIters int           `json:"minIters,omitempty"`
}

// snapshot is the state of the child process.
type snapshot struct {
	// CPU is the process's user+system CPU time so far.
	CPU        time.Duration `json:"cpu"`
	HeapInuse  uint64        `json:"heapInuse"`
	StackInuse uint64        `json:"stackInuse"`
	// RSS is the process's resident set size (0 where unknown).
	RSS        uint64 `json:"rss"`
	Goroutines int    `json:"goroutines"`
	// Entered counts WaitSignalWorkflow runs entered in the process.
	Entered int64 `json:"entered"`
	// MetricSeries counts the series of the SDK's metrics (temporal_...)
	// the worker's handler recorded, with -metrics.
	MetricSeries int `json:"metricSeries"`
	// GoroutinesCreated counts the goroutines the process started, from
	// the runtime's own counter.
	GoroutinesCreated uint64 `json:"goroutinesCreated"`
	// ThreadSleeps and ReadWriteCalls count the voluntary context switches
	// of the process's threads and its read and write system calls.
	ThreadSleeps   uint64 `json:"threadSleeps"`
	ReadWriteCalls uint64 `json:"readWriteCalls"`
}

// replayResult is the answer to a replay op.
type replayResult struct {
	Iters int           `json:"iters"`
	CPU   time.Duration `json:"cpu"`
	Wall  time.Duration `json:"wall"`
	Alloc uint64        `json:"alloc"`
}

type response struct {
	Err    string        `json:"err,omitempty"`
	Snap   *snapshot     `json:"snap,omitempty"`
	Replay *replayResult `json:"replay,omitempty"`
}

// childArg recognizes the child's command line: -child <config>.
func childArg(args []string) (string, bool) {
	if len(args) == 2 && (args[0] == "-child" || args[0] == "--child") {
		return args[1], true
	}
	return "", false
}

// childMain runs a child process and returns its exit code.
func childMain(configJSON string) int {
	out := os.NewFile(3, "results")
	if err := serveChild(configJSON, os.Stdin, out); err != nil {
		fmt.Fprintln(os.Stderr, "sidebyside child:", err)
		return 1
	}
	return 0
}

func serveChild(configJSON string, in io.Reader, out io.Writer) error {
	var cfg childConfig
	if err := json.Unmarshal([]byte(configJSON), &cfg); err != nil {
		return fmt.Errorf("bad child configuration: %w", err)
	}
	eng, err := engineFor(cfg.Side)
	if err != nil {
		return err
	}
	if cfg.MemProfileRate > 0 {
		runtime.MemProfileRate = cfg.MemProfileRate
	}
	enc := json.NewEncoder(out)
	var w worker
	if cfg.TaskQueue != "" {
		if w, err = eng.startWorker(cfg, quietLogger(os.Stderr)); err != nil {
			_ = enc.Encode(response{Err: "starting the worker: " + err.Error()})
			return err
		}
	}
	stopWorker := func() {
		if w != nil {
			w.stop()
			w = nil
		}
	}
	defer stopWorker()
	// The first message says the child is ready.
	if err := enc.Encode(response{Snap: takeSnapshot(false)}); err != nil {
		return err
	}
	var cpuProfile *os.File
	dec := json.NewDecoder(bufio.NewReader(in))
	for {
		var req request
		if err := dec.Decode(&req); err != nil {
			if errors.Is(err, io.EOF) {
				return nil // the parent is gone
			}
			return err
		}
		var resp response
		switch req.Op {
		case "snap":
			resp.Snap = takeSnapshot(req.GC)
		case "cpuprofile-start":
			f, err := os.Create(req.Path)
			if err == nil {
				if err = pprof.StartCPUProfile(f); err != nil {
					f.Close()
				} else {
					cpuProfile = f
				}
			}
			resp.setErr(err)
		case "cpuprofile-stop":
			if cpuProfile != nil {
				pprof.StopCPUProfile()
				resp.setErr(cpuProfile.Close())
				cpuProfile = nil
			}
		case "profile":
			resp.setErr(writeProfile(req.Profile, req.Path, req.Debug))
		case "replay":
			r, err := replay(eng, req)
			resp.Replay = r
			resp.setErr(err)
		case "stop":
			stopWorker()
			return enc.Encode(resp)
		default:
			resp.Err = fmt.Sprintf("unknown op %q", req.Op)
		}
		if err := enc.Encode(resp); err != nil {
			return err
		}
	}
}

func (r *response) setErr(err error) {
	if err != nil {
		r.Err = err.Error()
	}
}

func takeSnapshot(gc bool) *snapshot {
	if gc {
		runtime.GC()
		runtime.GC()
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return &snapshot{
		CPU:        processCPU(),
		HeapInuse:  ms.HeapInuse,
		StackInuse: ms.StackInuse,
		RSS:        residentBytes(),
		Goroutines: runtime.NumGoroutine(),
		Entered:    entered.Load(),

		MetricSeries: childMetrics.sdkSeries(),

		GoroutinesCreated: goroutinesCreated(),
		ThreadSleeps:      threadSleeps(),
		ReadWriteCalls:    readWriteCalls(),
	}
}

// goroutinesCreated reads the runtime's count of goroutines started.
func goroutinesCreated() uint64 {
	sample := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return sample[0].Value.Uint64()
}

func writeProfile(name, path string, debug int) error {
	p := pprof.Lookup(name)
	if p == nil {
		return fmt.Errorf("no profile %q", name)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := p.WriteTo(f, debug); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// replay replays a history once to check it, then again and again until
// req.MinTime of process CPU and req.MinIters replays are spent.
func replay(eng engine, req request) (*replayResult, error) {
	f, err := os.Open(req.History)
	if err != nil {
		return nil, err
	}
	// Both sides read the file with the official parser, outside the
	// measurement (this SDK has no public client.HistoryFromJSON).
	h, err := officialclient.HistoryFromJSON(f, officialclient.HistoryJSONOptions{})
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", req.History, err)
	}
	replayOnce, err := eng.replayer(req.Workflow)
	if err != nil {
		return nil, err
	}
	if err := replayOnce(h); err != nil {
		return nil, fmt.Errorf("replaying %s: %w", req.History, err)
	}
	if req.Path != "" {
		pf, err := os.Create(req.Path)
		if err != nil {
			return nil, err
		}
		if err := pprof.StartCPUProfile(pf); err != nil {
			pf.Close()
			return nil, err
		}
		defer func() {
			pprof.StopCPUProfile()
			pf.Close()
		}()
	}
	runtime.GC()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	cpu0, wall0 := processCPU(), time.Now()
	iters := 0
	for iters < max(req.MinIters, 1) || processCPU()-cpu0 < req.MinTime {
		if err := replayOnce(h); err != nil {
			return nil, fmt.Errorf("replaying %s: %w", req.History, err)
		}
		iters++
	}
	cpu, wall := processCPU()-cpu0, time.Since(wall0)
	runtime.ReadMemStats(&ms1)
	return &replayResult{Iters: iters, CPU: cpu, Wall: wall, Alloc: ms1.TotalAlloc - ms0.TotalAlloc}, nil
}

// ---------------------------------------------------------------------------
// The parent's side.

// child is a running child process.
type child struct {
	side    string
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	enc     *json.Encoder
	replies chan reply
	exited  chan struct{}
	waitErr error
}

type reply struct {
	resp response
	err  error
}

// startChild starts a child with cfg and waits until it is ready (its
// worker started) or ctx ends.
func startChild(ctx context.Context, cfg childConfig, logs io.Writer) (*child, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cfgJSON, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, "-child", string(cfgJSON))
	cmd.ExtraFiles = []*os.File{w}
	cmd.Stdout, cmd.Stderr = logs, logs
	stdin, err := cmd.StdinPipe()
	if err != nil {
		r.Close()
		w.Close()
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return nil, fmt.Errorf("starting the %s child: %w", cfg.Side, err)
	}
	w.Close()
	c := &child{side: cfg.Side, cmd: cmd, stdin: stdin, enc: json.NewEncoder(stdin),
		replies: make(chan reply, 4), exited: make(chan struct{})}
	// The reader sends every message, then the error that ends the stream
	// (EOF); at most one request is outstanding, so the buffer never fills.
	go func() {
		defer r.Close()
		dec := json.NewDecoder(bufio.NewReader(r))
		for {
			var resp response
			err := dec.Decode(&resp)
			c.replies <- reply{resp, err}
			if err != nil {
				return
			}
		}
	}()
	go func() {
		c.waitErr = cmd.Wait()
		close(c.exited)
	}()
	if _, err := c.read(ctx); err != nil {
		c.kill()
		return nil, err
	}
	return c, nil
}

// read waits for the child's next message.
func (c *child) read(ctx context.Context) (response, error) {
	select {
	case rep := <-c.replies:
		if rep.err != nil {
			select {
			case <-c.exited:
				return response{}, fmt.Errorf("the %s child exited: %v", c.side, c.waitErr)
			case <-time.After(5 * time.Second):
			}
			return response{}, fmt.Errorf("reading from the %s child: %w", c.side, rep.err)
		}
		if rep.resp.Err != "" {
			return rep.resp, fmt.Errorf("%s child: %s", c.side, rep.resp.Err)
		}
		return rep.resp, nil
	case <-ctx.Done():
		return response{}, fmt.Errorf("waiting for the %s child: %w", c.side, ctx.Err())
	}
}

// call sends req and waits for the answer.
func (c *child) call(ctx context.Context, req request) (response, error) {
	if err := c.enc.Encode(req); err != nil {
		return response{}, fmt.Errorf("writing to the %s child: %w", c.side, err)
	}
	return c.read(ctx)
}

func (c *child) snap(ctx context.Context, gc bool) (*snapshot, error) {
	resp, err := c.call(ctx, request{Op: "snap", GC: gc})
	return resp.Snap, err
}

// stop stops the child's worker and waits for the child to exit.
func (c *child) stop(ctx context.Context) error {
	if _, err := c.call(ctx, request{Op: "stop"}); err != nil {
		c.kill()
		return err
	}
	select {
	case <-c.exited:
		if c.waitErr != nil {
			return fmt.Errorf("the %s child: %w", c.side, c.waitErr)
		}
		return nil
	case <-ctx.Done():
		c.kill()
		return fmt.Errorf("waiting for the %s child to exit: %w", c.side, ctx.Err())
	}
}

// kill ends the child if it still runs.
func (c *child) kill() {
	select {
	case <-c.exited:
		return
	default:
	}
	_ = c.cmd.Process.Kill()
	c.stdin.Close()
	<-c.exited
}
