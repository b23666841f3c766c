package testserver

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	querypb "go.temporal.io/api/query/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"
)

// startOne starts a run of W on task queue tq of a new server on clock.
func startOne(t *testing.T, clock *Clock) (*Server, *commonpb.WorkflowExecution, *taskqueuepb.TaskQueue) {
	t.Helper()
	srv := New(Options{Clock: clock})
	srv.ServeQueues("tq")
	execution, err := srv.StartWorkflow("wf", "", &historypb.WorkflowExecutionStartedEventAttributes{
		WorkflowType: &commonpb.WorkflowType{Name: "W"}, TaskQueue: &taskqueuepb.TaskQueue{Name: "tq"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return srv, execution, &taskqueuepb.TaskQueue{Name: "tq"}
}

// TestAQueryWaitsForTheWorkflowTaskInFlight: as on a server, a query that
// arrives while a worker runs a workflow task is handed out once that task
// ends, with a history that ends in the task's completion, not in its
// started event (from which no worker can replay an answer).
func TestAQueryWaitsForTheWorkflowTaskInFlight(t *testing.T) {
	ctx := context.Background()
	srv, execution, queue := startOne(t, NewClock(time.Now()))
	task, err := srv.PollWorkflowTaskQueue(ctx, &workflowservice.PollWorkflowTaskQueueRequest{TaskQueue: queue})
	if err != nil {
		t.Fatal(err)
	}
	answer := make(chan error, 1)
	go func() {
		_, err := srv.Query(ctx, execution, &querypb.WorkflowQuery{QueryType: "state"})
		answer <- err
	}()
	// While the task runs, a poll gets nothing.
	pollCtx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	early, err := srv.PollWorkflowTaskQueue(pollCtx, &workflowservice.PollWorkflowTaskQueueRequest{TaskQueue: queue})
	if err != nil {
		t.Fatal(err)
	}
	if early.GetQuery() != nil {
		t.Fatalf("a query was handed out while a workflow task ran, with history ending in event %d", len(early.GetHistory().GetEvents()))
	}
	if _, err := srv.RespondWorkflowTaskCompleted(ctx, &workflowservice.RespondWorkflowTaskCompletedRequest{TaskToken: task.GetTaskToken()}); err != nil {
		t.Fatal(err)
	}
	query, err := srv.PollWorkflowTaskQueue(ctx, &workflowservice.PollWorkflowTaskQueueRequest{TaskQueue: queue})
	if err != nil {
		t.Fatal(err)
	}
	events := query.GetHistory().GetEvents()
	if query.GetQuery() == nil || events[len(events)-1].GetEventType() != enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED {
		t.Fatalf("got query %v with %d events, want the query with the history up to the task's completion", query.GetQuery(), len(events))
	}
	if _, err := srv.RespondQueryTaskCompleted(ctx, &workflowservice.RespondQueryTaskCompletedRequest{TaskToken: query.GetTaskToken(), CompletedType: enumspb.QUERY_RESULT_TYPE_ANSWERED}); err != nil {
		t.Fatal(err)
	}
	if err := <-answer; err != nil {
		t.Fatal(err)
	}
}

// TestATimeoutTypeThePolicyNamesIsNotRetried: as on a server, an
// activity's retry policy that names "TemporalTimeout:Heartbeat" among its
// non-retryable error types ends the activity at its first heartbeat
// timeout (a session's creation activity relies on it).
func TestATimeoutTypeThePolicyNamesIsNotRetried(t *testing.T) {
	ctx := context.Background()
	clock := NewWallClock()
	clock.Start()
	defer clock.StopRunning()
	srv, execution, queue := startOne(t, clock)
	task, err := srv.PollWorkflowTaskQueue(ctx, &workflowservice.PollWorkflowTaskQueueRequest{TaskQueue: queue})
	if err != nil {
		t.Fatal(err)
	}
	schedule := &commandpb.Command{CommandType: enumspb.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK,
		Attributes: &commandpb.Command_ScheduleActivityTaskCommandAttributes{ScheduleActivityTaskCommandAttributes: &commandpb.ScheduleActivityTaskCommandAttributes{
			ActivityId: "1", ActivityType: &commonpb.ActivityType{Name: "A"}, TaskQueue: queue,
			StartToCloseTimeout: durationpb.New(time.Hour), HeartbeatTimeout: durationpb.New(100 * time.Millisecond),
			RetryPolicy: &commonpb.RetryPolicy{InitialInterval: durationpb.New(time.Second), BackoffCoefficient: 2,
				NonRetryableErrorTypes: []string{"TemporalTimeout:Heartbeat"}},
		}}}
	if _, err := srv.RespondWorkflowTaskCompleted(ctx, &workflowservice.RespondWorkflowTaskCompletedRequest{TaskToken: task.GetTaskToken(), Commands: []*commandpb.Command{schedule}}); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.PollActivityTaskQueue(ctx, &workflowservice.PollActivityTaskQueueRequest{TaskQueue: queue}); err != nil {
		t.Fatal(err)
	}
	// The worker goes silent.
	waitCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	task, err = srv.PollWorkflowTaskQueue(waitCtx, &workflowservice.PollWorkflowTaskQueueRequest{TaskQueue: queue})
	if err != nil {
		t.Fatal(err)
	}
	var timedOut *historypb.ActivityTaskTimedOutEventAttributes
	for _, ev := range task.GetHistory().GetEvents() {
		if a := ev.GetActivityTaskTimedOutEventAttributes(); a != nil {
			timedOut = a
		}
	}
	if timedOut.GetFailure().GetTimeoutFailureInfo().GetTimeoutType() != enumspb.TIMEOUT_TYPE_HEARTBEAT || timedOut.GetRetryState() != enumspb.RETRY_STATE_NON_RETRYABLE_FAILURE {
		t.Fatalf("got %v in execution %v, want a heartbeat timeout, not retried", timedOut, execution)
	}
}

// TestAPollItsCallerGaveUpOnTakesNoTask: a poll whose context ended takes
// no task, which would otherwise be lost until its timeout.
func TestAPollItsCallerGaveUpOnTakesNoTask(t *testing.T) {
	srv, _, queue := startOne(t, NewClock(time.Now()))
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	resp, err := srv.PollWorkflowTaskQueue(gone, &workflowservice.PollWorkflowTaskQueueRequest{TaskQueue: queue})
	if err != nil {
		t.Fatal(err)
	}
	if resp.GetTaskToken() != nil {
		t.Fatal("a canceled poll took the workflow task")
	}
	task, err := srv.PollWorkflowTaskQueue(context.Background(), &workflowservice.PollWorkflowTaskQueueRequest{TaskQueue: queue})
	if err != nil {
		t.Fatal(err)
	}
	if task.GetTaskToken() == nil {
		t.Fatal("the next poll did not get the task")
	}
}

// TestATokenTheServerDidNotGiveOutIsInvalid: as on a server, a token that
// does not decode is an invalid argument; one the server gave out for a
// task that has ended is not found.
func TestATokenTheServerDidNotGiveOutIsInvalid(t *testing.T) {
	ctx := context.Background()
	srv, _, queue := startOne(t, NewClock(time.Now()))
	_, err := srv.RespondActivityTaskCompleted(ctx, &workflowservice.RespondActivityTaskCompletedRequest{TaskToken: []byte("not a task token")})
	var invalid *serviceerror.InvalidArgument
	if !errors.As(err, &invalid) {
		t.Fatalf("a token that does not decode: got %T %v, want InvalidArgument", err, err)
	}
	task, err := srv.PollWorkflowTaskQueue(ctx, &workflowservice.PollWorkflowTaskQueueRequest{TaskQueue: queue})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.RespondWorkflowTaskCompleted(ctx, &workflowservice.RespondWorkflowTaskCompletedRequest{TaskToken: task.GetTaskToken()}); err != nil {
		t.Fatal(err)
	}
	_, err = srv.RespondWorkflowTaskCompleted(ctx, &workflowservice.RespondWorkflowTaskCompletedRequest{TaskToken: task.GetTaskToken()})
	var notFound *serviceerror.NotFound
	if !errors.As(err, &notFound) {
		t.Fatalf("the token of a task that ended: got %T %v, want NotFound", err, err)
	}
}

// TestThePollThatWaitedLongestGetsTheTask: as a server's matching service
// does, the next task goes to the poll that has waited longest, so that a
// worker that polled first is served first.
func TestThePollThatWaitedLongestGetsTheTask(t *testing.T) {
	clock := NewClock(time.Now())
	srv := New(Options{Clock: clock})
	srv.ServeQueues("tq")
	queue := &taskqueuepb.TaskQueue{Name: "tq"}
	got := make(chan string, 2)
	poll := func(identity string) {
		resp, err := srv.PollWorkflowTaskQueue(context.Background(), &workflowservice.PollWorkflowTaskQueueRequest{TaskQueue: queue, Identity: identity})
		if err != nil {
			t.Error(err)
		}
		if resp.GetTaskToken() != nil {
			got <- identity
		}
	}
	waiting := func(n int) {
		for {
			srv.lock()
			w := len(queueOf(srv.workflowQueues, "tq").waiters)
			srv.unlock()
			if w == n {
				return
			}
			time.Sleep(time.Millisecond)
		}
	}
	go poll("first")
	waiting(1)
	go poll("second")
	waiting(2)
	for i, want := range []string{"first", "second"} {
		if _, err := srv.StartWorkflow(fmt.Sprint("wf-", i), "", &historypb.WorkflowExecutionStartedEventAttributes{
			WorkflowType: &commonpb.WorkflowType{Name: "W"}, TaskQueue: queue,
		}); err != nil {
			t.Fatal(err)
		}
		if poll := <-got; poll != want {
			t.Fatalf("task %d went to the %s poll, want the %s", i+1, poll, want)
		}
	}
}
