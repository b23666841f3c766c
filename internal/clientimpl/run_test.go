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
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/failure"
)

func clientPayloads(t *testing.T, values ...any) *commonpb.Payloads {
	t.Helper()
	p, err := converter.GetDefaultDataConverter().ToPayloads(values...)
	chkNoErr(t, err)
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
	chkNoErr(t, err)
	chkEqual(t, "cron-next", out.nextRunID)
	chkNotNil(t, out.result)
	chkNoErr(t, out.err)

	out, err = readRunCloseEvent(runFailedEvent("boom", "retry-next"), dc, fc)
	chkNoErr(t, err)
	chkEqual(t, "retry-next", out.nextRunID)
	var app *failure.ApplicationError
	chkErrAs(t, out.err, &app)
	chkEqual(t, "Boom", app.Type())

	out, err = readRunCloseEvent(&historypb.HistoryEvent{
		EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED,
		Attributes: &historypb.HistoryEvent_WorkflowExecutionCanceledEventAttributes{
			WorkflowExecutionCanceledEventAttributes: &historypb.WorkflowExecutionCanceledEventAttributes{Details: clientPayloads(t, "why")},
		},
	}, dc, fc)
	chkNoErr(t, err)
	var canceled *failure.CanceledError
	chkErrAs(t, out.err, &canceled)
	var why string
	chkNoErr(t, canceled.Details(&why))
	chkEqual(t, "why", why)

	out, err = readRunCloseEvent(&historypb.HistoryEvent{EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED}, dc, fc)
	chkNoErr(t, err)
	chkTrue(t, failure.IsTerminatedError(out.err))
	chkEqual(t, "terminated", out.err.Error())

	// The server's own termination for a limit says which; a person's
	// reason for terminating stays out of the message, as in go.temporal.io/sdk.
	terminated := func(reason, identity string) error {
		out, err := readRunCloseEvent(&historypb.HistoryEvent{
			EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED,
			Attributes: &historypb.HistoryEvent_WorkflowExecutionTerminatedEventAttributes{
				WorkflowExecutionTerminatedEventAttributes: &historypb.WorkflowExecutionTerminatedEventAttributes{Reason: reason, Identity: identity},
			},
		}, dc, fc)
		chkNoErr(t, err)
		chkTrue(t, failure.IsTerminatedError(out.err))
		return out.err
	}
	chkEqual(t, "terminated by the server: Workflow history count exceeds limit: over the server's limit on a workflow's history events, dynamic config limit.historyCount.error (51,200 by default); a workflow that runs long should continue as new before it reaches it",
		terminated("Workflow history count exceeds limit.", "history-service").Error())
	chkEqual(t, "terminated", terminated("history count exceeds limit, said the operator", "ops@host").Error())
	chkEqual(t, "terminated", terminated("stuck", "history-service").Error())

	out, err = readRunCloseEvent(&historypb.HistoryEvent{
		EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT,
		Attributes: &historypb.HistoryEvent_WorkflowExecutionTimedOutEventAttributes{
			WorkflowExecutionTimedOutEventAttributes: &historypb.WorkflowExecutionTimedOutEventAttributes{NewExecutionRunId: "after-timeout"},
		},
	}, dc, fc)
	chkNoErr(t, err)
	var timeout *failure.TimeoutError
	chkErrAs(t, out.err, &timeout)
	chkEqual(t, enumspb.TIMEOUT_TYPE_START_TO_CLOSE, timeout.TimeoutType())
	chkEqual(t, "after-timeout", out.nextRunID)

	out, err = readRunCloseEvent(runContinuedAsNewEvent("next"), dc, fc)
	chkNoErr(t, err)
	chkEqual(t, "next", out.nextRunID)
	chkEqual(t, "Next", out.continuedAsNew.GetWorkflowType().GetName())

	_, err = readRunCloseEvent(&historypb.HistoryEvent{EventType: enumspb.EVENT_TYPE_TIMER_FIRED}, dc, fc)
	chkErrContains(t, err, "expected a close event")
}

func TestGetFollowsTheChainOfRunsToTheResult(t *testing.T) {
	f := startFakeClientFrontend(t)
	f.history["r1"] = []*workflowservice.GetWorkflowExecutionHistoryResponse{closeEventPage(runContinuedAsNewEvent("r2"))}
	f.history["r2"] = []*workflowservice.GetWorkflowExecutionHistoryResponse{closeEventPage(runFailedEvent("first attempt", "r3"))}
	f.history["r3"] = []*workflowservice.GetWorkflowExecutionHistoryResponse{closeEventPage(runCompletedEvent(t, "result", ""))}
	c := f.client(t, internal.ClientOptions{})

	run := c.runHandle("wf", "W", "r1", "r1")
	var result string
	chkNoErr(t, run.Get(context.Background(), &result))
	chkEqual(t, "result", result)
	chkEqual(t, "r3", run.GetRunID(), "the handle moves to the run that closed the chain")
	chkEqual(t, "r1", run.GetFirstExecutionRunID())

	reqs := receivedRequests[*workflowservice.GetWorkflowExecutionHistoryRequest](f)
	chkLen(t, reqs, 3)
	for _, r := range reqs {
		chkTrue(t, r.GetWaitNewEvent(), "Get long-polls")
		chkEqual(t, enumspb.HISTORY_EVENT_FILTER_TYPE_CLOSE_EVENT, r.GetHistoryEventFilterType())
		chkTrue(t, r.GetSkipArchival())
	}
}

