package worker_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/devserver"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

const customKeywordName = "DurableTestKeyword"

func TestMain(m *testing.M) {
	testharness.Main(m, testharness.WithServerOptions(devserver.Options{
		SearchAttributes: map[string]string{customKeywordName: "Keyword"},
		// The server forgets a stopped worker's polls after this, rather
		// than 5 minutes, so that TestDeploymentRollout can delete the
		// version whose workers it stopped, as an operator would later.
		DynamicConfig: map[string]string{"matching.PollerHistoryTTL": `"2s"`},
	}))
}

var seq atomic.Int64

// unique names a workflow ID or task queue after the test.
func unique(t *testing.T, what string) string {
	return fmt.Sprintf("%s-%s-%d-%d", strings.ReplaceAll(t.Name(), "/", "-"), what, time.Now().UnixNano(), seq.Add(1))
}

func dial(t *testing.T) client.Client {
	t.Helper()
	c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// startWorker starts a worker on a new task queue with the given
// registrations, and stops it when the test ends.
func startWorker(t *testing.T, c client.Client, opts worker.Options, register func(w worker.Worker)) (taskQueue string, w worker.Worker) {
	t.Helper()
	taskQueue = unique(t, "tq")
	w = worker.New(c, taskQueue, opts)
	register(w)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	return taskQueue, w
}

// startWorkerOn starts a worker on an existing task queue.
func startWorkerOn(t *testing.T, c client.Client, taskQueue string, register func(w worker.Worker)) (string, worker.Worker) {
	t.Helper()
	w := worker.New(c, taskQueue, worker.Options{})
	register(w)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	return taskQueue, w
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func registerFixtures(w worker.Worker) {
	for _, wf := range fixtureWorkflows() {
		w.RegisterWorkflow(wf)
	}
	w.RegisterActivity(Greet)
	w.RegisterActivity(Shout)
	w.RegisterActivity(Increment)
}

// TestFixtureWorkflowsRunAndReplay runs the workflows whose histories
// go.temporal.io/sdk recorded, on this SDK's worker, checks their results
// against the recorded ones, and replays the new histories from the server.
func TestFixtureWorkflowsRunAndReplay(t *testing.T) {
	c := dial(t)
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{EnableSessionWorker: true}, registerFixtures)
	b, err := os.ReadFile(filepath.Join(fixtures, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var manifest []struct {
		File         string            `json:"file"`
		WorkflowType string            `json:"workflowType"`
		Input        []json.RawMessage `json:"input"`
		Result       json.RawMessage   `json:"result"`
		Signals      []string          `json:"signals"`
	}
	if err := json.Unmarshal(b, &manifest); err != nil {
		t.Fatal(err)
	}
	replayer := newReplayer()
	for _, m := range manifest {
		if m.File == "sequential1000.json" || strings.HasPrefix(m.File, "continueasnew-run2") || strings.HasPrefix(m.File, "continueasnew-run3") {
			continue // long, or the later runs of a chain started once
		}
		if m.WorkflowType == "AccountWorkflow" {
			continue // driven by updates: compat/updates runs these scenarios (TestUpdateHistoriesOfBothSDKs)
		}
		t.Run(m.File, func(t *testing.T) {
			var args []any
			for _, in := range m.Input {
				var v any
				if err := json.Unmarshal(in, &v); err != nil {
					t.Fatal(err)
				}
				if f, ok := v.(float64); ok {
					v = int(f)
				}
				args = append(args, v)
			}
			run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, m.WorkflowType, args...)
			if err != nil {
				t.Fatal(err)
			}
			firstRunID := run.GetRunID() // Get follows a continue-as-new chain
			for _, s := range m.Signals {
				if err := c.SignalWorkflow(ctx, run.GetID(), "", SignalsSignalName, s); err != nil {
					t.Fatal(err)
				}
			}
			var got json.RawMessage
			if err := run.Get(ctx, &got); err != nil {
				t.Fatal(err)
			}
			want := m.Result
			if m.File == "continueasnew-run1.json" {
				want = json.RawMessage("2") // Get follows the chain to its last run
			}
			if m.File != "sideeffects.json" && !jsonEqual(t, got, want) {
				t.Fatalf("result %s, recorded %s", got, want)
			}
			err = replayer.ReplayWorkflowExecution(ctx, c.WorkflowService(), nil, "default", workflow.Execution{ID: run.GetID(), RunID: run.GetRunID()})
			if err != nil {
				t.Fatalf("replaying the run this worker wrote: %v", err)
			}
			// The server this worker ran on, the dev server or the
			// embedded one (DURABLE_TEST_SERVER=embedded), wrote what the
			// dev server wrote for go.temporal.io/sdk. The local activity
			// fixtures record activities that failed and retried as this
			// test's do not (localactivity_fixtures_integration_test.go
			// runs them so).
			if !strings.HasPrefix(m.File, "localactivity-") {
				got, want := outcomeEvents(runHistory(t, c, run.GetID(), firstRunID)), outcomeEvents(recordedHistory(t, m.File))
				if got != want {
					t.Errorf("the run's events but its workflow tasks differ from the recorded ones:\n got %s\nwant %s", got, want)
				}
			}
		})
	}
}

func jsonEqual(t *testing.T, a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return fmt.Sprint(x) == fmt.Sprint(y)
}

// history returns the events of a workflow's latest run.
func history(t *testing.T, c client.Client, id string) []*historypb.HistoryEvent {
	t.Helper()
	return runHistory(t, c, id, "")
}

func countEvents(events []*historypb.HistoryEvent, t enumspb.EventType) int {
	n := 0
	for _, e := range events {
		if e.GetEventType() == t {
			n++
		}
	}
	return n
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestLongHistoryIsPagedAndReplays runs a workflow whose history spans
// several pages, evicts it midway so a task must fetch the whole history
// page by page, and replays the finished history from the server.
func TestLongHistoryIsPagedAndReplays(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 250 activities")
	}
	c := dial(t)
	ctx := testCtx(t)
	tq, _ := startWorker(t, c, worker.Options{}, registerFixtures)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, SequentialActivitiesWorkflow, 250)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "more than a page of history", func() bool {
		return len(history(t, c, run.GetID())) > 1050
	})
	worker.PurgeStickyWorkflowCache()
	var n int
	if err := run.Get(ctx, &n); err != nil || n != 250 {
		t.Fatalf("result %d, %v", n, err)
	}
	events := history(t, c, run.GetID())
	if countEvents(events, enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED) != 0 {
		t.Fatal("no task may fail")
	}
	if err := newReplayer().ReplayWorkflowExecution(ctx, c.WorkflowService(), nil, "default", workflow.Execution{ID: run.GetID()}); err != nil {
		t.Fatal(err)
	}
}

