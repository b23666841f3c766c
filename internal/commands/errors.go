package commands

import (
	"fmt"

	commandpb "go.temporal.io/api/command/v1"
	historypb "go.temporal.io/api/history/v1"
)

// NondeterminismError says that the workflow code did not produce, at some
// point, the command that history recorded there.
type NondeterminismError struct {
	// Event is the history event in question; nil at the end of history.
	Event *historypb.HistoryEvent
	// Command is the command the code produced instead; nil if none.
	Command *commandpb.Command
	// Reason says, in plain words, what differs.
	Reason string
	// CodeLocation is the file:line of the workflow code that produced
	// Command (or made the call that history contradicts); empty unless
	// the Book was told to locate commands (Book.LocateCommands).
	CodeLocation string
}

func (e *NondeterminismError) Error() string {
	return "nondeterministic workflow: " + e.Reason
}

// IllegalTransitionError is an event that a machine cannot take in its
// current state: history and code disagree, or history is corrupt.
type IllegalTransitionError struct {
	Machine string
	State   State
	Input   Input
	Event   *historypb.HistoryEvent
	// Command is the machine's command and CodeLocation the file:line of
	// the workflow code that produced it; both are known only when the
	// Book was told to locate commands (Book.LocateCommands).
	Command      *commandpb.Command
	CodeLocation string
}

func (e *IllegalTransitionError) Error() string {
	if e.Event != nil {
		return fmt.Sprintf("nondeterministic workflow: %s is %v and cannot take %s", e.Machine, e.State, DescribeEvent(e.Event))
	}
	return fmt.Sprintf("%s is %v and cannot take %v", e.Machine, e.State, e.Input)
}

// ReadOnlyError is the panic of a command made where none may be: in a
// query handler or an update validator, which only read the workflow's
// state.
type ReadOnlyError struct {
	Command *commandpb.Command
	// What names the call when it made no command (workflow.Go).
	What string
}

func (e *ReadOnlyError) Error() string {
	what := e.What
	if e.Command != nil {
		what = DescribeCommand(e.Command)
	}
	return "workflow code in a query handler or an update validator made " + what +
		": queries and validators may only read the workflow's state, never make commands or start coroutines"
}
