package history

import (
	"context"
	"fmt"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/engine"
)

// ReplayNamespace is the namespace workflows see during replay, as in
// go.temporal.io/sdk.
const ReplayNamespace = "ReplayNamespace"

// Source is the history one replay reads: Events, and further pages when
// Token is set.
type Source struct {
	Events   []*historypb.HistoryEvent
	Token    []byte
	Fetch    engine.PageFetcher
	Original clientapi.WorkflowExecution
	// Service and Namespace are where ReplayWorkflowExecution read the
	// history, for plugins.
	Service   workflowservice.WorkflowServiceClient
	Namespace string
}

// Identity is the workflow type and the run's IDs that the replay uses:
// the recorded run's when given, else "ReplayId" and the start event's run
// ID, as in go.temporal.io/sdk.
func (src Source) Identity() (workflowType string, run clientapi.WorkflowExecution) {
	var started *historypb.WorkflowExecutionStartedEventAttributes
	if len(src.Events) > 0 {
		started = src.Events[0].GetWorkflowExecutionStartedEventAttributes()
	}
	run = src.Original
	if run.ID == "" {
		run.ID = "ReplayId"
	}
	if run.RunID == "" {
		run.RunID = started.GetOriginalExecutionRunId()
	}
	return started.GetWorkflowType().GetName(), run
}

// AllEvents is the whole history: Events and every further page, read to
// the end.
func (src Source) AllEvents(ctx context.Context) ([]*historypb.HistoryEvent, error) {
	events := src.Events
	for token := src.Token; len(token) > 0; {
		page, next, err := src.Fetch(ctx, token)
		if err != nil {
			return nil, fmt.Errorf("replay: %w", err)
		}
		events, token = append(events, page.GetEvents()...), next
	}
	return events, nil
}

// InMemory is the source of a history held in memory, cut after
// lastEventID when it is not 0, and, with runPending, extended with the
// start of the workflow task it left pending (WithPendingTaskStarted).
func InMemory(h *historypb.History, lastEventID int64, runPending bool, original clientapi.WorkflowExecution) Source {
	events := cut(h.GetEvents(), lastEventID)
	if runPending {
		events = WithPendingTaskStarted(events)
	}
	return Source{Events: events, Original: original}
}

// cut drops the events after lastEventID; all are kept when it is 0.
func cut(events []*historypb.HistoryEvent, lastEventID int64) []*historypb.HistoryEvent {
	if lastEventID > 0 {
		for i, ev := range events {
			if ev.GetEventId() > lastEventID {
				return events[:i]
			}
		}
	}
	return events
}

// WithPendingTaskStarted adds, after the last event, the events that start
// the workflow task history scheduled last and does not record as
// completed: a WorkflowTaskStarted for a scheduled task; a new attempt
// (scheduled and started) after a failed or timed-out one, whose retries
// the server does not write to history. The engine runs the code at a
// final WorkflowTaskStarted as the task being processed. Without a pending
// task, or when history already ends with its start, events come back as
// they are.
func WithPendingTaskStarted(events []*historypb.HistoryEvent) []*historypb.HistoryEvent {
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
