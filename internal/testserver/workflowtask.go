package testserver

import (
	"context"
	"fmt"
	"slices"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"
	querypb "go.temporal.io/api/query/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/proto"
)

// systemNexusEndpoint is the server's own Nexus endpoint, where
// workflow.SignalWithStartWorkflow schedules its operation.
const systemNexusEndpoint = "__temporal_system"

// workflowTask is a scheduled or started workflow task, or a query task
// (query set), which writes no events.
type workflowTask struct {
	run         *run
	scheduledID int64
	startedID   int64
	attempt     int32
	queue       string
	sticky      bool
	token       []byte
	query       *pendingQuery
	counted     bool // counted as work in flight
	// speculative: scheduled for updates alone; if it only rejects them,
	// it leaves no trace in history, whose size before it is bytesBefore.
	speculative bool
	bytesBefore int64
	// timeout is the task's timer, with Options.WorkflowTaskTimeouts: a
	// sticky task's schedule-to-start while it waits, its start-to-close
	// once started.
	timeout *Timer
}

// pendingQuery is a query waiting for the worker's answer.
type pendingQuery struct {
	request *querypb.WorkflowQuery
	answer  chan *workflowservice.RespondQueryTaskCompletedRequest
}

// scheduleWorkflowTask schedules the run's next workflow task, unless one
// is scheduled already; while one runs, the next is scheduled when it
// ends.
func (s *Server) scheduleWorkflowTask(r *run) {
	s.scheduleWorkflowTaskAttempt(r, 1)
}

func (s *Server) scheduleWorkflowTaskAttempt(r *run, attempt int32) {
	if r.closed {
		return
	}
	if r.wft != nil {
		if r.wft.startedID != 0 {
			r.wftNeeded = true
		}
		return
	}
	queue, kind := s.workflowQueue(r), enumspb.TASK_QUEUE_KIND_NORMAL
	if r.stickyQueue != "" {
		queue, kind = r.stickyQueue, enumspb.TASK_QUEUE_KIND_STICKY
	}
	recorded := &taskqueuepb.TaskQueue{Name: queue, Kind: kind, NormalName: r.started.GetTaskQueue().GetName()}
	if kind == enumspb.TASK_QUEUE_KIND_NORMAL {
		recorded = proto.CloneOf(r.started.GetTaskQueue()) // the queue the workflow names, wherever it is served
	}
	bytesBefore := r.historyBytes
	ev := s.write(r, enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, &historypb.HistoryEvent_WorkflowTaskScheduledEventAttributes{
		WorkflowTaskScheduledEventAttributes: &historypb.WorkflowTaskScheduledEventAttributes{
			TaskQueue:           recorded,
			StartToCloseTimeout: r.started.GetWorkflowTaskTimeout(),
			Attempt:             attempt,
		}})
	r.wft = &workflowTask{run: r, scheduledID: ev.GetEventId(), attempt: attempt, queue: queue, sticky: kind == enumspb.TASK_QUEUE_KIND_STICKY, bytesBefore: bytesBefore}
	r.wft.counted = s.inFlight(queue)
	queueOf(s.workflowQueues, queue).push(r.wft)
	if r.wft.sticky {
		s.armStickyTimeout(r.wft)
	}
}

// workflowQueue is the normal task queue of a run's workflow tasks.
func (s *Server) workflowQueue(r *run) string {
	if s.opts.WorkflowQueue != nil {
		return s.opts.WorkflowQueue(r.started.GetTaskQueue().GetName())
	}
	return r.started.GetTaskQueue().GetName()
}

// dropWorkflowTask forgets a task whose run closed.
func (s *Server) dropWorkflowTask(t *workflowTask) {
	if t.startedID == 0 {
		queueOf(s.workflowQueues, t.queue).remove(func(q *workflowTask) bool { return q == t })
	}
	delete(s.tokens, string(t.token))
	s.clock.Stop(t.timeout)
	if t.run.wft == t {
		t.run.wft = nil
		s.releaseHeldQueries(t.run)
	}
	if t.query != nil {
		close(t.query.answer)
	}
	s.release(&t.counted)
}

