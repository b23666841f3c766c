// Package commands holds one small state machine per workflow command kind
// and the Book that keeps them in command order. The machines, and the
// commands they make:
//
//   - Activity (activity.go): ScheduleActivityTask;
//   - Timer (timer.go): StartTimer;
//   - CancelRequest (cancelrequest.go): RequestCancelActivityTask and
//     CancelTimer, which cancel an activity or a timer of the workflow;
//   - ChildWorkflow (child.go): StartChildWorkflowExecution;
//   - SignalExternal and CancelExternal (external.go):
//     SignalExternalWorkflowExecution and
//     RequestCancelExternalWorkflowExecution, to another workflow or a
//     child;
//   - NexusOperation and NexusCancelRequest (nexus.go):
//     ScheduleNexusOperation and RequestCancelNexusOperation;
//   - LocalActivity (localactivity.go): none while the activity runs; its
//     outcome is recorded by a marker;
//   - ProtocolMessage (update.go): ProtocolMessage, which places an
//     update's acceptance or completion among the commands;
//   - OneShot (oneshot.go): the commands done once recorded: RecordMarker
//     (side effects, versions, local activities),
//     UpsertWorkflowSearchAttributes, ModifyWorkflowProperties (the memo),
//     and the commands that close the workflow, CompleteWorkflowExecution,
//     FailWorkflowExecution, CancelWorkflowExecution and
//     ContinueAsNewWorkflowExecution.
//
// Workflow code creates machines through the Book; each machine produces the
// command the server must receive, and later consumes the history events
// that concern it. Events that record commands (ActivityTaskScheduled,
// TimerStarted, MarkerRecorded, ...) are matched to commands in the order the
// code produced them; a mismatch is a NondeterminismError. Later events
// (ActivityTaskCompleted, TimerFired, ...) find their machine by a key they
// carry.
//
// Everything about a command kind lives in its machine's file: the machine,
// its transition table (a Table of Rows, read like a diagram), and its Kind,
// the descriptor that tells the Book which command and events it owns, how
// an event finds its machine, and how the command and its events are
// described and compared. Adding a kind is adding a file.
//
// The package knows only the API protos. Turning failures into Go errors,
// running workflow code and reading history pages belong to the engine.
package commands

import (
	"fmt"

	historypb "go.temporal.io/api/history/v1"
)

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
	// TimerStarted, MarkerRecorded, StartChildWorkflowExecutionInitiated, ...).
	Initiated
	// Started: an activity was picked up by a worker; a child workflow
	// started.
	Started
	// CanceledBeforeInitiated: the code canceled before history recorded
	// the command; the command and the cancel request both go out.
	CanceledBeforeInitiated
	// CanceledAfterInitiated: the code canceled after history recorded the
	// command; the cancel request's own event has not been seen.
	CanceledAfterInitiated
	// CancelRequested: history recorded the cancel request.
	CancelRequested
	// Completed, Failed, TimedOut, Canceled, Terminated, Fired: final
	// outcomes.
	Completed
	Failed
	TimedOut
	Canceled
	Terminated
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
	Terminated: "terminated", Fired: "fired", Withdrawn: "withdrawn",
}

func (s State) String() string {
	if s < numStates {
		return stateNames[s]
	}
	return fmt.Sprintf("state(%d)", uint8(s))
}

// Input is what drives a machine: a request from workflow code, the
// workflow task boundary, or a history event. The set covers every command
// kind of the protocol, so that a new kind's file names its events with
// these words and needs no change here.
type Input uint8

const (
	// InCancel: workflow code asked to cancel.
	InCancel Input = iota
	// InTargetClosed: the command a cancel request targets has ended.
	InTargetClosed
	// InSent: the command (or the cancel command) was handed to the server.
	InSent
	// InInitiated: the event that records the command.
	InInitiated
	// InInitiationFailed: the server could not carry the command out
	// (StartChildWorkflowExecutionFailed, SignalExternalWorkflowExecutionFailed,
	// RequestCancelExternalWorkflowExecutionFailed).
	InInitiationFailed
	// InStarted: ActivityTaskStarted, ChildWorkflowExecutionStarted.
	InStarted
	// InCompleted, InFailed, InTimedOut: final events (for signals and
	// cancels of other workflows, InCompleted is their delivery).
	InCompleted
	InFailed
	InTimedOut
	// InCancelRecorded: history recorded the cancel request
	// (ActivityTaskCancelRequested, TimerCanceled).
	InCancelRecorded
	// InCanceled: ActivityTaskCanceled, ChildWorkflowExecutionCanceled.
	InCanceled
	// InTerminated: ChildWorkflowExecutionTerminated.
	InTerminated
	// InFired: TimerFired.
	InFired
	numInputs
)

var inputNames = [numInputs]string{
	InCancel: "cancel", InTargetClosed: "target closed", InSent: "command sent", InInitiated: "initiating event",
	InInitiationFailed: "initiation failed event", InStarted: "started event", InCompleted: "completed event",
	InFailed: "failed event", InTimedOut: "timed out event", InCancelRecorded: "cancel event",
	InCanceled: "canceled event", InTerminated: "terminated event", InFired: "fired event",
}

func (i Input) String() string {
	if i < numInputs {
		return inputNames[i]
	}
	return fmt.Sprintf("input(%d)", uint8(i))
}

// Action is what a transition does besides changing state. It receives the
// history event that drove the transition (nil for inputs from code and
// task boundaries) and returns an error when the event contradicts what the
// machine knows, such as an event recorded at another ID than predicted.
type Action[M any] func(m M, ev *historypb.HistoryEvent) error

// Row is one transition: in state From, input On moves the machine to To
// and runs Do (which may be nil).
type Row[M any] struct {
	From State
	On   Input
	To   State
	Do   Action[M]
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
// the state alone, when the table has no such transition; otherwise the
// state changes and the row's action runs, and its error is returned.
func (t *Table[M]) fire(m M, s *State, in Input, ev *historypb.HistoryEvent) (bool, error) {
	i := t.index[*s][in]
	if i == 0 {
		return false, nil
	}
	r := &t.rows[i-1]
	*s = r.To
	if r.Do != nil {
		return true, r.Do(m, ev)
	}
	return true, nil
}

// Allows reports whether the table has a transition for (s, in).
func (t *Table[M]) Allows(s State, in Input) bool { return t.index[s][in] != 0 }
