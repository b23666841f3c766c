//lint:file-ignore SA1019 servers still fill in the deprecated operation IDs beside the tokens, for SDKs that read only those.

package testserver

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"
	nexuspb "go.temporal.io/api/nexus/v1"
	"go.temporal.io/api/serviceerror"
	apinexus "go.temporal.io/api/temporalnexus"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/internal/uuid"
)

// Nexus operations. A ScheduleNexusOperation command becomes a
// NexusOperationScheduled event and a start request on the task queue
// NexusQueue names, which the worker polls (PollNexusTaskQueue) and
// answers as it answers a server. What the answer says is written as a
// server writes it: a synchronous result or failure closes the operation
// (NexusOperationCompleted, Failed or Canceled, without a started event);
// an asynchronous start writes NexusOperationStarted with its token, and
// the operation closes when the workflow that the handler started with
// the request's callback closes (its completion callback, as on a
// server), or when one of its timeouts (schedule-to-close,
// schedule-to-start, start-to-close) passes on the clock. A
// workflow's RequestCancelNexusOperation becomes
// NexusOperationCancelRequested and, once the operation started, a cancel
// request to its handler, whose answer is recorded
// (NexusOperationCancelRequestCompleted or Failed).
//
// Unlike a server, and as go.temporal.io/sdk's test environment does, a
// handler error fails the operation at once: the server would retry the
// request while the error is retryable.

// nexusCallbackURL is the callback a start request names: the workflow a
// handler starts with it completes the operation (see completeByCallback).
const nexusCallbackURL = "temporal://test-server/nexus-callback"

// nexusCallbackOperation is the callback header that names the operation
// a callback completes: the caller's run ID and the operation's scheduled
// event ID; nexusCallbackNamespace names the caller's namespace, whose
// server may not be the handler's (see NexusRouter).
const (
	nexusCallbackOperation = "test-server-nexus-operation"
	nexusCallbackNamespace = "test-server-nexus-namespace"
)

// nexusRequestTimeout is the deadline of each request to a handler, as a
// server gives it.
const nexusRequestTimeout = "10s"

// nexusOperation is one operation a workflow scheduled.
type nexusOperation struct {
	run         *run
	scheduledID int64
	attrs       *historypb.NexusOperationScheduledEventAttributes
	target      NexusTarget // where its requests go
	token       string
	started     bool // its NexusOperationStarted was written
	closed      bool
	// cancelRequestedID is its NexusOperationCancelRequested, once
	// written; cancelSent: the cancel request went to the handler.
	cancelRequestedID int64
	cancelSent        bool
	timeouts          []*Timer   // schedule-to-close, schedule-to-start, start-to-close
	task              *nexusTask // the request in flight, if any
	attempt           int        // requests a handler failed, retryably
	// closeLater is the operation's end, held back while its handler
	// answers a cancel request (see closeNexus).
	closeLater func()
}

// nexusTask is a request to a handler: a start, or a cancel. The router
// queues it on its target's namespace and task queue.
type nexusTask struct {
	op      *nexusOperation
	caller  *Server // op's server, whose lock guards op and counted
	cancel  bool
	counted bool
	// namespace and queue are the target's; request is what the handler
	// is sent. They do not change once the task is pushed.
	namespace, queue string
	request          *nexuspb.Request
	// token, once handed out, is guarded by the router's lock.
	token []byte
}