// PollWorkflowTaskQueue hands out the next workflow or query task of a
// task queue, waiting for one until ctx ends (then the response is empty,
// as a long poll that timed out).
func (s *Server) PollWorkflowTaskQueue(ctx context.Context, req *workflowservice.PollWorkflowTaskQueueRequest) (*workflowservice.PollWorkflowTaskQueueResponse, error) {
	var resp *workflowservice.PollWorkflowTaskQueueResponse
	defer s.pollStarted(req.GetTaskQueue().GetName(), enumspb.TASK_QUEUE_TYPE_WORKFLOW, req, 0)()
	poll(ctx, s, s.workflowQueues, req.GetTaskQueue().GetName(), func(t *workflowTask) bool {
		if t.run.closed && t.query == nil {
			return false
		}
		if t.query != nil && t.queue != t.run.stickyQueue && t.run.wft != nil && t.run.wft.startedID != 0 {
			t.run.heldQueries = append(t.run.heldQueries, t)
			return false
		}
		resp = s.startWorkflowTask(t, req.GetIdentity())
		return true
	})
	if resp == nil {
		return &workflowservice.PollWorkflowTaskQueueResponse{}, nil
	}
	return resp, nil
}

// startWorkflowTask records that a worker took t and builds its task.
func (s *Server) startWorkflowTask(t *workflowTask, identity string) *workflowservice.PollWorkflowTaskQueueResponse {
	r := t.run
	t.token = s.newToken(t)
	resp := &workflowservice.PollWorkflowTaskQueueResponse{
		TaskToken:                  t.token,
		WorkflowExecution:          proto.CloneOf(r.execution),
		WorkflowType:               proto.CloneOf(r.started.GetWorkflowType()),
		Attempt:                    t.attempt,
		WorkflowExecutionTaskQueue: proto.CloneOf(r.started.GetTaskQueue()),
		ScheduledTime:              s.now(),
		StartedTime:                s.now(),
	}
	if t.query != nil {
		// A query task on the sticky queue carries no events: the worker
		// answers from the run it caches. On the normal queue it carries
		// the whole history, as a server's, so that a worker that cached
		// a run closed behind its back learns of the close.
		resp.Query = t.query.request
		resp.History = &historypb.History{}
		if t.queue != r.stickyQueue {
			resp.History.Events = cloneEvents(r.history)
		}
		return resp
	}
	attrs := &historypb.WorkflowTaskStartedEventAttributes{ScheduledEventId: t.scheduledID, Identity: identity, RequestId: string(t.token)}
	if r.taskStarted != nil {
		r.taskStarted(attrs)
	}
	if attrs.HistorySizeBytes == 0 {
		attrs.HistorySizeBytes = r.historyBytes
	}
	ev := s.write(r, enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED, &historypb.HistoryEvent_WorkflowTaskStartedEventAttributes{WorkflowTaskStartedEventAttributes: attrs})
	t.startedID = ev.GetEventId()
	s.armStartToClose(t)
	resp.StartedEventId = t.startedID
	resp.PreviousStartedEventId = r.lastStartedID
	events := r.history
	if t.sticky && r.lastStartedID > 0 {
		events = r.history[r.lastStartedID:] // the events after the previous task's WorkflowTaskStarted
	}
	resp.History = &historypb.History{Events: cloneEvents(events)}
	resp.Messages = s.updateMessages(r, t.startedID)
	return resp
}

// startedTask finds the started workflow task a token names.
func (s *Server) startedTask(token []byte) (*workflowTask, error) {
	t, err := tokenTask[*workflowTask](s, token)
	if err != nil {
		return nil, err
	}
	if t.query != nil || t.run.wft != t || t.startedID == 0 || t.run.closed {
		return nil, serviceerror.NewNotFound("the workflow task is no longer current")
	}
	return t, nil
}

