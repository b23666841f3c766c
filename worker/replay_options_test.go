package worker_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// Tests of what the replayer offers beyond go.temporal.io/sdk's: results,
// options for files, the pending workflow task, NonDeterminismError.

// TestReplayReturnsTheWorkflowResult replays every recorded history and
// compares what the code returned with what the recorded run returned.
func TestReplayReturnsTheWorkflowResult(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(fixtures, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var manifest []struct {
		File               string          `json:"file"`
		Result             json.RawMessage `json:"result"`
		ContinuedAsNewWith json.RawMessage `json:"continuedAsNewWith"`
	}
	if err := json.Unmarshal(b, &manifest); err != nil {
		t.Fatal(err)
	}
	r := newReplayer()
	for _, m := range manifest {
		t.Run(m.File, func(t *testing.T) {
			res, err := r.ReplayWorkflowHistoryWithResult(nil, readHistory(t, m.File), worker.ReplayWorkflowHistoryOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !res.IsWorkflowCompleted() || res.StackTrace != "" || res.PendingCommands != nil {
				t.Fatalf("a closed history's code returned: completed %v, stack %q, pending %v", res.IsWorkflowCompleted(), res.StackTrace, res.PendingCommands)
			}
			if m.ContinuedAsNewWith != nil {
				var can *workflow.ContinueAsNewError
				if !errors.As(res.GetWorkflowError(), &can) {
					t.Fatalf("want a ContinueAsNewError, got %v", res.GetWorkflowError())
				}
				var next int
				if err := jsonArgs(can.Input.GetPayloads()[0].GetData(), &next); err != nil {
					t.Fatal(err)
				}
				assertJSON(t, []int{next}, m.ContinuedAsNewWith)
				return
			}
			if err := res.GetWorkflowError(); err != nil {
				t.Fatalf("the workflow completed, yet its error is %v", err)
			}
			var got any
			if err := res.GetWorkflowResult(&got); err != nil {
				t.Fatal(err)
			}
			assertJSON(t, got, m.Result)
		})
	}
}

func jsonArgs(data []byte, v any) error { return json.Unmarshal(data, v) }

// assertJSON compares got, encoded, with the JSON want.
func assertJSON(t *testing.T, got any, want json.RawMessage) {
	t.Helper()
	g, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	var w any
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	wb, _ := json.Marshal(w)
	if string(g) != string(wb) {
		t.Fatalf("result %s, want %s", g, wb)
	}
}

// pendingHistories are cuts of activities.json (whose first workflow task
// schedules Greet, and whose second, started at event 9, schedules Shout
// with Greet's result) that end in a workflow task history does not
// record as completed.
func pendingHistories(t *testing.T) map[string]*historypb.History {
	full := readHistory(t, "activities.json")
	cut := func(last int64, extra ...*historypb.HistoryEvent) *historypb.History {
		var events []*historypb.HistoryEvent
		for _, ev := range full.GetEvents() {
			if ev.GetEventId() <= last {
				events = append(events, ev)
			}
		}
		return &historypb.History{Events: append(events, extra...)}
	}
	failed := &historypb.HistoryEvent{EventId: 10, EventType: enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED,
		Attributes: &historypb.HistoryEvent_WorkflowTaskFailedEventAttributes{WorkflowTaskFailedEventAttributes: &historypb.WorkflowTaskFailedEventAttributes{
			ScheduledEventId: 8, StartedEventId: 9, Cause: enumspb.WORKFLOW_TASK_FAILED_CAUSE_WORKFLOW_WORKER_UNHANDLED_FAILURE}}}
	return map[string]*historypb.History{
		"scheduled": cut(8),         // the task is still to run
		"started":   cut(9),         // a worker is running it
		"failed":    cut(9, failed), // its attempts fail: a stuck run
	}
}

func TestReplayRunsThePendingWorkflowTask(t *testing.T) {
	for name, h := range pendingHistories(t) {
		t.Run(name, func(t *testing.T) {
			res, err := newReplayer().ReplayWorkflowHistoryWithResult(nil, h, worker.ReplayWorkflowHistoryOptions{RunPendingWorkflowTask: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.PendingCommands) != 1 {
				t.Fatalf("want the one command of the pending task, got %v", res.PendingCommands)
			}
			attrs := res.PendingCommands[0].GetScheduleActivityTaskCommandAttributes()
			if attrs.GetActivityType().GetName() != "Shout" || !strings.Contains(string(attrs.GetInput().GetPayloads()[0].GetData()), "Hello, Temporal!") {
				t.Fatalf("the pending task must schedule Shout with Greet's result, got %v", res.PendingCommands[0])
			}
			if res.IsWorkflowCompleted() || !strings.Contains(res.StackTrace, "fixtures_workflows_test.go") {
				t.Fatalf("the code must be blocked on Shout; stack:\n%s", res.StackTrace)
			}
			if err := res.GetWorkflowResult(new(string)); err == nil {
				t.Fatal("a workflow that did not return has no result")
			}
		})
	}
}

func TestReplayWithoutTheOptionStopsAtTheLastCompletedTask(t *testing.T) {
	for name, h := range pendingHistories(t) {
		if name == "started" {
			continue // a final WorkflowTaskStarted is the task being processed: the code runs
		}
		t.Run(name, func(t *testing.T) {
			res, err := newReplayer().ReplayWorkflowHistoryWithResult(nil, h, worker.ReplayWorkflowHistoryOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if res.PendingCommands != nil {
				t.Fatalf("no task may run past the last completed one, got %v", res.PendingCommands)
			}
			// The code waits for Greet, in the first task's state.
			if !strings.Contains(res.StackTrace, "fixtures_workflows_test.go:") {
				t.Fatalf("want the code's stack, got:\n%s", res.StackTrace)
			}
		})
	}
}

// TestReplayOfAStuckRunReproducesItsFailure: code that panics in the
// pending task fails the replay only when the task runs.
func TestReplayOfAStuckRunReproducesItsFailure(t *testing.T) {
	r := worker.NewWorkflowReplayer()
	r.RegisterWorkflowWithOptions(panicsAfterGreet, workflow.RegisterOptions{Name: "ActivitiesWorkflow"})
	h := pendingHistories(t)["failed"]
	if err := r.ReplayWorkflowHistoryWithOptions(nil, h, worker.ReplayWorkflowHistoryOptions{}); err != nil {
		t.Fatalf("up to the last completed task the code is fine: %v", err)
	}
	err := r.ReplayWorkflowHistoryWithOptions(nil, h, worker.ReplayWorkflowHistoryOptions{RunPendingWorkflowTask: true})
	if err == nil || !strings.Contains(err.Error(), "the greeting is not what this code expects") {
		t.Fatalf("the pending task must panic as on the worker, got %v", err)
	}
}

func panicsAfterGreet(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	var greeting string
	if err := workflow.ExecuteActivity(ctx, Greet, name).Get(ctx, &greeting); err != nil {
		return "", err
	}
	panic("the greeting is not what this code expects: " + greeting)
}

// TestReplayPendingTaskThatCompletesTheWorkflow: the code returns in the
// pending task; its result is the replay's.
func TestReplayPendingTaskThatCompletesTheWorkflow(t *testing.T) {
	res, err := newReplayer().ReplayWorkflowHistoryWithResult(nil, readHistory(t, "activities.json"),
		worker.ReplayWorkflowHistoryOptions{LastEventID: 20, RunPendingWorkflowTask: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PendingCommands) != 1 || res.PendingCommands[0].GetCommandType() != enumspb.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION {
		t.Fatalf("want CompleteWorkflowExecution pending, got %v", res.PendingCommands)
	}
	var s string
	if err := res.GetWorkflowResult(&s); err != nil || s != "Hello, Temporal! | HELLO, TEMPORAL! | Hello, HELLO, TEMPORAL!!" {
		t.Fatalf("result %q, %v", s, err)
	}
}

func TestReplayFromJSONFileWithOptions(t *testing.T) {
	file := filepath.Join(fixtures, "activities.json")
	var seen workflow.Execution
	readsItsID := func(ctx workflow.Context, name string) (string, error) {
		seen = workflow.GetInfo(ctx).WorkflowExecution
		return ActivitiesWorkflow(ctx, name)
	}
	original := workflow.Execution{ID: "order-7", RunID: "run-7"}
	r := worker.NewWorkflowReplayer()
	r.RegisterWorkflowWithOptions(readsItsID, workflow.RegisterOptions{Name: "ActivitiesWorkflow"})
	if err := r.ReplayWorkflowHistoryFromJSONFileWithOptions(nil, file, worker.ReplayWorkflowHistoryOptions{OriginalExecution: original}); err != nil {
		t.Fatal(err)
	}
	if seen != original {
		t.Fatalf("the code saw run %v, want %v", seen, original)
	}

	// The code that renames the second activity replays up to the task
	// that schedules it, and runs that task when asked to.
	renamed := worker.NewWorkflowReplayer()
	renamed.RegisterWorkflowWithOptions(activitiesRenamed, workflow.RegisterOptions{Name: "ActivitiesWorkflow"})
	if err := renamed.ReplayWorkflowHistoryFromJSONFileWithOptions(nil, file, worker.ReplayWorkflowHistoryOptions{LastEventID: 8}); err != nil {
		t.Fatalf("up to event 8 the renamed code matches: %v", err)
	}
	err := renamed.ReplayWorkflowHistoryFromJSONFileWithOptions(nil, file, worker.ReplayWorkflowHistoryOptions{OriginalExecution: original})
	var nd *worker.NonDeterminismError
	if !errors.As(err, &nd) || nd.WorkflowID != "order-7" || nd.RunID != "run-7" || !strings.Contains(err.Error(), file) {
		t.Fatalf("want a NonDeterminismError naming order-7/run-7 and the file, got %v", err)
	}
	if err := renamed.ReplayPartialWorkflowHistoryFromJSONFile(nil, file, 8); err != nil {
		t.Fatalf("the partial replay takes the same cut: %v", err)
	}
}

// versionOutOfRange supports only a version of "step-2" newer than the
// one recorded.
func versionOutOfRange(ctx workflow.Context) (string, error) {
	if v := workflow.GetVersion(ctx, "step-2", 2, 2); v != 2 {
		return "", nil
	}
	return VersionsWorkflow(ctx)
}

func TestNonDeterminismErrorFields(t *testing.T) {
	cases := []struct {
		name, file, typ string
		wf              any
		eventID         int64
		eventType       enumspb.EventType
		command         enumspb.CommandType
		code            string // in the source line at CodeLocation; "" for none
	}{
		// The added Shout matches the recorded one (activities match by
		// type); the recorded Shout, now second, has no event.
		{"activity added", "activities.json", "ActivitiesWorkflow", activitiesAdded,
			14, enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, enumspb.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK, `workflow.ExecuteActivity(ctx, Shout, greeting)`},
		{"activity removed", "activities.json", "ActivitiesWorkflow", activitiesRemoved,
			11, enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED, enumspb.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK, `workflow.ExecuteActivity(ctx, Greet, greeting)`},
		{"activity renamed", "activities.json", "ActivitiesWorkflow", activitiesRenamed,
			11, enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED, enumspb.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK, `workflow.ExecuteActivity(ctx, Increment, 1)`},
		{"timer turned into an activity", "timers.json", "TimersWorkflow", timerTurnedIntoActivity,
			5, enumspb.EVENT_TYPE_TIMER_STARTED, enumspb.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK, `workflow.ExecuteActivity(ctx, Greet, "instead of sleeping")`},
		// The closing command is the SDK's, made when the function returns.
		{"two timers swapped", "timers.json", "TimersWorkflow", timersSwapped,
			16, enumspb.EVENT_TYPE_TIMER_CANCELED, enumspb.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION, ""},
		// A call that history contradicts, without an event or command.
		{"GetVersion out of range", "versions.json", "VersionsWorkflow", versionOutOfRange,
			0, enumspb.EVENT_TYPE_UNSPECIFIED, enumspb.COMMAND_TYPE_UNSPECIFIED, `workflow.GetVersion(ctx, "step-2", 2, 2)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := readHistory(t, c.file)
			r := worker.NewWorkflowReplayer()
			r.RegisterWorkflowWithOptions(c.wf, workflow.RegisterOptions{Name: c.typ})
			err := r.ReplayWorkflowHistory(nil, h)
			var nd *worker.NonDeterminismError
			if !errors.As(err, &nd) {
				t.Fatalf("want a NonDeterminismError, got %v", err)
			}
			runID := h.GetEvents()[0].GetWorkflowExecutionStartedEventAttributes().GetOriginalExecutionRunId()
			if nd.WorkflowType != c.typ || nd.WorkflowID != "ReplayId" || nd.RunID != runID {
				t.Errorf("run %s %s %s, want %s ReplayId %s", nd.WorkflowType, nd.WorkflowID, nd.RunID, c.typ, runID)
			}
			if nd.EventID != c.eventID || nd.EventType != c.eventType || nd.Command.GetCommandType() != c.command {
				t.Errorf("event %d %v, command %v; want event %d %v, command %v",
					nd.EventID, nd.EventType, nd.Command.GetCommandType(), c.eventID, c.eventType, c.command)
			}
			if nd.Reason == "" || !strings.Contains(err.Error(), nd.Reason) || !strings.Contains(err.Error(), "nondeterministic workflow") {
				t.Errorf("the message must keep the engine's words %q: %v", nd.Reason, err)
			}
			if c.code == "" {
				if nd.CodeLocation != "" {
					t.Errorf("no workflow code made this command, yet it is located at %s", nd.CodeLocation)
				}
				return
			}
			if line := sourceLine(t, nd.CodeLocation); !strings.Contains(line, c.code) {
				t.Errorf("CodeLocation %s is %q, want the line with %s", nd.CodeLocation, line, c.code)
			}
			if !strings.Contains(err.Error(), nd.CodeLocation) {
				t.Errorf("the message must say where: %v", err)
			}
		})
	}
}

// sourceLine reads the line that a file:line location names.
func sourceLine(t *testing.T, location string) string {
	t.Helper()
	i := strings.LastIndex(location, ":")
	if i < 0 {
		t.Fatalf("location %q is not file:line", location)
	}
	n, err := strconv.Atoi(location[i+1:])
	if err != nil {
		t.Fatalf("location %q is not file:line", location)
	}
	b, err := os.ReadFile(location[:i])
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if n < 1 || n > len(lines) {
		t.Fatalf("location %q is past the file's end", location)
	}
	return lines[n-1]
}
