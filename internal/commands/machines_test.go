package commands

import (
	"strings"
	"testing"
	"time"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"
	"google.golang.org/protobuf/types/known/durationpb"
)

// Event makers. Event IDs follow a workflow whose first task started at 3.
const taskStarted = 3

func scheduledEvent(id int64, activityID, typ string) *historypb.HistoryEvent {
	return &historypb.HistoryEvent{EventId: id, EventType: enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
		Attributes: &historypb.HistoryEvent_ActivityTaskScheduledEventAttributes{ActivityTaskScheduledEventAttributes: &historypb.ActivityTaskScheduledEventAttributes{
			ActivityId: activityID, ActivityType: &commonpb.ActivityType{Name: typ}}}}
}

func activityEvent(in Input, id, scheduledID int64) *historypb.HistoryEvent {
	ev := &historypb.HistoryEvent{EventId: id}
	switch in {
	case InStarted:
		ev.EventType = enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED
		ev.Attributes = &historypb.HistoryEvent_ActivityTaskStartedEventAttributes{ActivityTaskStartedEventAttributes: &historypb.ActivityTaskStartedEventAttributes{ScheduledEventId: scheduledID, Identity: "worker-1"}}
	case InCompleted:
		ev.EventType = enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED
		ev.Attributes = &historypb.HistoryEvent_ActivityTaskCompletedEventAttributes{ActivityTaskCompletedEventAttributes: &historypb.ActivityTaskCompletedEventAttributes{ScheduledEventId: scheduledID,
			Result: &commonpb.Payloads{Payloads: []*commonpb.Payload{{Data: []byte(`"done"`)}}}}}
	case InFailed:
		ev.EventType = enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED
		ev.Attributes = &historypb.HistoryEvent_ActivityTaskFailedEventAttributes{ActivityTaskFailedEventAttributes: &historypb.ActivityTaskFailedEventAttributes{ScheduledEventId: scheduledID,
			Failure: &failurepb.Failure{Message: "boom"}, RetryState: enumspb.RETRY_STATE_MAXIMUM_ATTEMPTS_REACHED}}
	case InTimedOut:
		ev.EventType = enumspb.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT
		ev.Attributes = &historypb.HistoryEvent_ActivityTaskTimedOutEventAttributes{ActivityTaskTimedOutEventAttributes: &historypb.ActivityTaskTimedOutEventAttributes{ScheduledEventId: scheduledID,
			Failure: &failurepb.Failure{Message: "timeout", FailureInfo: &failurepb.Failure_TimeoutFailureInfo{TimeoutFailureInfo: &failurepb.TimeoutFailureInfo{TimeoutType: enumspb.TIMEOUT_TYPE_START_TO_CLOSE}}}}}
	case InCancelRecorded:
		ev.EventType = enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED
		ev.Attributes = &historypb.HistoryEvent_ActivityTaskCancelRequestedEventAttributes{ActivityTaskCancelRequestedEventAttributes: &historypb.ActivityTaskCancelRequestedEventAttributes{ScheduledEventId: scheduledID}}
	case InCanceled:
		ev.EventType = enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCELED
		ev.Attributes = &historypb.HistoryEvent_ActivityTaskCanceledEventAttributes{ActivityTaskCanceledEventAttributes: &historypb.ActivityTaskCanceledEventAttributes{ScheduledEventId: scheduledID,
			Details: &commonpb.Payloads{Payloads: []*commonpb.Payload{{Data: []byte(`"bye"`)}}}}}
	default:
		panic("no activity event for " + in.String())
	}
	return ev
}