// RespondWorkflowTaskCompleted writes the task's completion and its
// commands' events, then what arrived while it ran.
func (s *Server) RespondWorkflowTaskCompleted(_ context.Context, req *workflowservice.RespondWorkflowTaskCompletedRequest) (*workflowservice.RespondWorkflowTaskCompletedResponse, error) {
	s.lock()
	defer s.unlock()
	t, err := s.startedTask(req.GetTaskToken())
	if err != nil {
		return nil, err
	}
	r := t.run
	if why, cause := s.checkCommands(r, req.GetCommands()); why != "" {
		return nil, s.refuseCommands(t, cause, &failurepb.Failure{Message: why, Source: "TestServer"}, req.GetIdentity())
	}
	if why := s.badSearchAttributes(req.GetCommands()); why != "" {
		failure := &failurepb.Failure{Message: why, FailureInfo: &failurepb.Failure_ServerFailureInfo{ServerFailureInfo: &failurepb.ServerFailureInfo{}}}
		return nil, s.refuseCommands(t, enumspb.WORKFLOW_TASK_FAILED_CAUSE_BAD_SEARCH_ATTRIBUTES, failure, req.GetIdentity())
	}
	answers, why := readAnswers(r, req.GetMessages(), req.GetCommands())
	if why != "" {
		s.failWorkflowTaskLocked(r, enumspb.WORKFLOW_TASK_FAILED_CAUSE_BAD_UPDATE_WORKFLOW_EXECUTION_MESSAGE,
			&failurepb.Failure{Message: why, Source: "TestServer"}, req.GetIdentity())
		return nil, serviceerror.NewInvalidArgument(why)
	}
	if s.eraseSpeculativeTask(t, req, answers) {
		// As the server, say so: the run's next task follows on from the
		// last task kept, and its events take the erased task's IDs.
		return &workflowservice.RespondWorkflowTaskCompletedResponse{ResetHistoryEventId: r.lastStartedID}, nil
	}
	completed := s.write(r, enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, &historypb.HistoryEvent_WorkflowTaskCompletedEventAttributes{
		WorkflowTaskCompletedEventAttributes: &historypb.WorkflowTaskCompletedEventAttributes{
			ScheduledEventId: t.scheduledID, StartedEventId: t.startedID, Identity: req.GetIdentity(),
			SdkMetadata: req.GetSdkMetadata(), MeteringMetadata: req.GetMeteringMetadata(),
		}})
	r.lastStartedID = t.startedID
	setSticky(r, req)
	// The task stays current while its commands apply, so that events they
	// cause (an unstarted activity's cancellation) are buffered and written
	// after every command's own event, where the SDK predicts them. An
	// update's acceptance or completion is written where its
	// ProtocolMessage command stands; other answers follow the commands.
	applied := make(map[string]bool, len(answers))
	for _, cmd := range req.GetCommands() {
		if id := cmd.GetProtocolMessageCommandAttributes().GetMessageId(); id != "" {
			s.applyAnswer(r, completed.GetEventId(), answers[id])
			applied[id] = true
			continue
		}
		s.applyCommand(r, completed.GetEventId(), cmd, req.GetIdentity())
	}
	for _, m := range req.GetMessages() {
		if !applied[m.GetId()] {
			s.applyAnswer(r, completed.GetEventId(), answers[m.GetId()])
		}
	}
	s.unanswered(r)
	s.endTask(t)
	s.flushBuffer(r, req.GetForceCreateNewWorkflowTask())
	resp := &workflowservice.RespondWorkflowTaskCompletedResponse{}
	if req.GetReturnNewWorkflowTask() {
		resp.WorkflowTask = s.startNextTask(r, req.GetIdentity())
	}
	return resp, nil
}

// startNextTask starts, for the worker that just completed a task, the
// task that completion scheduled (new events waited, or the worker asked
// for one), as the server hands it back in the response; nil if none.
func (s *Server) startNextTask(r *run, identity string) *workflowservice.PollWorkflowTaskQueueResponse {
	t := r.wft
	if t == nil || t.startedID != 0 || r.closed {
		return nil
	}
	queueOf(s.workflowQueues, t.queue).remove(func(q *workflowTask) bool { return q == t })
	return s.startWorkflowTask(t, identity)
}

// setSticky records the sticky queue a completed task names, if any.
func setSticky(r *run, req *workflowservice.RespondWorkflowTaskCompletedRequest) {
	r.stickyQueue, r.stickyTimeout = "", 0
	if sa := req.GetStickyAttributes(); sa.GetWorkerTaskQueue().GetName() != "" {
		r.stickyQueue = sa.GetWorkerTaskQueue().GetName()
		r.stickyTimeout = sa.GetScheduleToStartTimeout().AsDuration()
	}
}

// endTask forgets a task that completed, unless closing the run dropped
// it already.
func (s *Server) endTask(t *workflowTask) {
	if t.run.wft == t {
		t.run.wft = nil
		delete(s.tokens, string(t.token))
		s.clock.Stop(t.timeout)
		s.release(&t.counted)
		s.releaseHeldQueries(t.run)
	}
}

