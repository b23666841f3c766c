// Command recordhistories records workflow history fixtures with the official
// Temporal Go SDK (go.temporal.io/sdk) against a throwaway Temporal dev server.
//
// It starts `temporal server start-dev` on a free loopback port, runs a worker
// with the workflows of workflows.go, executes each fixture workflow once,
// and writes each run's full history as protojson (the shape of
// `temporal workflow show --output json`) plus manifest.json to -out.
//
//	cd tools/recordhistories && go run . -out ../../testdata/histories
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

const (
	taskQueue    = "fixtures"
	manifestName = "manifest.json"
)

// fixture describes one recorded workflow execution. A fixture may produce
// several history files (one per run when the workflow continues as new).
type fixture struct {
	// name is the fixture name: workflow ID "fixture-<name>", file <name>.json
	// (or <name>-runN.json for continue-as-new chains).
	name     string
	workflow any
	args     []any
	// want is the expected final result (of the last run).
	want any
	// signals, if set, are delivered as "add" signals: the first one with
	// SignalWithStartWorkflow, the rest while the workflow runs.
	signals []string
	// workflowTaskTimeout overrides the server default (10s) when non-zero.
	workflowTaskTimeout time.Duration
	// multiRun records one file per run of a continue-as-new chain.
	multiRun bool
	// large fixtures take a while; -skip-large leaves them out.
	large bool
	// check, if set, checks what the history does not show (the fate of
	// children after their parent closed).
	check func(ctx context.Context, c client.Client, events []*historypb.HistoryEvent) error
	// drive, if set, starts the workflow and sends it what the fixture is
	// about (updates, see updates.go) in place of the start above.
	drive driver
	// activityFailures is how many ActivityTaskFailed events the workflow
	// causes on purpose: more is an incidental failure (see checkClean).
	activityFailures int
}

// driver starts a fixture's workflow with opts and drives it to its end.
type driver func(ctx context.Context, c client.Client, opts client.StartWorkflowOptions, f fixture) (client.WorkflowRun, error)

func fixtures() []fixture {
	return append([]fixture{
		{name: "activities", workflow: ActivitiesWorkflow, args: []any{"Temporal"},
			want: "Hello, Temporal! | HELLO, TEMPORAL! | Hello, HELLO, TEMPORAL!!"},
		{name: "timers", workflow: TimersWorkflow, want: 2},
		{name: "signals", workflow: SignalsWorkflow, signals: []string{"one", "two", "three"},
			want: []any{"one", "two", "three"}},
		{name: "sideeffects", workflow: SideEffectsWorkflow, want: 41},
		{name: "mutablesideeffects", workflow: MutableSideEffectsWorkflow, want: "v1,v1,v2"},
		{name: "randomstreams", workflow: RandomStreamsWorkflow, want: 2},
		{name: "versions", workflow: VersionsWorkflow, want: "VERSIONED / Hello, VERSIONED!"},
		{name: "continueasnew", workflow: ContinueAsNewWorkflow, args: []any{0}, want: 2, multiRun: true},
		{name: "sequential3", workflow: SequentialActivitiesWorkflow, args: []any{3}, want: 3},
		{name: "sequential1000", workflow: SequentialActivitiesWorkflow, args: []any{1000}, want: 1000, large: true},
		{name: "pingpong10", workflow: PingPongWorkflow, args: []any{10}, want: 10},
		{name: "pingpong20000", workflow: PingPongWorkflow, args: []any{20000}, want: 20000,
			workflowTaskTimeout: time.Minute},
		{name: "sessions", workflow: SessionWorkflow, args: []any{"Temporal"},
			want: "Hello, Temporal! | HELLO, TEMPORAL! | Hello, HELLO, TEMPORAL!!"},
		{name: "parallelsessions", workflow: ParallelSessionsWorkflow, args: []any{3}, want: 6},
		{name: "childresults", workflow: ChildResultsWorkflow,
			want: "Hello, Temporal! | failed: ChildFailure | timed out"},
		{name: "childcancel", workflow: ChildCancelWorkflow, want: "canceled | canceled"},
		{name: "parentclose", workflow: ParentClosePoliciesWorkflow,
			want:  "started children with Abandon, Terminate, RequestCancel",
			check: checkParentClosePolicies},
		{name: "childsignals", workflow: ChildSignalsWorkflow,
			want: "to a child | to an external workflow | no such workflow"},
		{name: "externalcancel", workflow: ExternalCancelWorkflow, want: "delivered | canceled | no such workflow"},
		{name: "childduplicate", workflow: DuplicateChildWorkflow, want: "already started | canceled"},
		{name: "childcancelorder", workflow: CancelTogetherWorkflow, want: "canceled | canceled | canceled",
			check: checkStartedOutOfOrder},
		{name: "childbadmemo", workflow: BadMemoChildWorkflow, want: "already started | Hello, Temporal!"},
		{name: "childidtaken", workflow: TakenIDChildWorkflow, want: "the server says already started | delivered"},
		{name: "negativetimers", workflow: NegativeTimersWorkflow,
			want: "slept: <nil>, timer: true <nil>, await: false <nil>, Hello, Temporal!"},
		{name: "mismatchedargs", workflow: MismatchedArgsWorkflow,
			want: "Hello, Temporal! | Hello, ! | decoding failed: true", activityFailures: 1},
	}, append(localActivityFixtures(), updateFixtures()...)...)
}

