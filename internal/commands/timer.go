package commands

import (
	"fmt"

	commandpb "go.temporal.io/api/command/v1"
	enumspb "go.temporal.io/api/enums/v1"
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
func (b *Book) StartTimer(attrs *commandpb.StartTimerCommandAttributes, onDone func(Outcome)) *Timer {
	t := &Timer{book: b, attrs: attrs, onDone: onDone}
	b.add(&commandpb.Command{
		CommandType: enumspb.COMMAND_TYPE_START_TIMER,
		Attributes:  &commandpb.Command_StartTimerCommandAttributes{StartTimerCommandAttributes: attrs},
	}, t)
	b.timers[attrs.GetTimerId()] = t
	return t
}

// Cancel cancels the timer; it resolves as canceled at once. Canceling a
// fired or canceled timer does nothing.
func (t *Timer) Cancel() {
	if !t.resolved && TimerTable.Allows(t.st, InCancel) {
		t.fire(InCancel, nil)
	}
}

// State is where the timer stands.
func (t *Timer) State() State { return t.st }

func (t *Timer) state() State { return t.st }

func (t *Timer) fire(in Input, arg any) bool { return TimerTable.fire(t, &t.st, in, arg) }

func (t *Timer) describe() string {
	return fmt.Sprintf("timer %q (%v)", t.attrs.GetTimerId(), t.attrs.GetStartToFireTimeout().AsDuration())
}

func (t *Timer) resolve(o Outcome) {
	if !t.resolved {
		t.resolved = true
		t.onDone(o)
	}
}

func (t *Timer) requestCancel(any) {
	t.resolve(canceledOutcome(nil))
	t.cancelReq = t.book.addCancelRequest(t, &commandpb.Command{
		CommandType: enumspb.COMMAND_TYPE_CANCEL_TIMER,
		Attributes: &commandpb.Command_CancelTimerCommandAttributes{
			CancelTimerCommandAttributes: &commandpb.CancelTimerCommandAttributes{TimerId: t.attrs.GetTimerId()},
		},
	})
}

func (t *Timer) fired(any) {
	t.cancelReq.targetClosed()
	t.forget(nil)
	t.resolve(Outcome{})
}

func (t *Timer) forget(any) { delete(t.book.timers, t.attrs.GetTimerId()) }
