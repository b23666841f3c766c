package internal

import (
	"errors"

	commandpb "go.temporal.io/api/command/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

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
	res.ended = run.ended
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

// withPendingTaskStarted adds, after the last event, the events that start
// the workflow task history scheduled last and does not record as
// completed: a WorkflowTaskStarted for a scheduled task; a new attempt
// (scheduled and started) after a failed or timed-out one, whose retries
// the server does not write to history. The engine runs the code at a
// final WorkflowTaskStarted as the task being processed. Without a pending
// task, or when history already ends with its start, events come back as
// they are.
func withPendingTaskStarted(events []*historypb.HistoryEvent) []*historypb.HistoryEvent {
	if len(events) == 0 || engine.ClosesRun(events[len(events)-1].GetEventType()) {
		return events
	}
	last := events[len(events)-1]
	for i := len(events) - 1; i >= 0; i-- {
		switch events[i].GetEventType() {
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED:
			return events
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED:
			return append(events[:len(events):len(events)], taskStarted(last, events[i].GetEventId()))
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED, enumspb.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT:
			scheduled := &historypb.HistoryEvent{
				EventId:   last.GetEventId() + 1,
				EventTime: last.GetEventTime(),
				EventType: enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED,
				Attributes: &historypb.HistoryEvent_WorkflowTaskScheduledEventAttributes{
					WorkflowTaskScheduledEventAttributes: &historypb.WorkflowTaskScheduledEventAttributes{},
				},
			}
			return append(events[:len(events):len(events)], scheduled, taskStarted(scheduled, scheduled.GetEventId()))
		}
	}
	return events
}

// taskStarted is the WorkflowTaskStarted event that follows after, for the
// task scheduled at scheduledID.
func taskStarted(after *historypb.HistoryEvent, scheduledID int64) *historypb.HistoryEvent {
	return &historypb.HistoryEvent{
		EventId:   after.GetEventId() + 1,
		EventTime: after.GetEventTime(),
		EventType: enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED,
		Attributes: &historypb.HistoryEvent_WorkflowTaskStartedEventAttributes{
			WorkflowTaskStartedEventAttributes: &historypb.WorkflowTaskStartedEventAttributes{ScheduledEventId: scheduledID},
		},
	}
}