func timerEvent(t enumspb.EventType, id int64, timerID string) *historypb.HistoryEvent {
	ev := &historypb.HistoryEvent{EventId: id, EventType: t}
	switch t {
	case enumspb.EVENT_TYPE_TIMER_STARTED:
		ev.Attributes = &historypb.HistoryEvent_TimerStartedEventAttributes{TimerStartedEventAttributes: &historypb.TimerStartedEventAttributes{TimerId: timerID, StartToFireTimeout: durationpb.New(time.Second)}}
	case enumspb.EVENT_TYPE_TIMER_FIRED:
		ev.Attributes = &historypb.HistoryEvent_TimerFiredEventAttributes{TimerFiredEventAttributes: &historypb.TimerFiredEventAttributes{TimerId: timerID}}
	case enumspb.EVENT_TYPE_TIMER_CANCELED:
		ev.Attributes = &historypb.HistoryEvent_TimerCanceledEventAttributes{TimerCanceledEventAttributes: &historypb.TimerCanceledEventAttributes{TimerId: timerID}}
	}
	return ev
}

// activityFixture is a Book with one activity, and what its outcome was.
type activityFixture struct {
	t        *testing.T
	book     *Book
	act      *Activity
	outcomes []Outcome
	next     int64 // next event ID to use
}

func newActivityFixture(t *testing.T, waitForCancel bool) *activityFixture {
	f := &activityFixture{t: t, book: NewBook(), next: 10}
	f.book.BeginTask(taskStarted)
	id := seqID(f.book.NextSeq())
	f.act = f.book.ScheduleActivity(&commandpb.ScheduleActivityTaskCommandAttributes{ActivityId: id, ActivityType: &commonpb.ActivityType{Name: "Charge"}}, nil, waitForCancel,
		func(o Outcome) { f.outcomes = append(f.outcomes, o) })
	return f
}

func (f *activityFixture) apply(ev *historypb.HistoryEvent) {
	f.t.Helper()
	if _, err := f.book.Apply(ev); err != nil {
		f.t.Fatalf("apply %s: %v", DescribeEvent(ev), err)
	}
}

// driveTo brings the activity to state s along its ordinary path.
func (f *activityFixture) driveTo(s State) {
	f.t.Helper()
	switch s {
	case Created:
	case CommandSent:
		f.book.TakeCommands()
	case Initiated:
		f.driveTo(CommandSent)
		f.apply(scheduledEvent(5, "5", "Charge"))
	case Started:
		f.driveTo(Initiated)
		f.apply(activityEvent(InStarted, 6, 5))
	case CanceledBeforeInitiated:
		f.act.Cancel()
	case CanceledAfterInitiated:
		f.driveTo(Initiated)
		f.act.Cancel()
	case CancelRequested:
		f.driveTo(CanceledAfterInitiated)
		f.book.TakeCommands()
		f.apply(activityEvent(InCancelRecorded, 8, 5))
	default:
		f.t.Fatalf("no path to %v", s)
	}
	if got := f.act.State(); got != s {
		f.t.Fatalf("driving to %v ended in %v", s, got)
	}
}

// TestActivityTableRows takes every row of the activity table from its
// start state and checks the end state and the effect on the outcome and
// on the commands to send.
func TestActivityTableRows(t *testing.T) {
	for _, r := range ActivityTable.Rows() {
		t.Run(r.From.String()+"/"+r.On.String(), func(t *testing.T) {
			f := newActivityFixture(t, true)
			f.driveTo(r.From)
			before := len(f.outcomes)
			switch r.On {
			case InCancel:
				f.act.Cancel()
			case InSent:
				f.book.TakeCommands()
			case InInitiated:
				if r.From == CommandSent || r.From == CanceledBeforeInitiated {
					f.book.TakeCommands()
				}
				f.apply(scheduledEvent(5, "5", "Charge"))
			case InCancelRecorded:
				f.book.TakeCommands()
				f.apply(activityEvent(InCancelRecorded, 8, 5))
			default:
				f.apply(activityEvent(r.On, 20, 5))
			}
			if got := f.act.State(); got != r.To {
				t.Fatalf("state %v, want %v", got, r.To)
			}
			resolved := len(f.outcomes) - before
			switch r.To {
			case Completed:
				if resolved != 1 || string(f.outcomes[0].Result.GetPayloads()[0].GetData()) != `"done"` {
					t.Fatalf("want the result delivered once, got %v", f.outcomes)
				}
			case Failed, TimedOut:
				if resolved != 1 {
					t.Fatalf("want one outcome, got %d", resolved)
				}
				info := f.outcomes[0].Failure.GetActivityFailureInfo()
				if info == nil || info.GetActivityId() != "5" || info.GetScheduledEventId() != 5 || f.outcomes[0].Failure.GetCause() == nil {
					t.Fatalf("failure must be an activity failure with cause, got %v", f.outcomes[0].Failure)
				}
			case Canceled:
				if resolved != 1 || f.outcomes[0].Failure.GetCause().GetCanceledFailureInfo() == nil {
					t.Fatalf("want an activity failure caused by cancellation, got %v", f.outcomes)
				}
			case CanceledBeforeInitiated, CanceledAfterInitiated:
				if r.On == InCancel {
					cmds := f.book.TakeCommands()
					last := cmds[len(cmds)-1]
					if last.GetRequestCancelActivityTaskCommandAttributes().GetScheduledEventId() != 5 {
						t.Fatalf("want a cancel request for event 5 last, got %v", cmds)
					}
					if r.From == Created && (len(cmds) != 2 || cmds[0].GetScheduleActivityTaskCommandAttributes() == nil) {
						t.Fatalf("canceled before sending: the schedule and the cancel request both go out, got %v", cmds)
					}
				}
			}
			if len(f.outcomes) > 1 {
				t.Fatalf("outcome delivered %d times", len(f.outcomes))
			}
		})
	}
}

