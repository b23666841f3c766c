package commands

import (
	"strings"
	"testing"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"
)

func nexusScheduledEvent(id int64, service, operation string) *historypb.HistoryEvent {
	return &historypb.HistoryEvent{EventId: id, EventType: enumspb.EVENT_TYPE_NEXUS_OPERATION_SCHEDULED,
		Attributes: &historypb.HistoryEvent_NexusOperationScheduledEventAttributes{NexusOperationScheduledEventAttributes: &historypb.NexusOperationScheduledEventAttributes{
			Endpoint: "ep", Service: service, Operation: operation}}}
}

func nexusFailure(msg string) *failurepb.Failure {
	return &failurepb.Failure{Message: "nexus operation completed unsuccessfully", Cause: &failurepb.Failure{Message: msg},
		FailureInfo: &failurepb.Failure_NexusOperationExecutionFailureInfo{NexusOperationExecutionFailureInfo: &failurepb.NexusOperationFailureInfo{Operation: "op"}}}
}

// nexusEvent makes the event that is input in of the operation scheduled
// at scheduledID.
func nexusEvent(in Input, id, scheduledID int64) *historypb.HistoryEvent {
	ev := &historypb.HistoryEvent{EventId: id}
	switch in {
	case InStarted:
		ev.EventType = enumspb.EVENT_TYPE_NEXUS_OPERATION_STARTED
		ev.Attributes = &historypb.HistoryEvent_NexusOperationStartedEventAttributes{NexusOperationStartedEventAttributes: &historypb.NexusOperationStartedEventAttributes{
			ScheduledEventId: scheduledID, OperationToken: "token-1"}}
	case InCompleted:
		ev.EventType = enumspb.EVENT_TYPE_NEXUS_OPERATION_COMPLETED
		ev.Attributes = &historypb.HistoryEvent_NexusOperationCompletedEventAttributes{NexusOperationCompletedEventAttributes: &historypb.NexusOperationCompletedEventAttributes{
			ScheduledEventId: scheduledID, Result: &commonpb.Payload{Data: []byte(`"done"`)}}}
	case InFailed:
		ev.EventType = enumspb.EVENT_TYPE_NEXUS_OPERATION_FAILED
		ev.Attributes = &historypb.HistoryEvent_NexusOperationFailedEventAttributes{NexusOperationFailedEventAttributes: &historypb.NexusOperationFailedEventAttributes{
			ScheduledEventId: scheduledID, Failure: nexusFailure("failed")}}
	case InCanceled:
		ev.EventType = enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCELED
		ev.Attributes = &historypb.HistoryEvent_NexusOperationCanceledEventAttributes{NexusOperationCanceledEventAttributes: &historypb.NexusOperationCanceledEventAttributes{
			ScheduledEventId: scheduledID, Failure: nexusFailure("canceled")}}
	case InTimedOut:
		ev.EventType = enumspb.EVENT_TYPE_NEXUS_OPERATION_TIMED_OUT
		ev.Attributes = &historypb.HistoryEvent_NexusOperationTimedOutEventAttributes{NexusOperationTimedOutEventAttributes: &historypb.NexusOperationTimedOutEventAttributes{
			ScheduledEventId: scheduledID, Failure: nexusFailure("timed out")}}
	case InCancelRecorded:
		ev.EventType = enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCEL_REQUESTED
		ev.Attributes = &historypb.HistoryEvent_NexusOperationCancelRequestedEventAttributes{NexusOperationCancelRequestedEventAttributes: &historypb.NexusOperationCancelRequestedEventAttributes{
			ScheduledEventId: scheduledID}}
	default:
		panic("no Nexus event for " + in.String())
	}
	return ev
}

func nexusCancelDeliveredEvent(id, scheduledID int64, failed bool) *historypb.HistoryEvent {
	if failed {
		return &historypb.HistoryEvent{EventId: id, EventType: enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCEL_REQUEST_FAILED,
			Attributes: &historypb.HistoryEvent_NexusOperationCancelRequestFailedEventAttributes{NexusOperationCancelRequestFailedEventAttributes: &historypb.NexusOperationCancelRequestFailedEventAttributes{
				ScheduledEventId: scheduledID, Failure: &failurepb.Failure{Message: "cannot cancel"}}}}
	}
	return &historypb.HistoryEvent{EventId: id, EventType: enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCEL_REQUEST_COMPLETED,
		Attributes: &historypb.HistoryEvent_NexusOperationCancelRequestCompletedEventAttributes{NexusOperationCancelRequestCompletedEventAttributes: &historypb.NexusOperationCancelRequestCompletedEventAttributes{
			ScheduledEventId: scheduledID}}}
}

