package clientimpl

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/chk"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/failure"
)

func clientPayloads(t *testing.T, values ...any) *commonpb.Payloads {
	t.Helper()
	p, err := converter.GetDefaultDataConverter().ToPayloads(values...)
	chk.NoErr(t, err)
	return p
}

func runCompletedEvent(t *testing.T, result any, nextRunID string) *historypb.HistoryEvent {
	return &historypb.HistoryEvent{
		EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED,
		Attributes: &historypb.HistoryEvent_WorkflowExecutionCompletedEventAttributes{
			WorkflowExecutionCompletedEventAttributes: &historypb.WorkflowExecutionCompletedEventAttributes{
				Result: clientPayloads(t, result), NewExecutionRunId: nextRunID,
			},
		},
	}
}

func runFailedEvent(message, nextRunID string) *historypb.HistoryEvent {
	f := failure.GetDefaultFailureConverter().ErrorToFailure(failure.NewApplicationError(message, "Boom"))
	return &historypb.HistoryEvent{
		EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED,
		Attributes: &historypb.HistoryEvent_WorkflowExecutionFailedEventAttributes{
			WorkflowExecutionFailedEventAttributes: &historypb.WorkflowExecutionFailedEventAttributes{Failure: f, NewExecutionRunId: nextRunID},
		},
	}
}

func runContinuedAsNewEvent(nextRunID string) *historypb.HistoryEvent {
	return &historypb.HistoryEvent{
		EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW,
		Attributes: &historypb.HistoryEvent_WorkflowExecutionContinuedAsNewEventAttributes{
			WorkflowExecutionContinuedAsNewEventAttributes: &historypb.WorkflowExecutionContinuedAsNewEventAttributes{
				NewExecutionRunId: nextRunID, WorkflowType: &commonpb.WorkflowType{Name: "Next"},
				TaskQueue:          &taskqueuepb.TaskQueue{Name: "next-queue"},
				WorkflowRunTimeout: durationpb.New(time.Minute),
			},
		},
	}
}

func closeEventPage(events ...*historypb.HistoryEvent) *workflowservice.GetWorkflowExecutionHistoryResponse {
	return &workflowservice.GetWorkflowExecutionHistoryResponse{History: &historypb.History{Events: events}}
}

func TestReadRunCloseEvent(t *testing.T) {
	dc := converter.GetDefaultDataConverter()
	fc := failure.GetDefaultFailureConverter()

	out, err := readRunCloseEvent(runCompletedEvent(t, "done", "cron-next"), dc, fc)
	chk.NoErr(t, err)
	chk.Equal(t, "cron-next", out.nextRunID)
	chk.NotNil(t, out.result)
	chk.NoErr(t, out.err)

	out, err = readRunCloseEvent(runFailedEvent("boom", "retry-next"), dc, fc)
	chk.NoErr(t, err)
	chk.Equal(t, "retry-next", out.nextRunID)
	var app *failure.ApplicationError
	chk.ErrAs(t, out.err, &app)
	chk.Equal(t, "Boom", app.Type())

	out, err = readRunCloseEvent(&historypb.HistoryEvent{
		EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED,
		Attributes: &historypb.HistoryEvent_WorkflowExecutionCanceledEventAttributes{
			WorkflowExecutionCanceledEventAttributes: &historypb.WorkflowExecutionCanceledEventAttributes{Details: clientPayloads(t, "why")},
		},
	}, dc, fc)
	chk.NoErr(t, err)
	var canceled *failure.CanceledError
	chk.ErrAs(t, out.err, &canceled)
	var why string
	chk.NoErr(t, canceled.Details(&why))
	chk.Equal(t, "why", why)

	out, err = readRunCloseEvent(&historypb.HistoryEvent{EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED}, dc, fc)
	chk.NoErr(t, err)
	chk.True(t, failure.IsTerminatedError(out.err))
	chk.Equal(t, "terminated", out.err.Error())

	// The server's own termination for a limit says which; a person's
	// reason for terminating stays out of the message, as in go.temporal.io/sdk.
	terminated := func(reason, identity string) error {
		out, err := readRunCloseEvent(&historypb.HistoryEvent{
			EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED,
			Attributes: &historypb.HistoryEvent_WorkflowExecutionTerminatedEventAttributes{
				WorkflowExecutionTerminatedEventAttributes: &historypb.WorkflowExecutionTerminatedEventAttributes{Reason: reason, Identity: identity},
			},
		}, dc, fc)
		chk.NoErr(t, err)
		chk.True(t, failure.IsTerminatedError(out.err))
		return out.err
	}
	chk.Equal(t, "terminated by the server: Workflow history count exceeds limit: over the server's limit on a workflow's history events, dynamic config limit.historyCount.error (51,200 by default); a workflow that runs long should continue as new before it reaches it",
		terminated("Workflow history count exceeds limit.", "history-service").Error())
	chk.Equal(t, "terminated", terminated("history count exceeds limit, said the operator", "ops@host").Error())
	chk.Equal(t, "terminated", terminated("stuck", "history-service").Error())

	out, err = readRunCloseEvent(&historypb.HistoryEvent{
		EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT,
		Attributes: &historypb.HistoryEvent_WorkflowExecutionTimedOutEventAttributes{
			WorkflowExecutionTimedOutEventAttributes: &historypb.WorkflowExecutionTimedOutEventAttributes{NewExecutionRunId: "after-timeout"},
		},
	}, dc, fc)
	chk.NoErr(t, err)
	var timeout *failure.TimeoutError
	chk.ErrAs(t, out.err, &timeout)
	chk.Equal(t, enumspb.TIMEOUT_TYPE_START_TO_CLOSE, timeout.TimeoutType())
	chk.Equal(t, "after-timeout", out.nextRunID)

	out, err = readRunCloseEvent(runContinuedAsNewEvent("next"), dc, fc)
	chk.NoErr(t, err)
	chk.Equal(t, "next", out.nextRunID)
	chk.Equal(t, "Next", out.continuedAsNew.GetWorkflowType().GetName())

	_, err = readRunCloseEvent(&historypb.HistoryEvent{EventType: enumspb.EVENT_TYPE_TIMER_FIRED}, dc, fc)
	chk.ErrContains(t, err, "expected a close event")
}