func TestActivityCancelWithdrawnWhenActivityEndsFirst(t *testing.T) {
	f := newActivityFixture(t, true)
	f.driveTo(CanceledAfterInitiated)
	f.apply(activityEvent(InCompleted, 9, 5))
	if cmds := f.book.TakeCommands(); len(cmds) != 0 {
		t.Fatalf("the cancel request of a finished activity must not be sent, got %v", cmds)
	}
	if len(f.outcomes) != 1 || f.outcomes[0].Result == nil {
		t.Fatalf("want the result, got %v", f.outcomes)
	}
}

func TestActivityWithoutWaitResolvesAtOnce(t *testing.T) {
	f := newActivityFixture(t, false)
	f.driveTo(CanceledAfterInitiated)
	if len(f.outcomes) != 1 || f.outcomes[0].Failure.GetCanceledFailureInfo() == nil {
		t.Fatalf("cancel without waiting must resolve as canceled at once, got %v", f.outcomes)
	}
	f.book.TakeCommands()
	f.apply(activityEvent(InCancelRecorded, 8, 5))
	f.apply(activityEvent(InCanceled, 9, 5))
	if len(f.outcomes) != 1 {
		t.Fatalf("later events must not resolve again, got %d outcomes", len(f.outcomes))
	}
}

func TestActivityCanceledBeforeSentReplaysOfficialHistory(t *testing.T) {
	// go.temporal.io/sdk sends both commands; history then holds Scheduled,
	// CancelRequested and Canceled (the server cancels an unstarted task).
	f := newActivityFixture(t, true)
	f.act.Cancel()
	f.book.TakeCommands()
	f.apply(scheduledEvent(5, "5", "Charge"))
	f.apply(activityEvent(InCancelRecorded, 6, 5))
	f.apply(activityEvent(InCanceled, 7, 5))
	if f.act.State() != Canceled || len(f.outcomes) != 1 {
		t.Fatalf("state %v outcomes %v", f.act.State(), f.outcomes)
	}
}

func TestActivityIllegalPairsAreRejected(t *testing.T) {
	// Every (state, event) pair missing from the table must be refused with
	// an error naming the activity, never accepted silently.
	for _, s := range []State{Initiated, Started, CancelRequested} {
		for _, in := range []Input{InStarted, InCompleted, InFailed, InTimedOut, InCanceled} {
			if ActivityTable.Allows(s, in) {
				continue
			}
			f := newActivityFixture(t, true)
			f.driveTo(s)
			_, err := f.book.Apply(activityEvent(in, 30, 5))
			if err == nil {
				t.Fatalf("%v + %v: accepted", s, in)
			}
			if !strings.Contains(err.Error(), `activity "5"`) {
				t.Fatalf("%v + %v: error does not name the activity: %v", s, in, err)
			}
		}
	}
}

