// Package commands holds one small state machine per workflow command kind
// (activity, timer, marker, search attributes, properties, workflow
// completion) and the Book that keeps them in command order.
//
// Workflow code creates machines through the Book; each machine produces the
// command the server must receive, and later consumes the history events
// that concern it. Events that answer commands (ActivityTaskScheduled,
// TimerStarted, MarkerRecorded, ...) are matched to commands in the order the
// code produced them; a mismatch is a NondeterminismError.
//
// The package knows only the API protos. Turning failures into Go errors,
// running workflow code and reading history pages belong to the engine.
package commands

import "fmt"

// State is where a machine stands. All machines share one set of state
// names so that errors read the same for every command kind.
type State uint8

const (
	// Created: the code produced the command; it has not been sent.
	Created State = iota
	// CommandSent: the command went out with a workflow task completion
	// (or, in replay, the task that produced it has passed) and its
	// initiating event has not been seen yet.
	CommandSent
	// Initiated: the command's own event is in history (ActivityTaskScheduled,
	// TimerStarted, MarkerRecorded, ...).
	Initiated
	// Started: an activity was picked up by a worker.
	Started
	// CanceledBeforeInitiated: the code canceled before history recorded
	// the command; the command and the cancel request both go out.
	CanceledBeforeInitiated
	// CanceledAfterInitiated: the code canceled after history recorded the
	// command; the cancel request's own event has not been seen.
	CanceledAfterInitiated
	// CancelRequested: history recorded the cancel request.
	CancelRequested
	// Completed, Failed, TimedOut, Canceled, Fired: final outcomes.
	Completed
	Failed
	TimedOut
	Canceled
	Fired
	// Withdrawn: a cancel request whose target ended first; it is not sent.
	Withdrawn
	numStates
)

var stateNames = [numStates]string{
	Created: "created", CommandSent: "command sent", Initiated: "initiated",
	Started: "started", CanceledBeforeInitiated: "canceled before initiated",
	CanceledAfterInitiated: "canceled after initiated", CancelRequested: "cancel requested",
	Completed: "completed", Failed: "failed", TimedOut: "timed out", Canceled: "canceled",
	Fired: "fired", Withdrawn: "withdrawn",
}

func (s State) String() string {
	if s < numStates {
		return stateNames[s]
	}
	return fmt.Sprintf("state(%d)", uint8(s))
}

// Input is what drives a machine: a request from workflow code, the
// workflow task boundary, or a history event.
type Input uint8

const (
	// InCancel: workflow code asked to cancel.
	InCancel Input = iota
	// InTargetClosed: the command a cancel request targets has ended.
	InTargetClosed
	// InSent: the command (or the cancel command) was handed to the server.
	InSent
	// InInitiated: the event that answers the command.
	InInitiated
	// InStarted: ActivityTaskStarted.
	InStarted
	// InCompleted, InFailed, InTimedOut: final activity events.
	InCompleted
	InFailed
	InTimedOut
	// InCancelRecorded: history recorded the cancel request
	// (ActivityTaskCancelRequested, TimerCanceled).
	InCancelRecorded
	// InCanceled: ActivityTaskCanceled.
	InCanceled
	// InFired: TimerFired.
	InFired
	numInputs
)

var inputNames = [numInputs]string{
	InCancel: "cancel", InTargetClosed: "target closed", InSent: "command sent", InInitiated: "initiating event",
	InStarted: "started event", InCompleted: "completed event", InFailed: "failed event",
	InTimedOut: "timed out event", InCancelRecorded: "cancel event",
	InCanceled: "canceled event", InFired: "fired event",
}

func (i Input) String() string {
	if i < numInputs {
		return inputNames[i]
	}
	return fmt.Sprintf("input(%d)", uint8(i))
}

// Row is one transition: in state From, input On moves the machine to To
// and runs Do (which may be nil). Do receives the machine and the input's
// argument (a history event, or nil for code and task inputs).
type Row[M any] struct {
	From State
	On   Input
	To   State
	Do   func(m M, arg any)
}

// Table is a machine kind's complete transition table. Any (state, input)
// pair not in it is an illegal transition.
type Table[M any] struct {
	kind  string
	rows  []Row[M]
	index [numStates][numInputs]int16 // row index + 1; 0 means no row
}

// NewTable indexes rows for constant-time lookup. It panics on a duplicate
// (state, input) pair, since a table is static program text.
func NewTable[M any](kind string, rows ...Row[M]) *Table[M] {
	t := &Table[M]{kind: kind, rows: rows}
	for i, r := range rows {
		if t.index[r.From][r.On] != 0 {
			panic(fmt.Sprintf("commands: %s table has two rows for (%v, %v)", kind, r.From, r.On))
		}
		t.index[r.From][r.On] = int16(i + 1)
	}
	return t
}

// Rows returns the table's transitions, for tests and documentation.
func (t *Table[M]) Rows() []Row[M] { return t.rows }

// fire applies input to a machine in state *s. It reports false, leaving
// the state alone, when the table has no such transition.
func (t *Table[M]) fire(m M, s *State, in Input, arg any) bool {
	i := t.index[*s][in]
	if i == 0 {
		return false
	}
	r := &t.rows[i-1]
	*s = r.To
	if r.Do != nil {
		r.Do(m, arg)
	}
	return true
}

// Allows reports whether the table has a transition for (s, in).
func (t *Table[M]) Allows(s State, in Input) bool { return t.index[s][in] != 0 }
