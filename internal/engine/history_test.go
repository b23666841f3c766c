package engine

import (
	"reflect"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// historyBuilder writes histories the way the server would, for tests.
type historyBuilder struct {
	events []*historypb.HistoryEvent
	now    time.Time
}

func newHistory(workflowType string) *historyBuilder {
	h := &historyBuilder{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	h.add(enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED, &historypb.HistoryEvent_WorkflowExecutionStartedEventAttributes{
		WorkflowExecutionStartedEventAttributes: &historypb.WorkflowExecutionStartedEventAttributes{
			WorkflowType: &commonpb.WorkflowType{Name: workflowType},
			TaskQueue:    &taskqueuepb.TaskQueue{Name: "tq"},
		}})
	return h
}

func (h *historyBuilder) add(t enumspb.EventType, attrs any) *historypb.HistoryEvent {
	h.now = h.now.Add(time.Second)
	ev := &historypb.HistoryEvent{EventId: int64(len(h.events) + 1), EventType: t, EventTime: timestamppb.New(h.now)}
	if attrs != nil {
		// Every attributes wrapper (HistoryEvent_XxxEventAttributes) fits
		// the Attributes oneof; reflection spares a case per event type.
		reflect.ValueOf(&ev.Attributes).Elem().Set(reflect.ValueOf(attrs))
	}
	h.events = append(h.events, ev)
	return ev
}

// task appends a scheduled and started workflow task; it returns the
// started event's ID.
func (h *historyBuilder) task() int64 {
	h.add(enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, nil)
	return h.add(enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED, nil).EventId
}

func (h *historyBuilder) completed(flags ...uint32) {
	h.add(enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, &historypb.HistoryEvent_WorkflowTaskCompletedEventAttributes{
		WorkflowTaskCompletedEventAttributes: &historypb.WorkflowTaskCompletedEventAttributes{
			SdkMetadata: &sdkpb.WorkflowTaskCompletedMetadata{LangUsedFlags: flags},
		}})
}

func (h *historyBuilder) failedTask() { h.add(enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED, nil) }

func (h *historyBuilder) activityScheduled(id, typ string) int64 {
	return h.add(enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED, &historypb.HistoryEvent_ActivityTaskScheduledEventAttributes{
		ActivityTaskScheduledEventAttributes: &historypb.ActivityTaskScheduledEventAttributes{ActivityId: id, ActivityType: &commonpb.ActivityType{Name: typ}}}).EventId
}

func (h *historyBuilder) activityDone(scheduled int64, result string) {
	started := h.add(enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED, &historypb.HistoryEvent_ActivityTaskStartedEventAttributes{
		ActivityTaskStartedEventAttributes: &historypb.ActivityTaskStartedEventAttributes{ScheduledEventId: scheduled}}).EventId
	h.add(enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED, &historypb.HistoryEvent_ActivityTaskCompletedEventAttributes{
		ActivityTaskCompletedEventAttributes: &historypb.ActivityTaskCompletedEventAttributes{ScheduledEventId: scheduled, StartedEventId: started,
			Result: payloads(result)}})
}

func (h *historyBuilder) timerStarted(id string, d time.Duration) {
	h.add(enumspb.EVENT_TYPE_TIMER_STARTED, &historypb.HistoryEvent_TimerStartedEventAttributes{
		TimerStartedEventAttributes: &historypb.TimerStartedEventAttributes{TimerId: id, StartToFireTimeout: durationpb.New(d)}})
}

func (h *historyBuilder) timerFired(id string) {
	h.add(enumspb.EVENT_TYPE_TIMER_FIRED, &historypb.HistoryEvent_TimerFiredEventAttributes{
		TimerFiredEventAttributes: &historypb.TimerFiredEventAttributes{TimerId: id}})
}

func (h *historyBuilder) signal(name, value string) {
	h.add(enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED, &historypb.HistoryEvent_WorkflowExecutionSignaledEventAttributes{
		WorkflowExecutionSignaledEventAttributes: &historypb.WorkflowExecutionSignaledEventAttributes{SignalName: name, Input: payloads(value)}})
}

func (h *historyBuilder) marker(name string, details map[string]*commonpb.Payloads) {
	h.add(enumspb.EVENT_TYPE_MARKER_RECORDED, &historypb.HistoryEvent_MarkerRecordedEventAttributes{
		MarkerRecordedEventAttributes: &historypb.MarkerRecordedEventAttributes{MarkerName: name, Details: details}})
}

func (h *historyBuilder) upsert(sa *commonpb.SearchAttributes) {
	h.add(enumspb.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES, &historypb.HistoryEvent_UpsertWorkflowSearchAttributesEventAttributes{
		UpsertWorkflowSearchAttributesEventAttributes: &historypb.UpsertWorkflowSearchAttributesEventAttributes{SearchAttributes: sa}})
}

func (h *historyBuilder) workflowCompleted(result string) {
	h.add(enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED, &historypb.HistoryEvent_WorkflowExecutionCompletedEventAttributes{
		WorkflowExecutionCompletedEventAttributes: &historypb.WorkflowExecutionCompletedEventAttributes{Result: payloads(result)}})
}

func payloads(s string) *commonpb.Payloads {
	return &commonpb.Payloads{Payloads: []*commonpb.Payload{{Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: []byte(`"` + s + `"`)}}}
}