// scheduleNexus makes a NexusOperationScheduled event; once written, the
// start request goes to the handler's queue and its timeouts start.
func (s *Server) scheduleNexus(r *run, completedID int64, a *commandpb.ScheduleNexusOperationCommandAttributes) (*historypb.HistoryEvent, func(int64)) {
	target := s.nexusTarget(a.GetEndpoint())
	attrs := &historypb.NexusOperationScheduledEventAttributes{
		Endpoint: a.GetEndpoint(), EndpointId: target.EndpointID, Service: a.GetService(), Operation: a.GetOperation(), Input: a.GetInput(),
		ScheduleToCloseTimeout: a.GetScheduleToCloseTimeout(), NexusHeader: a.GetNexusHeader(),
		WorkflowTaskCompletedEventId: completedID, RequestId: uuid.New(),
		ScheduleToStartTimeout: a.GetScheduleToStartTimeout(), StartToCloseTimeout: a.GetStartToCloseTimeout(),
	}
	ev := newEvent(enumspb.EVENT_TYPE_NEXUS_OPERATION_SCHEDULED, &historypb.HistoryEvent_NexusOperationScheduledEventAttributes{NexusOperationScheduledEventAttributes: attrs})
	return ev, func(scheduledID int64) {
		op := &nexusOperation{run: r, scheduledID: scheduledID, attrs: attrs, target: target}
		if r.nexusOps == nil {
			r.nexusOps = make(map[int64]*nexusOperation)
		}
		r.nexusOps[scheduledID] = op
		s.timeOutNexusAfter(op, a.GetScheduleToCloseTimeout().AsDuration(), enumspb.TIMEOUT_TYPE_SCHEDULE_TO_CLOSE)
		s.timeOutNexusAfter(op, a.GetScheduleToStartTimeout().AsDuration(), enumspb.TIMEOUT_TYPE_SCHEDULE_TO_START)
		s.pushNexusTask(op, false)
	}
}

// requestCancelNexus makes a NexusOperationCancelRequested event; once
// written, the cancel request goes to the handler as soon as the
// operation has started.
func (s *Server) requestCancelNexus(r *run, completedID int64, scheduledID int64) (*historypb.HistoryEvent, func(int64)) {
	ev := newEvent(enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCEL_REQUESTED, &historypb.HistoryEvent_NexusOperationCancelRequestedEventAttributes{
		NexusOperationCancelRequestedEventAttributes: &historypb.NexusOperationCancelRequestedEventAttributes{
			ScheduledEventId: scheduledID, WorkflowTaskCompletedEventId: completedID}})
	return ev, func(requestedID int64) {
		op := r.nexusOps[scheduledID]
		if op == nil || op.closed {
			return
		}
		op.cancelRequestedID = requestedID
		s.sendNexusCancel(op)
	}
}

// sendNexusCancel sends a requested cancellation once the operation has a
// token and no request of it is in flight.
func (s *Server) sendNexusCancel(op *nexusOperation) {
	if op.cancelRequestedID == 0 || op.cancelSent || !op.started || op.closed || op.task != nil {
		return
	}
	op.cancelSent = true
	s.pushNexusTask(op, true)
}

// nexusTarget is where an endpoint's requests go: where NexusEndpoint
// resolves it, else this namespace's queue NexusQueue names (by
// default, the endpoint's name).
func (s *Server) nexusTarget(endpoint string) NexusTarget {
	if s.opts.NexusEndpoint != nil {
		// checkCommands refused an endpoint it did not know; one deleted
		// since then leaves its operation with no handler, to time out.
		if target, ok := s.opts.NexusEndpoint(endpoint); ok {
			return target
		}
	}
	queue := endpoint
	if s.opts.NexusQueue != nil {
		queue = s.opts.NexusQueue(endpoint)
	}
	return NexusTarget{Namespace: s.opts.Namespace, TaskQueue: queue}
}

func (s *Server) pushNexusTask(op *nexusOperation, cancel bool) {
	t := &nexusTask{op: op, caller: s, cancel: cancel, namespace: op.target.Namespace, queue: op.target.TaskQueue}
	t.request = s.nexusRequest(t)
	op.task = t
	t.counted = s.inFlight(t.queue)
	s.nexus.push(t)
}

// dropNexusTask forgets a request that no longer matters.
func (s *Server) dropNexusTask(t *nexusTask) {
	if t == nil {
		return
	}
	s.nexus.drop(t)
	if t.op.task == t {
		t.op.task = nil
	}
	s.release(&t.counted)
}

// PollNexusTaskQueue hands out the next request of a task queue of the
// server's namespace, from any server that shares its router, waiting
// for one until ctx ends (then the response is empty).
func (s *Server) PollNexusTaskQueue(ctx context.Context, req *workflowservice.PollNexusTaskQueueRequest) (*workflowservice.PollNexusTaskQueueResponse, error) {
	defer s.pollStarted(req.GetTaskQueue().GetName(), enumspb.TASK_QUEUE_TYPE_NEXUS, req, 0)()
	return s.nexus.poll(ctx, s.opts.Namespace, req.GetTaskQueue().GetName()), nil
}

