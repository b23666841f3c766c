package commands

import (
	"fmt"

	commandpb "go.temporal.io/api/command/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"
)

// CancellationType says what canceling a scheduled activity does; the
// values equal workflow.ActivityCancellationType's.
type CancellationType int

const (
	// TryCancel sends a cancel request and resolves the activity as
	// canceled at once.
	TryCancel CancellationType = iota
	// WaitCancellationCompleted sends a cancel request and resolves the
	// activity when it reports its end (canceled, completed or failed).
	WaitCancellationCompleted
	// Abandon resolves the activity as canceled and tells the server nothing.
	Abandon
)

// Activity is the machine of one ScheduleActivityTask command.
type Activity struct {
	st         State
	book       *Book
	attrs      *commandpb.ScheduleActivityTaskCommandAttributes
	cancelType CancellationType
	onDone     func(Outcome)
	resolved   bool

	command     *entry // the schedule command, until it is sent
	cancel      *entry // the cancel request, until it is sent
	scheduledID int64  // ActivityTaskScheduled event ID
	startedID   int64  // ActivityTaskStarted event ID, when known
	identity    string // worker that started it, when known
}

// ActivityTable is the activity machine's transition table.
var ActivityTable = NewTable("activity",
	Row[*Activity]{Created, InSent, CommandSent, nil},
	Row[*Activity]{Created, InCancel, Dropped, (*Activity).withdraw},
	Row[*Activity]{Created, InAbandon, Dropped, (*Activity).withdraw},
	Row[*Activity]{CommandSent, InInitiated, Initiated, (*Activity).scheduled},

	Row[*Activity]{Initiated, InStarted, Started, (*Activity).started},
	Row[*Activity]{Initiated, InCompleted, Completed, (*Activity).completed},
	Row[*Activity]{Initiated, InFailed, Failed, (*Activity).failed},
	Row[*Activity]{Initiated, InTimedOut, TimedOut, (*Activity).failed},
	Row[*Activity]{Initiated, InCancel, CancelCreated, (*Activity).requestCancel},
	Row[*Activity]{Initiated, InAbandon, Abandoned, (*Activity).resolveCanceled},

	Row[*Activity]{Started, InCompleted, Completed, (*Activity).completed},
	Row[*Activity]{Started, InFailed, Failed, (*Activity).failed},
	Row[*Activity]{Started, InTimedOut, TimedOut, (*Activity).failed},
	Row[*Activity]{Started, InCancel, CancelCreated, (*Activity).requestCancel},
	Row[*Activity]{Started, InAbandon, Abandoned, (*Activity).resolveCanceled},

	// The activity may end while the cancel request is still unsent: the
	// request is withdrawn, as the server would reject it.
	Row[*Activity]{CancelCreated, InSent, CancelSent, nil},
	Row[*Activity]{CancelCreated, InStarted, CancelCreated, (*Activity).started},
	Row[*Activity]{CancelCreated, InCompleted, Completed, (*Activity).withdrawCancelAndComplete},
	Row[*Activity]{CancelCreated, InFailed, Failed, (*Activity).withdrawCancelAndFail},
	Row[*Activity]{CancelCreated, InTimedOut, TimedOut, (*Activity).withdrawCancelAndFail},

	Row[*Activity]{CancelSent, InCancelRecorded, CancelRequested, nil},
	Row[*Activity]{CancelSent, InStarted, CancelSent, (*Activity).started},

	Row[*Activity]{CancelRequested, InStarted, CancelRequested, (*Activity).started},
	Row[*Activity]{CancelRequested, InCompleted, Completed, (*Activity).completed},
	Row[*Activity]{CancelRequested, InFailed, Failed, (*Activity).failed},
	Row[*Activity]{CancelRequested, InTimedOut, TimedOut, (*Activity).failed},
	Row[*Activity]{CancelRequested, InCanceled, Canceled, (*Activity).canceled},

	// An abandoned activity's later events are recorded but change nothing.
	Row[*Activity]{Abandoned, InStarted, Abandoned, nil},
	Row[*Activity]{Abandoned, InCompleted, Abandoned, (*Activity).forget},
	Row[*Activity]{Abandoned, InFailed, Abandoned, (*Activity).forget},
	Row[*Activity]{Abandoned, InTimedOut, Abandoned, (*Activity).forget},
	Row[*Activity]{Abandoned, InCanceled, Abandoned, (*Activity).forget},
)

