package internal

import (
	"errors"
	"strings"

	commandpb "go.temporal.io/api/command/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/internal/callsite"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/commands"
	"github.com/durable-go/sdk/internal/engine"
)

// NonDeterminismError is a replay whose workflow code did not do what
// history recorded (worker.NonDeterminismError). Its message is the
// engine's, which says in words what differs; its fields say the same for
// programs. It wraps the engine's error.
type NonDeterminismError struct {
	// WorkflowType, WorkflowID and RunID name the replayed run (the
	// IDs of ReplayWorkflowHistoryOptions.OriginalExecution, or the
	// replayer's defaults).
	WorkflowType string
	WorkflowID   string
	RunID        string
	// EventID and EventType are the history event at which code and
	// history part; 0 and EVENT_TYPE_UNSPECIFIED when history ended
	// first, or when the code made a call that history has no event for
	// (a SideEffect, a GetVersion out of range).
	EventID   int64
	EventType enumspb.EventType
	// Command is the command the code produced there; nil when it
	// produced none.
	Command *commandpb.Command
	// CodeLocation is the file:line of the workflow code that produced
	// Command or made the call; empty when the code did not (history
	// has an event where the code produced nothing, or the closing
	// command, which the SDK makes when the workflow function returns).
	CodeLocation string
	// Reason is what differs, in plain words: the message without the
	// run's names.
	Reason string

	err      error
	panicked bool // the mismatch surfaced as a panic, whose stack shows the code
}

// Error is the engine's message, with the code location when it is not
// already in a panic's stack.
func (e *NonDeterminismError) Error() string {
	if e.CodeLocation == "" || e.panicked {
		return e.err.Error()
	}
	return e.err.Error() + " (workflow code at " + e.CodeLocation + ")"
}

// Unwrap returns the engine's error.
func (e *NonDeterminismError) Unwrap() error { return e.err }

// newNonDeterminismError explains err, from the replay of run, when it is a
// mismatch between code and history; nil otherwise.
func newNonDeterminismError(err error, workflowType string, run clientapi.WorkflowExecution) *NonDeterminismError {
	e := &NonDeterminismError{err: err, WorkflowType: workflowType, WorkflowID: run.ID, RunID: run.RunID}
	var nd *commands.NondeterminismError
	var it *commands.IllegalTransitionError
	var ev *historypb.HistoryEvent
	switch {
	case errors.As(err, &nd):
		ev, e.Command, e.CodeLocation, e.Reason = nd.Event, nd.Command, nd.CodeLocation, nd.Reason
	case errors.As(err, &it):
		ev, e.Command, e.CodeLocation = it.Event, it.Command, it.CodeLocation
		e.Reason = strings.TrimPrefix(it.Error(), "nondeterministic workflow: ")
	default:
		return nil
	}
	e.EventID, e.EventType = ev.GetEventId(), ev.GetEventType()
	var p engine.Panicked
	e.panicked = errors.As(err, &p)
	return e
}

// nondeterminismLocator returns what finds the workflow code behind a live
// task's non-determinism error (workerrt.Options.LocateNondeterminism), as
// the replayer finds it: it replays the run's history with config's runs,
// locating each command with locate (workflowCodeLocation, which walks the
// stack), and returns the location of the same mismatch. A mismatch found
// as a panic has its stack already.
func nondeterminismLocator(config *runConfig, locate func() string) func(src *engine.EventSource, workflowID, runID string, failed error) string {
	return func(src *engine.EventSource, workflowID, runID string, failed error) string {
		nd := newNonDeterminismError(failed, "", clientapi.WorkflowExecution{})
		if nd == nil || nd.CodeLocation != "" || nd.panicked {
			return ""
		}
		opts := config.engineOptions()
		opts.LocateCode = locate
		x := engine.NewRun(opts)
		defer x.Close()
		x.SetRun(workflowID, runID)
		_, err := x.ProcessTask(engine.Task{Events: src})
		if located := newNonDeterminismError(err, "", clientapi.WorkflowExecution{}); located != nil && located.Reason == nd.Reason {
			return located.CodeLocation
		}
		return ""
	}
}

// workflowCodeLocation is the file:line of the workflow code whose call
// reached the engine (callsite.WorkflowCode). A variable, not a function
// that calls it: the stack walk counts its own caller's frames.
var workflowCodeLocation = callsite.WorkflowCode
