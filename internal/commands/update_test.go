package commands

import (
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	updatepb "go.temporal.io/api/update/v1"
)

// TestProtocolMessageTableRows drives every row of the protocol message
// machine: its command is sent, then matched by the event of the answer
// the message carries (an acceptance here, a completion below).
func TestProtocolMessageTableRows(t *testing.T) {
	for _, r := range ProtocolMessageTable.Rows() {
		t.Run(r.From.String()+"/"+r.On.String(), func(t *testing.T) {
			b := NewBook()
			b.BeginTask(taskStarted)
			m := b.ProtocolMessage("upd-1" + acceptSuffix)
			if r.From == CommandSent {
				b.TakeCommands()
			}
			switch r.On {
			case InSent:
				cmds := b.TakeCommands()
				if len(cmds) != 1 || cmds[0].GetProtocolMessageCommandAttributes().GetMessageId() != "upd-1/accept" {
					t.Fatalf("want the ProtocolMessage command of upd-1/accept, got %v", cmds)
				}
			case InInitiated:
				ev := &historypb.HistoryEvent{EventId: 5, EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED,
					Attributes: &historypb.HistoryEvent_WorkflowExecutionUpdateAcceptedEventAttributes{
						WorkflowExecutionUpdateAcceptedEventAttributes: &historypb.WorkflowExecutionUpdateAcceptedEventAttributes{ProtocolInstanceId: "upd-1"}}}
				if _, err := b.Apply(ev); err != nil {
					t.Fatal(err)
				}
			}
			if m.State() != r.To {
				t.Fatalf("%v/%v: state %v, want %v", r.From, r.On, m.State(), r.To)
			}
		})
	}
}

// A completion message is matched by the UpdateCompleted event of its
// update, and an event of another update is non-determinism.
func TestProtocolMessageMatchesItsUpdatesEvent(t *testing.T) {
	completed := func(id string) *historypb.HistoryEvent {
		return &historypb.HistoryEvent{EventId: 5, EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED,
			Attributes: &historypb.HistoryEvent_WorkflowExecutionUpdateCompletedEventAttributes{
				WorkflowExecutionUpdateCompletedEventAttributes: &historypb.WorkflowExecutionUpdateCompletedEventAttributes{Meta: &updatepb.Meta{UpdateId: id}}}}
	}
	b := NewBook()
	b.BeginTask(taskStarted)
	m := b.ProtocolMessage("upd-1" + completeSuffix)
	b.TakeCommands()
	if _, err := b.Apply(completed("upd-1")); err != nil || m.State() != Initiated {
		t.Fatalf("the completion of upd-1: %v, state %v; want it matched", err, m.State())
	}

	b = NewBook()
	b.BeginTask(taskStarted)
	b.ProtocolMessage("upd-1" + completeSuffix)
	b.TakeCommands()
	if _, err := b.Apply(completed("upd-2")); err == nil {
		t.Fatal("the completion of upd-2 matched the message of upd-1")
	}
	if got := UpdateIDOfMessage("upd-1/complete"); got != "upd-1" {
		t.Fatalf("UpdateIDOfMessage: %q", got)
	}
}
