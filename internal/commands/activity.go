package commands

import (
	"fmt"

	commandpb "go.temporal.io/api/command/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"
)

// Activity is the machine of one ScheduleActivityTask command.
//
// Canceling sends a RequestCancelActivityTask (a CancelRequest machine of
// its own), even before the schedule command went out: then both go in one
// response, as go.temporal.io/sdk does, so histories agree. Unless
// waitForCancel is set, the activity resolves as canceled at once and
// later events are only recorded.
type Activity struct {
	st            State
	book          *Book
	attrs         *commandpb.ScheduleActivityTaskCommandAttributes
	waitForCancel bool
	onDone        func(Outcome)
	resolved      bool

	seq       int64          // the predicted ActivityTaskScheduled event ID
	cancelReq *CancelRequest // the cancel request, once made
	startedID int64          // ActivityTaskStarted event ID, when known
	identity  string         // worker that started it, when known
}

// ActivityTable is the activity machine's transition table.
var ActivityTable = NewTable("activity",
	Row[*Activity]{Created, InSent, CommandSent, nil},
	Row[*Activity]{Created, InCancel, CanceledBeforeInitiated, (*Activity).requestCancel},
	Row[*Activity]{CommandSent, InInitiated, Initiated, (*Activity).scheduled},
	Row[*Activity]{CommandSent, InCancel, CanceledBeforeInitiated, (*Activity).requestCancel},

	Row[*Activity]{Initiated, InStarted, Started, (*Activity).started},
	Row[*Activity]{Initiated, InCompleted, Completed, (*Activity).completed},
	Row[*Activity]{Initiated, InFailed, Failed, (*Activity).failed},
	Row[*Activity]{Initiated, InTimedOut, TimedOut, (*Activity).failed},
	Row[*Activity]{Initiated, InCancel, CanceledAfterInitiated, (*Activity).requestCancel},

	Row[*Activity]{Started, InCompleted, Completed, (*Activity).completed},
	Row[*Activity]{Started, InFailed, Failed, (*Activity).failed},
	Row[*Activity]{Started, InTimedOut, TimedOut, (*Activity).failed},
	Row[*Activity]{Started, InCancel, CanceledAfterInitiated, (*Activity).requestCancel},

	// Canceled before history recorded the schedule: the schedule command
	// still goes out, and its event still comes.
	Row[*Activity]{CanceledBeforeInitiated, InSent, CanceledBeforeInitiated, nil},
	Row[*Activity]{CanceledBeforeInitiated, InInitiated, CanceledAfterInitiated, (*Activity).scheduled},

	// The activity may end before the cancel request is recorded: the
	// request is withdrawn.
	Row[*Activity]{CanceledAfterInitiated, InStarted, CanceledAfterInitiated, (*Activity).started},
	Row[*Activity]{CanceledAfterInitiated, InCancelRecorded, CancelRequested, nil},
	Row[*Activity]{CanceledAfterInitiated, InCompleted, Completed, (*Activity).completed},
	Row[*Activity]{CanceledAfterInitiated, InFailed, Failed, (*Activity).failed},
	Row[*Activity]{CanceledAfterInitiated, InTimedOut, TimedOut, (*Activity).failed},

	Row[*Activity]{CancelRequested, InStarted, CancelRequested, (*Activity).started},
	Row[*Activity]{CancelRequested, InCompleted, Completed, (*Activity).completed},
	Row[*Activity]{CancelRequested, InFailed, Failed, (*Activity).failed},
	Row[*Activity]{CancelRequested, InTimedOut, TimedOut, (*Activity).failed},
	Row[*Activity]{CancelRequested, InCanceled, Canceled, (*Activity).canceled},
)

// ScheduleActivity adds a ScheduleActivityTask command. attrs.ActivityId
// must be set (by default to the decimal NextSeq). onDone runs once, when
// the outcome is known.
func (b *Book) ScheduleActivity(attrs *commandpb.ScheduleActivityTaskCommandAttributes, waitForCancel bool, onDone func(Outcome)) *Activity {
	a := &Activity{book: b, attrs: attrs, waitForCancel: waitForCancel, onDone: onDone, seq: b.NextSeq()}
	b.add(&commandpb.Command{
		CommandType: enumspb.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK,
		Attributes:  &commandpb.Command_ScheduleActivityTaskCommandAttributes{ScheduleActivityTaskCommandAttributes: attrs},
	}, a)
	b.activities[a.seq] = a
	return a
}