// nexusFixture is a Book with one Nexus operation, and what it was told.
type nexusFixture struct {
	t        *testing.T
	book     *Book
	op       *NexusOperation
	tokens   []string
	outcomes []Outcome
}

func newNexusFixture(t *testing.T, resolve NexusCancelResolution) *nexusFixture {
	f := &nexusFixture{t: t, book: NewBook()}
	f.book.BeginTask(taskStarted)
	f.op = f.book.ScheduleNexusOperation(&commandpb.ScheduleNexusOperationCommandAttributes{Endpoint: "ep", Service: "svc", Operation: "op"}, nil, resolve,
		NexusCallbacks{Started: func(token string) { f.tokens = append(f.tokens, token) }, Done: func(o Outcome) { f.outcomes = append(f.outcomes, o) }})
	return f
}

func (f *nexusFixture) apply(ev *historypb.HistoryEvent) {
	f.t.Helper()
	if _, err := f.book.Apply(ev); err != nil {
		f.t.Fatalf("apply %s: %v", DescribeEvent(ev), err)
	}
}

// driveTo brings the operation to state s along its ordinary path.
func (f *nexusFixture) driveTo(s State) {
	f.t.Helper()
	switch s {
	case Created:
	case CommandSent:
		f.book.TakeCommands()
	case Initiated:
		f.driveTo(CommandSent)
		f.apply(nexusScheduledEvent(5, "svc", "op"))
	case Started:
		f.driveTo(Initiated)
		f.apply(nexusEvent(InStarted, 6, 5))
	case CanceledAfterInitiated:
		f.driveTo(Started)
		f.op.Cancel()
	case CancelRequested:
		f.driveTo(CanceledAfterInitiated)
		f.book.TakeCommands()
		f.apply(nexusEvent(InCancelRecorded, 8, 5))
	default:
		f.t.Fatalf("no path to %v", s)
	}
	if got := f.op.State(); got != s {
		f.t.Fatalf("driving to %v ended in %v", s, got)
	}
}

// TestNexusTableRows takes every row of the Nexus operation table from its
// start state and checks the end state, what the workflow was told, and
// the commands to send.
func TestNexusTableRows(t *testing.T) {
	for _, r := range NexusTable.Rows() {
		t.Run(r.From.String()+"/"+r.On.String(), func(t *testing.T) {
			f := newNexusFixture(t, NexusResolveOnClose)
			f.driveTo(r.From)
			before, tokensBefore := len(f.outcomes), len(f.tokens)
			switch r.On {
			case InCancel:
				f.op.Cancel()
			case InSent:
				if cmds := f.book.TakeCommands(); len(cmds) != 1 || cmds[0].GetScheduleNexusOperationCommandAttributes().GetOperation() != "op" {
					t.Fatalf("want the ScheduleNexusOperation command, got %v", cmds)
				}
			case InInitiated:
				f.apply(nexusScheduledEvent(5, "svc", "op"))
			case InCancelRecorded:
				f.book.TakeCommands()
				f.apply(nexusEvent(InCancelRecorded, 8, 5))
			default:
				f.apply(nexusEvent(r.On, 20, 5))
			}
			if got := f.op.State(); got != r.To {
				t.Fatalf("state %v, want %v", got, r.To)
			}
			resolved := len(f.outcomes) - before
			switch r.To {
			case Completed:
				if resolved != 1 || string(f.outcomes[0].Result.GetPayloads()[0].GetData()) != `"done"` {
					t.Fatalf("want the result delivered once, got %v", f.outcomes)
				}
			case Failed, TimedOut:
				if resolved != 1 || f.outcomes[0].Failure.GetNexusOperationExecutionFailureInfo() == nil {
					t.Fatalf("want the recorded Nexus operation failure, got %v", f.outcomes)
				}
			case Canceled:
				if resolved != 1 {
					t.Fatalf("want one outcome, got %v", f.outcomes)
				}
				if r.From == Created {
					if f.outcomes[0].Failure.GetCanceledFailureInfo() == nil {
						t.Fatalf("want a canceled failure, got %v", f.outcomes[0].Failure)
					}
					if cmds := f.book.TakeCommands(); len(cmds) != 0 {
						t.Fatalf("an operation canceled before it was sent sends nothing, got %v", cmds)
					}
				} else if f.outcomes[0].Failure.GetNexusOperationExecutionFailureInfo() == nil {
					t.Fatalf("want the recorded Nexus operation failure, got %v", f.outcomes[0].Failure)
				}
			case Started, CanceledAfterInitiated, CancelRequested:
				if r.On == InStarted && (len(f.tokens) != tokensBefore+1 || f.tokens[len(f.tokens)-1] != "token-1" || f.op.Token() != "token-1") {
					t.Fatalf("want the token told once, got %v", f.tokens)
				}
				if r.On == InCancel {
					cmds := f.book.TakeCommands()
					if len(cmds) != 1 || cmds[0].GetRequestCancelNexusOperationCommandAttributes().GetScheduledEventId() != 5 {
						t.Fatalf("want a cancel request for event 5, got %v", cmds)
					}
				}
				if resolved != 0 {
					t.Fatalf("a WaitCompleted operation resolves only when it closes, got %v", f.outcomes)
				}
			}
			if len(f.outcomes) > 1 {
				t.Fatalf("outcome delivered %d times", len(f.outcomes))
			}
		})
	}
}

