package internal

import (
	"errors"

	commandpb "go.temporal.io/api/command/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/engine"
)

// WorkflowReplayResult is what the workflow code did in a replay that
// matched history (worker.WorkflowReplayResult): how it ended if it
// returned, else where it stands.
type WorkflowReplayResult struct {
	// LastEventID is the ID of the last history event replayed.
	LastEventID int64
	// PendingCommands are the commands the code produced for a workflow
	// task that history does not record as completed (the last task of a
	// running or stuck run; see
	// ReplayWorkflowHistoryOptions.RunPendingWorkflowTask), in order: what
	// a worker would send for it now. Nil when the replay ended at a
	// completed task.
	PendingCommands []*commandpb.Command
	// StackTrace shows where each of the workflow's coroutines is blocked
	// at the end of the replay, as the __stack_trace query does; empty
	// when the workflow code returned.
	StackTrace string

	ended workflowEnding
	dc    converter.DataConverter
}

// newReplayResult reads the result of a replay that matched history.
func newReplayResult(x *engine.Run, task *engine.TaskResult, run *workflowRun, dc converter.DataConverter) *WorkflowReplayResult {
	res := &WorkflowReplayResult{LastEventID: x.LastEventID(), PendingCommands: task.Commands, dc: dc}
	if run == nil {
		return res
	}
	if run.ended != nil {
		res.ended = *run.ended
	}
	switch {
	case run.startedByNexus != nil:
		// As closeFor encoded it: for the operation's caller.
		res.dc = converter.WithDataConverterSerializationContext(run.config.dc, *run.startedByNexus)
	case run.dc != nil:
		// The run's converter, told its serialization context, as the
		// result was encoded.
		res.dc = run.dc
	}
	if !res.ended.returned && run.rt != nil {
		res.StackTrace = run.StackTrace()
	}
	return res
}

// errWorkflowNotReturned is GetWorkflowResult's answer for a workflow
// whose code was still running when the replay ended.
var errWorkflowNotReturned = errors.New("the workflow code did not return in the replay: history ends while the workflow runs (StackTrace shows where it is blocked)")

// IsWorkflowCompleted reports whether the workflow code returned in the
// replay, with a result or an error.
func (r *WorkflowReplayResult) IsWorkflowCompleted() bool { return r.ended.returned }

// GetWorkflowResult decodes the workflow's result into valuePtr, or
// returns the error the workflow returned (GetWorkflowError). It fails
// when the workflow code did not return in the replay.
func (r *WorkflowReplayResult) GetWorkflowResult(valuePtr any) error {
	if !r.ended.returned {
		return errWorkflowNotReturned
	}
	if r.ended.err != nil {
		return r.ended.err
	}
	if valuePtr == nil || len(r.ended.result.GetPayloads()) == 0 {
		return nil
	}
	return r.dc.FromPayloads(r.ended.result, valuePtr)
}

// GetWorkflowError returns the error the workflow function returned (a
// *ContinueAsNewError when it continued as new, a canceled error when it
// was canceled), or nil when it completed or did not return.
func (r *WorkflowReplayResult) GetWorkflowError() error {
	return r.ended.err
}