// releaseHeldQueries queues again the queries that waited for r's
// workflow task to end.
func (s *Server) releaseHeldQueries(r *run) {
	for _, q := range r.heldQueries {
		queueOf(s.workflowQueues, q.queue).push(q)
	}
	r.heldQueries = nil
}

// eraseSpeculativeTask ends a speculative task that only rejected
// updates, as if it never ran: its events leave history (the server
// keeps no trace of rejected updates). It reports whether it did.
func (s *Server) eraseSpeculativeTask(t *workflowTask, req *workflowservice.RespondWorkflowTaskCompletedRequest, answers map[string]*answer) bool {
	r := t.run
	nothingElse := len(req.GetCommands()) == 0 && onlyRejections(answers) && !req.GetForceCreateNewWorkflowTask() &&
		len(r.buffer) == 0 && t.startedID == t.scheduledID+1 && int64(len(r.history)) == t.startedID
	if !t.speculative || !nothingElse {
		return false
	}
	r.history = r.history[:t.scheduledID-1]
	r.historyBytes = t.bytesBefore
	setSticky(r, req)
	for _, m := range req.GetMessages() {
		s.applyAnswer(r, 0, answers[m.GetId()])
	}
	s.unanswered(r)
	s.endTask(t)
	s.flushBuffer(r, false)
	return true
}

// checkCommands refuses, as the server does, commands it cannot carry out
// and a workflow that closes while new events wait for it.
func (s *Server) checkCommands(r *run, cmds []*commandpb.Command) (why string, cause enumspb.WorkflowTaskFailedCause) {
	for i, cmd := range cmds {
		switch cmd.GetCommandType() {
		case enumspb.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK, enumspb.COMMAND_TYPE_REQUEST_CANCEL_ACTIVITY_TASK,
			enumspb.COMMAND_TYPE_START_TIMER, enumspb.COMMAND_TYPE_CANCEL_TIMER, enumspb.COMMAND_TYPE_RECORD_MARKER,
			enumspb.COMMAND_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES, enumspb.COMMAND_TYPE_MODIFY_WORKFLOW_PROPERTIES,
			enumspb.COMMAND_TYPE_START_CHILD_WORKFLOW_EXECUTION, enumspb.COMMAND_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION,
			enumspb.COMMAND_TYPE_REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION, enumspb.COMMAND_TYPE_PROTOCOL_MESSAGE:
			if spec := cmd.GetStartChildWorkflowExecutionCommandAttributes().GetCronSchedule(); spec != "" {
				if _, err := parseCron(spec); err != nil {
					return fmt.Sprintf("child workflow %q: %v", cmd.GetStartChildWorkflowExecutionCommandAttributes().GetWorkflowId(), err),
						enumspb.WORKFLOW_TASK_FAILED_CAUSE_BAD_START_CHILD_EXECUTION_ATTRIBUTES
				}
			}
		case enumspb.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION, enumspb.COMMAND_TYPE_FAIL_WORKFLOW_EXECUTION,
			enumspb.COMMAND_TYPE_CANCEL_WORKFLOW_EXECUTION, enumspb.COMMAND_TYPE_CONTINUE_AS_NEW_WORKFLOW_EXECUTION:
			if i != len(cmds)-1 {
				return fmt.Sprintf("%v must be the last command of a workflow task", cmd.GetCommandType()), enumspb.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND
			}
			if r.wftNeeded {
				return "the workflow tried to close while new events waited for it (UnhandledCommand): it runs again with them",
					enumspb.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND
			}
		case enumspb.COMMAND_TYPE_SCHEDULE_NEXUS_OPERATION, enumspb.COMMAND_TYPE_REQUEST_CANCEL_NEXUS_OPERATION:
			if a := cmd.GetScheduleNexusOperationCommandAttributes(); a.GetEndpoint() == systemNexusEndpoint {
				// workflow.SignalWithStartWorkflow: the server runs it.
				return fmt.Sprintf("the workflow called workflow.SignalWithStartWorkflow (%s, an operation of the server's own endpoint %q), "+
						"but the test environment does not run the server's own Nexus operations: test this workflow against a dev server "+
						"(testsuite.StartDevServer), whose server runs it when its dynamic config sets history.enableSignalWithStartFromWorkflow",
						a.GetOperation(), a.GetEndpoint()),
					enumspb.WORKFLOW_TASK_FAILED_CAUSE_WORKFLOW_WORKER_UNHANDLED_FAILURE
			} else if a != nil && s.opts.NexusEndpoint != nil {
				if _, ok := s.opts.NexusEndpoint(a.GetEndpoint()); !ok {
					// As a server: the command is refused, and the
					// workflow task retried until the endpoint exists.
					return fmt.Sprintf("endpoint %q not found", a.GetEndpoint()), enumspb.WORKFLOW_TASK_FAILED_CAUSE_BAD_SCHEDULE_NEXUS_OPERATION_ATTRIBUTES
				}
			}
		default:
			return fmt.Sprintf("the test environment does not support %v commands yet", cmd.GetCommandType()),
				enumspb.WORKFLOW_TASK_FAILED_CAUSE_WORKFLOW_WORKER_UNHANDLED_FAILURE
		}
	}
	return "", 0
}

