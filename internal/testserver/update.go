package testserver

import (
	"fmt"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"
	protocolpb "go.temporal.io/api/protocol/v1"
	"go.temporal.io/api/serviceerror"
	updatepb "go.temporal.io/api/update/v1"
	"google.golang.org/protobuf/types/known/anypb"
)

// Updates follow the server's protocol: a request rides, as a protocol
// message, on the run's next workflow task; the worker answers with
// messages (accept, reject, complete), and an acceptance or completion
// with a ProtocolMessage command at whose place in the task's commands
// the server writes WorkflowExecutionUpdateAccepted or ...Completed. A
// rejection writes nothing; when a task was scheduled only for updates
// and all it did was reject them, the task itself is erased from history
// (the server's speculative workflow task).

// UpdateStage is what a notice says became of an update.
type UpdateStage int

const (
	UpdateAccepted UpdateStage = iota + 1
	UpdateRejected
	UpdateCompleted
)

// UpdateNotice tells a watcher what became of an update: accepted,
// rejected (Failure) or completed (Outcome).
type UpdateNotice struct {
	Stage   UpdateStage
	Failure *failurepb.Failure
	Outcome *updatepb.Outcome
}

// UpdateWatcher hears what becomes of an update, at most two notices. A
// notice counts as work in flight on the clock until Handled is called
// for it, so that time does not move on before the watcher reacted.
type UpdateWatcher struct {
	C     <-chan UpdateNotice
	clock *Clock
}

// Handled says a notice was dealt with.
func (w *UpdateWatcher) Handled() { w.clock.Busy(-1) }

type updateState uint8

const (
	updateAdmitted updateState = iota // waiting for the next workflow task
	updateSent                        // in a started workflow task
	updateAccepted
	updateCompleted
	updateRejected
)

type update struct {
	id      string
	request *updatepb.Request
	state   updateState
	outcome *updatepb.Outcome
	// acceptedID is the WorkflowExecutionUpdateAccepted event's ID, which
	// the completion names.
	acceptedID int64
	watchers   []chan UpdateNotice
}

// requestMessageSuffix names a request's message, as the server does.
const requestMessageSuffix = "/request"

// UpdateWorkflow asks a run to take an update and returns a watcher of
// its fate. An update whose ID the run knows is not delivered again: the
// watcher hears what became of the first one.
func (s *Server) UpdateWorkflow(execution *commonpb.WorkflowExecution, req *updatepb.Request) (*UpdateWatcher, error) {
	s.lock()
	defer s.unlock()
	r, err := s.runLocked(execution)
	if err != nil {
		return nil, err
	}
	id := req.GetMeta().GetUpdateId()
	if id == "" {
		return nil, serviceerror.NewInvalidArgument("an update needs an ID")
	}
	ch := make(chan UpdateNotice, 2)
	watcher := &UpdateWatcher{C: ch, clock: s.clock}
	if u := r.updates[id]; u != nil {
		u.watchers = append(u.watchers, ch)
		if u.state >= updateAccepted {
			s.notify(ch, UpdateNotice{Stage: UpdateAccepted})
		}
		if u.state == updateCompleted {
			s.notify(ch, UpdateNotice{Stage: UpdateCompleted, Outcome: u.outcome})
		}
		return watcher, nil
	}
	if r.closed {
		return nil, serviceerror.NewNotFound(fmt.Sprintf("workflow %q (run %s) has already completed", r.execution.GetWorkflowId(), r.execution.GetRunId()))
	}
	u := &update{id: id, request: clone(req), watchers: []chan UpdateNotice{ch}}
	s.admitUpdate(r, u)
	return watcher, nil
}

// admitUpdate adds an update to the run and asks for a workflow task to
// carry it. A task scheduled for updates alone is speculative.
func (s *Server) admitUpdate(r *run, u *update) {
	if r.updates == nil {
		r.updates = make(map[string]*update)
	}
	u.state = updateAdmitted
	r.updates[u.id] = u
	r.updateOrder = append(r.updateOrder, u)
	r.admitted = append(r.admitted, u)
	fresh := r.wft == nil
	s.scheduleWorkflowTask(r)
	if fresh && r.wft != nil && len(r.buffer) == 0 {
		r.wft.speculative = true
	}
}

