package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/durable-go/sdk/testsuite"
)

func main() {
	if cfg, ok := childArg(os.Args[1:]); ok {
		os.Exit(childMain(cfg))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// config is the command line.
type config struct {
	quick           bool
	rounds          int
	latencyRuns     int
	warmup          int
	workflows       int
	concurrency     int
	memoryWorkflows int
	memoryRelease   bool
	scaleWorkflows  int
	scaleActivities []int
	replayTime      time.Duration
	replayIters     int
	histories       string
	replayFile      string
	dispatcherFile  string
	profileDir      string
	profileAll      bool
	profileOfficial bool
	only            map[string]bool
	temporal        string
	server          string
	timeout         time.Duration
	verbose         bool
	serverLog       bool
	metrics         bool

	// localActivityRuns are the workflows of the localactivities workload.
	localActivityRuns int
	// nexusWorkflows are the workflows of each nexus workload, run twice:
	// without and with the Nexus call.
	nexusWorkflows int
	// versioningWorkflows are the workflows of the versioning workload,
	// run once by an unversioned and once by a versioned worker;
	// versioningAutoUpgrade makes the versioned worker's default
	// behavior AutoUpgrade instead of Pinned.
	versioningWorkflows   int
	versioningAutoUpgrade bool
	// typedWorkflows are the workflows of the typed workload, run once
	// plain and once typed.
	typedWorkflows int
}

// workloadNames are the workloads in the order they run.
var workloadNames = []string{"latency", "throughput", "replay", "dispatcher", "memory", "localactivities", "scale", "nexus", "versioning", "typed"}

func parseFlags(args []string, stderr io.Writer) (*config, error) {
	fs := flag.NewFlagSet("sidebyside", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: go run . [flags]\n\nRuns each workload with github.com/durable-go/sdk (ours) and go.temporal.io/sdk (official)\nagainst one dev server and prints both figures and their ratio.\n\nflags:\n")
		fs.PrintDefaults()
	}
	c := &config{}
	var only, scale string
	fs.BoolVar(&c.quick, "quick", false, "a run of about two minutes: smaller counts (flags given explicitly still win)")
	fs.IntVar(&c.rounds, "rounds", 1, "run every workload this many times per SDK, alternating which SDK goes first")
	fs.IntVar(&c.latencyRuns, "latency-runs", 300, "latency: sequential workflows measured")
	fs.IntVar(&c.localActivityRuns, "localactivity-runs", 300, "localactivities: sequential workflows of 10 local activities measured")
	fs.IntVar(&c.warmup, "warmup", 10, "workflows run before each measurement, not counted")
	fs.IntVar(&c.workflows, "workflows", 2000, "throughput: workflows")
	fs.IntVar(&c.concurrency, "concurrency", 50, "throughput, memory and scale: concurrent starters")
	fs.IntVar(&c.memoryWorkflows, "memory-workflows", 2000, "memory: workflows cached at once")
	fs.BoolVar(&c.memoryRelease, "memory-release", true, "memory: signal the workflows after measuring and wait for them to complete (false leaves\nthem open, and \"kept after completion\" unmeasured: for counts where that takes as long\nas caching them)")
	fs.IntVar(&c.scaleWorkflows, "scale-workflows", 300, "scale: workflows per activity count (fewer than -workflows: 16 activities take 33 task dispatches each)")
	fs.IntVar(&c.nexusWorkflows, "nexus-workflows", 500, "nexus: workflows per operation kind, run once without and once with the Nexus call")
	fs.IntVar(&c.versioningWorkflows, "versioning-workflows", 1000, "versioning: one-activity workflows, run once by an unversioned and once by a versioned worker")
	fs.BoolVar(&c.versioningAutoUpgrade, "versioning-auto-upgrade", false, "versioning: the versioned worker's default versioning behavior is AutoUpgrade (default: Pinned)")
	fs.IntVar(&c.typedWorkflows, "typed-workflows", 1000, "typed: one-activity workflows, run once plain and once through our typed API (the official side: plain twice)")
	fs.StringVar(&scale, "scale-activities", "1,4,16", "scale: activities per workflow, comma-separated")
	fs.DurationVar(&c.replayTime, "replay-time", 2*time.Second, "replay and dispatcher: CPU time to spend replaying, per SDK")
	fs.IntVar(&c.replayIters, "replay-iters", 3, "replay and dispatcher: at least this many measured replays")
	fs.StringVar(&c.histories, "histories", "../../testdata/histories", "directory of the recorded histories")
	fs.StringVar(&c.replayFile, "replay-history", "sequential1000.json", "replay: history of "+sequentialName)
	fs.StringVar(&c.dispatcherFile, "dispatcher-history", "pingpong20000.json", "dispatcher: history of "+pingPongName)
	fs.StringVar(&c.profileDir, "profile", "", "directory for profiles: where a target is missed, run our side once more with a CPU\nprofile (or heap and goroutine profiles, for memory) written there")
	fs.BoolVar(&c.profileOfficial, "profile-official", false, "with -profile: profile the official SDK's side too, the same way, to compare the two")
	fs.BoolVar(&c.profileAll, "profile-all", false, "with -profile: profile our side of every workload, met or not, with each profile it has\n(a CPU and a heap profile of the workloads the worker runs: latency, throughput,\nlocalactivities, scale)")
	fs.StringVar(&only, "only", "", "run only these workloads, comma-separated ("+strings.Join(workloadNames, ",")+")")
	fs.StringVar(&c.temporal, "temporal", "", "the temporal CLI binary (default: on PATH or in $(go env GOPATH)/bin)")
	fs.StringVar(&c.server, "server", "", "use the dev server at this host:port instead of starting one")
	fs.DurationVar(&c.timeout, "timeout", 5*time.Minute, "give up on one SDK's run of one workload after this long")
	fs.BoolVar(&c.verbose, "v", false, "report the progress of the workloads' phases on stderr")
	fs.BoolVar(&c.serverLog, "server-log", false, "show the dev server's log output on stderr")
	fs.BoolVar(&c.metrics, "metrics", false, "give both SDKs' workers a metrics handler that records every metric in memory (the same\nhandler on both sides), so that worker CPU includes the SDKs' own metrics")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	if c.quick {
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		quick := map[string]func(){
			"latency-runs":     func() { c.latencyRuns = 100 },
			"warmup":           func() { c.warmup = 5 },
			"workflows":        func() { c.workflows = 500 },
			"memory-workflows": func() { c.memoryWorkflows = 500 },
			"scale-workflows":  func() { c.scaleWorkflows = 100 },
			"replay-time":      func() { c.replayTime = 500 * time.Millisecond },
		}
		quick["localactivity-runs"] = func() { c.localActivityRuns = 100 }
		quick["nexus-workflows"] = func() { c.nexusWorkflows = 200 }
		quick["versioning-workflows"] = func() { c.versioningWorkflows = 200 }
		quick["typed-workflows"] = func() { c.typedWorkflows = 200 }
		for name, apply := range quick {
			if !set[name] {
				apply()
			}
		}
	}
	for _, s := range strings.Split(scale, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-scale-activities: bad count %q", s)
		}
		c.scaleActivities = append(c.scaleActivities, n)
	}
	if only != "" {
		c.only = map[string]bool{}
		for _, name := range strings.Split(only, ",") {
			name = strings.TrimSpace(name)
			if !contains(workloadNames, name) {
				return nil, fmt.Errorf("-only: unknown workload %q (have %s)", name, strings.Join(workloadNames, ", "))
			}
			c.only[name] = true
		}
	}
	if c.rounds < 1 || c.latencyRuns < 1 || c.localActivityRuns < 1 || c.workflows < 1 || c.concurrency < 1 || c.memoryWorkflows < 1 || c.scaleWorkflows < 1 || c.nexusWorkflows < 1 || c.versioningWorkflows < 1 || c.typedWorkflows < 1 || c.warmup < 0 {
		return nil, errors.New("-rounds, -latency-runs, -localactivity-runs, -workflows, -concurrency, -memory-workflows, -scale-workflows, -nexus-workflows, -versioning-workflows and -typed-workflows must be positive")
	}
	var err error
	if c.histories, err = filepath.Abs(c.histories); err != nil {
		return nil, err
	}
	for _, f := range []string{c.replayFile, c.dispatcherFile} {
		if _, err := os.Stat(filepath.Join(c.histories, f)); err != nil {
			return nil, fmt.Errorf("history %s: %w (run from bench/sidebyside or set -histories)", f, err)
		}
	}
	if c.profileAll && c.profileDir == "" {
		return nil, errors.New("-profile-all needs -profile DIR: the directory the profiles go to")
	}
	if c.profileOfficial && c.profileDir == "" {
		return nil, errors.New("-profile-official needs -profile DIR: the directory the profiles go to")
	}
	if c.profileDir != "" {
		if err := os.MkdirAll(c.profileDir, 0o755); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// serverDynamicConfig lifts the dev server's per-shard limits on reading
// its task queues (20 reads a second each by default). The dev server has
// a single history shard, so these limits cap the whole server: every
// workflow or activity task dispatched after the first burst waits about
// 50 ms for the transfer queue's reader, and a one-activity workflow
// takes 150 ms whatever the SDK. A server with many shards rarely meets
// them.
var serverDynamicConfig = []string{
	"history.transferProcessorMaxPollRPS=10000",
	"history.timerProcessorMaxPollRPS=10000",
	"history.visibilityProcessorMaxPollRPS=10000",
	// The outbound queue dispatches Nexus operations and their
	// completion callbacks: the same per-shard limit, and 100 tasks a
	// second per destination.
	"history.outboundProcessorMaxPollRPS=10000",
	"history.outboundQueue.hostScheduler.maxTaskRPS=10000",
}

// run is the program: it returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if _, ok := stderr.(*os.File); !ok {
		// Children, clients and progress lines all write to stderr.
		stderr = &syncWriter{w: stderr}
	}
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintln(stderr, "sidebyside:", err)
		return 2
	}
	serverLog := io.Discard
	if cfg.serverLog {
		serverLog = stderr
	}
	start := time.Now()
	load0 := loadAverage()
	hostPort := cfg.server
	if hostPort == "" {
		var extra []string
		for _, kv := range serverDynamicConfig {
			extra = append(extra, "--dynamic-config-value", kv)
		}
		server, err := testsuite.StartDevServer(ctx, testsuite.DevServerOptions{
			ExistingPath: cfg.temporal, LogLevel: "error", Stdout: serverLog, Stderr: serverLog, ExtraArgs: extra,
		})
		if err != nil {
			fmt.Fprintln(stderr, "sidebyside: starting the dev server:", err)
			return 1
		}
		defer server.Stop()
		hostPort = server.FrontendHostPort()
	}

	b := &bench{cfg: cfg, hostPort: hostPort, namespace: "default", stdout: stdout, stderr: stderr}
	if err := b.dial(); err != nil {
		fmt.Fprintln(stderr, "sidebyside:", err)
		return 1
	}
	defer b.close()

	fmt.Fprintf(stdout, "side-by-side: %s (ours) vs %s (official)\n", moduleVersion("github.com/durable-go/sdk"), moduleVersion("go.temporal.io/sdk"))
	fmt.Fprintf(stdout, "%s %s/%s, %d CPUs, GOMAXPROCS %d; load average at start %s\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0), load0)
	if cfg.server == "" {
		fmt.Fprintf(stdout, "dev server %s started with %s\n", b.hostPort, strings.Join(serverDynamicConfig, " "))
	} else {
		fmt.Fprintf(stdout, "dev server %s (-server)\n", b.hostPort)
	}
	fmt.Fprintf(stdout, "worker CPU and memory are measured in a child process per SDK and workload (getrusage, runtime.MemStats); %s\n", cfg.describeCounts())
	if cfg.metrics {
		fmt.Fprintln(stdout, "-metrics: both SDKs' workers record their metrics in an in-memory registry (the same handler code on both sides)")
	}

	ok := true
	for round := 1; round <= cfg.rounds; round++ {
		if !b.runRound(ctx, round) {
			ok = false
		}
		if ctx.Err() != nil {
			break
		}
	}
	fmt.Fprintf(stdout, "\ntotal time %s; load average at end %s\n", time.Since(start).Round(time.Second), loadAverage())
	if !ok {
		return 1
	}
	return 0
}

func (c *config) describeCounts() string {
	return fmt.Sprintf("latency %d runs, throughput %d workflows, memory %d workflows, localactivities %d runs x %d local activities, scale %d workflows x %v activities, nexus 2 x %d workflows, versioning 2 x %d workflows (%s), typed 2 x %d workflows, %d concurrent starters, replay >= %s CPU and >= %d replays",
		c.latencyRuns, c.workflows, c.memoryWorkflows, c.localActivityRuns, localActivitiesPerWorkflow, c.scaleWorkflows, c.scaleActivities, c.nexusWorkflows, c.versioningWorkflows, c.versioningBehavior(), c.typedWorkflows, c.concurrency, c.replayTime, c.replayIters)
}

// versioningBehavior names the versioned worker's default behavior.
func (c *config) versioningBehavior() string {
	if c.versioningAutoUpgrade {
		return "AutoUpgrade"
	}
	return "Pinned"
}

// syncWriter serializes writes to w.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// moduleVersion names a module of this binary and its version.
func moduleVersion(path string) string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return path
	}
	for _, m := range info.Deps {
		if m.Path == path {
			if m.Replace != nil {
				return path + " (" + m.Replace.Path + ")"
			}
			return path + " " + m.Version
		}
	}
	return path
}

// loadAverage returns the 1, 5 and 15 minute load averages (Linux).
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