// applyCommand writes a command's event and starts what it asks for.
func (s *Server) applyCommand(r *run, completedID int64, cmd *commandpb.Command, identity string) {
	if r.closed {
		return
	}
	var ev *historypb.HistoryEvent
	var then func(id int64) // runs once the event has its ID
	switch cmd.GetCommandType() {
	case enumspb.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK:
		ev, then = s.scheduleActivity(r, completedID, cmd.GetScheduleActivityTaskCommandAttributes())
	case enumspb.COMMAND_TYPE_REQUEST_CANCEL_ACTIVITY_TASK:
		ev, then = s.requestCancelActivity(r, completedID, cmd.GetRequestCancelActivityTaskCommandAttributes().GetScheduledEventId())
	case enumspb.COMMAND_TYPE_START_TIMER:
		ev, then = s.startTimer(r, completedID, cmd.GetStartTimerCommandAttributes())
	case enumspb.COMMAND_TYPE_CANCEL_TIMER:
		ev = s.cancelTimer(r, completedID, cmd.GetCancelTimerCommandAttributes().GetTimerId(), identity)
	case enumspb.COMMAND_TYPE_START_CHILD_WORKFLOW_EXECUTION:
		ev, then = s.startChild(r, completedID, cmd.GetStartChildWorkflowExecutionCommandAttributes())
	case enumspb.COMMAND_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION:
		ev, then = s.signalExternal(r, completedID, cmd.GetSignalExternalWorkflowExecutionCommandAttributes())
	case enumspb.COMMAND_TYPE_REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION:
		ev, then = s.cancelExternal(r, completedID, cmd.GetRequestCancelExternalWorkflowExecutionCommandAttributes())
	case enumspb.COMMAND_TYPE_SCHEDULE_NEXUS_OPERATION:
		ev, then = s.scheduleNexus(r, completedID, cmd.GetScheduleNexusOperationCommandAttributes())
	case enumspb.COMMAND_TYPE_REQUEST_CANCEL_NEXUS_OPERATION:
		ev, then = s.requestCancelNexus(r, completedID, cmd.GetRequestCancelNexusOperationCommandAttributes().GetScheduledEventId())
	case enumspb.COMMAND_TYPE_RECORD_MARKER:
		a := cmd.GetRecordMarkerCommandAttributes()
		ev = newEvent(enumspb.EVENT_TYPE_MARKER_RECORDED, &historypb.HistoryEvent_MarkerRecordedEventAttributes{MarkerRecordedEventAttributes: &historypb.MarkerRecordedEventAttributes{
			MarkerName: a.GetMarkerName(), Details: a.GetDetails(), Header: a.GetHeader(), Failure: a.GetFailure(), WorkflowTaskCompletedEventId: completedID}})
	case enumspb.COMMAND_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES:
		ev = newEvent(enumspb.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES, &historypb.HistoryEvent_UpsertWorkflowSearchAttributesEventAttributes{
			UpsertWorkflowSearchAttributesEventAttributes: &historypb.UpsertWorkflowSearchAttributesEventAttributes{
				SearchAttributes: cmd.GetUpsertWorkflowSearchAttributesCommandAttributes().GetSearchAttributes(), WorkflowTaskCompletedEventId: completedID}})
	case enumspb.COMMAND_TYPE_MODIFY_WORKFLOW_PROPERTIES:
		ev = newEvent(enumspb.EVENT_TYPE_WORKFLOW_PROPERTIES_MODIFIED, &historypb.HistoryEvent_WorkflowPropertiesModifiedEventAttributes{
			WorkflowPropertiesModifiedEventAttributes: &historypb.WorkflowPropertiesModifiedEventAttributes{
				UpsertedMemo: cmd.GetModifyWorkflowPropertiesCommandAttributes().GetUpsertedMemo(), WorkflowTaskCompletedEventId: completedID}})
	case enumspb.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION:
		result := cmd.GetCompleteWorkflowExecutionCommandAttributes().GetResult()
		attrs := &historypb.WorkflowExecutionCompletedEventAttributes{Result: result, WorkflowTaskCompletedEventId: completedID}
		if next, ok := s.rerunOf(r, nil); ok {
			attrs.NewExecutionRunId = next.runID
			then = func(int64) { s.closeRun(r); s.startRerun(r, next, result, nil) }
		}
		ev = newEvent(enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED, &historypb.HistoryEvent_WorkflowExecutionCompletedEventAttributes{WorkflowExecutionCompletedEventAttributes: attrs})
	case enumspb.COMMAND_TYPE_FAIL_WORKFLOW_EXECUTION:
		f := cmd.GetFailWorkflowExecutionCommandAttributes().GetFailure()
		attrs := &historypb.WorkflowExecutionFailedEventAttributes{Failure: f, RetryState: enumspb.RETRY_STATE_RETRY_POLICY_NOT_SET, WorkflowTaskCompletedEventId: completedID}
		if next, ok := s.rerunOf(r, f); ok {
			attrs.NewExecutionRunId = next.runID
			if next.initiator == enumspb.CONTINUE_AS_NEW_INITIATOR_RETRY {
				attrs.RetryState = enumspb.RETRY_STATE_IN_PROGRESS
			}
			then = func(int64) { s.closeRun(r); s.startRerun(r, next, nil, f) }
		}
		ev = newEvent(enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED, &historypb.HistoryEvent_WorkflowExecutionFailedEventAttributes{WorkflowExecutionFailedEventAttributes: attrs})
	case enumspb.COMMAND_TYPE_CANCEL_WORKFLOW_EXECUTION:
		ev = newEvent(enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED, &historypb.HistoryEvent_WorkflowExecutionCanceledEventAttributes{
			WorkflowExecutionCanceledEventAttributes: &historypb.WorkflowExecutionCanceledEventAttributes{
				Details: cmd.GetCancelWorkflowExecutionCommandAttributes().GetDetails(), WorkflowTaskCompletedEventId: completedID}})
	case enumspb.COMMAND_TYPE_CONTINUE_AS_NEW_WORKFLOW_EXECUTION:
		s.continueAsNew(r, completedID, cmd.GetContinueAsNewWorkflowExecutionCommandAttributes(), cmd.GetEventGroupMarkers())
		return
	}
	if ev == nil {
		return
	}
	// The server copies both from the command to its event.
	ev.UserMetadata = cmd.GetUserMetadata()
	ev.EventGroupMarkers = cmd.GetEventGroupMarkers()
	s.writeEvent(r, ev)
	if then != nil {
		then(ev.GetEventId())
	}
	if isCloseEvent(ev.GetEventType()) && !r.closed {
		s.closeRun(r)
	}
}