// notify sends a notice, counted as work in flight until handled.
func (s *Server) notify(ch chan UpdateNotice, n UpdateNotice) {
	s.clock.Busy(1)
	ch <- n // never blocks: at most two notices, and room for two
}

func (s *Server) notifyAll(u *update, n UpdateNotice) {
	for _, ch := range u.watchers {
		s.notify(ch, n)
	}
}

// updateMessages hands the admitted updates to a starting workflow task.
func (s *Server) updateMessages(r *run, startedID int64) []*protocolpb.Message {
	var msgs []*protocolpb.Message
	for _, u := range r.admitted {
		body, err := anypb.New(u.request)
		if err != nil {
			panic(fmt.Sprintf("testserver: encoding an update request: %v", err))
		}
		u.state = updateSent
		msgs = append(msgs, &protocolpb.Message{
			Id: u.id + requestMessageSuffix, ProtocolInstanceId: u.id, Body: body,
			SequencingId: &protocolpb.Message_EventId{EventId: startedID - 1},
		})
	}
	r.admitted = nil
	return msgs
}

// answer is a worker's message about an update, read.
type answer struct {
	msg        *protocolpb.Message
	update     *update
	acceptance *updatepb.Acceptance
	rejection  *updatepb.Rejection
	response   *updatepb.Response
}

// readAnswers reads a task's messages, checking that each answers an
// update the task carried (or, for a completion, one accepted before) and
// that each ProtocolMessage command names one of them.
func readAnswers(r *run, msgs []*protocolpb.Message, cmds []*commandpb.Command) (map[string]*answer, string) {
	answers := make(map[string]*answer, len(msgs))
	for _, m := range msgs {
		a := &answer{msg: m, update: r.updates[m.GetProtocolInstanceId()]}
		if a.update == nil {
			return nil, fmt.Sprintf("message %q answers update %q, which the workflow was not asked", m.GetId(), m.GetProtocolInstanceId())
		}
		body, err := m.GetBody().UnmarshalNew()
		if err != nil {
			return nil, fmt.Sprintf("message %q cannot be read: %v", m.GetId(), err)
		}
		want := updateSent
		switch b := body.(type) {
		case *updatepb.Acceptance:
			a.acceptance = b
		case *updatepb.Rejection:
			a.rejection = b
		case *updatepb.Response:
			a.response, want = b, updateAccepted
		default:
			return nil, fmt.Sprintf("message %q holds a %T, not an update's acceptance, rejection or response", m.GetId(), body)
		}
		if a.update.state != want && !(a.response != nil && acceptedInTask(answers, a.update)) {
			return nil, fmt.Sprintf("message %q (%T) does not fit update %q's state", m.GetId(), body, a.update.id)
		}
		answers[m.GetId()] = a
	}
	for _, cmd := range cmds {
		if cmd.GetCommandType() != enumspb.COMMAND_TYPE_PROTOCOL_MESSAGE {
			continue
		}
		id := cmd.GetProtocolMessageCommandAttributes().GetMessageId()
		if a := answers[id]; a == nil || a.rejection != nil {
			return nil, fmt.Sprintf("a ProtocolMessage command names message %q, which the task sent no acceptance or completion of", id)
		}
	}
	return answers, ""
}

// acceptedInTask reports whether the same task accepts u too: an update
// may be accepted and completed at once.
func acceptedInTask(answers map[string]*answer, u *update) bool {
	for _, a := range answers {
		if a.update == u && a.acceptance != nil {
			return true
		}
	}
	return false
}

// onlyRejections reports whether a task's answers reject and no more.
func onlyRejections(answers map[string]*answer) bool {
	for _, a := range answers {
		if a.rejection == nil {
			return false
		}
	}
	return true
}

