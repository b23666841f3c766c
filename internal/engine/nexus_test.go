package engine

import (
	"context"
	"errors"
	"testing"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/internal/commands"
	"github.com/durable-go/sdk/internal/failure"
)

// nexusOp schedules operation op of service "svc"; its token and outcome
// land in s.results and s.errs.
func (s *scripted) nexusOp(op string, resolve commands.NexusCancelResolution) *commands.NexusOperation {
	n, _ := s.x.ScheduleNexusOperation(&commandpb.ScheduleNexusOperationCommandAttributes{Endpoint: "ep", Service: "svc", Operation: op}, "", resolve, nil,
		func(token string) { s.results = append(s.results, "token "+token) },
		func(r *commonpb.Payloads, err error) {
			if err != nil {
				s.errs = append(s.errs, err)
				return
			}
			s.results = append(s.results, string(r.GetPayloads()[0].GetData()))
		})
	return n
}

func (h *historyBuilder) nexusScheduled(op string) int64 {
	return h.add(enumspb.EVENT_TYPE_NEXUS_OPERATION_SCHEDULED, &historypb.HistoryEvent_NexusOperationScheduledEventAttributes{
		NexusOperationScheduledEventAttributes: &historypb.NexusOperationScheduledEventAttributes{Endpoint: "ep", Service: "svc", Operation: op}}).EventId
}

func (h *historyBuilder) nexusStarted(scheduled int64, token string) {
	h.add(enumspb.EVENT_TYPE_NEXUS_OPERATION_STARTED, &historypb.HistoryEvent_NexusOperationStartedEventAttributes{
		NexusOperationStartedEventAttributes: &historypb.NexusOperationStartedEventAttributes{ScheduledEventId: scheduled, OperationToken: token}})
}

func (h *historyBuilder) nexusCompleted(scheduled int64, result string) {
	h.add(enumspb.EVENT_TYPE_NEXUS_OPERATION_COMPLETED, &historypb.HistoryEvent_NexusOperationCompletedEventAttributes{
		NexusOperationCompletedEventAttributes: &historypb.NexusOperationCompletedEventAttributes{ScheduledEventId: scheduled, Result: payloads(result).GetPayloads()[0]}})
}

func (h *historyBuilder) nexusFailed(scheduled int64, token string) {
	h.add(enumspb.EVENT_TYPE_NEXUS_OPERATION_FAILED, &historypb.HistoryEvent_NexusOperationFailedEventAttributes{
		NexusOperationFailedEventAttributes: &historypb.NexusOperationFailedEventAttributes{ScheduledEventId: scheduled, Failure: &failurepb.Failure{
			Message: "nexus operation completed unsuccessfully",
			FailureInfo: &failurepb.Failure_NexusOperationExecutionFailureInfo{NexusOperationExecutionFailureInfo: &failurepb.NexusOperationFailureInfo{
				ScheduledEventId: scheduled, Endpoint: "ep", Service: "svc", Operation: "refund", OperationToken: token}},
			Cause: &failurepb.Failure{Message: "out of stock", FailureInfo: &failurepb.Failure_ApplicationFailureInfo{ApplicationFailureInfo: &failurepb.ApplicationFailureInfo{NonRetryable: true}}},
		}}})
}

// nexusHistory: the first task schedules "charge" and "refund"; "charge"
// completes at once, "refund" starts and then fails.
func nexusHistory() *historyBuilder {
	h := newHistory("Greet")
	h.task()
	h.completed()
	charge := h.nexusScheduled("charge")
	refund := h.nexusScheduled("refund")
	h.nexusCompleted(charge, "charged")
	h.nexusStarted(refund, "tok-1")
	h.task()
	h.completed()
	h.nexusFailed(refund, "tok-1")
	h.task()
	return h
}

func twoNexusOpsThenComplete(s *scripted, run int) {
	switch {
	case run == 1:
		s.nexusOp("charge", commands.NexusResolveOnClose)
		s.nexusOp("refund", commands.NexusResolveOnClose)
	case len(s.errs) == 1:
		s.x.CloseWorkflow(Close{Result: payloads("done")})
	}
}

func TestNexusHistoryReplays(t *testing.T) {
	x, wf := newRun(twoNexusOpsThenComplete)
	res := process(t, x, nexusHistory().events)
	if !res.Closed || len(res.Commands) != 1 || res.Commands[0].GetCommandType() != enumspb.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION {
		t.Fatalf("want the workflow completed after replay, got %v", res.Commands)
	}
	if len(wf.results) != 2 || wf.results[0] != `"charged"` || wf.results[1] != "token tok-1" {
		t.Fatalf("results %v", wf.results)
	}
	var opErr *failure.NexusOperationError
	if len(wf.errs) != 1 || !errors.As(wf.errs[0], &opErr) || opErr.OperationToken != "tok-1" || opErr.Operation != "refund" || opErr.ScheduledEventID != 6 {
		t.Fatalf("want the refund's NexusOperationError, got %v", wf.errs)
	}
	var app *failure.ApplicationError
	if !errors.As(wf.errs[0], &app) || app.Message() != "out of stock" {
		t.Fatalf("want the handler's application error as the cause, got %v", wf.errs[0])
	}
}

func TestNexusReplayNamesTheOperationThatDiffers(t *testing.T) {
	x, _ := newRun(func(s *scripted, run int) {
		if run == 1 {
			s.nexusOp("charge", commands.NexusResolveOnClose)
			s.nexusOp("reimburse", commands.NexusResolveOnClose)
		}
	})
	_, err := x.ProcessTask(Task{Events: NewEventSource(context.Background(), nexusHistory().events, nil, nil)})
	assertNondeterminism(t, err, `event 6 NexusOperationScheduled (Nexus operation "refund" of service "svc" at endpoint "ep")`,
		`ScheduleNexusOperation (Nexus operation "reimburse" of service "svc" at endpoint "ep")`, `the Nexus operation differs ("refund" in history, "reimburse" in code)`)
}

func TestNexusCancelRequestReplays(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	h.completed()
	op := h.nexusScheduled("charge")
	h.nexusStarted(op, "tok")
	h.task()
	h.completed()
	h.add(enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCEL_REQUESTED, &historypb.HistoryEvent_NexusOperationCancelRequestedEventAttributes{
		NexusOperationCancelRequestedEventAttributes: &historypb.NexusOperationCancelRequestedEventAttributes{ScheduledEventId: op}})
	h.add(enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCEL_REQUEST_COMPLETED, &historypb.HistoryEvent_NexusOperationCancelRequestCompletedEventAttributes{
		NexusOperationCancelRequestCompletedEventAttributes: &historypb.NexusOperationCancelRequestCompletedEventAttributes{ScheduledEventId: op}})
	h.task()
	var n *commands.NexusOperation
	x, wf := newRun(func(s *scripted, run int) {
		switch run {
		case 1:
			n = s.nexusOp("charge", commands.NexusResolveOnCancelDelivered)
		case 2:
			n.Cancel()
		case 3:
			if len(s.errs) == 1 {
				s.x.CloseWorkflow(Close{Result: payloads("canceled")})
			}
		}
	})
	res := process(t, x, h.events)
	if !res.Closed || len(wf.errs) != 1 || !failure.IsCanceledError(wf.errs[0]) {
		t.Fatalf("want the WaitRequested operation canceled once its request was delivered, got %v %v", res.Commands, wf.errs)
	}
}