// continueAsNew closes the run and starts its next one. The test's own
// workflow (a run without a parent) stops there, as in
// go.temporal.io/sdk's test environment: its event names the run that
// would follow, which never starts, and its updates not yet accepted are
// rejected with the run. A child's chain goes on.
func (s *Server) continueAsNew(r *run, completedID int64, a *commandpb.ContinueAsNewWorkflowExecutionCommandAttributes, groups []*sdkpb.EventGroupMarker) {
	prev := r.started
	taskQueue := a.GetTaskQueue()
	if taskQueue.GetName() == "" {
		taskQueue = prev.GetTaskQueue()
	}
	runTimeout, taskTimeout := a.GetWorkflowRunTimeout(), a.GetWorkflowTaskTimeout()
	if runTimeout.AsDuration() == 0 {
		runTimeout = prev.GetWorkflowRunTimeout()
	}
	if taskTimeout.AsDuration() == 0 {
		taskTimeout = prev.GetWorkflowTaskTimeout()
	}
	newRunID := fmt.Sprintf("%s-run-%d", r.execution.GetWorkflowId(), len(s.runs)+1)
	ev := newEvent(enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW, &historypb.HistoryEvent_WorkflowExecutionContinuedAsNewEventAttributes{
		WorkflowExecutionContinuedAsNewEventAttributes: &historypb.WorkflowExecutionContinuedAsNewEventAttributes{
			NewExecutionRunId: newRunID, WorkflowType: a.GetWorkflowType(), TaskQueue: taskQueue, Input: a.GetInput(),
			WorkflowRunTimeout: runTimeout, WorkflowTaskTimeout: taskTimeout, WorkflowTaskCompletedEventId: completedID,
			BackoffStartInterval: a.GetBackoffStartInterval(), Initiator: a.GetInitiator(),
			LastCompletionResult: a.GetLastCompletionResult(), Header: a.GetHeader(), Memo: a.GetMemo(),
			SearchAttributes: a.GetSearchAttributes(), InitialVersioningBehavior: a.GetInitialVersioningBehavior(),
		}})
	ev.EventGroupMarkers = groups
	s.writeEvent(r, ev)
	if r.parent == nil && !r.nexusStarted && !s.opts.ChainTopLevelRuns {
		s.closeRun(r)
		return
	}
	pending := takeUnaccepted(r)
	s.closeRun(r)
	next := &historypb.WorkflowExecutionStartedEventAttributes{
		WorkflowType: a.GetWorkflowType(), TaskQueue: taskQueue, Input: a.GetInput(), Header: a.GetHeader(),
		WorkflowRunTimeout: runTimeout, WorkflowTaskTimeout: taskTimeout, WorkflowExecutionTimeout: prev.GetWorkflowExecutionTimeout(),
		ContinuedExecutionRunId: r.execution.GetRunId(), Initiator: a.GetInitiator(), ContinuedFailure: a.GetFailure(),
		LastCompletionResult: a.GetLastCompletionResult(), FirstExecutionRunId: prev.GetFirstExecutionRunId(),
		RetryPolicy: a.GetRetryPolicy(), Memo: a.GetMemo(), SearchAttributes: a.GetSearchAttributes(),
		Identity: prev.GetIdentity(), Priority: prev.GetPriority(),
		ParentWorkflowNamespace: prev.GetParentWorkflowNamespace(), ParentWorkflowExecution: prev.GetParentWorkflowExecution(),
		RootWorkflowExecution: prev.GetRootWorkflowExecution(), FirstWorkflowTaskBackoff: a.GetBackoffStartInterval(),
		CompletionCallbacks: prev.GetCompletionCallbacks(), PropagatedNexusSerializationContext: prev.GetPropagatedNexusSerializationContext(),
	}
	nextRun := s.startLocked(r.execution.GetWorkflowId(), newRunID, next)
	if link := r.parent; link != nil { // the child's chain goes on; its parent waits for its end
		nextRun.parent = link
		link.parent.children = append(link.parent.children, nextRun)
	}
	for _, u := range pending {
		s.admitUpdate(nextRun, u)
	}
}

