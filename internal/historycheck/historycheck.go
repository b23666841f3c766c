// Package historycheck shows, in the examples' tests, that the embedded
// server (temporaltest) writes the histories a Temporal server writes: a
// test runs its example's program against the embedded server, then
// Check compares the event types of the workflows the program ran with a
// golden file recorded from the same program on durable-devserver
// (Temporal server 1.32.1).
//
// The golden files hold event type names only, per workflow ID and run.
// They are rewritten, from a dev server and never from the embedded
// server, by running the example's test with -update:
//
//	go test ./examples/signalquery -run EmbeddedServer -update
//
// With -update, Server starts durable-devserver (or uses the server at
// TEMPORAL_ADDRESS, when set) and the test runs its program there
// instead.
package historycheck

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/devserver"
)

var update = flag.Bool("update", false, "record the examples' golden histories from a dev server (TEMPORAL_ADDRESS, else a durable-devserver this starts)")

// Comparison says how much of the histories' order a check holds the
// embedded server to.
type Comparison int

const (
	// Exact compares every event type, in order: for workflows whose
	// events come in one order whatever the timing, because nothing from
	// outside (a signal, an update, a cancellation, a child's or
	// another activity's outcome) can arrive while a workflow task runs.
	Exact Comparison = iota
	// OutcomeEvents compares the number of runs and the event types but
	// the workflow tasks', sorted, of all runs together: what the
	// workflow did and what came of it. For workflows where what arrives
	// from outside races with their workflow tasks, which decides how the
	// events interleave and how many workflow tasks run, and, for a
	// signal sent to a workflow that continues as new, which run records
	// it, on any server.
	OutcomeEvents
)

// Golden is the content of a golden file: the workflows a program ran,
// each with its runs' event type names, first run first.
type Golden struct {
	RecordedOn string     `json:"recordedOn"`
	Workflows  []Workflow `json:"workflows"`
}

// Workflow is one workflow ID's runs, first to last (more than one when
// it continued as new).
type Workflow struct {
	ID   string     `json:"id"`
	Runs [][]string `json:"runs"`
}

// Updating reports whether the test binary runs with -update, to record
// the golden files from a dev server.
func Updating() bool { return *update }

// Server returns the address the example's program should run against:
// embedded (the embedded server's address) normally; with -update, the
// dev server at TEMPORAL_ADDRESS or, when that is empty, a
// durable-devserver started for the test and stopped when it ends.
func Server(t testing.TB, embedded string) string {
	t.Helper()
	if !*update {
		return embedded
	}
	if address := os.Getenv("TEMPORAL_ADDRESS"); address != "" {
		return address
	}
	path, err := devserver.FindTestServer()
	if err != nil {
		t.Fatalf("recording golden histories needs a dev server: %v", err)
	}
	srv, err := devserver.Start(context.Background(), devserver.Options{ExistingPath: path})
	if err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	t.Cleanup(func() { _ = srv.Stop() })
	t.Logf("recording the golden histories on %s at %s", path, srv.HostPort())
	return srv.HostPort()
}

// Dial returns a client of the default namespace at hostPort, closed when
// the test ends.
func Dial(t testing.TB, hostPort string) client.Client {
	t.Helper()
	c, err := client.Dial(client.Options{HostPort: hostPort})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// Check reads, through c, the histories of every run of the workflows
// with the given IDs (a workflow that continued as new has several) and
// compares their event types with the golden file, as how says. With
// -update it writes them to the golden file instead; c must then reach
// the dev server Server returned.
func Check(t testing.TB, c client.Client, golden string, how Comparison, workflowIDs ...string) {
	t.Helper()
	got := Golden{RecordedOn: "durable-devserver (Temporal server 1.32.1)"}
	for _, id := range workflowIDs {
		runs, err := runsOf(c, id)
		if err != nil {
			t.Fatalf("reading the history of workflow %s: %v", id, err)
		}
		got.Workflows = append(got.Workflows, Workflow{ID: id, Runs: runs})
	}
	if *update {
		write(t, golden, got)
		return
	}
	want := read(t, golden)
	if len(got.Workflows) != len(want.Workflows) {
		t.Fatalf("checked %d workflows, %s has %d: rerun with -update after changing which workflows the example runs", len(got.Workflows), golden, len(want.Workflows))
	}
	for i, w := range want.Workflows {
		g := got.Workflows[i]
		if g.ID != w.ID {
			t.Errorf("workflow %d is %s, %s has %s", i, g.ID, golden, w.ID)
			continue
		}
		if len(g.Runs) != len(w.Runs) {
			t.Errorf("workflow %s ran %d times on this server, %d times on the dev server (%s)", g.ID, len(g.Runs), len(w.Runs), golden)
			continue
		}
		if how == OutcomeEvents {
			gotEvents, wantEvents := outcome(g.Runs), outcome(w.Runs)
			if !slices.Equal(gotEvents, wantEvents) {
				t.Errorf("workflow %s: its runs' events but the workflow tasks', sorted, differ from the dev server's (%s)\n got %v\nwant %v",
					g.ID, golden, gotEvents, wantEvents)
			}
			continue
		}
		for r := range w.Runs {
			if !slices.Equal(g.Runs[r], w.Runs[r]) {
				t.Errorf("workflow %s, run %d: its events differ from the dev server's (%s)\n got %v\nwant %v",
					g.ID, r+1, golden, g.Runs[r], w.Runs[r])
			}
		}
	}
}

// outcome returns the event types of runs but the workflow tasks',
// sorted.
func outcome(runs [][]string) []string {
	var events []string
	for _, run := range runs {
		for _, e := range run {
			if !strings.HasPrefix(e, "WorkflowTask") {
				events = append(events, e)
			}
		}
	}
	slices.Sort(events)
	return events
}

// runsOf returns the event types of each run of workflow id, first run
// first, walking back from the latest run through the runs it continued.
func runsOf(c client.Client, id string) ([][]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var runs [][]string
	runID := ""
	for {
		var events []string
		previous := ""
		it := c.GetWorkflowHistory(ctx, id, runID, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				return nil, err
			}
			if a := ev.GetWorkflowExecutionStartedEventAttributes(); a != nil {
				previous = a.GetContinuedExecutionRunId()
			}
			events = append(events, ev.GetEventType().String())
		}
		runs = append(runs, events)
		if previous == "" {
			slices.Reverse(runs)
			return runs, nil
		}
		runID = previous
	}
}

func read(t testing.TB, path string) Golden {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: record it from a dev server with -update", err)
	}
	var g Golden
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	return g
}

func write(t testing.TB, path string, g Golden) {
	t.Helper()
	// One line a run: a diff of two recordings shows which runs changed.
	var b strings.Builder
	fmt.Fprintf(&b, "{\n  \"recordedOn\": %q,\n  \"workflows\": [", g.RecordedOn)
	for i, w := range g.Workflows {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n    {\"id\": %q, \"runs\": [", w.ID)
		for r, events := range w.Runs {
			line, err := json.Marshal(events)
			if err != nil {
				t.Fatal(err)
			}
			if r > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "\n      %s", line)
		}
		b.WriteString("\n    ]}")
	}
	b.WriteString("\n  ]\n}\n")
	data := []byte(b.String())
	if !json.Valid(data) {
		t.Fatalf("the recording of %s is not JSON:\n%s", path, data)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("recorded %s from the dev server: %d workflows", path, len(g.Workflows))
}