// outcomeEvents names the events of a history but its workflow tasks',
// in sorted order: what the workflow did and what came of it, whatever
// the timing of its workflow tasks against what arrived meanwhile
// (signals, activity and child outcomes), which decides how the events
// interleave and how many workflow tasks run.
func outcomeEvents(events []*historypb.HistoryEvent) string {
	// An activity whose cancellation the workflow requested and did not
	// wait for (a session's creation activity, once the session
	// completes) may end before the workflow does or after it: whether
	// its started and closing events are in the history is a race on
	// either server.
	cancelRequested := map[int64]bool{}
	for _, e := range events {
		if a := e.GetActivityTaskCancelRequestedEventAttributes(); a != nil {
			cancelRequested[a.GetScheduledEventId()] = true
		}
	}
	endOfRequestedCancel := func(e *historypb.HistoryEvent) bool {
		for _, id := range []int64{
			e.GetActivityTaskStartedEventAttributes().GetScheduledEventId(),
			e.GetActivityTaskCompletedEventAttributes().GetScheduledEventId(),
			e.GetActivityTaskCanceledEventAttributes().GetScheduledEventId(),
			e.GetActivityTaskFailedEventAttributes().GetScheduledEventId(),
			e.GetActivityTaskTimedOutEventAttributes().GetScheduledEventId(),
		} {
			if id != 0 && cancelRequested[id] {
				return true
			}
		}
		return false
	}
	var names []string
	for _, e := range events {
		if name := e.GetEventType().String(); !strings.HasPrefix(name, "WorkflowTask") && !endOfRequestedCancel(e) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return strings.Join(names, " ")
}

// runHistory returns one run's events.
func runHistory(t *testing.T, c client.Client, id, runID string) []*historypb.HistoryEvent {
	t.Helper()
	it := c.GetWorkflowHistory(testCtx(t), id, runID, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var events []*historypb.HistoryEvent
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, ev)
	}
	return events
}

// recordedHistory returns the events of a recorded history.
func recordedHistory(t *testing.T, file string) []*historypb.HistoryEvent {
	t.Helper()
	h, err := client.HistoryFromJSON(mustOpen(t, filepath.Join(fixtures, file)), client.HistoryJSONOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return h.GetEvents()
}

func mustOpen(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