// TestNexusCancelRequestTableRows takes every row of the cancel request's
// table.
func TestNexusCancelRequestTableRows(t *testing.T) {
	for _, r := range NexusCancelRequestTable.Rows() {
		t.Run(r.From.String()+"/"+r.On.String(), func(t *testing.T) {
			f := newNexusFixture(t, NexusResolveOnCancelDelivered)
			f.driveTo(CanceledAfterInitiated)
			req := f.op.cancelReq
			switch r.From {
			case CommandSent:
				f.book.TakeCommands()
			case Initiated:
				f.book.TakeCommands()
				f.apply(nexusEvent(InCancelRecorded, 8, 5))
			}
			switch r.On {
			case InSent:
				if cmds := f.book.TakeCommands(); len(cmds) != 1 {
					t.Fatalf("want the RequestCancelNexusOperation command, got %v", cmds)
				}
			case InTargetClosed:
				f.apply(nexusEvent(InCompleted, 9, 5))
				if cmds := f.book.TakeCommands(); len(cmds) != 0 {
					t.Fatalf("a withdrawn request is not sent, got %v", cmds)
				}
				if err := f.book.CheckAllMatched(nil); err != nil {
					t.Fatalf("a withdrawn request is not expected in history: %v", err)
				}
			case InInitiated:
				f.apply(nexusEvent(InCancelRecorded, 8, 5))
				if f.op.State() != CancelRequested {
					t.Fatalf("the recorded request must reach the operation, it is %v", f.op.State())
				}
			case InCompleted, InFailed:
				f.apply(nexusCancelDeliveredEvent(9, 5, r.On == InFailed))
				if len(f.outcomes) != 1 {
					t.Fatalf("a WaitRequested operation resolves when its request is delivered, got %v", f.outcomes)
				}
				if r.On == InFailed && f.outcomes[0].Failure.GetMessage() != "cannot cancel" {
					t.Fatalf("want the cancel request's failure, got %v", f.outcomes[0].Failure)
				}
				if r.On == InCompleted && f.outcomes[0].Failure.GetCanceledFailureInfo() == nil {
					t.Fatalf("want a canceled failure, got %v", f.outcomes[0].Failure)
				}
			}
			if req.State() != r.To {
				t.Fatalf("state %v, want %v", req.State(), r.To)
			}
		})
	}
}

func TestNexusTryCancelResolvesWhenTheRequestIsRecorded(t *testing.T) {
	f := newNexusFixture(t, NexusResolveOnCancelRecorded)
	f.driveTo(CanceledAfterInitiated)
	if len(f.outcomes) != 0 {
		t.Fatalf("resolved before the request was recorded: %v", f.outcomes)
	}
	f.book.TakeCommands()
	f.apply(nexusEvent(InCancelRecorded, 8, 5))
	if len(f.outcomes) != 1 || f.outcomes[0].Failure.GetCanceledFailureInfo() == nil {
		t.Fatalf("want a canceled outcome, got %v", f.outcomes)
	}
	// The operation's own end is still followed, and not told again.
	f.apply(nexusEvent(InCanceled, 9, 5))
	if len(f.outcomes) != 1 || f.op.State() != Canceled {
		t.Fatalf("outcomes %v, state %v", f.outcomes, f.op.State())
	}
}