// manifestEntry is one element of manifest.json. Input is the JSON array of
// the run's workflow arguments; Result is the JSON result of a completed run
// (null for a run that continued as new, see ContinuedAsNewWith).
type manifestEntry struct {
	File               string          `json:"file"`
	WorkflowType       string          `json:"workflowType"`
	Input              json.RawMessage `json:"input"`
	Result             json.RawMessage `json:"result"`
	Events             int             `json:"events"`
	Signals            []string        `json:"signals,omitempty"`
	ContinuedAsNewWith json.RawMessage `json:"continuedAsNewWith,omitempty"`
}

func main() {
	out := flag.String("out", "../../testdata/histories", "directory to write history JSON files and manifest.json to")
	temporalBin := flag.String("temporal", "", "path to the temporal CLI (default: $PATH, then ~/go/bin/temporal)")
	only := flag.String("only", "", "comma-separated fixture names to record (default: all); other manifest entries are kept")
	skipLarge := flag.Bool("skip-large", false, "skip slow fixtures (sequential1000)")
	flag.Parse()
	log.SetFlags(log.Ltime)

	if err := run(*out, *temporalBin, *only, *skipLarge); err != nil {
		log.Fatal(err)
	}
}

func run(out, temporalBin, only string, skipLarge bool) error {
	selected := map[string]bool{}
	for _, n := range strings.Split(only, ",") {
		if n = strings.TrimSpace(n); n != "" {
			selected[n] = true
		}
	}
	var todo []fixture
	known := map[string]bool{}
	for _, f := range fixtures() {
		known[f.name] = true
		if len(selected) > 0 && !selected[f.name] {
			continue
		}
		if skipLarge && f.large {
			continue
		}
		todo = append(todo, f)
	}
	for n := range selected {
		if !known[n] {
			return fmt.Errorf("unknown fixture %q", n)
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}

	bin, err := findTemporal(temporalBin)
	if err != nil {
		return err
	}
	srv, hostPort, err := startDevServer(bin)
	if err != nil {
		return err
	}
	defer stopDevServer(srv)

	c, err := dial(hostPort, 30*time.Second)
	if err != nil {
		return err
	}
	defer c.Close()

	w := worker.New(c, taskQueue, worker.Options{
		MaxConcurrentActivityExecutionSize:     100,
		MaxConcurrentWorkflowTaskExecutionSize: 10,
		EnableSessionWorker:                    true,
	})
	registerWorkflows(w)
	registerActivities(w)
	if err := w.Start(); err != nil {
		return fmt.Errorf("start worker: %w", err)
	}
	defer w.Stop()

	manifest, err := readManifest(filepath.Join(out, manifestName))
	if err != nil {
		return err
	}
	for _, f := range todo {
		start := time.Now()
		var entries []manifestEntry
		for attempt := 1; ; attempt++ {
			entries, err = record(c, f, out)
			if err == nil {
				break
			}
			var u uncleanError
			var o outOfLuckError
			if !errors.As(err, &u) && !errors.As(err, &o) || attempt == 3 {
				return fmt.Errorf("fixture %s: %w", f.name, err)
			}
			log.Printf("fixture %s attempt %d: %v; recording again", f.name, attempt, err)
		}
		for _, e := range entries {
			log.Printf("%-32s %6d events  (%s)", e.File, e.Events, time.Since(start).Round(time.Millisecond))
			manifest = upsert(manifest, e)
		}
	}
	manifest = sortManifest(manifest)
	return writeManifest(filepath.Join(out, manifestName), manifest)
}

// registerWorkflows registers every workflow of workflows.go with its default
// (function) name. Also used by replay_test.go.
func registerWorkflows(r worker.WorkflowRegistry) {
	r.RegisterWorkflow(ActivitiesWorkflow)
	r.RegisterWorkflow(TimersWorkflow)
	r.RegisterWorkflow(SignalsWorkflow)
	r.RegisterWorkflow(SideEffectsWorkflow)
	r.RegisterWorkflow(MutableSideEffectsWorkflow)
	r.RegisterWorkflow(RandomStreamsWorkflow)
	r.RegisterWorkflow(VersionsWorkflow)
	r.RegisterWorkflow(ContinueAsNewWorkflow)
	r.RegisterWorkflow(SequentialActivitiesWorkflow)
	r.RegisterWorkflow(PingPongWorkflow)
	r.RegisterWorkflow(NegativeTimersWorkflow)
	r.RegisterWorkflow(MismatchedArgsWorkflow)
	r.RegisterWorkflow(SessionWorkflow)
	r.RegisterWorkflow(ParallelSessionsWorkflow)
	r.RegisterWorkflow(ChildResultsWorkflow)
	r.RegisterWorkflow(ChildCancelWorkflow)
	r.RegisterWorkflow(ParentClosePoliciesWorkflow)
	r.RegisterWorkflow(ChildSignalsWorkflow)
	r.RegisterWorkflow(ExternalCancelWorkflow)
	r.RegisterWorkflow(DuplicateChildWorkflow)
	r.RegisterWorkflow(CancelTogetherWorkflow)
	r.RegisterWorkflow(BadMemoChildWorkflow)
	r.RegisterWorkflow(TakenIDChildWorkflow)
	r.RegisterWorkflow(AbandoningChildWorkflow)
	r.RegisterWorkflow(GreetChildWorkflow)
	r.RegisterWorkflow(FailingChildWorkflow)
	r.RegisterWorkflow(SleepingChildWorkflow)
	r.RegisterWorkflow(ListeningChildWorkflow)
	r.RegisterWorkflow(LocalActivitiesWorkflow)
	r.RegisterWorkflow(AccountWorkflow)
}

// registerActivities registers every activity of workflows.go with its
// default (function) name.
func registerActivities(r worker.ActivityRegistry) {
	r.RegisterActivity(Greet)
	r.RegisterActivity(Shout)
	r.RegisterActivity(Increment)
}

func record(c client.Client, f fixture, out string) ([]manifestEntry, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()

	opts := client.StartWorkflowOptions{
		ID:                  "fixture-" + f.name,
		TaskQueue:           taskQueue,
		WorkflowTaskTimeout: f.workflowTaskTimeout,
		// The dev server is in-memory, but allow re-running against a
		// persistent one too.
		WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
	}
	var wr client.WorkflowRun
	var err error
	if f.drive != nil {
		if wr, err = f.drive(ctx, c, opts, f); err != nil {
			return nil, err
		}
	} else if len(f.signals) > 0 {
		wr, err = c.SignalWithStartWorkflow(ctx, opts.ID, SignalsSignalName, f.signals[0], opts, f.workflow, f.args...)
		if err != nil {
			return nil, fmt.Errorf("signal-with-start: %w", err)
		}
		for _, s := range f.signals[1:] {
			// Let the worker complete a workflow task first so that each
			// signal lands in its own workflow task.
			time.Sleep(500 * time.Millisecond)
			if err := c.SignalWorkflow(ctx, opts.ID, wr.GetRunID(), SignalsSignalName, s); err != nil {
				return nil, fmt.Errorf("signal: %w", err)
			}
		}
	} else {
		wr, err = c.ExecuteWorkflow(ctx, opts, f.workflow, f.args...)
		if err != nil {
			return nil, fmt.Errorf("start: %w", err)
		}
	}

	// Get follows continue-as-new chains to the last run (and then reports
	// that run's ID), so remember the first run's ID now.
	firstRunID := wr.GetRunID()
	resultPtr := reflect.New(reflect.TypeOf(f.want))
	if err := wr.Get(ctx, resultPtr.Interface()); err != nil {
		return nil, fmt.Errorf("workflow failed: %w", err)
	}
	if got := resultPtr.Elem().Interface(); !reflect.DeepEqual(normalize(got), normalize(f.want)) {
		return nil, fmt.Errorf("result = %#v, want %#v", got, f.want)
	}

	var entries []manifestEntry
	runID := firstRunID
	for runNo := 1; ; runNo++ {
		events, err := fetchHistory(ctx, c, opts.ID, runID)
		if err != nil {
			return nil, err
		}
		file := f.name + ".json"
		if f.multiRun {
			file = fmt.Sprintf("%s-run%d.json", f.name, runNo)
		}
		if err := checkClean(events, f.activityFailures); err != nil {
			return nil, err
		}
		if f.check != nil {
			if err := f.check(ctx, c, events); err != nil {
				return nil, err
			}
		}
		entry, next, err := describe(file, events)
		if err != nil {
			return nil, err
		}
		if runNo == 1 && len(f.signals) > 0 {
			entry.Signals = f.signals
		}
		if err := writeHistory(filepath.Join(out, file), events); err != nil {
			return nil, err
		}
		entries = append(entries, entry)
		if next == "" {
			break
		}
		if !f.multiRun {
			return nil, fmt.Errorf("run %s continued as new unexpectedly", runID)
		}
		runID = next
	}
	return entries, nil
}

// uncleanError reports a history that recorded an incidental failure (a
// workflow task timed out or failed, an activity was retried), typically
// because the machine was overloaded. Such a fixture is recorded again.
type uncleanError struct{ event *historypb.HistoryEvent }

func (u uncleanError) Error() string {
	return fmt.Sprintf("history has incidental event %d %v", u.event.GetEventId(), u.event.GetEventType())
}

func checkClean(events []*historypb.HistoryEvent, activityFailures int) error {
	for _, ev := range events {
		switch ev.GetEventType() {
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED:
			if activityFailures--; activityFailures < 0 {
				return uncleanError{ev}
			}
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT,
			enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED,
			enumspb.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT:
			return uncleanError{ev}
		}
		if a := ev.GetActivityTaskStartedEventAttributes(); a != nil && a.GetAttempt() != 1 {
			return uncleanError{ev}
		}
	}
	return nil
}

// normalize round-trips v through JSON so that typed and untyped values compare.
func normalize(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return v
	}
	return out
}

