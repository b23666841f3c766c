package engine

import (
	"fmt"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	protocolpb "go.temporal.io/api/protocol/v1"
	updatepb "go.temporal.io/api/update/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
)

// Update is an update request delivered to the workflow code. The code
// answers it once: Reject, or Accept and later Complete. The answers are
// protocol messages the task returns; an acceptance and a completion also
// take a ProtocolMessage command among the task's commands (flag 3), which
// history records as WorkflowExecutionUpdateAccepted and ...Completed.
//
// Requests arrive with a task (Task.Messages), or in history: a
// WorkflowExecutionUpdateAdmitted event (update-with-start), and, in
// replay, the WorkflowExecutionUpdateAccepted the task recorded (a
// rejected update left no trace, so it is not replayed).
type Update struct {
	ID     string
	Name   string
	Args   *commonpb.Payloads
	Header *commonpb.Header
	// Replaying: history recorded this update's acceptance; validators do
	// not run again, as in go.temporal.io/sdk.
	Replaying bool

	x       *Run
	request *updatepb.Request
	msgID   string
	seqID   int64
	state   updateState
}

type updateState uint8

const (
	updateRequested updateState = iota
	updateAccepted
	updateDone
)

// The message ID suffixes of an update's answers, as go.temporal.io/sdk
// writes them.
const (
	acceptMessage   = "/accept"
	rejectMessage   = "/reject"
	completeMessage = "/complete"
)

// Accept tells the client the update passed validation and runs.
func (u *Update) Accept() {
	u.require("accept", updateRequested)
	u.x.sendMessage(&protocolpb.Message{
		Id: u.ID + acceptMessage, ProtocolInstanceId: u.ID,
		Body: mustAny(&updatepb.Acceptance{AcceptedRequestMessageId: u.msgID, AcceptedRequestSequencingEventId: u.seqID, AcceptedRequest: u.request}),
	}, true)
	u.request = nil // no longer needed: let it go
	u.state = updateAccepted
}

// Reject tells the client the update was refused; it leaves no event.
func (u *Update) Reject(err error) {
	u.require("reject", updateRequested)
	u.x.sendMessage(&protocolpb.Message{
		Id: u.ID + rejectMessage, ProtocolInstanceId: u.ID,
		Body: mustAny(&updatepb.Rejection{RejectedRequestMessageId: u.msgID, RejectedRequestSequencingEventId: u.seqID,
			RejectedRequest: u.request, Failure: u.x.failureInTask(err)}),
	}, false)
	u.state = updateDone
}

// Complete tells the client the update's result, or its error.
func (u *Update) Complete(result *commonpb.Payloads, err error) {
	u.require("complete", updateAccepted)
	outcome := &updatepb.Outcome{Value: &updatepb.Outcome_Success{Success: result}}
	if err != nil {
		outcome.Value = &updatepb.Outcome_Failure{Failure: u.x.failureInTask(err)}
	}
	u.x.sendMessage(&protocolpb.Message{
		Id: u.ID + completeMessage, ProtocolInstanceId: u.ID,
		Body: mustAny(&updatepb.Response{Meta: &updatepb.Meta{UpdateId: u.ID}, Outcome: outcome}),
	}, true)
	u.state = updateDone
}

// Done reports whether the update was answered for good.
func (u *Update) Done() bool { return u.state == updateDone }

func (u *Update) require(what string, state updateState) {
	if u.state != state {
		panic(fmt.Sprintf("engine: update %q (%s) cannot %s now: it was answered already", u.ID, u.Name, what))
	}
}

func mustAny(m proto.Message) *anypb.Any {
	a, err := anypb.New(m)
	if err != nil {
		panic(fmt.Errorf("engine: encoding a protocol message: %w", err))
	}
	return a
}

// sendMessage adds an answer to the task's messages and, for acceptances
// and completions when flag 3 is in use, its ProtocolMessage command.
// Messages made in replay were sent long ago: only the command matters.
func (x *Run) sendMessage(m *protocolpb.Message, withCommand bool) {
	if !x.replaying {
		o := x.use()
		o.outMessages = append(o.outMessages, m)
	}
	if withCommand && x.TryUseFlag(FlagProtocolMessageCommand) {
		x.book.ProtocolMessage(m.GetId())
	}
}

