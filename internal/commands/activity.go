package commands

import (
	"fmt"

	commandpb "go.temporal.io/api/command/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
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

	groups []*sdkpb.EventGroupMarker // the schedule command's, for its cancel request
}

// The activity's commands and events, for the Book.
var (
	scheduleActivityKind = register(&Kind{
		Command:  enumspb.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK,
		Recorded: enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
		Identity: []Field{
			{Name: "activity ID",
				InCommand: func(c *commandpb.Command) string { return c.GetScheduleActivityTaskCommandAttributes().GetActivityId() },
				InEvent: func(e *historypb.HistoryEvent) string {
					return e.GetActivityTaskScheduledEventAttributes().GetActivityId()
				}},
			{Name: "activity type", Same: sameTypeName,
				InCommand: func(c *commandpb.Command) string {
					return c.GetScheduleActivityTaskCommandAttributes().GetActivityType().GetName()
				},
				InEvent: func(e *historypb.HistoryEvent) string {
					return e.GetActivityTaskScheduledEventAttributes().GetActivityType().GetName()
				}},
		},
		Follow: []Follow{
			{enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED, InStarted, func(e *historypb.HistoryEvent) Key {
				return Key{ID: e.GetActivityTaskStartedEventAttributes().GetScheduledEventId()}
			}},
			{enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED, InCompleted, func(e *historypb.HistoryEvent) Key {
				return Key{ID: e.GetActivityTaskCompletedEventAttributes().GetScheduledEventId()}
			}},
			{enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED, InFailed, func(e *historypb.HistoryEvent) Key {
				return Key{ID: e.GetActivityTaskFailedEventAttributes().GetScheduledEventId()}
			}},
			{enumspb.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT, InTimedOut, func(e *historypb.HistoryEvent) Key {
				return Key{ID: e.GetActivityTaskTimedOutEventAttributes().GetScheduledEventId()}
			}},
			{enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCELED, InCanceled, func(e *historypb.HistoryEvent) Key {
				return Key{ID: e.GetActivityTaskCanceledEventAttributes().GetScheduledEventId()}
			}},
		},
		Describe: func(c *commandpb.Command) string {
			a := c.GetScheduleActivityTaskCommandAttributes()
			return fmt.Sprintf("activity %q, type %q", a.GetActivityId(), a.GetActivityType().GetName())
		},
		DescribeEvent: describeActivityEvent,
	})

	requestCancelActivityKind = register(&Kind{
		Command:  enumspb.COMMAND_TYPE_REQUEST_CANCEL_ACTIVITY_TASK,
		Recorded: enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED,
		Identity: []Field{{Name: "scheduled event ID",
			InCommand: func(c *commandpb.Command) string {
				return seqID(c.GetRequestCancelActivityTaskCommandAttributes().GetScheduledEventId())
			},
			InEvent: func(e *historypb.HistoryEvent) string {
				return seqID(e.GetActivityTaskCancelRequestedEventAttributes().GetScheduledEventId())
			}}},
		Describe: func(c *commandpb.Command) string {
			return fmt.Sprintf("of the activity scheduled at event %d", c.GetRequestCancelActivityTaskCommandAttributes().GetScheduledEventId())
		},
		DescribeEvent: describeActivityEvent,
	})
)

func describeActivityEvent(ev *historypb.HistoryEvent) string {
	if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil {
		return fmt.Sprintf("activity %q, type %q", a.GetActivityId(), a.GetActivityType().GetName())
	}
	var scheduled int64
	switch a := ev.GetAttributes().(type) {
	case *historypb.HistoryEvent_ActivityTaskStartedEventAttributes:
		scheduled = a.ActivityTaskStartedEventAttributes.GetScheduledEventId()
	case *historypb.HistoryEvent_ActivityTaskCompletedEventAttributes:
		scheduled = a.ActivityTaskCompletedEventAttributes.GetScheduledEventId()
	case *historypb.HistoryEvent_ActivityTaskFailedEventAttributes:
		scheduled = a.ActivityTaskFailedEventAttributes.GetScheduledEventId()
	case *historypb.HistoryEvent_ActivityTaskTimedOutEventAttributes:
		scheduled = a.ActivityTaskTimedOutEventAttributes.GetScheduledEventId()
	case *historypb.HistoryEvent_ActivityTaskCanceledEventAttributes:
		scheduled = a.ActivityTaskCanceledEventAttributes.GetScheduledEventId()
	case *historypb.HistoryEvent_ActivityTaskCancelRequestedEventAttributes:
		scheduled = a.ActivityTaskCancelRequestedEventAttributes.GetScheduledEventId()
	}
	return fmt.Sprintf("of the activity scheduled at event %d", scheduled)
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

// ScheduleActivity adds a ScheduleActivityTask command, with metadata (the
// activity's summary, for the UI; may be nil). attrs.ActivityId must be
// set (by default to the decimal NextSeq). onDone runs once, when the
// outcome is known.
func (b *Book) ScheduleActivity(attrs *commandpb.ScheduleActivityTaskCommandAttributes, metadata *sdkpb.UserMetadata, waitForCancel bool, onDone func(Outcome)) *Activity {
	// The machine, its command and the command's attributes wrapper are
	// one allocation: the machine outlives the command's own use.
	parts := &struct {
		a       Activity
		cmd     commandpb.Command
		wrapper commandpb.Command_ScheduleActivityTaskCommandAttributes
	}{a: Activity{book: b, attrs: attrs, waitForCancel: waitForCancel, onDone: onDone, seq: b.nextEvent(), groups: b.groups}}
	a := &parts.a
	parts.wrapper.ScheduleActivityTaskCommandAttributes = attrs
	parts.cmd.CommandType = scheduleActivityKind.Command
	parts.cmd.Attributes = &parts.wrapper
	parts.cmd.UserMetadata = metadata
	parts.cmd.EventGroupMarkers = a.groups
	b.add(&parts.cmd, a)
	b.route(a.key(), a)
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
		_, _ = a.fire(InCancel, nil) // canceling cannot fail
	}
}

