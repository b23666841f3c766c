package engine

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	commandpb "go.temporal.io/api/command/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/internal/commands"
	"github.com/durable-go/sdk/internal/failure"
)

// localActivity asks for a local activity whose outcome lands in
// s.results or s.errs; it returns the machine.
func (s *scripted) localActivity(typ string) *commands.LocalActivity {
	return s.x.ScheduleLocalActivity(&LocalActivityRequest{ActivityType: typ, Attempt: 1, StartToCloseTimeout: time.Minute}, "", func(r LocalActivityResult) {
		if r.Err != nil {
			s.errs = append(s.errs, r.Err)
			return
		}
		s.results = append(s.results, string(r.Result.GetPayloads()[0].GetData()))
	})
}

// twoLocalActivitiesThenComplete runs "A" and "B" in parallel and
// completes once both ended.
func twoLocalActivitiesThenComplete(s *scripted, run int) {
	if run == 1 {
		s.localActivity("A")
		s.localActivity("B")
		return
	}
	if len(s.results)+len(s.errs) == 2 {
		s.x.CloseWorkflow(Close{Result: payloads(strings.Join(s.results, "+"))})
	}
}

// recordCommands appends the events the server writes for a completed
// task's commands (markers and the workflow's completion).
func (h *historyBuilder) recordCommands(cmds []*commandpb.Command) {
	h.completed()
	for _, c := range cmds {
		switch c.GetCommandType() {
		case enumspb.COMMAND_TYPE_RECORD_MARKER:
			a := c.GetRecordMarkerCommandAttributes()
			ev := h.add(enumspb.EVENT_TYPE_MARKER_RECORDED, &historypb.HistoryEvent_MarkerRecordedEventAttributes{
				MarkerRecordedEventAttributes: &historypb.MarkerRecordedEventAttributes{MarkerName: a.GetMarkerName(), Details: a.GetDetails(), Failure: a.GetFailure()}})
			ev.UserMetadata = c.GetUserMetadata()
		case enumspb.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION:
			h.add(enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED, &historypb.HistoryEvent_WorkflowExecutionCompletedEventAttributes{
				WorkflowExecutionCompletedEventAttributes: &historypb.WorkflowExecutionCompletedEventAttributes{Result: c.GetCompleteWorkflowExecutionCommandAttributes().GetResult()}})
		default:
			panic("recordCommands: " + c.GetCommandType().String())
		}
	}
}

