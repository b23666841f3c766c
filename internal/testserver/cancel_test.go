package testserver

import (
	"context"
	"slices"
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

// cancelRunningActivity starts a workflow whose first task schedules an
// activity, starts the activity, and completes the next task (a signal's)
// with a request to cancel it. It returns the server, the run and the
// activity task.
func cancelRunningActivity(t *testing.T, opts Options) (*Server, *commonpb.WorkflowExecution, *workflowservice.PollActivityTaskQueueResponse) {
	t.Helper()
	ctx := context.Background()
	srv := New(opts)
	srv.ServeQueues("tq")
	queue := &taskqueuepb.TaskQueue{Name: "tq"}
	execution, err := srv.StartWorkflow("wf", "", &historypb.WorkflowExecutionStartedEventAttributes{
		WorkflowType: &commonpb.WorkflowType{Name: "W"}, TaskQueue: queue,
	})
	if err != nil {
		t.Fatal(err)
	}
	task, err := srv.PollWorkflowTaskQueue(ctx, &workflowservice.PollWorkflowTaskQueueRequest{TaskQueue: queue})
	if err != nil {
		t.Fatal(err)
	}
	schedule := &commandpb.Command{CommandType: enumspb.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK,
		Attributes: &commandpb.Command_ScheduleActivityTaskCommandAttributes{ScheduleActivityTaskCommandAttributes: &commandpb.ScheduleActivityTaskCommandAttributes{
			ActivityId: "1", ActivityType: &commonpb.ActivityType{Name: "A"}, TaskQueue: queue,
			StartToCloseTimeout: durationpb.New(time.Hour), HeartbeatTimeout: durationpb.New(5 * time.Second),
		}}}
	if _, err := srv.RespondWorkflowTaskCompleted(ctx, &workflowservice.RespondWorkflowTaskCompletedRequest{TaskToken: task.GetTaskToken(), Commands: []*commandpb.Command{schedule}}); err != nil {
		t.Fatal(err)
	}
	scheduledID := task.GetStartedEventId() + 2 // after the task's WorkflowTaskCompleted
	activity, err := srv.PollActivityTaskQueue(ctx, &workflowservice.PollActivityTaskQueueRequest{TaskQueue: queue})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Signal(execution, "cancel it", nil, nil, "test", false); err != nil {
		t.Fatal(err)
	}
	task, err = srv.PollWorkflowTaskQueue(ctx, &workflowservice.PollWorkflowTaskQueueRequest{TaskQueue: queue})
	if err != nil {
		t.Fatal(err)
	}
	cancel := &commandpb.Command{CommandType: enumspb.COMMAND_TYPE_REQUEST_CANCEL_ACTIVITY_TASK,
		Attributes: &commandpb.Command_RequestCancelActivityTaskCommandAttributes{RequestCancelActivityTaskCommandAttributes: &commandpb.RequestCancelActivityTaskCommandAttributes{
			ScheduledEventId: scheduledID,
		}}}
	if _, err := srv.RespondWorkflowTaskCompleted(ctx, &workflowservice.RespondWorkflowTaskCompletedRequest{TaskToken: task.GetTaskToken(), Commands: []*commandpb.Command{cancel}}); err != nil {
		t.Fatal(err)
	}
	return srv, execution, activity
}

// eventsAfter lists the event types of the run's history after the last
// one of type after.
func eventsAfter(t *testing.T, srv *Server, execution *commonpb.WorkflowExecution, after enumspb.EventType) []enumspb.EventType {
	t.Helper()
	h, err := srv.History(execution)
	if err != nil {
		t.Fatal(err)
	}
	var types []enumspb.EventType
	for _, ev := range h.GetEvents() {
		types = append(types, ev.GetEventType())
		if ev.GetEventType() == after {
			types = types[:0]
		}
	}
	return types
}

// TestARunningActivityIsCanceledAtOnceWhenAsked: with
// CancelRunningActivitiesAtOnce (the test environment), a request to
// cancel a running activity cancels it at once, without waiting for it to
// stop; the attempt's heartbeats are told of the request, and its report
// is taken and dropped.
func TestARunningActivityIsCanceledAtOnceWhenAsked(t *testing.T) {
	ctx := context.Background()
	srv, execution, activity := cancelRunningActivity(t, Options{Clock: NewClock(time.Now()), CancelRunningActivitiesAtOnce: true})
	want := []enumspb.EventType{
		enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED,
		enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED,
		enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCELED,
		enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED,
	}
	if got := eventsAfter(t, srv, execution, enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED); !slices.Equal(got, want) {
		t.Fatalf("after the cancel request: %v, want %v", got, want)
	}
	h, _ := srv.History(execution)
	canceled := h.GetEvents()[len(h.GetEvents())-2].GetActivityTaskCanceledEventAttributes()
	started := h.GetEvents()[len(h.GetEvents())-3]
	if canceled.GetStartedEventId() != started.GetEventId() || canceled.GetLatestCancelRequestedEventId() != started.GetEventId()-1 {
		t.Errorf("ActivityTaskCanceled names started event %d and request %d, want %d and %d",
			canceled.GetStartedEventId(), canceled.GetLatestCancelRequestedEventId(), started.GetEventId(), started.GetEventId()-1)
	}
	hb, err := srv.RecordActivityTaskHeartbeat(ctx, &workflowservice.RecordActivityTaskHeartbeatRequest{TaskToken: activity.GetTaskToken()})
	if err != nil || !hb.GetCancelRequested() {
		t.Fatalf("a heartbeat of the canceled attempt: %v, %v; want CancelRequested", hb, err)
	}
	if _, err := srv.RespondActivityTaskCanceled(ctx, &workflowservice.RespondActivityTaskCanceledRequest{TaskToken: activity.GetTaskToken()}); err != nil {
		t.Fatalf("the canceled attempt's report is refused: %v", err)
	}
	after, _ := srv.History(execution)
	if len(after.GetEvents()) != len(h.GetEvents()) {
		t.Errorf("the canceled attempt's report wrote %d events", len(after.GetEvents())-len(h.GetEvents()))
	}
}

// TestARunningActivityIsCanceledWhenItStops: as on a Temporal server, a
// running activity whose cancellation is requested is canceled once it
// reports that it stopped; its heartbeats are told of the request.
func TestARunningActivityIsCanceledWhenItStops(t *testing.T) {
	ctx := context.Background()
	srv, execution, activity := cancelRunningActivity(t, Options{Clock: NewClock(time.Now())})
	if got := eventsAfter(t, srv, execution, enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED); !slices.Equal(got, []enumspb.EventType{enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED}) {
		t.Fatalf("after the cancel request: %v, want only the request", got)
	}
	hb, err := srv.RecordActivityTaskHeartbeat(ctx, &workflowservice.RecordActivityTaskHeartbeatRequest{TaskToken: activity.GetTaskToken()})
	if err != nil || !hb.GetCancelRequested() {
		t.Fatalf("a heartbeat: %v, %v; want CancelRequested", hb, err)
	}
	if _, err := srv.RespondActivityTaskCanceled(ctx, &workflowservice.RespondActivityTaskCanceledRequest{TaskToken: activity.GetTaskToken()}); err != nil {
		t.Fatal(err)
	}
	want := []enumspb.EventType{
		enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED,
		enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED,
		enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCELED,
		enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED,
	}
	if got := eventsAfter(t, srv, execution, enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED); !slices.Equal(got, want) {
		t.Fatalf("after the activity's report: %v, want %v", got, want)
	}
}