// TestNexusCanceledAfterLaterCommandsIsTakenBackToo: the commands made
// after it move up one event, keeping their IDs, as in go.temporal.io/sdk's
// histories.
func TestNexusCanceledAfterLaterCommandsIsTakenBackToo(t *testing.T) {
	f := newNexusFixture(t, NexusResolveOnClose)
	var outcomes []Outcome
	act := f.book.ScheduleActivity(&commandpb.ScheduleActivityTaskCommandAttributes{ActivityId: seqID(f.book.NextSeq()), ActivityType: &commonpb.ActivityType{Name: "Charge"}},
		nil, false, func(o Outcome) { outcomes = append(outcomes, o) })
	f.book.StartTimer(&commandpb.StartTimerCommandAttributes{TimerId: seqID(f.book.NextSeq())}, nil, func(Outcome) {})
	f.op.Cancel()
	if len(f.outcomes) != 1 || f.outcomes[0].Failure.GetCanceledFailureInfo() == nil {
		t.Fatalf("want a canceled outcome at once, got %v", f.outcomes)
	}
	if got := f.book.NextSeq(); got != 9 {
		t.Fatalf("the next sequence number is %d, want 9 (the operation, the activity, the timer and the cancel request counted)", got)
	}
	cmds := f.book.TakeCommands()
	if len(cmds) != 2 || cmds[0].GetScheduleActivityTaskCommandAttributes().GetActivityId() != "6" || cmds[1].GetStartTimerCommandAttributes().GetTimerId() != "7" {
		t.Fatalf("want the activity (ID 6) and the timer (ID 7) only, got %v", cmds)
	}
	f.apply(scheduledEvent(5, "6", "Charge"))
	f.apply(timerEvent(enumspb.EVENT_TYPE_TIMER_STARTED, 6, "7"))
	f.apply(activityEvent(InCompleted, 7, 5))
	if act.State() != Completed || len(outcomes) != 1 {
		t.Fatalf("the activity, moved up to event 5, must complete there; it is %v", act.State())
	}
}

// TestNexusCanceledBeforeSentFreesItsEventID: an operation taken back
// frees its event ID for the next command, whose sequence number (its
// activity ID) runs two ahead, as go.temporal.io/sdk counts the operation
// and its cancel request; the next task counts afresh.
func TestNexusCanceledBeforeSentFreesItsEventID(t *testing.T) {
	f := newNexusFixture(t, NexusResolveOnClose)
	f.op.Cancel()
	if got := f.book.NextSeq(); got != 7 {
		t.Fatalf("the next command's sequence number is %d, want 7", got)
	}
	var outcomes []Outcome
	act := f.book.ScheduleActivity(&commandpb.ScheduleActivityTaskCommandAttributes{ActivityId: seqID(f.book.NextSeq()), ActivityType: &commonpb.ActivityType{Name: "Charge"}},
		nil, false, func(o Outcome) { outcomes = append(outcomes, o) })
	if cmds := f.book.TakeCommands(); len(cmds) != 1 || cmds[0].GetScheduleActivityTaskCommandAttributes().GetActivityId() != "7" {
		t.Fatalf("want only the activity, with ID 7, got %v", cmds)
	}
	f.apply(scheduledEvent(5, "7", "Charge"))
	f.apply(activityEvent(InCompleted, 6, 5))
	if act.State() != Completed || len(outcomes) != 1 {
		t.Fatalf("the activity recorded at event 5 must complete, it is %v", act.State())
	}
	f.book.BeginTask(7)
	if got := f.book.NextSeq(); got != 9 {
		t.Fatalf("the next task's sequence starts at %d, want 9", got)
	}
}

func TestNexusMismatchNamesTheOperation(t *testing.T) {
	f := newNexusFixture(t, NexusResolveOnClose)
	f.book.TakeCommands()
	_, err := f.book.Apply(nexusScheduledEvent(5, "svc", "other-op"))
	if err == nil || !strings.Contains(err.Error(), `Nexus operation "other-op"`) || !strings.Contains(err.Error(), `Nexus operation "op"`) {
		t.Fatalf("want a mismatch naming both operations, got %v", err)
	}
}

// TestNexusCancelOutcomeWithoutScheduledIDIsIgnored: servers of API 1.47.0
// wrote the cancel request's outcome without the operation's scheduled
// event ID; go.temporal.io/sdk ignores it, and the operation resolves as
// WaitCompleted would.
func TestNexusCancelOutcomeWithoutScheduledIDIsIgnored(t *testing.T) {
	f := newNexusFixture(t, NexusResolveOnCancelDelivered)
	f.driveTo(CancelRequested)
	f.apply(nexusCancelDeliveredEvent(9, 0, false))
	if len(f.outcomes) != 0 || f.op.cancelReq.State() != Initiated {
		t.Fatalf("outcomes %v, request %v", f.outcomes, f.op.cancelReq.State())
	}
	f.apply(nexusEvent(InCanceled, 10, 5))
	if len(f.outcomes) != 1 || f.op.State() != Canceled {
		t.Fatalf("outcomes %v, state %v", f.outcomes, f.op.State())
	}
}