func fetchHistory(ctx context.Context, c client.Client, workflowID, runID string) ([]*historypb.HistoryEvent, error) {
	it := c.GetWorkflowHistory(ctx, workflowID, runID, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var events []*historypb.HistoryEvent
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			return nil, fmt.Errorf("get history of %s/%s: %w", workflowID, runID, err)
		}
		events = append(events, ev)
	}
	return events, nil
}

// describe builds the manifest entry of one run's history from the history
// itself, and returns the next run ID when the run continued as new.
func describe(file string, events []*historypb.HistoryEvent) (manifestEntry, string, error) {
	e := manifestEntry{File: file, Events: len(events)}
	if len(events) == 0 {
		return e, "", errors.New("empty history")
	}
	started := events[0].GetWorkflowExecutionStartedEventAttributes()
	if started == nil {
		return e, "", fmt.Errorf("first event is %v", events[0].GetEventType())
	}
	e.WorkflowType = started.GetWorkflowType().GetName()
	var err error
	if e.Input, err = payloadsJSON(started.GetInput()); err != nil {
		return e, "", fmt.Errorf("input: %w", err)
	}
	last := events[len(events)-1]
	switch last.GetEventType() {
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED:
		res, err := payloadsJSON(last.GetWorkflowExecutionCompletedEventAttributes().GetResult())
		if err != nil {
			return e, "", fmt.Errorf("result: %w", err)
		}
		var arr []json.RawMessage
		if err := json.Unmarshal(res, &arr); err != nil || len(arr) != 1 {
			return e, "", fmt.Errorf("want exactly one result payload, got %s", res)
		}
		e.Result = arr[0]
		return e, "", nil
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW:
		attrs := last.GetWorkflowExecutionContinuedAsNewEventAttributes()
		e.Result = json.RawMessage("null")
		if e.ContinuedAsNewWith, err = payloadsJSON(attrs.GetInput()); err != nil {
			return e, "", fmt.Errorf("continue-as-new input: %w", err)
		}
		return e, attrs.GetNewExecutionRunId(), nil
	default:
		return e, "", fmt.Errorf("last event is %v, want completed or continued-as-new", last.GetEventType())
	}
}

