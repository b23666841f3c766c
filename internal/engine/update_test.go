package engine

import (
	"context"
	"errors"
	"strings"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	protocolpb "go.temporal.io/api/protocol/v1"
	updatepb "go.temporal.io/api/update/v1"
	"google.golang.org/protobuf/types/known/anypb"
)

func updateRequest(id, name string) *updatepb.Request {
	return &updatepb.Request{Meta: &updatepb.Meta{UpdateId: id}, Input: &updatepb.Input{Name: name, Args: payloads("arg")}}
}

func requestMessage(t *testing.T, id, name string, seq int64) *protocolpb.Message {
	body, err := anypb.New(updateRequest(id, name))
	if err != nil {
		t.Fatal(err)
	}
	return &protocolpb.Message{Id: id + "/request", ProtocolInstanceId: id, SequencingId: &protocolpb.Message_EventId{EventId: seq}, Body: body}
}

// answering answers every update it is given: accept and complete, or
// reject when its name is "bad".
func answering(s *scripted, run int) {
	for _, u := range s.updates {
		if u.Done() {
			continue
		}
		if u.Name == "bad" {
			u.Reject(errors.New("refused"))
			continue
		}
		u.Accept()
		u.Complete(payloads("result of "+u.ID), nil)
	}
}

func TestAnUpdateIsAcceptedAndCompletedWithCommandsAndMessages(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	x, _ := newRun(answering)
	res, err := x.ProcessTask(Task{Events: NewEventSource(context.Background(), h.events, nil, nil),
		Messages: []*protocolpb.Message{requestMessage(t, "u1", "add", 2), requestMessage(t, "u2", "bad", 2)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Commands) != 2 || res.Commands[0].GetProtocolMessageCommandAttributes().GetMessageId() != "u1/accept" ||
		res.Commands[1].GetProtocolMessageCommandAttributes().GetMessageId() != "u1/complete" {
		t.Fatalf("want the accept and complete commands of u1 only, got %v", res.Commands)
	}
	var ids []string
	for _, m := range res.Messages {
		ids = append(ids, m.GetId())
	}
	if len(ids) != 3 || ids[0] != "u1/accept" || ids[1] != "u1/complete" || ids[2] != "u2/reject" {
		t.Fatalf("messages %v", ids)
	}
	var acceptance updatepb.Acceptance
	if err := res.Messages[0].GetBody().UnmarshalTo(&acceptance); err != nil || acceptance.GetAcceptedRequestMessageId() != "u1/request" ||
		acceptance.GetAcceptedRequestSequencingEventId() != 2 || acceptance.GetAcceptedRequest().GetInput().GetName() != "add" {
		t.Fatalf("acceptance %v, %v", &acceptance, err)
	}
	var rejection updatepb.Rejection
	if err := res.Messages[2].GetBody().UnmarshalTo(&rejection); err != nil || rejection.GetFailure().GetMessage() != "refused" {
		t.Fatalf("rejection %v, %v", &rejection, err)
	}
}

// updateHistory is a history whose first task accepted and completed
// update u1; flags are the task's SDK flags.
func updateHistory(flags ...uint32) *historyBuilder {
	h := newHistory("Greet")
	h.task()
	h.completed(flags...)
	h.add(enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED, &historypb.HistoryEvent_WorkflowExecutionUpdateAcceptedEventAttributes{
		WorkflowExecutionUpdateAcceptedEventAttributes: &historypb.WorkflowExecutionUpdateAcceptedEventAttributes{
			ProtocolInstanceId: "u1", AcceptedRequestMessageId: "u1/request", AcceptedRequestSequencingEventId: 2, AcceptedRequest: updateRequest("u1", "add")}})
	h.add(enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED, &historypb.HistoryEvent_WorkflowExecutionUpdateCompletedEventAttributes{
		WorkflowExecutionUpdateCompletedEventAttributes: &historypb.WorkflowExecutionUpdateCompletedEventAttributes{
			Meta: &updatepb.Meta{UpdateId: "u1"}, AcceptedEventId: 5, Outcome: &updatepb.Outcome{Value: &updatepb.Outcome_Success{Success: payloads("result of u1")}}}})
	h.task()
	return h
}

func TestAnAcceptedUpdateReplaysFromHistory(t *testing.T) {
	x, wf := newRun(answering)
	res := process(t, x, updateHistory(FlagProtocolMessageCommand).events)
	if len(wf.updates) != 1 || !wf.updates[0].Replaying || wf.updates[0].Name != "add" {
		t.Fatalf("the accepted update is delivered again, as a replay: %v", wf.updates)
	}
	if len(res.Messages) != 0 {
		t.Fatalf("a replayed update sends nothing, got %v", res.Messages)
	}
}

func TestUpdateEventsOfHistoryWithoutProtocolCommandsAreNotMatched(t *testing.T) {
	// Recorded by an SDK that sent no ProtocolMessage commands (no flag 3):
	// the events match nothing, and replay still works.
	x, _ := newRun(func(s *scripted, run int) {
		for _, u := range s.updates {
			if !u.Done() {
				u.Accept()
				u.Complete(payloads("ok"), nil)
			}
		}
	})
	x.opts.SDKMetadataSupported = false // no flag may be used now either
	process(t, x, updateHistory().events)
}

func TestAnUpdateRemovedFromTheCodeIsNondeterminism(t *testing.T) {
	// History accepted u1; the code now rejects it: the accept command is
	// missing where history has its event.
	x, _ := newRun(func(s *scripted, run int) {
		for _, u := range s.updates {
			if !u.Done() {
				u.Reject(errors.New("no handler"))
			}
		}
	})
	_, err := x.ProcessTask(Task{Events: NewEventSource(context.Background(), updateHistory(FlagProtocolMessageCommand).events, nil, nil)})
	var te *TaskError
	if !errors.As(err, &te) || te.Cause != enumspb.WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR {
		t.Fatalf("want non-determinism, got %v", err)
	}
}

func TestAnAdmittedUpdateIsDeliveredAtTheNextTask(t *testing.T) {
	h := newHistory("Greet")
	h.add(enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ADMITTED, &historypb.HistoryEvent_WorkflowExecutionUpdateAdmittedEventAttributes{
		WorkflowExecutionUpdateAdmittedEventAttributes: &historypb.WorkflowExecutionUpdateAdmittedEventAttributes{
			Request: updateRequest("with-start", "add"), Origin: enumspb.UPDATE_ADMITTED_EVENT_ORIGIN_UNSPECIFIED}})
	h.task()
	x, wf := newRun(answering)
	res := process(t, x, h.events)
	if len(wf.updates) != 1 || wf.updates[0].ID != "with-start" || len(res.Messages) != 2 {
		t.Fatalf("updates %v, messages %v", wf.updates, res.Messages)
	}
}

// TestARunGoesOnAfterTheServerDiscardsATask: the server discards a
// speculative task whose updates were all rejected, and the run's next
// task brings events under its IDs. Once the run forgets the task, it
// takes that next task as a sticky one and answers its update.
func TestARunGoesOnAfterTheServerDiscardsATask(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	h.completed(FlagProtocolMessageCommand)
	h.task() // the speculative task, events 5 and 6; the next task's too
	x, _ := newRun(answering)
	process(t, x, h.events[:3])
	res, err := x.ProcessTask(Task{Events: NewEventSource(context.Background(), h.events[3:], nil, nil),
		Messages: []*protocolpb.Message{requestMessage(t, "u1", "bad", 4)}})
	if err != nil || len(res.Commands) != 0 || len(res.Messages) != 1 || res.Messages[0].GetId() != "u1/reject" {
		t.Fatalf("the speculative task: %v, %v; want only u1's rejection", res, err)
	}
	if err := x.DiscardTask(5); err == nil {
		t.Fatal("a task kept by the server cannot end after the discarded task was scheduled")
	}
	if err := x.DiscardTask(3); err != nil {
		t.Fatal(err)
	}
	if got := x.LastStartedEventID(); got != 3 {
		t.Fatalf("the last task started at event %d, want 3", got)
	}
	res, err = x.ProcessTask(Task{Events: NewEventSource(context.Background(), h.events[3:], nil, nil),
		Messages: []*protocolpb.Message{requestMessage(t, "u2", "add", 4)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Commands) != 2 || res.Commands[0].GetProtocolMessageCommandAttributes().GetMessageId() != "u2/accept" {
		t.Fatalf("the next task: want u2 accepted and completed, got commands %v", res.Commands)
	}
}

func TestARunWithNoTaskCannotDiscardOne(t *testing.T) {
	x, _ := newRun(answering)
	if err := x.DiscardTask(3); err == nil || !strings.Contains(err.Error(), "cannot discard") {
		t.Fatalf("want an error, got %v", err)
	}
}