func TestActivityDuplicateCompletion(t *testing.T) {
	f := newActivityFixture(t, false)
	f.driveTo(Started)
	f.apply(activityEvent(InCompleted, 7, 5))
	_, err := f.book.Apply(activityEvent(InCompleted, 8, 5))
	if err == nil || !strings.Contains(err.Error(), "never produced") {
		t.Fatalf("a second completion must be reported, got %v", err)
	}
}

func TestActivityEventBeforeSchedule(t *testing.T) {
	f := newActivityFixture(t, false)
	f.book.TakeCommands()
	if _, err := f.book.Apply(activityEvent(InStarted, 6, 5)); err == nil {
		t.Fatal("a started event before the scheduled event must be refused")
	}
}

func TestActivityRecordedElsewhereThanPredicted(t *testing.T) {
	f := newActivityFixture(t, false)
	f.book.TakeCommands()
	_, err := f.book.Apply(scheduledEvent(6, "5", "Charge"))
	if err == nil || !strings.Contains(err.Error(), "recorded at event 6") {
		t.Fatalf("want the misplaced activity reported, got %v", err)
	}
}

// timerFixture mirrors activityFixture for one timer.
type timerFixture struct {
	t        *testing.T
	book     *Book
	timer    *Timer
	outcomes []Outcome
}

func newTimerFixture(t *testing.T) *timerFixture {
	f := &timerFixture{t: t, book: NewBook()}
	f.book.BeginTask(taskStarted)
	f.timer = f.book.StartTimer(&commandpb.StartTimerCommandAttributes{TimerId: seqID(f.book.NextSeq()), StartToFireTimeout: durationpb.New(time.Second)}, nil,
		func(o Outcome) { f.outcomes = append(f.outcomes, o) })
	return f
}

func (f *timerFixture) apply(ev *historypb.HistoryEvent) {
	f.t.Helper()
	if _, err := f.book.Apply(ev); err != nil {
		f.t.Fatalf("apply %s: %v", DescribeEvent(ev), err)
	}
}

func (f *timerFixture) driveTo(s State) {
	f.t.Helper()
	switch s {
	case Created:
	case CommandSent:
		f.book.TakeCommands()
	case Initiated:
		f.driveTo(CommandSent)
		f.apply(timerEvent(enumspb.EVENT_TYPE_TIMER_STARTED, 5, "5"))
	case CanceledBeforeInitiated:
		f.timer.Cancel()
	case CanceledAfterInitiated:
		f.driveTo(Initiated)
		f.timer.Cancel()
	default:
		f.t.Fatalf("no path to %v", s)
	}
}

func TestTimerTableRows(t *testing.T) {
	for _, r := range TimerTable.Rows() {
		t.Run(r.From.String()+"/"+r.On.String(), func(t *testing.T) {
			f := newTimerFixture(t)
			f.driveTo(r.From)
			before := len(f.outcomes)
			switch r.On {
			case InCancel:
				f.timer.Cancel()
			case InSent:
				f.book.TakeCommands()
			case InInitiated:
				if r.From == CanceledBeforeInitiated {
					f.book.TakeCommands()
				}
				f.apply(timerEvent(enumspb.EVENT_TYPE_TIMER_STARTED, 5, "5"))
			case InFired:
				f.apply(timerEvent(enumspb.EVENT_TYPE_TIMER_FIRED, 9, "5"))
			case InCancelRecorded:
				f.book.TakeCommands()
				f.apply(timerEvent(enumspb.EVENT_TYPE_TIMER_CANCELED, 9, "5"))
			}
			if got := f.timer.State(); got != r.To {
				t.Fatalf("state %v, want %v", got, r.To)
			}
			switch {
			case r.To == Fired && r.From == Initiated:
				if len(f.outcomes)-before != 1 || f.outcomes[0].Failure != nil {
					t.Fatalf("a fired timer resolves once without failure, got %v", f.outcomes)
				}
			case r.To == Fired && r.From == CanceledAfterInitiated:
				if cmds := f.book.TakeCommands(); len(cmds) != 0 || len(f.outcomes) != 1 {
					t.Fatalf("the cancel of a fired timer is withdrawn and the timer stays canceled, got %v %v", cmds, f.outcomes)
				}
			case r.On == InCancel:
				cmds := f.book.TakeCommands()
				if cmds[len(cmds)-1].GetCancelTimerCommandAttributes().GetTimerId() != "5" || f.outcomes[0].Failure.GetCanceledFailureInfo() == nil {
					t.Fatalf("want CancelTimer 5 and a canceled outcome, got %v %v", cmds, f.outcomes)
				}
				if r.From == Created && len(cmds) != 2 {
					t.Fatalf("canceled before sending: StartTimer and CancelTimer both go out, got %v", cmds)
				}
			}
			if len(f.outcomes) > 1 {
				t.Fatalf("outcome delivered %d times", len(f.outcomes))
			}
		})
	}
}