// RespondWorkflowTaskFailed records a failed workflow task and schedules
// its next attempt.
func (s *Server) RespondWorkflowTaskFailed(_ context.Context, req *workflowservice.RespondWorkflowTaskFailedRequest) (*workflowservice.RespondWorkflowTaskFailedResponse, error) {
	s.lock()
	defer s.unlock()
	t, err := s.startedTask(req.GetTaskToken())
	if err != nil {
		return nil, err
	}
	s.failWorkflowTaskLocked(t.run, req.GetCause(), req.GetFailure(), req.GetIdentity())
	return &workflowservice.RespondWorkflowTaskFailedResponse{}, nil
}

// refuseCommands fails a workflow task whose commands the server
// refuses, and answers the worker with the reason. As on a server with
// workflow task timeouts, a retried task that fails again for its own
// commands leaves no second WorkflowTaskFailed: it is left to time out,
// and retried then, so that a workflow that cannot go on does not spin.
func (s *Server) refuseCommands(t *workflowTask, cause enumspb.WorkflowTaskFailedCause, failure *failurepb.Failure, identity string) error {
	refused := serviceerror.NewInvalidArgument(failure.GetMessage())
	if s.opts.WorkflowTaskTimeouts && t.attempt > 1 && cause != enumspb.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND {
		return refused
	}
	s.failWorkflowTaskLocked(t.run, cause, failure, identity)
	return refused
}

