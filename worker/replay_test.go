package worker_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/logging"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

const fixtures = "../testdata/histories"

// manifestEntry describes one recorded history (testdata/histories).
type manifestEntry struct {
	File         string `json:"file"`
	WorkflowType string `json:"workflowType"`
	Events       int    `json:"events"`
}

func loadManifest(t *testing.T) []manifestEntry {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtures, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m []manifestEntry
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// fixtureWorkflows are the workflows of the recorded histories and the
// children they start.
func fixtureWorkflows() []any {
	return []any{
		ActivitiesWorkflow, TimersWorkflow, SignalsWorkflow, SideEffectsWorkflow, MutableSideEffectsWorkflow, RandomStreamsWorkflow,
		VersionsWorkflow, ContinueAsNewWorkflow, SequentialActivitiesWorkflow, PingPongWorkflow, NegativeTimersWorkflow,
		MismatchedArgsWorkflow, ParallelSessionsWorkflow,
		SessionWorkflow, ChildResultsWorkflow, ChildCancelWorkflow, ParentClosePoliciesWorkflow, ChildSignalsWorkflow,
		ExternalCancelWorkflow, DuplicateChildWorkflow, CancelTogetherWorkflow, BadMemoChildWorkflow, TakenIDChildWorkflow,
		GreetChildWorkflow, FailingChildWorkflow, SleepingChildWorkflow, ListeningChildWorkflow, AbandoningChildWorkflow,
		LocalActivitiesWorkflow, AccountWorkflow}
}

func newReplayer() worker.WorkflowReplayer {
	r := worker.NewWorkflowReplayer()
	for _, wf := range fixtureWorkflows() {
		r.RegisterWorkflow(wf)
	}
	return r
}

// TestReplayHistoriesRecordedByTheOfficialSDK replays every history that
// go.temporal.io/sdk recorded on a dev server, with the same workflow code
// compiled against this SDK.
func TestReplayHistoriesRecordedByTheOfficialSDK(t *testing.T) {
	r := newReplayer()
	for _, m := range loadManifest(t) {
		t.Run(m.File, func(t *testing.T) {
			if err := r.ReplayWorkflowHistoryFromJSONFile(logging.NewDefaultLogger(), filepath.Join(fixtures, m.File)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// replayWith replays a fixture against one replacement workflow, registered
// under the recorded workflow's name.
func replayWith(t *testing.T, file, name string, wf any) error {
	t.Helper()
	r := worker.NewWorkflowReplayer()
	r.RegisterWorkflowWithOptions(wf, workflow.RegisterOptions{Name: name})
	return r.ReplayWorkflowHistoryFromJSONFile(logging.NewDefaultLogger(), filepath.Join(fixtures, file))
}

func TestReplayDetectsChangedCode(t *testing.T) {
	cases := []struct {
		name string
		file string
		typ  string
		wf   any
		want []string
	}{
		{"activity added", "activities.json", "ActivitiesWorkflow", activitiesAdded,
			[]string{`ScheduleActivityTask (activity "`, `type "Shout"`, "history has no event for it"}},
		{"activity removed", "activities.json", "ActivitiesWorkflow", activitiesRemoved,
			[]string{"ActivityTaskScheduled", `type "Shout"`, "the workflow code produced"}},
		{"activity renamed", "activities.json", "ActivitiesWorkflow", activitiesRenamed,
			[]string{`type "Shout"`, `type "Increment"`, "activity type differs"}},
		{"timer turned into an activity", "timers.json", "TimersWorkflow", timerTurnedIntoActivity,
			[]string{"event 5 TimerStarted", `ScheduleActivityTask (activity "5", type "Greet")`}},
		{"two activities swapped", "activities.json", "ActivitiesWorkflow", activitiesSwapped,
			[]string{`event 5 ActivityTaskScheduled (activity "5", type "Greet")`, `ScheduleActivityTask (activity "5", type "Shout")`, "activity type differs"}},
		// Timers are matched by ID, as in go.temporal.io/sdk, so that a
		// changed duration still replays; swapping two timers shows where
		// their outcomes diverge.
		{"two timers swapped", "timers.json", "TimersWorkflow", timersSwapped,
			[]string{`event 16 TimerCanceled (timer "10")`, "CompleteWorkflowExecution"}},
		{"GetVersion branch added without a version check", "activities.json", "ActivitiesWorkflow", activitiesNewBranchUnversioned,
			[]string{`type "Greet"`, `type "Increment"`, "activity type differs"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := replayWith(t, c.file, c.typ, c.wf)
			if err == nil {
				t.Fatal("replay of changed code must fail")
			}
			t.Log(err)
			for _, w := range append(c.want, "nondeterministic workflow") {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
		})
	}
}

func TestReplayManyHistoriesReportsEachOne(t *testing.T) {
	r := newReplayer()
	good := readHistory(t, "activities.json")
	bad := readHistory(t, "timers.json")
	r2 := worker.NewWorkflowReplayer()
	r2.RegisterWorkflow(ActivitiesWorkflow)
	r2.RegisterWorkflowWithOptions(timerTurnedIntoActivity, workflow.RegisterOptions{Name: "TimersWorkflow"})
	errs := r2.ReplayWorkflowHistories(nil, good, bad, good)
	if len(errs) != 3 || errs[0] != nil || errs[1] == nil || errs[2] != nil {
		t.Fatalf("want [nil, error, nil], got %v", errs)
	}
	_ = r
}

func TestReplayUnregisteredWorkflow(t *testing.T) {
	r := worker.NewWorkflowReplayer()
	r.RegisterWorkflow(TimersWorkflow)
	err := r.ReplayWorkflowHistoryFromJSONFile(nil, filepath.Join(fixtures, "activities.json"))
	if err == nil || !strings.Contains(err.Error(), `workflow type "ActivitiesWorkflow" is not registered`) {
		t.Fatalf("want an unregistered-type error, got %v", err)
	}
}

func readHistory(t *testing.T, file string) *historypb.History {
	t.Helper()
	f, err := os.Open(filepath.Join(fixtures, file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, err := client.HistoryFromJSON(f, client.HistoryJSONOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestFixtureWorkflowsAreTheRecordedCode guards the claim that the replayed
// workflows are the recorded code with only the import prefix changed:
// each fixtures file here must be its file of tools/recordhistories with
// its package clause and import path rewritten.
func TestFixtureWorkflowsAreTheRecordedCode(t *testing.T) {
	for recordedFile, oursFile := range map[string]string{
		"workflows.go":               "fixtures_workflows_test.go",
		"session_workflows.go":       "fixtures_sessions_test.go",
		"localactivity_workflows.go": "fixtures_localactivities_test.go",
		"update_workflows.go":        "fixtures_updates_test.go",
	} {
		recorded, err := os.ReadFile("../tools/recordhistories/" + recordedFile)
		if err != nil {
			t.Fatal(err)
		}
		ours, err := os.ReadFile(oursFile)
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Replace(string(recorded), "package main", "package worker_test", 1)
		want = strings.ReplaceAll(want, `"go.temporal.io/sdk/`, `"github.com/durable-go/sdk/`)
		if want != string(ours) {
			t.Errorf("worker/%s has drifted from tools/recordhistories/%s; regenerate it: "+
				`sed -e 's/^package main/package worker_test/' -e 's#"go.temporal.io/sdk/#"github.com/durable-go/sdk/#' tools/recordhistories/%s > worker/%s`,
				oursFile, recordedFile, recordedFile, oursFile)
		}
	}
}
