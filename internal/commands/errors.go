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
}

func (e *IllegalTransitionError) Error() string {
	if e.Event != nil {
		return fmt.Sprintf("nondeterministic workflow: %s is %v and cannot take %s", e.Machine, e.State, DescribeEvent(e.Event))
	}
	return fmt.Sprintf("%s is %v and cannot take %v", e.Machine, e.State, e.Input)
}