func (s *Server) failWorkflowTaskLocked(r *run, cause enumspb.WorkflowTaskFailedCause, failure *failurepb.Failure, identity string) {
	t := r.wft
	attrs := &historypb.WorkflowTaskFailedEventAttributes{
		ScheduledEventId: t.scheduledID, StartedEventId: t.startedID, Cause: cause, Failure: failure, Identity: identity,
	}
	s.write(r, enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED, &historypb.HistoryEvent_WorkflowTaskFailedEventAttributes{WorkflowTaskFailedEventAttributes: attrs})
	r.wft = nil
	delete(s.tokens, string(t.token))
	s.clock.Stop(t.timeout)
	s.release(&t.counted)
	defer s.releaseHeldQueries(r) // after the next attempt is scheduled
	r.stickyQueue = ""            // the worker dropped the run's state
	if s.opts.OnWorkflowTaskFailed != nil {
		s.opts.OnWorkflowTaskFailed(proto.CloneOf(r.execution), attrs)
	}
	if cause == enumspb.WORKFLOW_TASK_FAILED_CAUSE_FORCE_CLOSE_COMMAND {
		return // the run is closing
	}
	s.unanswered(r)
	next := t.attempt + 1
	if cause == enumspb.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND {
		next = 1 // not the worker's fault: a fresh task with the new events
	}
	buffered := r.buffer
	r.buffer, r.wftNeeded = nil, false
	for _, ev := range buffered {
		s.writeEvent(r, ev)
	}
	s.scheduleWorkflowTaskAttempt(r, next)
}

// Query asks the worker a question about a run's state and waits for the
// answer, or for ctx to end.
func (s *Server) Query(ctx context.Context, execution *commonpb.WorkflowExecution, query *querypb.WorkflowQuery) (*commonpb.Payloads, error) {
	s.lock()
	r, err := s.runLocked(execution)
	if err != nil {
		s.unlock()
		return nil, err
	}
	queue := s.workflowQueue(r)
	if r.stickyQueue != "" && !r.closed {
		queue = r.stickyQueue
	}
	q := &pendingQuery{request: query, answer: make(chan *workflowservice.RespondQueryTaskCompletedRequest, 1)}
	t := &workflowTask{run: r, queue: queue, query: q}
	t.counted = s.inFlight(queue)
	queueOf(s.workflowQueues, queue).push(t)
	s.unlock()

	select {
	case <-ctx.Done():
		s.lock()
		defer s.unlock()
		select {
		case ans, ok := <-q.answer:
			if ok {
				return queryResult(ans)
			}
		default:
			queueOf(s.workflowQueues, queue).remove(func(q *workflowTask) bool { return q == t })
			r.heldQueries = slices.DeleteFunc(r.heldQueries, func(q *workflowTask) bool { return q == t })
			delete(s.tokens, string(t.token))
			s.release(&t.counted)
		}
		return nil, ctx.Err()
	case ans, ok := <-q.answer:
		if !ok {
			return nil, serviceerror.NewNotFound("the query was dropped")
		}
		return queryResult(ans)
	}
}

func queryResult(ans *workflowservice.RespondQueryTaskCompletedRequest) (*commonpb.Payloads, error) {
	if ans.GetCompletedType() == enumspb.QUERY_RESULT_TYPE_FAILED {
		return nil, serviceerror.NewQueryFailedWithFailure(ans.GetErrorMessage(), ans.GetFailure())
	}
	return ans.GetQueryResult(), nil
}

// RespondQueryTaskCompleted delivers a query's answer.
func (s *Server) RespondQueryTaskCompleted(_ context.Context, req *workflowservice.RespondQueryTaskCompletedRequest) (*workflowservice.RespondQueryTaskCompletedResponse, error) {
	s.lock()
	defer s.unlock()
	t, err := tokenTask[*workflowTask](s, req.GetTaskToken())
	if err != nil || t.query == nil {
		return nil, serviceerror.NewNotFound("no such query task")
	}
	delete(s.tokens, string(t.token))
	s.release(&t.counted)
	t.query.answer <- req
	return &workflowservice.RespondQueryTaskCompletedResponse{}, nil
}