// applyAnswer records an answer: an acceptance or completion as its
// event, a rejection by telling the watchers.
func (s *Server) applyAnswer(r *run, completedID int64, a *answer) {
	if r.closed || a == nil {
		return
	}
	u := a.update
	switch {
	case a.rejection != nil:
		delete(r.updates, u.id) // no trace: the same ID may come again
		u.state = updateRejected
		s.notifyAll(u, UpdateNotice{Stage: UpdateRejected, Failure: a.rejection.GetFailure()})
	case a.acceptance != nil:
		s.write(r, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED, &historypb.HistoryEvent_WorkflowExecutionUpdateAcceptedEventAttributes{
			WorkflowExecutionUpdateAcceptedEventAttributes: &historypb.WorkflowExecutionUpdateAcceptedEventAttributes{
				ProtocolInstanceId: u.id, AcceptedRequestMessageId: a.acceptance.GetAcceptedRequestMessageId(),
				AcceptedRequestSequencingEventId: a.acceptance.GetAcceptedRequestSequencingEventId(), AcceptedRequest: u.request,
			}})
		u.state = updateAccepted
		u.acceptedID = r.history[len(r.history)-1].GetEventId()
		s.notifyAll(u, UpdateNotice{Stage: UpdateAccepted})
	case a.response != nil:
		s.write(r, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED, &historypb.HistoryEvent_WorkflowExecutionUpdateCompletedEventAttributes{
			WorkflowExecutionUpdateCompletedEventAttributes: &historypb.WorkflowExecutionUpdateCompletedEventAttributes{
				Meta: &updatepb.Meta{UpdateId: u.id, Identity: u.request.GetMeta().GetIdentity()}, AcceptedEventId: u.acceptedID,
				Outcome: a.response.GetOutcome(),
			}})
		u.state, u.outcome = updateCompleted, a.response.GetOutcome()
		s.notifyAll(u, UpdateNotice{Stage: UpdateCompleted, Outcome: u.outcome})
	}
}

// unanswered puts the updates a task carried but did not answer back in
// line for the next task (after a failed task, all of them), in the order
// they arrived.
func (s *Server) unanswered(r *run) {
	var sent []*update
	for _, u := range r.updateOrder {
		if u.state == updateSent {
			u.state = updateAdmitted
			sent = append(sent, u)
		}
	}
	r.admitted = append(sent, r.admitted...)
}

// takeUnaccepted removes from a run the updates it has not accepted, to
// hand them to the run that continues it (a client would retry them
// there).
func takeUnaccepted(r *run) []*update {
	var taken, kept []*update
	for _, u := range r.updateOrder {
		if u.state == updateAdmitted || u.state == updateSent {
			taken = append(taken, u)
			delete(r.updates, u.id)
		} else {
			kept = append(kept, u)
		}
	}
	r.updateOrder, r.admitted = kept, nil
	return taken
}

// closeUpdates settles the updates of a run that closed: those not yet
// accepted are rejected, accepted ones fail.
func (s *Server) closeUpdates(r *run) {
	for _, u := range r.updateOrder {
		switch u.state {
		case updateAdmitted, updateSent:
			u.state = updateRejected
			delete(r.updates, u.id)
			s.notifyAll(u, UpdateNotice{Stage: UpdateRejected, Failure: &failurepb.Failure{
				Message: fmt.Sprintf("workflow %q closed before it took update %q", r.execution.GetWorkflowId(), u.id), Source: "TestServer"}})
		case updateAccepted:
			u.state = updateCompleted
			u.outcome = &updatepb.Outcome{Value: &updatepb.Outcome_Failure{Failure: &failurepb.Failure{
				Message: fmt.Sprintf("workflow %q closed before update %q completed", r.execution.GetWorkflowId(), u.id), Source: "TestServer"}}}
			s.notifyAll(u, UpdateNotice{Stage: UpdateCompleted, Outcome: u.outcome})
		}
	}
	r.admitted = nil
}