// nexusRequest is the request a task carries, as a server sends it.
func (s *Server) nexusRequest(t *nexusTask) *nexuspb.Request {
	op := t.op
	header := make(map[string]string, len(op.attrs.GetNexusHeader())+1)
	for k, v := range op.attrs.GetNexusHeader() {
		header[strings.ToLower(k)] = v
	}
	header["request-timeout"] = nexusRequestTimeout
	if d := op.attrs.GetScheduleToCloseTimeout().AsDuration(); d > 0 {
		header["operation-timeout"] = strconv.FormatInt(d.Milliseconds(), 10) + "ms"
	}
	req := &nexuspb.Request{
		Header: header, ScheduledTime: s.now(), Endpoint: op.attrs.GetEndpoint(),
		Capabilities: &nexuspb.Request_Capabilities{TemporalFailureResponses: true},
	}
	if t.cancel {
		req.Variant = &nexuspb.Request_CancelOperation{CancelOperation: &nexuspb.CancelOperationRequest{
			Service: op.attrs.GetService(), Operation: op.attrs.GetOperation(), OperationToken: op.token, OperationId: op.token}}
		return req
	}
	r := op.run
	req.Variant = &nexuspb.Request_StartOperation{StartOperation: &nexuspb.StartOperationRequest{
		Service: op.attrs.GetService(), Operation: op.attrs.GetOperation(), RequestId: op.attrs.GetRequestId(),
		Callback: nexusCallbackURL,
		CallbackHeader: map[string]string{
			nexusCallbackOperation: r.execution.GetRunId() + "/" + strconv.FormatInt(op.scheduledID, 10),
			nexusCallbackNamespace: s.opts.Namespace,
		},
		Payload: proto.CloneOf(op.attrs.GetInput()),
		Links: []*nexuspb.Link{nexusLinkOf(&commonpb.Link_WorkflowEvent{
			Namespace: s.opts.Namespace, WorkflowId: r.execution.GetWorkflowId(), RunId: r.execution.GetRunId(),
			Reference: &commonpb.Link_WorkflowEvent_EventRef{EventRef: &commonpb.Link_WorkflowEvent_EventReference{
				EventId: op.scheduledID, EventType: enumspb.EVENT_TYPE_NEXUS_OPERATION_SCHEDULED}},
		})},
	}}
	return req
}

// stale reports whether a request's operation no longer waits for its
// answer: the operation ended, by its workflow's callback, a timeout or
// its caller's close. As a server, the embedded one takes such an answer
// and drops it.
func stale(t *nexusTask) bool { return t.op.closed || t.op.task != t }

// RespondNexusTaskCompleted records a handler's answer to a request of
// the server's namespace, on the server of the operation's caller.
func (s *Server) RespondNexusTaskCompleted(_ context.Context, req *workflowservice.RespondNexusTaskCompletedRequest) (*workflowservice.RespondNexusTaskCompletedResponse, error) {
	t, err := s.nexus.task(s.opts.Namespace, req.GetTaskToken())
	if err != nil {
		return nil, err
	}
	defer s.nexus.answered(t)
	return t.caller.nexusTaskCompleted(t, req)
}