// ScheduleActivity adds a ScheduleActivityTask command. attrs.ActivityId
// must be set (by default to the decimal NextSeq). onDone runs once, when
// the activity's outcome is known.
func (b *Book) ScheduleActivity(attrs *commandpb.ScheduleActivityTaskCommandAttributes, cancelType CancellationType, onDone func(Outcome)) *Activity {
	a := &Activity{book: b, attrs: attrs, cancelType: cancelType, onDone: onDone}
	a.command = b.add(&commandpb.Command{
		CommandType: enumspb.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK,
		Attributes:  &commandpb.Command_ScheduleActivityTaskCommandAttributes{ScheduleActivityTaskCommandAttributes: attrs},
	}, a)
	return a
}

// Cancel asks to cancel the activity, as its cancellation type says.
// Canceling a finished activity does nothing.
func (a *Activity) Cancel() error {
	in := InCancel
	if a.cancelType == Abandon {
		in = InAbandon
	}
	if a.resolved && !ActivityTable.Allows(a.st, in) {
		return nil
	}
	if !a.fire(in, nil) {
		return &IllegalTransitionError{Machine: a.describe(), State: a.st, Input: in}
	}
	return nil
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

func (a *Activity) withdraw(any) {
	a.command.dropped = true
	a.resolve(canceledOutcome(nil))
}

func (a *Activity) scheduled(arg any) {
	a.scheduledID = arg.(*historypb.HistoryEvent).GetEventId()
	a.command = nil
}

func (a *Activity) started(arg any) {
	ev := arg.(*historypb.HistoryEvent)
	a.startedID = ev.GetEventId()
	a.identity = ev.GetActivityTaskStartedEventAttributes().GetIdentity()
}

func (a *Activity) completed(arg any) {
	a.forget(nil)
	a.resolve(Outcome{Result: arg.(*historypb.HistoryEvent).GetActivityTaskCompletedEventAttributes().GetResult()})
}

// failed handles ActivityTaskFailed and ActivityTaskTimedOut: the event's
// failure becomes the cause of an activity failure.
func (a *Activity) failed(arg any) {
	a.forget(nil)
	ev := arg.(*historypb.HistoryEvent)
	if f := ev.GetActivityTaskFailedEventAttributes(); f != nil {
		a.resolve(Outcome{Failure: a.wrap(f.GetFailure(), f.GetStartedEventId(), f.GetIdentity(), f.GetRetryState())})
		return
	}
	t := ev.GetActivityTaskTimedOutEventAttributes()
	a.resolve(Outcome{Failure: a.wrap(t.GetFailure(), t.GetStartedEventId(), a.identity, t.GetRetryState())})
}

func (a *Activity) canceled(arg any) {
	a.forget(nil)
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
			ScheduledEventId: a.scheduledID,
			StartedEventId:   startedID,
			Identity:         identity,
			ActivityType:     a.attrs.GetActivityType(),
			ActivityId:       a.attrs.GetActivityId(),
			RetryState:       retry,
		}},
	}
}

func (a *Activity) requestCancel(any) {
	a.cancel = a.book.add(&commandpb.Command{
		CommandType: enumspb.COMMAND_TYPE_REQUEST_CANCEL_ACTIVITY_TASK,
		Attributes: &commandpb.Command_RequestCancelActivityTaskCommandAttributes{
			RequestCancelActivityTaskCommandAttributes: &commandpb.RequestCancelActivityTaskCommandAttributes{ScheduledEventId: a.scheduledID},
		},
	}, a)
	if a.cancelType == TryCancel {
		a.resolve(canceledOutcome(nil))
	}
}

func (a *Activity) resolveCanceled(any) { a.resolve(canceledOutcome(nil)) }

func (a *Activity) withdrawCancelAndComplete(arg any) {
	a.cancel.dropped = true
	a.completed(arg)
}

func (a *Activity) withdrawCancelAndFail(arg any) {
	a.cancel.dropped = true
	a.failed(arg)
}

// forget removes a finished activity from the Book's index.
func (a *Activity) forget(any) { delete(a.book.activities, a.scheduledID) }