func TestGetWithoutFollowingReportsThisRun(t *testing.T) {
	f := startFakeClientFrontend(t)
	f.history["r1"] = []*workflowservice.GetWorkflowExecutionHistoryResponse{closeEventPage(runContinuedAsNewEvent("r2"))}
	f.history["r2"] = []*workflowservice.GetWorkflowExecutionHistoryResponse{closeEventPage(runFailedEvent("boom", "r3"))}
	c := f.client(t, internal.ClientOptions{})

	err := c.runHandle("wf", "W", "r1", "").GetWithOptions(context.Background(), nil, clientapi.WorkflowRunGetOptions{DisableFollowingRuns: true})
	var can *internal.ContinueAsNewError
	chkErrAs(t, err, &can)
	chkEqual(t, "Next", can.WorkflowType.Name)
	chkEqual(t, "next-queue", can.TaskQueueName)
	chkEqual(t, time.Minute, can.WorkflowRunTimeout)

	err = c.runHandle("wf", "W", "r2", "").GetWithOptions(context.Background(), nil, clientapi.WorkflowRunGetOptions{DisableFollowingRuns: true})
	var execErr *failure.WorkflowExecutionError
	chkErrAs(t, err, &execErr)
	chkErrContains(t, err, "runID: r2")
	chkErrContains(t, err, "boom")
}

func TestGetWaitsThroughEmptyLongPolls(t *testing.T) {
	f := startFakeClientFrontend(t)
	empty := &workflowservice.GetWorkflowExecutionHistoryResponse{History: &historypb.History{}, NextPageToken: []byte("again")}
	f.history["r1"] = []*workflowservice.GetWorkflowExecutionHistoryResponse{empty, empty, closeEventPage(runCompletedEvent(t, 7, ""))}
	c := f.client(t, internal.ClientOptions{})

	var n int
	chkNoErr(t, c.runHandle("wf", "W", "r1", "").Get(context.Background(), &n))
	chkEqual(t, 7, n)
	reqs := receivedRequests[*workflowservice.GetWorkflowExecutionHistoryRequest](f)
	chkLen(t, reqs, 3)
	chkEmpty(t, reqs[0].GetNextPageToken())
	chkEqual(t, []byte("again"), reqs[2].GetNextPageToken(), "polls resume from the server's token")
}

func TestGetDecodingRules(t *testing.T) {
	f := startFakeClientFrontend(t)
	f.history["r1"] = []*workflowservice.GetWorkflowExecutionHistoryResponse{closeEventPage(runCompletedEvent(t, "x", ""))}
	c := f.client(t, internal.ClientOptions{})
	run := c.runHandle("wf", "W", "r1", "")

	chkNoErr(t, run.Get(context.Background(), nil), "nil discards the result")
	var s string
	chkErrContains(t, run.Get(context.Background(), s), "must be a pointer")
	var n int
	chkErr(t, run.Get(context.Background(), &n), "a string does not decode into an int")
}

func TestGetReportsAMissingWorkflow(t *testing.T) {
	f := startFakeClientFrontend(t)
	c := f.client(t, internal.ClientOptions{})
	err := c.runHandle("wf", "W", "gone", "").Get(context.Background(), nil)
	// The server's typed error comes back unwrapped, as go.temporal.io/sdk
	// returns it, so ported type assertions keep working.
	_, isNotFound := err.(*serviceerror.NotFound)
	chkTrue(t, isNotFound)
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
	chkErrAs(t, err, &execErr)
	chkTrue(t, failure.IsTerminatedError(err))
	chkErrContains(t, err, "runID: current")
	chkEqual(t, "current", run.GetRunID())
	chkLen(t, receivedRequests[*workflowservice.DescribeWorkflowExecutionRequest](f), 1, "resolved once")
}

func TestGetStopsWithTheContext(t *testing.T) {
	f := startFakeClientFrontend(t)
	empty := &workflowservice.GetWorkflowExecutionHistoryResponse{History: &historypb.History{}, NextPageToken: []byte("again")}
	f.history["r1"] = []*workflowservice.GetWorkflowExecutionHistoryResponse{empty}
	c := f.client(t, internal.ClientOptions{})

	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	err := c.runHandle("wf", "W", "r1", "").Get(ctx, nil)
	chkErr(t, err)
	chkTrue(t, errors.Is(err, context.DeadlineExceeded) || isCallTimeout(err), fmt.Sprintf("got %v", err))
}

func isCallTimeout(err error) bool {
	var deadline *serviceerror.DeadlineExceeded
	var canceled *serviceerror.Canceled
	return errors.As(err, &deadline) || errors.As(err, &canceled)
}