func (s *Server) nexusTaskCompleted(t *nexusTask, req *workflowservice.RespondNexusTaskCompletedRequest) (*workflowservice.RespondNexusTaskCompletedResponse, error) {
	s.lock()
	defer s.unlock()
	if stale(t) {
		return &workflowservice.RespondNexusTaskCompletedResponse{}, nil
	}
	op := t.op
	s.dropNexusTask(t)
	if t.cancel {
		s.deliver(op.run, enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCEL_REQUEST_COMPLETED, &historypb.HistoryEvent_NexusOperationCancelRequestCompletedEventAttributes{
			NexusOperationCancelRequestCompletedEventAttributes: &historypb.NexusOperationCancelRequestCompletedEventAttributes{
				ScheduledEventId: op.scheduledID, RequestedEventId: op.cancelRequestedID}}, true)
		s.closeHeldBack(op)
		return &workflowservice.RespondNexusTaskCompletedResponse{}, nil
	}
	start := req.GetResponse().GetStartOperation()
	switch v := start.GetVariant().(type) {
	case *nexuspb.StartOperationResponse_SyncSuccess:
		s.closeNexus(op, enumspb.EVENT_TYPE_NEXUS_OPERATION_COMPLETED, v.SyncSuccess.GetPayload(), nil)
	case *nexuspb.StartOperationResponse_AsyncSuccess:
		s.startNexus(op, v.AsyncSuccess.GetOperationToken())
	case *nexuspb.StartOperationResponse_Failure:
		if v.Failure.GetCanceledFailureInfo() != nil {
			s.closeNexus(op, enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCELED, nil, v.Failure)
		} else {
			s.closeNexus(op, enumspb.EVENT_TYPE_NEXUS_OPERATION_FAILED, nil, v.Failure)
		}
	default:
		// The server asks for Temporal failures, so a handler of this SDK
		// or go.temporal.io/sdk answers with one of the above.
		s.closeNexus(op, enumspb.EVENT_TYPE_NEXUS_OPERATION_FAILED, nil, &failurepb.Failure{
			Message: fmt.Sprintf("the handler answered with a response the test server does not read: %T", v)})
	}
	return &workflowservice.RespondNexusTaskCompletedResponse{}, nil
}

// RespondNexusTaskFailed records a handler error: the operation fails
// (no retries, as in go.temporal.io/sdk's test environment), or its
// cancel request does.
func (s *Server) RespondNexusTaskFailed(_ context.Context, req *workflowservice.RespondNexusTaskFailedRequest) (*workflowservice.RespondNexusTaskFailedResponse, error) {
	t, err := s.nexus.task(s.opts.Namespace, req.GetTaskToken())
	if err != nil {
		return nil, err
	}
	defer s.nexus.answered(t)
	return t.caller.nexusTaskFailed(t, req)
}

func (s *Server) nexusTaskFailed(t *nexusTask, req *workflowservice.RespondNexusTaskFailedRequest) (*workflowservice.RespondNexusTaskFailedResponse, error) {
	s.lock()
	defer s.unlock()
	if stale(t) {
		return &workflowservice.RespondNexusTaskFailedResponse{}, nil
	}
	op := t.op
	s.dropNexusTask(t)
	f := req.GetFailure()
	if f == nil {
		//lint:ignore SA1019 a handler that is not told of Temporal failures sends the older error.
		legacy := req.GetError()
		f = &failurepb.Failure{Message: legacy.GetFailure().GetMessage(), FailureInfo: &failurepb.Failure_NexusHandlerFailureInfo{
			NexusHandlerFailureInfo: &failurepb.NexusHandlerFailureInfo{Type: legacy.GetErrorType()}}}
	}
	if s.opts.RetryNexusTasks && retryableHandlerFailure(f) {
		s.retryNexusTask(op, t.cancel)
		return &workflowservice.RespondNexusTaskFailedResponse{}, nil
	}
	if t.cancel {
		s.deliver(op.run, enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCEL_REQUEST_FAILED, &historypb.HistoryEvent_NexusOperationCancelRequestFailedEventAttributes{
			NexusOperationCancelRequestFailedEventAttributes: &historypb.NexusOperationCancelRequestFailedEventAttributes{
				ScheduledEventId: op.scheduledID, RequestedEventId: op.cancelRequestedID, Failure: f}}, true)
		s.closeHeldBack(op)
		return &workflowservice.RespondNexusTaskFailedResponse{}, nil
	}
	s.closeNexus(op, enumspb.EVENT_TYPE_NEXUS_OPERATION_FAILED, nil, f)
	return &workflowservice.RespondNexusTaskFailedResponse{}, nil
}

// retryNexusTask sends op's request again after the attempt's backoff,
// on the server's clock, unless the operation ends first.
func (s *Server) retryNexusTask(op *nexusOperation, cancel bool) {
	op.attempt++
	backoff := time.Second << min(op.attempt-1, 12)
	backoff = min(backoff, time.Hour)
	op.timeouts = append(op.timeouts, s.clock.AfterFunc(backoff, func() {
		s.lock()
		defer s.unlock()
		if !op.closed && op.task == nil {
			s.pushNexusTask(op, cancel)
		}
	}))
}