// payloadsJSON renders json/plain (or binary/null) payloads as a JSON array.
func payloadsJSON(p *commonpb.Payloads) (json.RawMessage, error) {
	vals := []json.RawMessage{}
	for _, pl := range p.GetPayloads() {
		switch enc := string(pl.GetMetadata()["encoding"]); enc {
		case "json/plain":
			if !json.Valid(pl.GetData()) {
				return nil, fmt.Errorf("invalid JSON payload %q", pl.GetData())
			}
			vals = append(vals, json.RawMessage(pl.GetData()))
		case "binary/null":
			vals = append(vals, json.RawMessage("null"))
		default:
			return nil, fmt.Errorf("unsupported payload encoding %q", enc)
		}
	}
	return json.Marshal(vals)
}

// writeHistory writes events as a History message in protojson, the format of
// `temporal workflow show --output json`, and checks that the official
// client.HistoryFromJSON reads it back identically.
func writeHistory(path string, events []*historypb.HistoryEvent) error {
	h := &historypb.History{Events: events}
	data, err := protojson.MarshalOptions{Multiline: true, Indent: "  "}.Marshal(h)
	if err != nil {
		return err
	}
	data = append(data, '\n')
	back, err := client.HistoryFromJSON(bytes.NewReader(data), client.HistoryJSONOptions{})
	if err != nil {
		return fmt.Errorf("%s: HistoryFromJSON: %w", path, err)
	}
	if !proto.Equal(back, h) {
		return fmt.Errorf("%s: history does not round-trip through HistoryFromJSON", path)
	}
	return os.WriteFile(path, data, 0o644)
}

