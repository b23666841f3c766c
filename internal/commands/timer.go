package commands

import (
	"fmt"

	commandpb "go.temporal.io/api/command/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
)

// Timer is the machine of one StartTimer command.
//
// Canceling resolves the timer as canceled at once and sends a CancelTimer
// (a CancelRequest machine), even when the StartTimer has not gone out yet:
// then both go in one response, as go.temporal.io/sdk does. If the timer
// fires before the cancel request is recorded, the request is withdrawn.
type Timer struct {
	st        State
	book      *Book
	attrs     *commandpb.StartTimerCommandAttributes
	onDone    func(Outcome)
	resolved  bool
	cancelReq *CancelRequest
	groups    []*sdkpb.EventGroupMarker // the StartTimer's, for its CancelTimer
}

// The timer's commands and events, for the Book. Timer events find their
// timer by its ID.
var (
	startTimerKind = register(&Kind{
		Command:  enumspb.COMMAND_TYPE_START_TIMER,
		Recorded: enumspb.EVENT_TYPE_TIMER_STARTED,
		Identity: []Field{timerIDField(
			func(c *commandpb.Command) string { return c.GetStartTimerCommandAttributes().GetTimerId() },
			func(e *historypb.HistoryEvent) string { return e.GetTimerStartedEventAttributes().GetTimerId() })},
		Follow: []Follow{
			{enumspb.EVENT_TYPE_TIMER_FIRED, InFired, func(e *historypb.HistoryEvent) Key {
				return Key{Name: e.GetTimerFiredEventAttributes().GetTimerId()}
			}},
		},
		Describe: func(c *commandpb.Command) string {
			a := c.GetStartTimerCommandAttributes()
			return fmt.Sprintf("timer %q, %v", a.GetTimerId(), a.GetStartToFireTimeout().AsDuration())
		},
		DescribeEvent: describeTimerEvent,
	})

	cancelTimerKind = register(&Kind{
		Command:  enumspb.COMMAND_TYPE_CANCEL_TIMER,
		Recorded: enumspb.EVENT_TYPE_TIMER_CANCELED,
		Identity: []Field{timerIDField(
			func(c *commandpb.Command) string { return c.GetCancelTimerCommandAttributes().GetTimerId() },
			func(e *historypb.HistoryEvent) string { return e.GetTimerCanceledEventAttributes().GetTimerId() })},
		Describe: func(c *commandpb.Command) string {
			return fmt.Sprintf("timer %q", c.GetCancelTimerCommandAttributes().GetTimerId())
		},
		DescribeEvent: describeTimerEvent,
	})
)

func timerIDField(inCommand func(*commandpb.Command) string, inEvent func(*historypb.HistoryEvent) string) Field {
	return Field{Name: "timer ID", InCommand: inCommand, InEvent: inEvent}
}

func describeTimerEvent(ev *historypb.HistoryEvent) string {
	switch a := ev.GetAttributes().(type) {
	case *historypb.HistoryEvent_TimerStartedEventAttributes:
		t := a.TimerStartedEventAttributes
		return fmt.Sprintf("timer %q, %v", t.GetTimerId(), t.GetStartToFireTimeout().AsDuration())
	case *historypb.HistoryEvent_TimerFiredEventAttributes:
		return fmt.Sprintf("timer %q", a.TimerFiredEventAttributes.GetTimerId())
	case *historypb.HistoryEvent_TimerCanceledEventAttributes:
		return fmt.Sprintf("timer %q", a.TimerCanceledEventAttributes.GetTimerId())
	}
	return "timer"
}

// TimerTable is the timer machine's transition table.
var TimerTable = NewTable("timer",
	Row[*Timer]{Created, InSent, CommandSent, nil},
	Row[*Timer]{Created, InCancel, CanceledBeforeInitiated, (*Timer).requestCancel},
	Row[*Timer]{CommandSent, InInitiated, Initiated, nil},
	Row[*Timer]{CommandSent, InCancel, CanceledBeforeInitiated, (*Timer).requestCancel},
	Row[*Timer]{Initiated, InFired, Fired, (*Timer).fired},
	Row[*Timer]{Initiated, InCancel, CanceledAfterInitiated, (*Timer).requestCancel},
	Row[*Timer]{CanceledBeforeInitiated, InSent, CanceledBeforeInitiated, nil},
	Row[*Timer]{CanceledBeforeInitiated, InInitiated, CanceledAfterInitiated, nil},
	Row[*Timer]{CanceledAfterInitiated, InFired, Fired, (*Timer).fired},
	Row[*Timer]{CanceledAfterInitiated, InCancelRecorded, Canceled, (*Timer).forget},
)

// StartTimer adds a StartTimer command; attrs.TimerId must be set (by
// default to the decimal NextSeq). onDone runs once: with an empty Outcome
// when the timer fires, with a canceled failure when it is canceled.
// metadata (the timer's summary) may be nil.
func (b *Book) StartTimer(attrs *commandpb.StartTimerCommandAttributes, metadata *sdkpb.UserMetadata, onDone func(Outcome)) *Timer {
	t := &Timer{book: b, attrs: attrs, onDone: onDone, groups: b.groups}
	b.add(&commandpb.Command{
		CommandType:       startTimerKind.Command,
		Attributes:        &commandpb.Command_StartTimerCommandAttributes{StartTimerCommandAttributes: attrs},
		UserMetadata:      metadata,
		EventGroupMarkers: t.groups,
	}, t)
	b.route(t.key(), t)
	return t
}

// Cancel cancels the timer; it resolves as canceled at once. Canceling a
// fired or canceled timer does nothing.
func (t *Timer) Cancel() {
	if !t.resolved && TimerTable.Allows(t.st, InCancel) {
		_, _ = t.fire(InCancel, nil) // canceling cannot fail
	}
}

// State is where the timer stands.
func (t *Timer) State() State { return t.st }

func (t *Timer) state() State { return t.st }

func (t *Timer) fire(in Input, ev *historypb.HistoryEvent) (bool, error) {
	return TimerTable.fire(t, &t.st, in, ev)
}

func (t *Timer) key() Key { return Key{Name: t.attrs.GetTimerId()} }

func (t *Timer) describe() string {
	return fmt.Sprintf("timer %q (%v)", t.attrs.GetTimerId(), t.attrs.GetStartToFireTimeout().AsDuration())
}

func (t *Timer) resolve(o Outcome) {
	if !t.resolved {
		t.resolved = true
		t.onDone(o)
	}
}

func (t *Timer) requestCancel(*historypb.HistoryEvent) error {
	t.resolve(canceledOutcome(nil))
	t.cancelReq = t.book.addCancelRequest(t, &commandpb.Command{
		CommandType: cancelTimerKind.Command,
		Attributes: &commandpb.Command_CancelTimerCommandAttributes{
			CancelTimerCommandAttributes: &commandpb.CancelTimerCommandAttributes{TimerId: t.attrs.GetTimerId()},
		},
		EventGroupMarkers: t.groups,
	})
	return nil
}

func (t *Timer) fired(*historypb.HistoryEvent) error {
	t.cancelReq.targetClosed()
	t.book.unroute(t.key())
	t.resolve(Outcome{})
	return nil
}

func (t *Timer) forget(*historypb.HistoryEvent) error {
	t.book.unroute(t.key())
	return nil
}