func TestTimerFiredTwice(t *testing.T) {
	f := newTimerFixture(t)
	f.driveTo(Initiated)
	f.apply(timerEvent(enumspb.EVENT_TYPE_TIMER_FIRED, 9, "5"))
	if _, err := f.book.Apply(timerEvent(enumspb.EVENT_TYPE_TIMER_FIRED, 10, "5")); err == nil {
		t.Fatal("a timer that fires twice must be reported")
	}
}

func TestOneShotTableRows(t *testing.T) {
	for _, r := range OneShotTable.Rows() {
		b := NewBook()
		b.BeginTask(taskStarted)
		m := b.RecordMarker(&commandpb.RecordMarkerCommandAttributes{MarkerName: "SideEffect"}, nil)
		if r.From == CommandSent {
			b.TakeCommands()
		}
		switch r.On {
		case InSent:
			if cmds := b.TakeCommands(); len(cmds) != 1 {
				t.Fatalf("want the marker command, got %v", cmds)
			}
		case InInitiated:
			ev := &historypb.HistoryEvent{EventId: 5, EventType: enumspb.EVENT_TYPE_MARKER_RECORDED,
				Attributes: &historypb.HistoryEvent_MarkerRecordedEventAttributes{MarkerRecordedEventAttributes: &historypb.MarkerRecordedEventAttributes{MarkerName: "SideEffect"}}}
			if _, err := b.Apply(ev); err != nil {
				t.Fatal(err)
			}
		}
		if m.State() != r.To {
			t.Fatalf("%v/%v: state %v, want %v", r.From, r.On, m.State(), r.To)
		}
	}
}

func TestCancelRequestTableRows(t *testing.T) {
	for _, r := range CancelRequestTable.Rows() {
		t.Run(r.From.String()+"/"+r.On.String(), func(t *testing.T) {
			f := newTimerFixture(t)
			f.driveTo(CanceledAfterInitiated)
			req := f.timer.cancelReq
			if r.From == CommandSent {
				f.book.TakeCommands()
			}
			switch r.On {
			case InSent:
				if cmds := f.book.TakeCommands(); len(cmds) != 1 {
					t.Fatalf("want the CancelTimer command, got %v", cmds)
				}
			case InTargetClosed:
				f.apply(timerEvent(enumspb.EVENT_TYPE_TIMER_FIRED, 9, "5"))
				if cmds := f.book.TakeCommands(); len(cmds) != 0 {
					t.Fatalf("a withdrawn request is not sent, got %v", cmds)
				}
				if err := f.book.CheckAllMatched(nil); err != nil {
					t.Fatalf("a withdrawn request is not expected in history: %v", err)
				}
			case InInitiated:
				f.apply(timerEvent(enumspb.EVENT_TYPE_TIMER_CANCELED, 9, "5"))
				if f.timer.State() != Canceled {
					t.Fatalf("the recorded request must reach the timer, timer is %v", f.timer.State())
				}
			}
			if req.State() != r.To {
				t.Fatalf("state %v, want %v", req.State(), r.To)
			}
		})
	}
}