// retryableHandlerFailure reports whether a server retries a request
// that failed so: by the handler error's retry behavior, else by its
// type (a bad request, an authentication or authorization failure, an
// operation not found or not implemented, a conflict are not retried).
func retryableHandlerFailure(f *failurepb.Failure) bool {
	info := f.GetNexusHandlerFailureInfo()
	switch info.GetRetryBehavior() {
	case enumspb.NEXUS_HANDLER_ERROR_RETRY_BEHAVIOR_RETRYABLE:
		return true
	case enumspb.NEXUS_HANDLER_ERROR_RETRY_BEHAVIOR_NON_RETRYABLE:
		return false
	}
	switch info.GetType() {
	case "BAD_REQUEST", "UNAUTHENTICATED", "UNAUTHORIZED", "NOT_FOUND", "NOT_IMPLEMENTED", "CONFLICT":
		return false
	}
	return info != nil
}

// startNexus records an asynchronous start, and sends a cancellation the
// workflow asked for meanwhile.
func (s *Server) startNexus(op *nexusOperation, token string) {
	if op.started || op.closed {
		return
	}
	op.started, op.token = true, token
	s.timeOutNexusAfter(op, op.attrs.GetStartToCloseTimeout().AsDuration(), enumspb.TIMEOUT_TYPE_START_TO_CLOSE)
	s.deliver(op.run, enumspb.EVENT_TYPE_NEXUS_OPERATION_STARTED, &historypb.HistoryEvent_NexusOperationStartedEventAttributes{
		NexusOperationStartedEventAttributes: &historypb.NexusOperationStartedEventAttributes{
			ScheduledEventId: op.scheduledID, OperationToken: token, OperationId: token, RequestId: op.attrs.GetRequestId()}}, true)
	s.sendNexusCancel(op)
}

// closeNexus writes an operation's close event: its result, or cause
// wrapped in the Nexus operation failure the workflow reads.
func (s *Server) closeNexus(op *nexusOperation, t enumspb.EventType, result *commonpb.Payload, cause *failurepb.Failure) {
	if op.closed || op.closeLater != nil {
		return
	}
	if op.task != nil && op.task.cancel && s.nexus.handedOut(op.task) {
		// The workflow the handler is canceling may end before the
		// handler answers: the answer is recorded first, so that the
		// history does not depend on which of the two came first.
		op.closeLater = func() { s.closeNexus(op, t, result, cause) }
		return
	}
	op.closed = true
	s.stopNexusTimeouts(op)
	s.dropNexusTask(op.task)
	delete(op.run.nexusOps, op.scheduledID)
	requestID := op.attrs.GetRequestId()
	var attrs any
	switch t {
	case enumspb.EVENT_TYPE_NEXUS_OPERATION_COMPLETED:
		attrs = &historypb.HistoryEvent_NexusOperationCompletedEventAttributes{NexusOperationCompletedEventAttributes: &historypb.NexusOperationCompletedEventAttributes{
			ScheduledEventId: op.scheduledID, Result: result, RequestId: requestID}}
	case enumspb.EVENT_TYPE_NEXUS_OPERATION_FAILED:
		attrs = &historypb.HistoryEvent_NexusOperationFailedEventAttributes{NexusOperationFailedEventAttributes: &historypb.NexusOperationFailedEventAttributes{
			ScheduledEventId: op.scheduledID, Failure: s.nexusFailure(op, cause), RequestId: requestID}}
	case enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCELED:
		attrs = &historypb.HistoryEvent_NexusOperationCanceledEventAttributes{NexusOperationCanceledEventAttributes: &historypb.NexusOperationCanceledEventAttributes{
			ScheduledEventId: op.scheduledID, Failure: s.nexusFailure(op, cause), RequestId: requestID}}
	case enumspb.EVENT_TYPE_NEXUS_OPERATION_TIMED_OUT:
		attrs = &historypb.HistoryEvent_NexusOperationTimedOutEventAttributes{NexusOperationTimedOutEventAttributes: &historypb.NexusOperationTimedOutEventAttributes{
			ScheduledEventId: op.scheduledID, Failure: s.nexusFailure(op, cause), RequestId: requestID}}
	}
	s.deliver(op.run, t, attrs, true)
}

