package commands

import (
	"fmt"

	commandpb "go.temporal.io/api/command/v1"
	enumspb "go.temporal.io/api/enums/v1"
)

// Timer is the machine of one StartTimer command.
type Timer struct {
	st       State
	book     *Book
	attrs    *commandpb.StartTimerCommandAttributes
	onDone   func(Outcome)
	resolved bool
	command  *entry // the start command, until it is sent
	cancel   *entry // the cancel command, until it is sent
}

// TimerTable is the timer machine's transition table.
var TimerTable = NewTable("timer",
	Row[*Timer]{Created, InSent, CommandSent, nil},
	Row[*Timer]{Created, InCancel, Dropped, (*Timer).withdraw},
	Row[*Timer]{CommandSent, InInitiated, Initiated, (*Timer).started},
	Row[*Timer]{Initiated, InFired, Fired, (*Timer).fired},
	Row[*Timer]{Initiated, InCancel, CancelCreated, (*Timer).requestCancel},
	// The timer may fire before the cancel command goes out: it is withdrawn.
	Row[*Timer]{CancelCreated, InFired, Fired, (*Timer).withdrawCancel},
	Row[*Timer]{CancelCreated, InSent, CancelSent, nil},
	Row[*Timer]{CancelSent, InCancelRecorded, Canceled, (*Timer).forget},
)

// StartTimer adds a StartTimer command; attrs.TimerId must be set (by
// default to the decimal NextSeq). onDone runs once: with an empty Outcome
// when the timer fires, with a canceled failure when it is canceled.
func (b *Book) StartTimer(attrs *commandpb.StartTimerCommandAttributes, onDone func(Outcome)) *Timer {
	t := &Timer{book: b, attrs: attrs, onDone: onDone}
	t.command = b.add(&commandpb.Command{
		CommandType: enumspb.COMMAND_TYPE_START_TIMER,
		Attributes:  &commandpb.Command_StartTimerCommandAttributes{StartTimerCommandAttributes: attrs},
	}, t)
	b.timers[attrs.GetTimerId()] = t
	return t
}

// Cancel cancels the timer; its outcome is a canceled failure, at once.
// Canceling a fired or canceled timer does nothing.
func (t *Timer) Cancel() error {
	if t.resolved {
		return nil
	}
	if !t.fire(InCancel, nil) {
		return &IllegalTransitionError{Machine: t.describe(), State: t.st, Input: InCancel}
	}
	return nil
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

func (t *Timer) withdraw(any) {
	t.command.dropped = true
	t.forget(nil)
	t.resolve(canceledOutcome(nil))
}

func (t *Timer) started(any) { t.command = nil }

func (t *Timer) fired(any) {
	t.forget(nil)
	t.resolve(Outcome{})
}

func (t *Timer) requestCancel(any) {
	t.cancel = t.book.add(&commandpb.Command{
		CommandType: enumspb.COMMAND_TYPE_CANCEL_TIMER,
		Attributes: &commandpb.Command_CancelTimerCommandAttributes{
			CancelTimerCommandAttributes: &commandpb.CancelTimerCommandAttributes{TimerId: t.attrs.GetTimerId()},
		},
	}, t)
	t.resolve(canceledOutcome(nil))
}

func (t *Timer) withdrawCancel(any) {
	t.cancel.dropped = true
	t.forget(nil)
}

func (t *Timer) forget(any) { delete(t.book.timers, t.attrs.GetTimerId()) }