// Cancel asks to cancel the activity. Canceling an activity that has ended
// or is already being canceled does nothing.
func (a *Activity) Cancel() {
	if a.st == Created {
		// An activity canceled before it is sent must not start eagerly.
		a.attrs.RequestEagerExecution = false
	}
	if ActivityTable.Allows(a.st, InCancel) {
		a.fire(InCancel, nil)
	}
}

// State is where the activity stands.
func (a *Activity) State() State { return a.st }

func (a *Activity) state() State { return a.st }

func (a *Activity) fire(in Input, arg any) bool { return ActivityTable.fire(a, &a.st, in, arg) }

func (a *Activity) describe() string {
	return fmt.Sprintf("activity %q (type %q)", a.attrs.GetActivityId(), a.attrs.GetActivityType().GetName())
}

func (a *Activity) resolve(o Outcome) {
	if a.resolved {
		return
	}
	a.resolved = true
	a.onDone(o)
}

func (a *Activity) requestCancel(any) {
	if !a.waitForCancel {
		a.resolve(canceledOutcome(nil))
	}
	a.cancelReq = a.book.addCancelRequest(a, &commandpb.Command{
		CommandType: enumspb.COMMAND_TYPE_REQUEST_CANCEL_ACTIVITY_TASK,
		Attributes: &commandpb.Command_RequestCancelActivityTaskCommandAttributes{
			RequestCancelActivityTaskCommandAttributes: &commandpb.RequestCancelActivityTaskCommandAttributes{ScheduledEventId: a.seq},
		},
	})
}

// scheduled checks that history put the activity where this SDK predicted:
// later events find it by that event ID.
func (a *Activity) scheduled(arg any) {
	if id := arg.(*historypb.HistoryEvent).GetEventId(); id != a.seq {
		a.book.pendingErr = &NondeterminismError{Event: arg.(*historypb.HistoryEvent), Reason: fmt.Sprintf(
			"%s was recorded at event %d, but the workflow code's commands place it at event %d: the code produced a different number of commands before it",
			a.describe(), id, a.seq)}
	}
}

func (a *Activity) started(arg any) {
	ev := arg.(*historypb.HistoryEvent)
	a.startedID = ev.GetEventId()
	a.identity = ev.GetActivityTaskStartedEventAttributes().GetIdentity()
}

// ended withdraws an unrecorded cancel request and unindexes the activity.
func (a *Activity) ended() {
	a.cancelReq.targetClosed()
	delete(a.book.activities, a.seq)
}

func (a *Activity) completed(arg any) {
	a.ended()
	a.resolve(Outcome{Result: arg.(*historypb.HistoryEvent).GetActivityTaskCompletedEventAttributes().GetResult()})
}

// failed handles ActivityTaskFailed and ActivityTaskTimedOut: the event's
// failure becomes the cause of an activity failure.
func (a *Activity) failed(arg any) {
	a.ended()
	ev := arg.(*historypb.HistoryEvent)
	if f := ev.GetActivityTaskFailedEventAttributes(); f != nil {
		a.resolve(Outcome{Failure: a.wrap(f.GetFailure(), f.GetStartedEventId(), f.GetIdentity(), f.GetRetryState())})
		return
	}
	t := ev.GetActivityTaskTimedOutEventAttributes()
	a.resolve(Outcome{Failure: a.wrap(t.GetFailure(), t.GetStartedEventId(), a.identity, t.GetRetryState())})
}

func (a *Activity) canceled(arg any) {
	delete(a.book.activities, a.seq)
	c := arg.(*historypb.HistoryEvent).GetActivityTaskCanceledEventAttributes()
	cause := canceledOutcome(c.GetDetails()).Failure
	a.resolve(Outcome{Failure: a.wrap(cause, c.GetStartedEventId(), c.GetIdentity(), enumspb.RETRY_STATE_NON_RETRYABLE_FAILURE)})
}

// wrap makes the failure an activity failure about this activity, which
// the failure converter turns into an *ActivityError with cause.
func (a *Activity) wrap(cause *failurepb.Failure, startedID int64, identity string, retry enumspb.RetryState) *failurepb.Failure {
	if startedID == 0 {
		startedID = a.startedID
	}
	return &failurepb.Failure{
		Message: "activity error",
		Cause:   cause,
		FailureInfo: &failurepb.Failure_ActivityFailureInfo{ActivityFailureInfo: &failurepb.ActivityFailureInfo{
			ScheduledEventId: a.seq,
			StartedEventId:   startedID,
			Identity:         identity,
			ActivityType:     a.attrs.GetActivityType(),
			ActivityId:       a.attrs.GetActivityId(),
			RetryState:       retry,
		}},
	}
}