func TestGetFollowsTheChainOfRunsToTheResult(t *testing.T) {
	f := startFakeClientFrontend(t)
	f.history["r1"] = []*workflowservice.GetWorkflowExecutionHistoryResponse{closeEventPage(runContinuedAsNewEvent("r2"))}
	f.history["r2"] = []*workflowservice.GetWorkflowExecutionHistoryResponse{closeEventPage(runFailedEvent("first attempt", "r3"))}
	f.history["r3"] = []*workflowservice.GetWorkflowExecutionHistoryResponse{closeEventPage(runCompletedEvent(t, "result", ""))}
	c := f.client(t, internal.ClientOptions{})

	run := c.runHandle("wf", "W", "r1", "r1")
	var result string
	chk.NoErr(t, run.Get(context.Background(), &result))
	chk.Equal(t, "result", result)
	chk.Equal(t, "r3", run.GetRunID(), "the handle moves to the run that closed the chain")
	chk.Equal(t, "r1", run.GetFirstExecutionRunID())

	reqs := receivedRequests[*workflowservice.GetWorkflowExecutionHistoryRequest](f)
	chk.Len(t, reqs, 3)
	for _, r := range reqs {
		chk.True(t, r.GetWaitNewEvent(), "Get long-polls")
		chk.Equal(t, enumspb.HISTORY_EVENT_FILTER_TYPE_CLOSE_EVENT, r.GetHistoryEventFilterType())
		chk.True(t, r.GetSkipArchival())
	}
}

func TestGetWithoutFollowingReportsThisRun(t *testing.T) {
	f := startFakeClientFrontend(t)
	f.history["r1"] = []*workflowservice.GetWorkflowExecutionHistoryResponse{closeEventPage(runContinuedAsNewEvent("r2"))}
	f.history["r2"] = []*workflowservice.GetWorkflowExecutionHistoryResponse{closeEventPage(runFailedEvent("boom", "r3"))}
	c := f.client(t, internal.ClientOptions{})

	err := c.runHandle("wf", "W", "r1", "").GetWithOptions(context.Background(), nil, clientapi.WorkflowRunGetOptions{DisableFollowingRuns: true})
	var can *internal.ContinueAsNewError
	chk.ErrAs(t, err, &can)
	chk.Equal(t, "Next", can.WorkflowType.Name)
	chk.Equal(t, "next-queue", can.TaskQueueName)
	chk.Equal(t, time.Minute, can.WorkflowRunTimeout)

	err = c.runHandle("wf", "W", "r2", "").GetWithOptions(context.Background(), nil, clientapi.WorkflowRunGetOptions{DisableFollowingRuns: true})
	var execErr *failure.WorkflowExecutionError
	chk.ErrAs(t, err, &execErr)
	chk.ErrContains(t, err, "runID: r2")
	chk.ErrContains(t, err, "boom")
}

