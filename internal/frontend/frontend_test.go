package frontend

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	querypb "go.temporal.io/api/query/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/durable-go/sdk/internal/chk"
)

func newFrontend(t *testing.T) *Frontend {
	t.Helper()
	f := New(Options{})
	t.Cleanup(f.Stop)
	return f
}

func startReq(id, requestID string, reuse enumspb.WorkflowIdReusePolicy, conflict enumspb.WorkflowIdConflictPolicy) *workflowservice.StartWorkflowExecutionRequest {
	return &workflowservice.StartWorkflowExecutionRequest{
		Namespace: "default", WorkflowId: id, RequestId: requestID,
		WorkflowType: &commonpb.WorkflowType{Name: "W"}, TaskQueue: &taskqueuepb.TaskQueue{Name: "q"},
		WorkflowIdReusePolicy: reuse, WorkflowIdConflictPolicy: conflict,
	}
}

// closeWith takes the run's workflow task and closes the run with cmd.
func closeWith(t *testing.T, f *Frontend, cmd *commandpb.Command) {
	t.Helper()
	chk.NoErr(t, tryClose(f, cmd))
}

func tryClose(f *Frontend, cmd *commandpb.Command) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	task, err := f.PollWorkflowTaskQueue(ctx, &workflowservice.PollWorkflowTaskQueueRequest{Namespace: "default", TaskQueue: &taskqueuepb.TaskQueue{Name: "q"}})
	if err != nil {
		return err
	}
	_, err = f.RespondWorkflowTaskCompleted(ctx, &workflowservice.RespondWorkflowTaskCompletedRequest{Namespace: "default", TaskToken: task.GetTaskToken(), Commands: []*commandpb.Command{cmd}})
	return err
}

var (
	complete = &commandpb.Command{CommandType: enumspb.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION,
		Attributes: &commandpb.Command_CompleteWorkflowExecutionCommandAttributes{CompleteWorkflowExecutionCommandAttributes: &commandpb.CompleteWorkflowExecutionCommandAttributes{}}}
	fail = &commandpb.Command{CommandType: enumspb.COMMAND_TYPE_FAIL_WORKFLOW_EXECUTION,
		Attributes: &commandpb.Command_FailWorkflowExecutionCommandAttributes{FailWorkflowExecutionCommandAttributes: &commandpb.FailWorkflowExecutionCommandAttributes{}}}
)

func TestStartsFollowTheWorkflowIDPolicies(t *testing.T) {
	f := newFrontend(t)
	ctx := context.Background()
	first, err := f.StartWorkflowExecution(ctx, startReq("w", "r1", 0, 0))
	chk.NoErr(t, err)
	// The same request again (a client's retry) gets the same run.
	again, err := f.StartWorkflowExecution(ctx, startReq("w", "r1", 0, 0))
	chk.NoErr(t, err)
	chk.Equal(t, first.GetRunId(), again.GetRunId())
	// Another start of the running ID fails; USE_EXISTING gets the run.
	_, err = f.StartWorkflowExecution(ctx, startReq("w", "r2", 0, 0))
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	chk.ErrAs(t, err, &started)
	existing, err := f.StartWorkflowExecution(ctx, startReq("w", "r3", 0, enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING))
	chk.NoErr(t, err)
	chk.Equal(t, first.GetRunId(), existing.GetRunId())
	chk.False(t, existing.GetStarted(), "USE_EXISTING said it started a run")
	// TERMINATE_EXISTING ends the running run and starts another.
	replaced, err := f.StartWorkflowExecution(ctx, startReq("w", "r4", 0, enumspb.WORKFLOW_ID_CONFLICT_POLICY_TERMINATE_EXISTING))
	chk.NoErr(t, err)
	chk.NotEqual(t, first.GetRunId(), replaced.GetRunId())
	info, err := f.namespaces["default"].server.Describe(&commonpb.WorkflowExecution{WorkflowId: "w", RunId: first.GetRunId()})
	chk.NoErr(t, err)
	chk.Equal(t, enumspb.WORKFLOW_EXECUTION_STATUS_TERMINATED, info.Status)
	// The replacement completes: FAILED_ONLY refuses a new start,
	// REJECT_DUPLICATE too; the default allows it.
	closeWith(t, f, complete)
	_, err = f.StartWorkflowExecution(ctx, startReq("w", "r5", enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY, 0))
	chk.ErrAs(t, err, &started)
	_, err = f.StartWorkflowExecution(ctx, startReq("w", "r6", enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE, 0))
	chk.ErrAs(t, err, &started)
	_, err = f.StartWorkflowExecution(ctx, startReq("w", "r7", 0, 0))
	chk.NoErr(t, err)
	// After a failed run, FAILED_ONLY allows it.
	closeWith(t, f, fail)
	_, err = f.StartWorkflowExecution(ctx, startReq("w", "r8", enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY, 0))
	chk.NoErr(t, err)
}

