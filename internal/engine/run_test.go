package engine

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/failure"
)

// scripted is a Workflow without coroutines: each Run calls step with the
// number of the run, so tests state exactly which commands each workflow
// task produces.
type scripted struct {
	x       *Run
	runs    int
	step    func(s *scripted, run int)
	signals []string
	updates []*Update
	results []string
	errs    []error
}

func (s *scripted) Start(x *Run, _ *historypb.WorkflowExecutionStartedEventAttributes) error {
	s.x = x
	return nil
}

func (s *scripted) Run() error {
	s.runs++
	s.step(s, s.runs)
	return nil
}

func (s *scripted) Signal(name string, input *commonpb.Payloads, _ *commonpb.Header) error {
	s.signals = append(s.signals, name+"="+string(input.GetPayloads()[0].GetData()))
	return nil
}
func (s *scripted) Cancel() {}

// Update keeps the request; the step decides how to answer it.
func (s *scripted) Update(u *Update) { s.updates = append(s.updates, u) }
func (s *scripted) Query(string, *commonpb.Payloads, *commonpb.Header) (*commonpb.Payloads, error) {
	return nil, nil
}
func (s *scripted) StackTrace() string { return "" }
func (s *scripted) Close()             {}

// activity schedules an activity whose result lands in s.results.
func (s *scripted) activity(typ string) {
	_, _ = s.x.ScheduleActivity(&commandpb.ScheduleActivityTaskCommandAttributes{ActivityType: &commonpb.ActivityType{Name: typ}}, "", false, nil, func(r *commonpb.Payloads, err error) {
		if err != nil {
			s.errs = append(s.errs, err)
			return
		}
		s.results = append(s.results, string(r.GetPayloads()[0].GetData()))
	})
}

func newRun(step func(s *scripted, run int)) (*Run, *scripted) {
	wf := &scripted{step: step}
	x := NewRun(&Options{
		DataConverter:        converter.GetDefaultDataConverter(),
		FailureConverter:     failure.GetDefaultFailureConverter(),
		SDKMetadataSupported: true,
		NewWorkflow: func(typ string) (Workflow, error) {
			if typ != "Greet" {
				return nil, errors.New("workflow type " + typ + " is not registered")
			}
			return wf, nil
		},
	})
	x.SetRun("wid", "rid")
	return x, wf
}