// closeHeldBack writes the end closeNexus held back, if any.
func (s *Server) closeHeldBack(op *nexusOperation) {
	if end := op.closeLater; end != nil {
		op.closeLater = nil
		end()
	}
}

// nexusFailure is the failure a Nexus operation's close event records:
// the operation, caused by what ended it.
func (s *Server) nexusFailure(op *nexusOperation, cause *failurepb.Failure) *failurepb.Failure {
	return &failurepb.Failure{
		Message: "nexus operation completed unsuccessfully",
		FailureInfo: &failurepb.Failure_NexusOperationExecutionFailureInfo{NexusOperationExecutionFailureInfo: &failurepb.NexusOperationFailureInfo{
			ScheduledEventId: op.scheduledID, Endpoint: op.attrs.GetEndpoint(), Service: op.attrs.GetService(),
			Operation: op.attrs.GetOperation(), OperationToken: op.token, OperationId: op.token,
		}},
		Cause: cause,
	}
}

// timeOutNexusAfter times the operation out after d (none when d is 0),
// unless it ended, or, for a schedule-to-start timeout, started.
func (s *Server) timeOutNexusAfter(op *nexusOperation, d time.Duration, timeoutType enumspb.TimeoutType) {
	if d <= 0 {
		return
	}
	op.timeouts = append(op.timeouts, s.clock.AfterFunc(d, func() {
		s.lock()
		defer s.unlock()
		if op.closed || op.run.closed || timeoutType == enumspb.TIMEOUT_TYPE_SCHEDULE_TO_START && op.started {
			return
		}
		s.closeNexus(op, enumspb.EVENT_TYPE_NEXUS_OPERATION_TIMED_OUT, nil, &failurepb.Failure{
			Message:     "operation timed out",
			FailureInfo: &failurepb.Failure_TimeoutFailureInfo{TimeoutFailureInfo: &failurepb.TimeoutFailureInfo{TimeoutType: timeoutType}},
		})
	}))
}

func (s *Server) stopNexusTimeouts(op *nexusOperation) {
	for _, t := range op.timeouts {
		s.clock.Stop(t)
	}
	op.timeouts = nil
}

// dropNexusOperations ends the operations of a run that closed.
func (s *Server) dropNexusOperations(r *run) {
	for _, op := range r.nexusOps {
		op.closed = true
		s.stopNexusTimeouts(op)
		s.dropNexusTask(op.task)
	}
	r.nexusOps = nil
}

// completeByCallback completes the Nexus operations whose callbacks a
// closed run carries: those the handler started it for. An operation of
// another namespace's server is completed once this server's lock is
// released, so that two servers never wait on each other's locks.
func (s *Server) completeByCallback(r *run, closeEvent *historypb.HistoryEvent) {
	if len(r.started.GetCompletionCallbacks()) == 0 || !closesForGood(closeEvent) {
		return
	}
	for _, cb := range r.started.GetCompletionCallbacks() {
		n := cb.GetNexus()
		if n.GetUrl() != nexusCallbackURL {
			continue
		}
		header := n.GetHeader()
		ns := headerValue(header, nexusCallbackNamespace)
		if ns == "" || ns == s.opts.Namespace {
			s.completeOperationLocked(header, closeEvent)
			continue
		}
		if caller := s.nexus.server(ns); caller != nil {
			closeEvent := clone(closeEvent)
			s.afterUnlock = append(s.afterUnlock, func() {
				caller.lock()
				defer caller.unlock()
				caller.completeOperationLocked(header, closeEvent)
			})
		}
	}
}