func TestAnotherNamespaceIsNotFound(t *testing.T) {
	f := newFrontend(t)
	req := startReq("w", "", 0, 0)
	req.Namespace = "elsewhere"
	_, err := f.StartWorkflowExecution(context.Background(), req)
	var notFound *serviceerror.NamespaceNotFound
	chk.ErrAs(t, err, &notFound)
}

func TestABadStartIsRefusedWithTheReason(t *testing.T) {
	f := newFrontend(t)
	req := startReq("w", "", 0, 0)
	req.CronSchedule = "not a schedule"
	_, err := f.StartWorkflowExecution(context.Background(), req)
	chk.ErrContains(t, err, "invalid cron schedule")
	req = startReq("w", "", 0, 0)
	req.TaskQueue = nil
	_, err = f.StartWorkflowExecution(context.Background(), req)
	chk.ErrContains(t, err, "task queue")
}

func TestAHistoryLongPollAnswersEmptyBeforeItsDeadline(t *testing.T) {
	f := newFrontend(t)
	started, err := f.StartWorkflowExecution(context.Background(), startReq("w", "", 0, 0))
	chk.NoErr(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), longPollMargin+200*time.Millisecond)
	defer cancel()
	resp, err := f.GetWorkflowExecutionHistory(ctx, &workflowservice.GetWorkflowExecutionHistoryRequest{
		Namespace: "default", Execution: &commonpb.WorkflowExecution{WorkflowId: "w", RunId: started.GetRunId()},
		WaitNewEvent: true, HistoryEventFilterType: enumspb.HISTORY_EVENT_FILTER_TYPE_CLOSE_EVENT,
	})
	chk.NoErr(t, err)
	chk.Empty(t, resp.GetHistory().GetEvents())
	chk.NotEmpty(t, resp.GetNextPageToken(), "an empty long poll gave no token to ask again with")
	// A page from the token on waits for the next event.
	all, err := f.GetWorkflowExecutionHistory(context.Background(), &workflowservice.GetWorkflowExecutionHistoryRequest{
		Namespace: "default", Execution: &commonpb.WorkflowExecution{WorkflowId: "w"}, WaitNewEvent: true})
	chk.NoErr(t, err)
	chk.Len(t, all.GetHistory().GetEvents(), 2) // started, task scheduled
	closed := make(chan error, 1)
	go func() { closed <- tryClose(f, complete) }()
	next, err := f.GetWorkflowExecutionHistory(context.Background(), &workflowservice.GetWorkflowExecutionHistoryRequest{
		Namespace: "default", Execution: &commonpb.WorkflowExecution{WorkflowId: "w"}, WaitNewEvent: true, NextPageToken: all.GetNextPageToken()})
	chk.NoErr(t, err)
	chk.Equal(t, enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED, next.GetHistory().GetEvents()[0].GetEventType())
	chk.NoErr(t, <-closed)
}

// TestAPanickingCallAnswersInternal: a call whose handling panics is
// answered codes.Internal, naming the call and the panic, and the server
// goes on serving.
func TestAPanickingCallAnswersInternal(t *testing.T) {
	info := &grpc.UnaryServerInfo{FullMethod: "/temporal.api.workflowservice.v1.WorkflowService/QueryWorkflow"}
	_, err := recoverPanics(context.Background(), nil, info, func(context.Context, any) (any, error) { panic("nil history") })
	if status.Code(err) != codes.Internal || !strings.Contains(err.Error(), "QueryWorkflow") || !strings.Contains(err.Error(), "nil history") {
		t.Errorf("a panicking call answered %v; want Internal naming the call and the panic", err)
	}
	resp, err := recoverPanics(context.Background(), nil, info, func(context.Context, any) (any, error) { return "ok", nil })
	if resp != "ok" || err != nil {
		t.Errorf("a call that returns answered %v, %v", resp, err)
	}
}