func process(t *testing.T, x *Run, events []*historypb.HistoryEvent) *TaskResult {
	t.Helper()
	res, err := x.ProcessTask(Task{Events: NewEventSource(context.Background(), events, nil, nil)})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// oneActivityThenComplete schedules "Charge", and completes with its
// result once it is known.
func oneActivityThenComplete(s *scripted, run int) {
	switch {
	case run == 1:
		s.activity("Charge")
	case len(s.results) == 1:
		s.x.CloseWorkflow(Close{Result: payloads("done")})
	}
}

func TestFirstTaskSchedulesActivity(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	x, _ := newRun(oneActivityThenComplete)
	res := process(t, x, h.events)
	if len(res.Commands) != 1 || res.Commands[0].GetScheduleActivityTaskCommandAttributes().GetActivityId() != "5" {
		t.Fatalf("want ScheduleActivityTask with ID 5, got %v", res.Commands)
	}
	if x.IsReplaying() {
		t.Fatal("the last task is not a replay")
	}
}

func TestStickyContinuationAndFullReplayAgree(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	first := len(h.events)
	h.completed()
	s := h.activityScheduled("5", "Charge")
	h.activityDone(s, "charged")
	h.task()

	// Sticky: the cached run sees the first task, then only new events.
	x, wf := newRun(oneActivityThenComplete)
	process(t, x, h.events[:first])
	res := process(t, x, h.events[first:])
	if len(res.Commands) != 1 || res.Commands[0].GetCommandType() != enumspb.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION || !res.Closed {
		t.Fatalf("want CompleteWorkflowExecution, got %v", res.Commands)
	}
	if wf.results[0] != `"charged"` {
		t.Fatalf("activity result %v", wf.results)
	}

	// Full history on a new Run: same commands.
	y, _ := newRun(oneActivityThenComplete)
	res2 := process(t, y, h.events)
	if len(res2.Commands) != 1 || res2.Commands[0].GetCommandType() != enumspb.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION {
		t.Fatalf("full replay: want CompleteWorkflowExecution, got %v", res2.Commands)
	}
}

func TestReplayOfClosedHistoryChecksTheCompletion(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	h.completed()
	s := h.activityScheduled("5", "Charge")
	h.activityDone(s, "charged")
	h.task()
	h.completed()
	h.workflowCompleted("done")

	x, _ := newRun(oneActivityThenComplete)
	res := process(t, x, h.events)
	if len(res.Commands) != 0 || !res.Closed {
		t.Fatalf("a replayed closed history returns no commands and is closed, got %v", res)
	}

	// Code that never completes the workflow does not match the last event.
	y, _ := newRun(func(s *scripted, run int) {
		if run == 1 {
			s.activity("Charge")
		}
	})
	_, err := y.ProcessTask(Task{Events: NewEventSource(context.Background(), h.events, nil, nil)})
	assertNondeterminism(t, err, "event 11 WorkflowExecutionCompleted", "produced no command")
}

func assertNondeterminism(t *testing.T, err error, want ...string) {
	t.Helper()
	var te *TaskError
	if !errors.As(err, &te) || te.Cause != enumspb.WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR {
		t.Fatalf("want a nondeterminism task error, got %v", err)
	}
	for _, w := range append(want, `workflow "wid" (run rid, type "Greet")`) {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
}

func TestReplayDetectsChangedCode(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	h.completed()
	s := h.activityScheduled("5", "Charge")
	h.activityDone(s, "charged")
	h.task()

	cases := map[string]struct {
		step func(s *scripted, run int)
		want []string
	}{
		"activity renamed": {func(s *scripted, run int) { s.activity("Refund") }, []string{`event 5 ActivityTaskScheduled (activity "5", type "Charge")`, `type "Refund"`}},
		"activity removed": {func(s *scripted, run int) {}, []string{"event 5 ActivityTaskScheduled", "produced no command"}},
		"timer instead of activity": {func(s *scripted, run int) {
			if run == 1 {
				s.x.StartTimer(time.Second, "", func(error) {})
			}
		}, []string{"event 5 ActivityTaskScheduled", "StartTimer"}},
		"activity added": {func(s *scripted, run int) {
			if run == 1 {
				s.activity("Charge")
				s.activity("Ship")
			}
		}, []string{`ScheduleActivityTask (activity "6", type "Ship")`, "history has no event for it"}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			x, _ := newRun(c.step)
			_, err := x.ProcessTask(Task{Events: NewEventSource(context.Background(), h.events, nil, nil)})
			assertNondeterminism(t, err, c.want...)
			if _, err := x.ProcessTask(Task{Events: NewEventSource(context.Background(), nil, nil, nil)}); err == nil {
				t.Fatal("a Run that failed must refuse further tasks")
			}
		})
	}
}

func TestFailedTaskAttemptIsNotRun(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	h.failedTask()
	h.task()
	x, wf := newRun(oneActivityThenComplete)
	res := process(t, x, h.events)
	if wf.runs != 1 || len(res.Commands) != 1 {
		t.Fatalf("the code must run once, for the last attempt; runs=%d commands=%v", wf.runs, res.Commands)
	}
	if got := res.Commands[0].GetScheduleActivityTaskCommandAttributes().GetActivityId(); got != "8" {
		t.Fatalf("IDs follow the attempt that ran (started at 6): got %s, want 8", got)
	}
}

func TestSignalsAreDeliveredBeforeTheTaskRuns(t *testing.T) {
	h := newHistory("Greet")
	h.signal("go", "now")
	h.task()
	var seen []string
	x, _ := newRun(func(s *scripted, run int) { seen = append(seen, s.signals...) })
	process(t, x, h.events)
	if len(seen) != 1 || seen[0] != `go="now"` {
		t.Fatalf("the signal must reach the code before it runs, got %v", seen)
	}
}

func TestUnregisteredWorkflowType(t *testing.T) {
	h := newHistory("Unknown")
	h.task()
	x, _ := newRun(oneActivityThenComplete)
	_, err := x.ProcessTask(Task{Events: NewEventSource(context.Background(), h.events, nil, nil)})
	var te *TaskError
	if !errors.As(err, &te) || te.Cause != enumspb.WORKFLOW_TASK_FAILED_CAUSE_WORKFLOW_WORKER_UNHANDLED_FAILURE || !strings.Contains(err.Error(), "Unknown is not registered") {
		t.Fatalf("want an unhandled-failure task error naming the type, got %v", err)
	}
}

func TestHistoryIsFetchedPageByPage(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	h.completed()
	s := h.activityScheduled("5", "Charge")
	h.activityDone(s, "charged")
	h.task()
	pages := [][]*historypb.HistoryEvent{h.events[:2], h.events[2:5], h.events[5:]}
	fetched := 0
	fetch := func(_ context.Context, token []byte) (*historypb.History, []byte, error) {
		fetched++
		i := int(token[0])
		var next []byte
		if i+1 < len(pages) {
			next = []byte{byte(i + 1)}
		}
		return &historypb.History{Events: pages[i]}, next, nil
	}
	x, _ := newRun(oneActivityThenComplete)
	res, err := x.ProcessTask(Task{Events: NewEventSource(context.Background(), pages[0], []byte{1}, fetch)})
	if err != nil {
		t.Fatal(err)
	}
	if fetched != 2 || len(res.Commands) != 1 || res.Commands[0].GetCommandType() != enumspb.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION {
		t.Fatalf("fetched %d pages, commands %v", fetched, res.Commands)
	}
}

func TestTimerIDsAndFiring(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	h.completed()
	h.timerStarted("5", time.Minute)
	h.timerFired("5")
	h.task()
	fired := false
	x, _ := newRun(func(s *scripted, run int) {
		if run == 1 {
			s.x.StartTimer(time.Minute, "", func(err error) { fired = err == nil })
		}
	})
	process(t, x, h.events)
	if !fired {
		t.Fatal("the timer must fire during replay")
	}
	if got := x.Now(); !got.Equal(h.events[len(h.events)-1].GetEventTime().AsTime()) {
		t.Fatalf("workflow time %v must be the last task's start time", got)
	}
}

// replayFlagAtSignals records IsReplaying as each signal is delivered.
type replayFlagAtSignals struct {
	scripted
	flags []bool
}

func (r *replayFlagAtSignals) Signal(name string, input *commonpb.Payloads, h *commonpb.Header) error {
	r.flags = append(r.flags, r.x.IsReplaying())
	return r.scripted.Signal(name, input, h)
}

func TestSignalsSinceTheLastTaskAreNotReplayed(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	h.completed()
	h.signal("old", "1") // before a task that completed: replayed
	h.task()
	h.completed()
	h.signal("new", "2") // since the last task: live, as in go.temporal.io/sdk
	h.task()
	wf := &replayFlagAtSignals{scripted: scripted{step: func(*scripted, int) {}}}
	x := NewRun(&Options{
		DataConverter: converter.GetDefaultDataConverter(), FailureConverter: failure.GetDefaultFailureConverter(),
		NewWorkflow: func(string) (Workflow, error) { return wf, nil },
	})
	process(t, x, h.events)
	if want := []bool{true, false}; !reflect.DeepEqual(wf.flags, want) {
		t.Fatalf("IsReplaying at the signals: %v, want %v", wf.flags, want)
	}
}

// TestResetNamesTheCurrentRun: a reset run's history holds its base run's
// start event, and the failed task at the reset point names the reset run;
// from there on, default child IDs (and random streams, which read
// CurrentRunID) follow the reset run, as go.temporal.io/sdk's do. Another
// failed task changes nothing.
func TestResetNamesTheCurrentRun(t *testing.T) {
	for _, tc := range []struct {
		name    string
		failure *historypb.WorkflowTaskFailedEventAttributes
		want    string
	}{
		{"no reset", nil, "original"},
		{"failed task", &historypb.WorkflowTaskFailedEventAttributes{Cause: enumspb.WORKFLOW_TASK_FAILED_CAUSE_WORKFLOW_WORKER_UNHANDLED_FAILURE}, "original"},
		{"reset", &historypb.WorkflowTaskFailedEventAttributes{Cause: enumspb.WORKFLOW_TASK_FAILED_CAUSE_RESET_WORKFLOW, NewRunId: "reset-run"}, "reset-run"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHistory("Greet")
			h.events[0].GetWorkflowExecutionStartedEventAttributes().OriginalExecutionRunId = "original"
			h.task()
			if tc.failure != nil {
				h.add(enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED, &historypb.HistoryEvent_WorkflowTaskFailedEventAttributes{WorkflowTaskFailedEventAttributes: tc.failure})
				h.task()
			}
			var current, childID string
			x, _ := newRun(func(s *scripted, run int) {
				current, childID = s.x.Info().CurrentRunID, s.x.DefaultChildWorkflowID()
			})
			process(t, x, h.events)
			if current != tc.want || childID != fmt.Sprintf("%s_%d", tc.want, x.NextSeq()) {
				t.Fatalf("CurrentRunID %q, default child ID %q; want %q and %q", current, childID, tc.want, fmt.Sprintf("%s_%d", tc.want, x.NextSeq()))
			}
			if x.Info().OriginalRunID != "original" {
				t.Fatalf("OriginalRunID %q, want the start event's", x.Info().OriginalRunID)
			}
		})
	}
}

// A replayed task reports the binary checksum its WorkflowTaskCompleted
// recorded (servers before build-ID versioning record the worker's); the
// live task has none, and the worker's own applies.
func TestReplayedTasksReportTheirRecordedBinaryChecksum(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	h.completed()
	//lint:ignore SA1019 histories of older servers record the deprecated checksum.
	h.events[len(h.events)-1].GetWorkflowTaskCompletedEventAttributes().BinaryChecksum = "old-worker"
	h.timerStarted("5", time.Second)
	h.timerFired("5")
	h.task()
	var seen []string
	x, _ := newRun(func(s *scripted, run int) {
		seen = append(seen, s.x.Info().TaskStarted.RecordedBinaryChecksum)
		if run == 1 {
			s.x.StartTimer(time.Second, "", func(error) {})
		}
	})
	process(t, x, h.events)
	if len(seen) != 2 || seen[0] != "old-worker" || seen[1] != "" {
		t.Fatalf("recorded checksums seen by the two tasks: %q, want [old-worker, \"\"]", seen)
	}
}