func readManifest(path string) ([]manifestEntry, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var m []manifestEntry
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

func writeManifest(path string, m []manifestEntry) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

func upsert(m []manifestEntry, e manifestEntry) []manifestEntry {
	for i := range m {
		if m[i].File == e.File {
			m[i] = e
			return m
		}
	}
	return append(m, e)
}

// sortManifest orders entries like fixtures(), keeping unknown entries last.
func sortManifest(m []manifestEntry) []manifestEntry {
	rank := func(file string) int {
		for i, f := range fixtures() {
			if file == f.name+".json" || strings.HasPrefix(file, f.name+"-run") {
				return i
			}
		}
		return len(fixtures())
	}
	out := make([]manifestEntry, 0, len(m))
	for r := 0; r <= len(fixtures()); r++ {
		var group []manifestEntry
		for _, e := range m {
			if rank(e.File) == r {
				group = append(group, e)
			}
		}
		// stable by file name within a fixture (run1, run2, ...)
		for i := 1; i < len(group); i++ {
			for j := i; j > 0 && group[j].File < group[j-1].File; j-- {
				group[j], group[j-1] = group[j-1], group[j]
			}
		}
		out = append(out, group...)
	}
	return out
}

// ---------------------------------------------------------------------------
// Dev server

func findTemporal(flagValue string) (string, error) {
	if flagValue != "" {
		return flagValue, nil
	}
	if p, err := exec.LookPath("temporal"); err == nil {
		return p, nil
	}
	home, _ := os.UserHomeDir()
	for _, p := range []string{filepath.Join(home, "go", "bin", "temporal"), "/root/go/bin/temporal"} {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", errors.New("temporal CLI not found: put it on PATH or pass -temporal")
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func startDevServer(bin string) (*exec.Cmd, string, error) {
	port, err := freePort()
	if err != nil {
		return nil, "", err
	}
	cmd := exec.Command(bin, "server", "start-dev", "--headless",
		"--ip", "127.0.0.1", "--port", strconv.Itoa(port), "--log-level", "error")
	cmd.Stdout = os.Stderr
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, "", fmt.Errorf("start dev server: %w", err)
	}
	hostPort := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	log.Printf("dev server pid %d on %s", cmd.Process.Pid, hostPort)
	return cmd, hostPort, nil
}

func stopDevServer(cmd *exec.Cmd) {
	_ = cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		log.Printf("dev server did not stop after SIGTERM; killing pid %d", cmd.Process.Pid)
		_ = cmd.Process.Kill()
		<-done
	}
}

func dial(hostPort string, timeout time.Duration) (client.Client, error) {
	deadline := time.Now().Add(timeout)
	var lastErr error
	for time.Now().Before(deadline) {
		c, err := client.Dial(client.Options{
			HostPort:  hostPort,
			Namespace: "default",
			Logger:    sdklog.NewStructuredLogger(quietLogger()),
		})
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			_, err = c.CheckHealth(ctx, &client.CheckHealthRequest{})
			cancel()
			if err == nil {
				return c, nil
			}
			c.Close()
		}
		lastErr = err
		time.Sleep(250 * time.Millisecond)
	}
	return nil, fmt.Errorf("dev server at %s not reachable after %s: %w", hostPort, timeout, lastErr)
}

// quietLogger logs SDK warnings and errors only.
func quietLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}