func resolve(t *testing.T, x *Run, id string, o LocalActivityOutcome) *TaskResult {
	t.Helper()
	res, err := x.ResolveLocalActivity(id, o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestLocalActivitiesRunInTheTaskAndReplayFromTheirMarkers(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	x, wf := newRun(twoLocalActivitiesThenComplete)
	res := process(t, x, h.events)
	if !res.WaitingForLocalActivities || len(res.Commands) != 0 {
		t.Fatalf("the task must wait for its local activities: %+v", res)
	}
	var ids []string
	for _, r := range res.StartLocalActivities {
		ids = append(ids, r.ID+":"+r.ActivityType)
	}
	if !reflect.DeepEqual(ids, []string{"1:A", "2:B"}) {
		t.Fatalf("start %v, want 1:A and 2:B", ids)
	}
	// B ends first: its marker comes first, as the code learned of it.
	res = resolve(t, x, "2", LocalActivityOutcome{Result: payloads("b"), Attempt: 1})
	if !res.WaitingForLocalActivities || len(res.StartLocalActivities) != 0 {
		t.Fatalf("still waiting for A, with nothing new to start: %+v", res)
	}
	res = resolve(t, x, "1", LocalActivityOutcome{Err: errors.New("a broke"), Attempt: 3})
	if res.WaitingForLocalActivities || !res.Closed || len(res.Commands) != 3 {
		t.Fatalf("want two markers and the completion: %+v", res)
	}
	for i, c := range res.Commands[:2] {
		if c.GetRecordMarkerCommandAttributes().GetMarkerName() != MarkerLocalActivity {
			t.Fatalf("command %d: %v", i, c)
		}
	}
	if got := res.Commands[1].GetRecordMarkerCommandAttributes().GetFailure().GetMessage(); got != "a broke" {
		t.Fatalf("A's marker records its failure, got %q", got)
	}
	var ae *failure.ApplicationError
	if len(wf.errs) != 1 || !errors.As(wf.errs[0], &ae) || ae.Message() != "a broke" {
		t.Fatalf("the code sees the activity's own error through the failure converter, not an ActivityError: %v", wf.errs)
	}

	// Replay: the markers resolve the activities; nothing runs.
	h.recordCommands(res.Commands)
	y, replayed := newRun(twoLocalActivitiesThenComplete)
	res2 := process(t, y, h.events)
	if res2.WaitingForLocalActivities || len(res2.StartLocalActivities) != 0 || !res2.Closed {
		t.Fatalf("a replay runs no local activity: %+v", res2)
	}
	if !reflect.DeepEqual(replayed.results, wf.results) || len(replayed.errs) != 1 || replayed.errs[0].Error() != wf.errs[0].Error() {
		t.Fatalf("replay saw %v %v, the run %v %v", replayed.results, replayed.errs, wf.results, wf.errs)
	}
}

func TestALocalActivityOfAnotherTypeInHistoryIsNonDeterminism(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	x, _ := newRun(twoLocalActivitiesThenComplete)
	process(t, x, h.events)
	resolve(t, x, "1", LocalActivityOutcome{Result: payloads("a"), Attempt: 1})
	res := resolve(t, x, "2", LocalActivityOutcome{Result: payloads("b"), Attempt: 1})
	h.recordCommands(res.Commands)

	y, _ := newRun(func(s *scripted, run int) {
		if run == 1 {
			s.localActivity("A")
			s.localActivity("Renamed")
		}
	})
	_, err := y.ProcessTask(Task{Events: NewEventSource(t.Context(), h.events, nil, nil)})
	var nd *commands.NondeterminismError
	if !errors.As(err, &nd) || !strings.Contains(err.Error(), `of type "Renamed", but history recorded type "B"`) {
		t.Fatalf("want non-determinism naming both types, got %v", err)
	}

	z, _ := newRun(func(s *scripted, run int) {
		if run == 1 {
			s.localActivity("A")
		}
	})
	_, err = z.ProcessTask(Task{Events: NewEventSource(t.Context(), h.events, nil, nil)})
	if !errors.As(err, &nd) || !strings.Contains(err.Error(), `local activity "2" (type "B")`) {
		t.Fatalf("a marker the code did not ask for is non-determinism, got %v", err)
	}
}

func TestALocalActivityCanceledBeforeItStartsIsRecordedCanceled(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	x, wf := newRun(func(s *scripted, run int) {
		if run == 1 {
			la := s.localActivity("A")
			if err := s.x.CancelLocalActivity(la); err != nil {
				t.Fatal(err)
			}
			return
		}
		if len(s.errs) == 1 {
			s.x.CloseWorkflow(Close{})
		}
	})
	res := process(t, x, h.events)
	if res.WaitingForLocalActivities || len(res.Commands) != 2 {
		t.Fatalf("want the canceled marker and the completion at once: %+v", res)
	}
	if res.Commands[0].GetRecordMarkerCommandAttributes().GetFailure().GetCanceledFailureInfo() == nil {
		t.Fatalf("the marker records a cancellation: %v", res.Commands[0])
	}
	if !failure.IsCanceledError(wf.errs[0]) {
		t.Fatalf("the code sees a CanceledError, got %v", wf.errs)
	}
}

func TestCancelingARunningLocalActivityTellsTheWorker(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	var la *commands.LocalActivity
	x, _ := newRun(func(s *scripted, run int) {
		switch run {
		case 1:
			la = s.localActivity("A")
			s.localActivity("B")
		case 2: // B ended: cancel A
			if err := s.x.CancelLocalActivity(la); err != nil {
				t.Fatal(err)
			}
		}
	})
	process(t, x, h.events)
	res := resolve(t, x, "2", LocalActivityOutcome{Result: payloads("b"), Attempt: 1})
	if !res.WaitingForLocalActivities || !reflect.DeepEqual(res.CancelLocalActivities, []string{"1"}) {
		t.Fatalf("want the worker told to cancel A, got %+v", res)
	}
	res = resolve(t, x, "1", LocalActivityOutcome{Err: failure.NewCanceledError(), Attempt: 1})
	if res.WaitingForLocalActivities {
		t.Fatalf("A ended canceled; the task may end: %+v", res)
	}
}

func TestATaskWaitingForALongLocalActivityHeartbeatsAndReplays(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	step := func(s *scripted, run int) {
		if run == 1 {
			s.localActivity("Slow")
			return
		}
		if len(s.results) == 1 {
			s.x.CloseWorkflow(Close{Result: payloads(s.results[0])})
		}
	}
	x, _ := newRun(step)
	process(t, x, h.events)
	hb, err := x.HeartbeatTask()
	if err != nil || len(hb.Commands) != 0 {
		t.Fatalf("the heartbeat reports no command yet: %v %v", hb, err)
	}
	// The server hands back the next task; the activity still runs.
	next := len(h.events)
	h.completed()
	h.task()
	res := process(t, x, h.events[next:])
	if !res.WaitingForLocalActivities || len(res.StartLocalActivities) != 0 {
		t.Fatalf("the next task waits for the running activity without starting it again: %+v", res)
	}
	res = resolve(t, x, "1", LocalActivityOutcome{Result: payloads("slow"), Attempt: 1})
	if !res.Closed {
		t.Fatalf("want the marker and the completion: %+v", res)
	}
	h.recordCommands(res.Commands)

	// Replay: the first task leaves the activity pending; the second
	// task's marker resolves it.
	y, wf := newRun(step)
	if res := process(t, y, h.events); !res.Closed || wf.results[0] != `"slow"` {
		t.Fatalf("replay: %+v %v", res, wf.results)
	}
}

func TestALocalActivityNeverRunsInReplayEvenWithoutItsMarker(t *testing.T) {
	// A worker crashed while the activity ran: the task timed out, so
	// history has no marker. The replayed task does not run it; the live
	// one that follows does.
	h := newHistory("Greet")
	h.task()
	h.add(enumspb.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT, nil)
	h.task()
	x, _ := newRun(twoLocalActivitiesThenComplete)
	res := process(t, x, h.events)
	if !res.WaitingForLocalActivities || len(res.StartLocalActivities) != 2 {
		t.Fatalf("the live task starts both: %+v", res)
	}
}