// completeOperationLocked completes the operation a callback header
// names, if it is open, as the close event of the handler's workflow
// says.
func (s *Server) completeOperationLocked(header map[string]string, closeEvent *historypb.HistoryEvent) {
	op := s.callbackOperation(header)
	if op == nil || op.closed {
		return
	}
	// The workflow may end before the handler's answer arrived: the
	// callback carries the token, as on a server.
	s.startNexus(op, headerValue(header, "nexus-operation-token"))
	switch a := closeEvent.GetAttributes().(type) {
	case *historypb.HistoryEvent_WorkflowExecutionCompletedEventAttributes:
		var result *commonpb.Payload
		if p := a.WorkflowExecutionCompletedEventAttributes.GetResult().GetPayloads(); len(p) > 0 {
			result = p[0]
		}
		s.closeNexus(op, enumspb.EVENT_TYPE_NEXUS_OPERATION_COMPLETED, result, nil)
	case *historypb.HistoryEvent_WorkflowExecutionFailedEventAttributes:
		s.closeNexus(op, enumspb.EVENT_TYPE_NEXUS_OPERATION_FAILED, nil, a.WorkflowExecutionFailedEventAttributes.GetFailure())
	case *historypb.HistoryEvent_WorkflowExecutionCanceledEventAttributes:
		s.closeNexus(op, enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCELED, nil, &failurepb.Failure{
			Message: "operation canceled", FailureInfo: &failurepb.Failure_CanceledFailureInfo{CanceledFailureInfo: &failurepb.CanceledFailureInfo{
				Details: a.WorkflowExecutionCanceledEventAttributes.GetDetails()}}})
	case *historypb.HistoryEvent_WorkflowExecutionTerminatedEventAttributes:
		s.closeNexus(op, enumspb.EVENT_TYPE_NEXUS_OPERATION_FAILED, nil, &failurepb.Failure{
			Message: "operation terminated", FailureInfo: &failurepb.Failure_TerminatedFailureInfo{TerminatedFailureInfo: &failurepb.TerminatedFailureInfo{}}})
	case *historypb.HistoryEvent_WorkflowExecutionTimedOutEventAttributes:
		s.closeNexus(op, enumspb.EVENT_TYPE_NEXUS_OPERATION_FAILED, nil, &failurepb.Failure{
			Message: "operation exceeded internal timeout", FailureInfo: &failurepb.Failure_TimeoutFailureInfo{TimeoutFailureInfo: &failurepb.TimeoutFailureInfo{}}})
	}
}

// callbackOperation finds the operation a callback's header names.
func (s *Server) callbackOperation(header map[string]string) *nexusOperation {
	runID, id, ok := strings.Cut(headerValue(header, nexusCallbackOperation), "/")
	if !ok {
		return nil
	}
	scheduledID, err := strconv.ParseInt(id, 10, 64)
	r := s.runs[runID]
	if err != nil || r == nil {
		return nil
	}
	return r.nexusOps[scheduledID]
}

// headerValue reads a Nexus header, whose keys are case-insensitive.
func headerValue(header map[string]string, key string) string {
	for k, v := range header {
		if strings.EqualFold(k, key) {
			return v
		}
	}
	return ""
}

// nexusLinkOf is a workflow event link as a Nexus request carries it.
func nexusLinkOf(event *commonpb.Link_WorkflowEvent) *nexuspb.Link {
	l := apinexus.ConvertLinkWorkflowEventToNexusLink(event)
	return &nexuspb.Link{Url: l.URL.String(), Type: l.Type}
}

// CompleteNexusOperation completes the asynchronous operation that a
// start request's callback header names, as the handler's completion
// callback does on a server: with result, or failed with cause. An
// operation not yet recorded as started is first, with token.
func (s *Server) CompleteNexusOperation(callbackHeader map[string]string, token string, result *commonpb.Payload, cause *failurepb.Failure) error {
	s.lock()
	defer s.unlock()
	op := s.callbackOperation(callbackHeader)
	if op == nil || op.closed {
		return serviceerror.NewNotFound("the Nexus operation the callback names is not open")
	}
	s.startNexus(op, token)
	if cause != nil {
		s.closeNexus(op, enumspb.EVENT_TYPE_NEXUS_OPERATION_FAILED, nil, cause)
	} else {
		s.closeNexus(op, enumspb.EVENT_TYPE_NEXUS_OPERATION_COMPLETED, result, nil)
	}
	return nil
}
