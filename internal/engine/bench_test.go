package engine

import (
	"context"
	"strconv"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
)

// nextTaskEvents are the events of a sticky task after the task that
// started at startedID scheduled one activity: it completed, and the next
// workflow task started.
func nextTaskEvents(startedID int64, result *commonpb.Payloads) []*historypb.HistoryEvent {
	id := startedID
	ev := func(t enumspb.EventType) *historypb.HistoryEvent {
		id++
		return &historypb.HistoryEvent{EventId: id, EventType: t}
	}
	completed := ev(enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)
	scheduled := ev(enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
	scheduled.Attributes = &historypb.HistoryEvent_ActivityTaskScheduledEventAttributes{ActivityTaskScheduledEventAttributes: &historypb.ActivityTaskScheduledEventAttributes{
		ActivityId: strconv.FormatInt(scheduled.EventId, 10), ActivityType: &commonpb.ActivityType{Name: "Charge"}}}
	started := ev(enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED)
	started.Attributes = &historypb.HistoryEvent_ActivityTaskStartedEventAttributes{ActivityTaskStartedEventAttributes: &historypb.ActivityTaskStartedEventAttributes{ScheduledEventId: scheduled.EventId}}
	done := ev(enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED)
	done.Attributes = &historypb.HistoryEvent_ActivityTaskCompletedEventAttributes{ActivityTaskCompletedEventAttributes: &historypb.ActivityTaskCompletedEventAttributes{
		ScheduledEventId: scheduled.EventId, StartedEventId: started.EventId, Result: result}}
	return []*historypb.HistoryEvent{completed, scheduled, started, done,
		ev(enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED), ev(enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED)}
}

// BenchmarkCachedWorkflowTask is one workflow task of a cached run: the
// events of a completed activity arrive, the code schedules the next
// activity, and its command goes back. The workflow code is scripted, so
// the figure is the engine's own cost per task.
func BenchmarkCachedWorkflowTask(b *testing.B) {
	x, _ := newRun(func(s *scripted, run int) { s.activity("Charge") })
	h := newHistory("Greet")
	h.task()
	if _, err := x.ProcessTask(Task{Events: NewEventSource(context.Background(), h.events, nil, nil)}); err != nil {
		b.Fatal(err)
	}
	result := payloads("ok")
	b.ReportAllocs()
	for b.Loop() {
		res, err := x.ProcessTask(Task{Events: NewEventSource(context.Background(), nextTaskEvents(x.LastEventID(), result), nil, nil)})
		if err != nil || len(res.Commands) != 1 {
			b.Fatalf("%v %v", res, err)
		}
	}
}
