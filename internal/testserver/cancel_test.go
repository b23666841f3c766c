package testserver

import (
	"context"
	"testing"
	"time"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"
)

// TestACancelRequestForAnActivityThatEndedWhileTheTaskRanIsWritten: the
// code of a task cancels an activity whose completion arrived while the
// task ran. As the Temporal server does, the ActivityTaskCancelRequested
// event is written with the task's other command events, and the
// completion after them, so that a replay of the task, whose code makes
// the same request, finds it in history.
func TestACancelRequestForAnActivityThatEndedWhileTheTaskRanIsWritten(t *testing.T) {
	ctx := context.Background()
	srv := New(Options{Clock: NewClock(time.Now())})
	srv.ServeQueues("tq")
	execution, err := srv.StartWorkflow("wf", "", &historypb.WorkflowExecutionStartedEventAttributes{
		WorkflowType: &commonpb.WorkflowType{Name: "W"}, TaskQueue: &taskqueuepb.TaskQueue{Name: "tq"},
	})
	if err != nil {
		t.Fatal(err)
	}
	queue := &taskqueuepb.TaskQueue{Name: "tq"}
	task, err := srv.PollWorkflowTaskQueue(ctx, &workflowservice.PollWorkflowTaskQueueRequest{TaskQueue: queue})
	if err != nil {
		t.Fatal(err)
	}
	schedule := &commandpb.Command{CommandType: enumspb.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK,
		Attributes: &commandpb.Command_ScheduleActivityTaskCommandAttributes{ScheduleActivityTaskCommandAttributes: &commandpb.ScheduleActivityTaskCommandAttributes{
			ActivityId: "1", ActivityType: &commonpb.ActivityType{Name: "A"}, TaskQueue: queue,
			StartToCloseTimeout: durationpb.New(time.Minute),
		}}}
	if _, err := srv.RespondWorkflowTaskCompleted(ctx, &workflowservice.RespondWorkflowTaskCompletedRequest{TaskToken: task.GetTaskToken(), Commands: []*commandpb.Command{schedule}}); err != nil {
		t.Fatal(err)
	}
	activity, err := srv.PollActivityTaskQueue(ctx, &workflowservice.PollActivityTaskQueueRequest{TaskQueue: queue})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Signal(execution, "go", nil, nil, "test", false); err != nil {
		t.Fatal(err)
	}
	task, err = srv.PollWorkflowTaskQueue(ctx, &workflowservice.PollWorkflowTaskQueueRequest{TaskQueue: queue})
	if err != nil {
		t.Fatal(err)
	}
	// The activity completes while the task runs; the task's code cancels it.
	if _, err := srv.RespondActivityTaskCompleted(ctx, &workflowservice.RespondActivityTaskCompletedRequest{TaskToken: activity.GetTaskToken()}); err != nil {
		t.Fatal(err)
	}
	var scheduledID int64
	before, err := srv.History(execution)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range before.GetEvents() {
		if ev.GetEventType() == enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED {
			scheduledID = ev.GetEventId()
		}
	}
	cancel := &commandpb.Command{CommandType: enumspb.COMMAND_TYPE_REQUEST_CANCEL_ACTIVITY_TASK,
		Attributes: &commandpb.Command_RequestCancelActivityTaskCommandAttributes{RequestCancelActivityTaskCommandAttributes: &commandpb.RequestCancelActivityTaskCommandAttributes{
			ScheduledEventId: scheduledID,
		}}}
	if _, err := srv.RespondWorkflowTaskCompleted(ctx, &workflowservice.RespondWorkflowTaskCompletedRequest{TaskToken: task.GetTaskToken(), Commands: []*commandpb.Command{cancel}}); err != nil {
		t.Fatal(err)
	}
	h, err := srv.History(execution)
	if err != nil {
		t.Fatal(err)
	}
	var types []enumspb.EventType
	for _, ev := range h.GetEvents() {
		types = append(types, ev.GetEventType())
	}
	want := []enumspb.EventType{
		enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
		enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED,
		enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED,
		enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED,
	}
	at := -1
	for i, ty := range types {
		if ty == enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED {
			at = i - 1
		}
	}
	if at < 0 || len(types) < at+len(want) {
		t.Fatalf("no ActivityTaskCancelRequested after the task: %v", types)
	}
	for i, ty := range want {
		if types[at+i] != ty {
			t.Fatalf("history %v; want %v after the second task's start", types, want)
		}
	}
	if got := h.GetEvents()[at+1].GetActivityTaskCancelRequestedEventAttributes().GetScheduledEventId(); got != scheduledID {
		t.Fatalf("the cancel request names event %d, want %d", got, scheduledID)
	}
}