// updateRequests are the update requests of one workflow task, before the
// code runs.
type updateRequests struct {
	inbox    []*protocolpb.Message // delivered with the task being processed
	admitted []*protocolpb.Message // from WorkflowExecutionUpdateAdmitted events of the batch
	accepted []*protocolpb.Message // from the WorkflowExecutionUpdateAccepted events the task recorded
}

// noteAdmitted keeps the request an admitted event carries, delivered at
// the next workflow task as go.temporal.io/sdk does.
func (r *updateRequests) noteAdmitted(ev *historypb.HistoryEvent) {
	req := ev.GetWorkflowExecutionUpdateAdmittedEventAttributes().GetRequest()
	id := req.GetMeta().GetUpdateId()
	r.admitted = append(r.admitted, &protocolpb.Message{Id: id + "/request", ProtocolInstanceId: id, SequencingId: &protocolpb.Message_EventId{EventId: ev.GetEventId()}, Body: mustAny(req)})
}

// noteAccepted keeps, from the task being replayed, the request its
// acceptance recorded.
func (r *updateRequests) noteAccepted(ev *historypb.HistoryEvent) {
	a := ev.GetWorkflowExecutionUpdateAcceptedEventAttributes()
	r.accepted = append(r.accepted, &protocolpb.Message{Id: a.GetAcceptedRequestMessageId(), ProtocolInstanceId: a.GetProtocolInstanceId(),
		SequencingId: &protocolpb.Message_EventId{EventId: a.GetAcceptedRequestSequencingEventId()}, Body: mustAny(a.GetAcceptedRequest())})
}

// take returns the requests to deliver at a workflow task: in replay,
// those history says were accepted (an admitted event's request standing
// in for the same update's); live, the admitted ones and the task's own.
func (r *updateRequests) take(replaying bool) []*protocolpb.Message {
	var msgs []*protocolpb.Message
	if replaying {
		byID := make(map[string]*protocolpb.Message, len(r.admitted))
		for _, m := range r.admitted {
			byID[m.GetProtocolInstanceId()] = m
		}
		for _, m := range r.accepted {
			if a, ok := byID[m.GetProtocolInstanceId()]; ok {
				m = a
			}
			msgs = append(msgs, m)
		}
	} else {
		msgs = append(r.admitted, r.inbox...)
		r.inbox = nil
	}
	r.admitted, r.accepted = nil, nil
	return msgs
}

// deliverUpdates hands the workflow the task's update requests, in order,
// before its code runs.
func (x *Run) deliverUpdates() error {
	if x.optional == nil {
		return nil
	}
	for _, m := range x.optional.updates.take(x.replaying) {
		var req updatepb.Request
		if err := m.GetBody().UnmarshalTo(&req); err != nil {
			return fmt.Errorf("update %q: the request message %q cannot be read: %w", m.GetProtocolInstanceId(), m.GetId(), err)
		}
		input := req.GetInput()
		wf, err := x.workflow()
		if err != nil {
			return err
		}
		wf.Update(&Update{
			ID: m.GetProtocolInstanceId(), Name: input.GetName(), Args: input.GetArgs(), Header: input.GetHeader(),
			Replaying: x.replaying, x: x, request: &req, msgID: m.GetId(), seqID: m.GetEventId(),
		})
	}
	return nil
}

// applyUpdateEvent applies an update event: an admitted request waits for
// the next task; an acceptance or completion is matched to its
// ProtocolMessage command when flag 3 says there is one.
func (x *Run) applyUpdateEvent(ev *historypb.HistoryEvent) error {
	switch ev.GetEventType() {
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ADMITTED:
		x.use().updates.noteAdmitted(ev)
		return nil
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_REJECTED:
		return nil // the server rejected it; no command of the code's
	}
	if !x.flagUsed(FlagProtocolMessageCommand) {
		return nil // recorded by an SDK that sent no ProtocolMessage commands
	}
	_, err := x.book.Apply(ev)
	return err
}
