package commands

import (
	"fmt"

	historypb "go.temporal.io/api/history/v1"
)

// LocalActivity is the machine of one local activity: code the worker runs
// itself, inside the workflow task, instead of scheduling it through the
// server. It has no command of its own while it runs; its outcome is
// recorded as a LocalActivity marker, a RecordMarker command (a OneShot)
// that the engine adds when the outcome is known. In replay the outcome
// comes from that marker, and the activity does not run again.
//
// A local activity the code cancels before the worker started it never
// runs; one canceled while running has its attempt canceled. Either way
// the outcome (often a cancellation) is recorded like any other, as
// go.temporal.io/sdk does.
type LocalActivity struct {
	st           State
	id           string // "1", "2", ... counted per run
	activityType string
	onDone       func(Outcome)
	onCancel     func() // tells the worker to cancel the running attempt
	outcome      Outcome
}

// LocalActivityTable is the local activity machine's transition table.
// The outcome inputs (InCompleted, InFailed, InCanceled) come from the
// worker when the activity ran in this task, or from the marker history
// recorded when replaying.
var LocalActivityTable = NewTable("local activity",
	Row[*LocalActivity]{Created, InStarted, Started, nil},
	Row[*LocalActivity]{Created, InCancel, CanceledBeforeInitiated, nil},
	Row[*LocalActivity]{Created, InCompleted, Completed, (*LocalActivity).resolve},
	Row[*LocalActivity]{Created, InFailed, Failed, (*LocalActivity).resolve},
	Row[*LocalActivity]{Created, InCanceled, Canceled, (*LocalActivity).resolve},

	Row[*LocalActivity]{Started, InCancel, CancelRequested, (*LocalActivity).cancelAttempt},
	Row[*LocalActivity]{Started, InCompleted, Completed, (*LocalActivity).resolve},
	Row[*LocalActivity]{Started, InFailed, Failed, (*LocalActivity).resolve},
	Row[*LocalActivity]{Started, InCanceled, Canceled, (*LocalActivity).resolve},

	Row[*LocalActivity]{CanceledBeforeInitiated, InCancel, CanceledBeforeInitiated, nil},
	Row[*LocalActivity]{CanceledBeforeInitiated, InCompleted, Completed, (*LocalActivity).resolve},
	Row[*LocalActivity]{CanceledBeforeInitiated, InFailed, Failed, (*LocalActivity).resolve},
	Row[*LocalActivity]{CanceledBeforeInitiated, InCanceled, Canceled, (*LocalActivity).resolve},

	Row[*LocalActivity]{CancelRequested, InCancel, CancelRequested, nil},
	Row[*LocalActivity]{CancelRequested, InCompleted, Completed, (*LocalActivity).resolve},
	Row[*LocalActivity]{CancelRequested, InFailed, Failed, (*LocalActivity).resolve},
	Row[*LocalActivity]{CancelRequested, InCanceled, Canceled, (*LocalActivity).resolve},
)

// NewLocalActivity makes the machine of a local activity the code asked
// for. onDone receives its outcome once; onCancel is called when the code
// cancels it while the worker runs it.
func (b *Book) NewLocalActivity(id, activityType string, onDone func(Outcome), onCancel func()) *LocalActivity {
	if b.readOnly {
		panic(&ReadOnlyError{What: fmt.Sprintf("local activity %s (type %s)", id, activityType)})
	}
	return &LocalActivity{id: id, activityType: activityType, onDone: onDone, onCancel: onCancel}
}

// ID is the activity ID its marker records.
func (l *LocalActivity) ID() string { return l.id }

// Type is the activity type.
func (l *LocalActivity) Type() string { return l.activityType }

// State is where the local activity stands.
func (l *LocalActivity) State() State { return l.st }

// Pending reports whether its outcome is not known yet.
func (l *LocalActivity) Pending() bool {
	switch l.st {
	case Completed, Failed, Canceled:
		return false
	}
	return true
}

// Start records that the worker began running it.
func (l *LocalActivity) Start() error { return l.drive(InStarted, nil) }

// Cancel is the workflow code canceling it.
func (l *LocalActivity) Cancel() error { return l.drive(InCancel, nil) }

// Resolve delivers its outcome: in, one of InCompleted, InFailed and
// InCanceled, says which; ev is the marker when replaying, else nil.
func (l *LocalActivity) Resolve(in Input, o Outcome, ev *historypb.HistoryEvent) error {
	l.outcome = o
	return l.drive(in, ev)
}

func (l *LocalActivity) drive(in Input, ev *historypb.HistoryEvent) error {
	ok, err := l.fire(in, ev)
	if !ok {
		return &IllegalTransitionError{Machine: l.describe(), State: l.st, Input: in, Event: ev}
	}
	return err
}

func (l *LocalActivity) state() State { return l.st }

func (l *LocalActivity) fire(in Input, ev *historypb.HistoryEvent) (bool, error) {
	return LocalActivityTable.fire(l, &l.st, in, ev)
}

func (l *LocalActivity) describe() string {
	return fmt.Sprintf("local activity %q, type %q", l.id, l.activityType)
}

func (l *LocalActivity) resolve(*historypb.HistoryEvent) error {
	o := l.outcome
	l.outcome = Outcome{}
	l.onDone(o)
	return nil
}

func (l *LocalActivity) cancelAttempt(*historypb.HistoryEvent) error {
	if l.onCancel != nil {
		l.onCancel()
	}
	return nil
}