func TestGetWaitsThroughEmptyLongPolls(t *testing.T) {
	f := startFakeClientFrontend(t)
	empty := &workflowservice.GetWorkflowExecutionHistoryResponse{History: &historypb.History{}, NextPageToken: []byte("again")}
	f.history["r1"] = []*workflowservice.GetWorkflowExecutionHistoryResponse{empty, empty, closeEventPage(runCompletedEvent(t, 7, ""))}
	c := f.client(t, internal.ClientOptions{})

	var n int
	chk.NoErr(t, c.runHandle("wf", "W", "r1", "").Get(context.Background(), &n))
	chk.Equal(t, 7, n)
	reqs := receivedRequests[*workflowservice.GetWorkflowExecutionHistoryRequest](f)
	chk.Len(t, reqs, 3)
	chk.Empty(t, reqs[0].GetNextPageToken())
	chk.Equal(t, []byte("again"), reqs[2].GetNextPageToken(), "polls resume from the server's token")
}

func TestGetDecodingRules(t *testing.T) {
	f := startFakeClientFrontend(t)
	f.history["r1"] = []*workflowservice.GetWorkflowExecutionHistoryResponse{closeEventPage(runCompletedEvent(t, "x", ""))}
	c := f.client(t, internal.ClientOptions{})
	run := c.runHandle("wf", "W", "r1", "")

	chk.NoErr(t, run.Get(context.Background(), nil), "nil discards the result")
	var s string
	chk.ErrContains(t, run.Get(context.Background(), s), "must be a pointer")
	var n int
	chk.Err(t, run.Get(context.Background(), &n), "a string does not decode into an int")
}

func TestGetReportsAMissingWorkflow(t *testing.T) {
	f := startFakeClientFrontend(t)
	c := f.client(t, internal.ClientOptions{})
	err := c.runHandle("wf", "W", "gone", "").Get(context.Background(), nil)
	// The server's typed error comes back unwrapped, as go.temporal.io/sdk
	// returns it, so ported type assertions keep working.
	_, isNotFound := err.(*serviceerror.NotFound)
	chk.True(t, isNotFound)
}

func TestGetWorkflowWithoutRunIDPinsTheCurrentRun(t *testing.T) {
	f := startFakeClientFrontend(t)
	f.set(func(f *fakeClientFrontend) {
		f.describeRunID = "current"
		f.history["current"] = []*workflowservice.GetWorkflowExecutionHistoryResponse{closeEventPage(&historypb.HistoryEvent{
			EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED,
		})}
	})
	c := f.client(t, internal.ClientOptions{})

	run := c.GetWorkflow(context.Background(), "wf", "")
	err := run.Get(context.Background(), nil)
	var execErr *failure.WorkflowExecutionError
	chk.ErrAs(t, err, &execErr)
	chk.True(t, failure.IsTerminatedError(err))
	chk.ErrContains(t, err, "runID: current")
	chk.Equal(t, "current", run.GetRunID())
	chk.Len(t, receivedRequests[*workflowservice.DescribeWorkflowExecutionRequest](f), 1, "resolved once")
}

func TestGetStopsWithTheContext(t *testing.T) {
	f := startFakeClientFrontend(t)
	empty := &workflowservice.GetWorkflowExecutionHistoryResponse{History: &historypb.History{}, NextPageToken: []byte("again")}
	f.history["r1"] = []*workflowservice.GetWorkflowExecutionHistoryResponse{empty}
	c := f.client(t, internal.ClientOptions{})

	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	err := c.runHandle("wf", "W", "r1", "").Get(ctx, nil)
	chk.Err(t, err)
	chk.True(t, errors.Is(err, context.DeadlineExceeded) || isCallTimeout(err), fmt.Sprintf("got %v", err))
}

func isCallTimeout(err error) bool {
	var deadline *serviceerror.DeadlineExceeded
	var canceled *serviceerror.Canceled
	return errors.As(err, &deadline) || errors.As(err, &canceled)
}