// shiftEvent moves the unsent activity's predicted event (see Book.takeBack).
func (a *Activity) shiftEvent(delta int64) {
	a.book.unroute(a.key())
	a.seq += delta
	a.book.route(a.key(), a)
}

// State is where the activity stands.
func (a *Activity) State() State { return a.st }

func (a *Activity) state() State { return a.st }

func (a *Activity) fire(in Input, ev *historypb.HistoryEvent) (bool, error) {
	return ActivityTable.fire(a, &a.st, in, ev)
}

// key is how the activity's later events find it: by the ID of its
// ActivityTaskScheduled event.
func (a *Activity) key() Key { return Key{ID: a.seq} }

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

func (a *Activity) requestCancel(*historypb.HistoryEvent) error {
	if !a.waitForCancel {
		a.resolve(canceledOutcome(nil))
	}
	a.cancelReq = a.book.addCancelRequest(a, &commandpb.Command{
		CommandType: requestCancelActivityKind.Command,
		Attributes: &commandpb.Command_RequestCancelActivityTaskCommandAttributes{
			RequestCancelActivityTaskCommandAttributes: &commandpb.RequestCancelActivityTaskCommandAttributes{ScheduledEventId: a.seq},
		},
		EventGroupMarkers: a.groups,
	})
	return nil
}

// scheduled checks that history put the activity where this SDK predicted:
// later events find it by that event ID.
func (a *Activity) scheduled(ev *historypb.HistoryEvent) error {
	if id := ev.GetEventId(); id != a.seq {
		return &NondeterminismError{Event: ev, Reason: fmt.Sprintf(
			"%s was recorded at event %d, but the workflow code's commands place it at event %d: the code produced a different number of commands before it",
			a.describe(), id, a.seq)}
	}
	return nil
}

func (a *Activity) started(ev *historypb.HistoryEvent) error {
	a.startedID = ev.GetEventId()
	a.identity = ev.GetActivityTaskStartedEventAttributes().GetIdentity()
	return nil
}

// ended withdraws an unrecorded cancel request and unindexes the activity.
func (a *Activity) ended() {
	a.cancelReq.targetClosed()
	a.book.unroute(a.key())
}

func (a *Activity) completed(ev *historypb.HistoryEvent) error {
	a.ended()
	a.resolve(Outcome{Result: ev.GetActivityTaskCompletedEventAttributes().GetResult()})
	return nil
}

// failed handles ActivityTaskFailed and ActivityTaskTimedOut: the event's
// failure becomes the cause of an activity failure.
func (a *Activity) failed(ev *historypb.HistoryEvent) error {
	a.ended()
	if f := ev.GetActivityTaskFailedEventAttributes(); f != nil {
		a.resolve(Outcome{Failure: a.wrap(f.GetFailure(), f.GetStartedEventId(), f.GetIdentity(), f.GetRetryState())})
		return nil
	}
	t := ev.GetActivityTaskTimedOutEventAttributes()
	a.resolve(Outcome{Failure: a.wrap(t.GetFailure(), t.GetStartedEventId(), a.identity, t.GetRetryState())})
	return nil
}

func (a *Activity) canceled(ev *historypb.HistoryEvent) error {
	a.book.unroute(a.key())
	c := ev.GetActivityTaskCanceledEventAttributes()
	cause := canceledOutcome(c.GetDetails()).Failure
	a.resolve(Outcome{Failure: a.wrap(cause, c.GetStartedEventId(), c.GetIdentity(), enumspb.RETRY_STATE_NON_RETRYABLE_FAILURE)})
	return nil
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