// TestAQueryWaitsForTheWorkflowTaskBeforeIt: a query that arrives while a
// workflow task is scheduled (here, for a signal) reaches the worker only
// after that task completed, as on a Temporal server, so that it sees
// the signal.
func TestAQueryWaitsForTheWorkflowTaskBeforeIt(t *testing.T) {
	f := newFrontend(t)
	_, err := f.StartWorkflowExecution(context.Background(), startReq("w", "", 0, 0))
	chk.NoErr(t, err)
	poll := func(timeout time.Duration) *workflowservice.PollWorkflowTaskQueueResponse {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		task, err := f.PollWorkflowTaskQueue(ctx, &workflowservice.PollWorkflowTaskQueueRequest{Namespace: "default", TaskQueue: &taskqueuepb.TaskQueue{Name: "q"}})
		chk.NoErr(t, err)
		return task
	}
	completeTask := func(task *workflowservice.PollWorkflowTaskQueueResponse) {
		_, err := f.RespondWorkflowTaskCompleted(context.Background(), &workflowservice.RespondWorkflowTaskCompletedRequest{Namespace: "default", TaskToken: task.GetTaskToken()})
		chk.NoErr(t, err)
	}
	completeTask(poll(5 * time.Second)) // the first task: the run waits
	_, err = f.SignalWorkflowExecution(context.Background(), &workflowservice.SignalWorkflowExecutionRequest{
		Namespace: "default", WorkflowExecution: &commonpb.WorkflowExecution{WorkflowId: "w"}, SignalName: "s"})
	chk.NoErr(t, err)
	signalTask := poll(5 * time.Second)
	events := signalTask.GetHistory().GetEvents()
	chk.Equal(t, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED, events[len(events)-3].GetEventType()) // then the task's scheduled and started

	answered := make(chan error, 1)
	go func() {
		_, err := f.QueryWorkflow(context.Background(), &workflowservice.QueryWorkflowRequest{
			Namespace: "default", Execution: &commonpb.WorkflowExecution{WorkflowId: "w"}, Query: &querypb.WorkflowQuery{QueryType: "q"}})
		answered <- err
	}()
	// While the signal's task runs, the query is held: a poll finds
	// nothing (an empty response before its deadline).
	chk.Nil(t, poll(longPollMargin+300*time.Millisecond).GetQuery(), "the query reached the worker before the task in flight completed")
	completeTask(signalTask)
	queryTask := poll(5 * time.Second)
	chk.NotNil(t, queryTask.GetQuery(), "after the task completed, the next task is the query")
	_, err = f.RespondQueryTaskCompleted(context.Background(), &workflowservice.RespondQueryTaskCompletedRequest{
		Namespace: "default", TaskToken: queryTask.GetTaskToken(), CompletedType: enumspb.QUERY_RESULT_TYPE_ANSWERED})
	chk.NoErr(t, err)
	chk.NoErr(t, <-answered)
}

// TestAQueryFailsAtOnceWhileTheWorkflowTaskFails: from the third attempt
// of a failing workflow task on, a query is answered WorkflowNotReady at
// once, as on a Temporal server, rather than waiting for a task that may
// never succeed.
func TestAQueryFailsAtOnceWhileTheWorkflowTaskFails(t *testing.T) {
	f := newFrontend(t)
	_, err := f.StartWorkflowExecution(context.Background(), startReq("w", "", 0, 0))
	chk.NoErr(t, err)
	for range 2 {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		task, err := f.PollWorkflowTaskQueue(ctx, &workflowservice.PollWorkflowTaskQueueRequest{Namespace: "default", TaskQueue: &taskqueuepb.TaskQueue{Name: "q"}})
		cancel()
		chk.NoErr(t, err)
		_, err = f.RespondWorkflowTaskFailed(context.Background(), &workflowservice.RespondWorkflowTaskFailedRequest{
			Namespace: "default", TaskToken: task.GetTaskToken(), Cause: enumspb.WORKFLOW_TASK_FAILED_CAUSE_WORKFLOW_WORKER_UNHANDLED_FAILURE})
		chk.NoErr(t, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // not to hang if the query waits instead
	defer cancel()
	_, err = f.QueryWorkflow(ctx, &workflowservice.QueryWorkflowRequest{
		Namespace: "default", Execution: &commonpb.WorkflowExecution{WorkflowId: "w"}, Query: &querypb.WorkflowQuery{QueryType: "q"}})
	var notReady *serviceerror.WorkflowNotReady
	chk.True(t, errors.As(err, &notReady), "want WorkflowNotReady, got", err)
	chk.ErrContains(t, err, "attempt 3")
}

// TestATaskQueueAServerRefusesIsRefused: polls and starts naming a task
// queue a server refuses (none, too long a name, a reserved one) get the
// server's InvalidArgument, on which a worker stops.
func TestATaskQueueAServerRefusesIsRefused(t *testing.T) {
	f := New(Options{})
	defer f.Stop()
	ctx := context.Background()
	for _, tq := range []*taskqueuepb.TaskQueue{nil, {Name: strings.Repeat("q", 1001)}, {Name: "/_sys/mine"}} {
		_, pollErr := f.PollActivityTaskQueue(ctx, &workflowservice.PollActivityTaskQueueRequest{Namespace: "default", TaskQueue: tq})
		_, startErr := f.StartWorkflowExecution(ctx, &workflowservice.StartWorkflowExecutionRequest{Namespace: "default", WorkflowId: "wf",
			WorkflowType: &commonpb.WorkflowType{Name: "W"}, TaskQueue: tq, RequestId: "r"})
		for _, err := range []error{pollErr, startErr} {
			var invalid *serviceerror.InvalidArgument
			if !errors.As(err, &invalid) {
				t.Errorf("task queue %q: got %v, want InvalidArgument", tq.GetName(), err)
			}
		}
	}
}
