package testserver

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// activity is a scheduled activity between its ActivityTaskScheduled event
// and its outcome, across its attempts.
type activity struct {
	run         *run
	scheduledID int64
	attrs       *historypb.ActivityTaskScheduledEventAttributes
	queue       string

	attempt         int32
	state           activityState
	firstScheduled  time.Time
	attemptSchedule time.Time
	started         time.Time
	identity        string
	token           []byte // the current attempt's, once started
	details         *commonpb.Payloads
	lastFailure     *failurepb.Failure
	cancelRequested int64 // the ActivityTaskCancelRequested event ID
	counted         bool  // the attempt counts as work in flight

	// Timers on the clock, set while they apply.
	scheduleToStart, scheduleToClose, startToClose, heartbeat, backoff *Timer
}

type activityState uint8

const (
	activityScheduled activityState = iota // waiting for a worker; in flight
	activityStarted                        // running on a worker; in flight
	activityBackoff                        // waiting to retry; not in flight
)

// Server defaults for a retry policy's unset fields, as the Temporal
// server applies them.
const (
	defaultInitialInterval    = time.Second
	defaultBackoffCoefficient = 2.0
	defaultMaxIntervalFactor  = 100
)

// scheduleActivity makes an ActivityTaskScheduled event with the timeouts
// and retry policy the server fills in; once written, the task is queued.
func (s *Server) scheduleActivity(r *run, completedID int64, c *commandpb.ScheduleActivityTaskCommandAttributes) (*historypb.HistoryEvent, func(int64)) {
	taskQueue := c.GetTaskQueue()
	if taskQueue.GetName() == "" {
		taskQueue = r.started.GetTaskQueue()
	}
	attrs := &historypb.ActivityTaskScheduledEventAttributes{
		ActivityId: c.GetActivityId(), ActivityType: c.GetActivityType(), TaskQueue: taskQueue, Header: c.GetHeader(), Input: c.GetInput(),
		ScheduleToCloseTimeout: c.GetScheduleToCloseTimeout(), ScheduleToStartTimeout: c.GetScheduleToStartTimeout(),
		StartToCloseTimeout: c.GetStartToCloseTimeout(), HeartbeatTimeout: c.GetHeartbeatTimeout(),
		WorkflowTaskCompletedEventId: completedID, RetryPolicy: s.activityRetryPolicy(c.GetRetryPolicy()), Priority: c.GetPriority(),
	}
	normalizeActivityTimeouts(attrs, r.started.GetWorkflowRunTimeout().AsDuration())
	ev := newEvent(enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED, &historypb.HistoryEvent_ActivityTaskScheduledEventAttributes{ActivityTaskScheduledEventAttributes: attrs})
	return ev, func(id int64) {
		queue := taskQueue.GetName()
		if s.opts.ActivityQueue != nil {
			queue = s.opts.ActivityQueue(c.GetActivityType().GetName(), queue)
		}
		now := s.clock.Now()
		a := &activity{run: r, scheduledID: id, attrs: attrs, queue: queue, attempt: 1, firstScheduled: now}
		r.activities[id] = a
		if d := attrs.GetScheduleToCloseTimeout().AsDuration(); d > 0 {
			a.scheduleToClose = s.clock.AfterFunc(d, func() { s.timeOutActivity(a, 0, enumspb.TIMEOUT_TYPE_SCHEDULE_TO_CLOSE) })
		}
		s.queueAttempt(a)
	}
}

// normalizeActivityTimeouts fills in timeouts the way the server does: the
// schedule-to-close timeout bounds the others, and is the workflow's run
// timeout (or unbounded) when unset.
func normalizeActivityTimeouts(a *historypb.ActivityTaskScheduledEventAttributes, runTimeout time.Duration) {
	scheduleToClose := a.GetScheduleToCloseTimeout().AsDuration()
	startToClose := a.GetStartToCloseTimeout().AsDuration()
	if scheduleToClose <= 0 {
		scheduleToClose = runTimeout
	}
	if scheduleToClose > 0 && (startToClose <= 0 || startToClose > scheduleToClose) {
		startToClose = scheduleToClose
	}
	scheduleToStart := a.GetScheduleToStartTimeout().AsDuration()
	if scheduleToClose > 0 && (scheduleToStart <= 0 || scheduleToStart > scheduleToClose) {
		scheduleToStart = scheduleToClose
	}
	heartbeat := a.GetHeartbeatTimeout().AsDuration()
	if startToClose > 0 && heartbeat > startToClose {
		heartbeat = startToClose
	}
	a.ScheduleToCloseTimeout, a.StartToCloseTimeout = durationOf(scheduleToClose), durationOf(startToClose)
	a.ScheduleToStartTimeout, a.HeartbeatTimeout = durationOf(scheduleToStart), durationOf(heartbeat)
}

// activityRetryPolicy is the retry policy a scheduled activity runs with.
func (s *Server) activityRetryPolicy(p *commonpb.RetryPolicy) *commonpb.RetryPolicy {
	p = proto.CloneOf(p)
	if p == nil {
		p = &commonpb.RetryPolicy{}
	}
	if s.opts.ActivityRetryDefaults != nil {
		s.opts.ActivityRetryDefaults(p)
	}
	return withRetryDefaults(p)
}

func withRetryDefaults(p *commonpb.RetryPolicy) *commonpb.RetryPolicy {
	p = proto.CloneOf(p)
	if p == nil {
		p = &commonpb.RetryPolicy{}
	}
	if p.GetInitialInterval().AsDuration() <= 0 {
		p.InitialInterval = durationOf(defaultInitialInterval)
	}
	if p.GetBackoffCoefficient() < 1 {
		p.BackoffCoefficient = defaultBackoffCoefficient
	}
	if p.GetMaximumInterval().AsDuration() <= 0 {
		p.MaximumInterval = durationOf(defaultMaxIntervalFactor * p.GetInitialInterval().AsDuration())
	}
	return p
}

// queueAttempt puts the activity's current attempt on its task queue.
func (s *Server) queueAttempt(a *activity) {
	a.state = activityScheduled
	a.attemptSchedule = s.clock.Now()
	a.counted = s.inFlight(a.queue)
	queueOf(s.activityQueues, a.queue).push(a)
	if d := a.attrs.GetScheduleToStartTimeout().AsDuration(); d > 0 {
		attempt := a.attempt
		a.scheduleToStart = s.clock.AfterFunc(d, func() { s.timeOutActivity(a, attempt, enumspb.TIMEOUT_TYPE_SCHEDULE_TO_START) })
	}
}

// PollActivityTaskQueue hands out the next activity task of a task queue,
// waiting for one until ctx ends.
func (s *Server) PollActivityTaskQueue(ctx context.Context, req *workflowservice.PollActivityTaskQueueRequest) (*workflowservice.PollActivityTaskQueueResponse, error) {
	var resp *workflowservice.PollActivityTaskQueueResponse
	defer s.pollStarted(req.GetTaskQueue().GetName(), enumspb.TASK_QUEUE_TYPE_ACTIVITY, req, req.GetTaskQueueMetadata().GetMaxTasksPerSecond().GetValue())()
	poll(ctx, s, s.activityQueues, req.GetTaskQueue().GetName(), func(a *activity) bool {
		if a.run.activities[a.scheduledID] != a || a.state != activityScheduled {
			return false
		}
		resp = s.startActivity(a, req.GetIdentity())
		return true
	})
	if resp == nil {
		return &workflowservice.PollActivityTaskQueueResponse{}, nil
	}
	return resp, nil
}

func (s *Server) startActivity(a *activity, identity string) *workflowservice.PollActivityTaskQueueResponse {
	a.state = activityStarted
	a.started = s.clock.Now()
	a.identity = identity
	a.token = s.newToken(a)
	s.clock.Stop(a.scheduleToStart)
	attempt := a.attempt
	if d := a.attrs.GetStartToCloseTimeout().AsDuration(); d > 0 {
		a.startToClose = s.clock.AfterFunc(d+s.opts.ActivityTimeoutGracePeriod, func() { s.timeOutActivity(a, attempt, enumspb.TIMEOUT_TYPE_START_TO_CLOSE) })
	}
	s.armHeartbeat(a)
	r := a.run
	return &workflowservice.PollActivityTaskQueueResponse{
		TaskToken: a.token, WorkflowNamespace: s.opts.Namespace,
		WorkflowType: r.started.GetWorkflowType(), WorkflowExecution: proto.CloneOf(r.execution),
		ActivityType: a.attrs.GetActivityType(), ActivityId: a.attrs.GetActivityId(), Header: a.attrs.GetHeader(), Input: a.attrs.GetInput(),
		HeartbeatDetails: a.details, ScheduledTime: timestamppb.New(a.firstScheduled), CurrentAttemptScheduledTime: timestamppb.New(a.attemptSchedule),
		StartedTime: timestamppb.New(a.started), Attempt: a.attempt,
		ScheduleToCloseTimeout: a.attrs.GetScheduleToCloseTimeout(), StartToCloseTimeout: a.attrs.GetStartToCloseTimeout(),
		HeartbeatTimeout: a.attrs.GetHeartbeatTimeout(), RetryPolicy: a.attrs.GetRetryPolicy(), Priority: a.attrs.GetPriority(),
	}
}

func (s *Server) armHeartbeat(a *activity) {
	s.clock.Stop(a.heartbeat)
	if d := a.attrs.GetHeartbeatTimeout().AsDuration(); d > 0 {
		attempt := a.attempt
		a.heartbeat = s.clock.AfterFunc(d, func() { s.timeOutActivity(a, attempt, enumspb.TIMEOUT_TYPE_HEARTBEAT) })
	}
}

// runningActivity finds the started attempt a token names.
func (s *Server) runningActivity(token []byte) (*activity, error) {
	a, err := tokenTask[*activity](s, token)
	if err != nil {
		return nil, err
	}
	if a.state != activityStarted || string(a.token) != string(token) || a.run.activities[a.scheduledID] != a {
		return nil, serviceerror.NewNotFound("the activity attempt is no longer current: it timed out, or its workflow closed")
	}
	return a, nil
}

// SleepAttempt blocks the running attempt that token names for d of
// virtual time, during which the attempt does not count as work in
// flight, so that the clock may skip over it (a mocked activity's delay).
// It returns early, false, when done is closed.
func (s *Server) SleepAttempt(token []byte, d time.Duration, done <-chan struct{}) bool {
	s.lock()
	a, err := s.runningActivity(token)
	if err != nil {
		s.unlock()
		return s.clock.Sleep(d, done)
	}
	woke := make(chan struct{})
	resume := func() {
		if a.state == activityStarted && string(a.token) == string(token) && a.run.activities[a.scheduledID] == a && !a.counted {
			a.counted = s.inFlight(a.queue)
		}
	}
	s.release(&a.counted)
	t := s.clock.AfterFunc(d, func() {
		s.lock()
		defer s.unlock()
		resume() // in flight again before the clock looks for idleness
		close(woke)
	})
	s.unlock()
	select {
	case <-woke:
		return true
	case <-done:
		if !s.clock.Stop(t) {
			<-woke // it fired meanwhile
			return false
		}
		s.lock()
		resume()
		s.unlock()
		return false
	}
}

// ScheduledTaskQueue is the task queue the running attempt token names
// was scheduled on ("" when token names none), which differs from the
// queue it was polled from when Options.ActivityQueue routed it to
// another: the test environment's worker runs activities of every queue,
// and the activity's info names the queue the workflow gave, as
// go.temporal.io/sdk's environment does.
func (s *Server) ScheduledTaskQueue(token []byte) string {
	s.lock()
	defer s.unlock()
	if a, err := s.runningActivity(token); err == nil {
		return a.attrs.GetTaskQueue().GetName()
	}
	return ""
}

// AwaitAsyncCompletion says that the running attempt token names ended
// on the worker without a result (its activity returned ErrResultPending)
// and waits to be completed by its token. The server goes on holding it
// started, its timeouts running, as a Temporal server does; it no longer
// counts as work in flight, so that the clock may skip ahead to what
// completes it (a delayed callback) or to its timeout.
func (s *Server) AwaitAsyncCompletion(token []byte) {
	s.lock()
	defer s.unlock()
	if a, err := s.runningActivity(token); err == nil {
		s.release(&a.counted)
	}
}

// RecordActivityTaskHeartbeat keeps a running activity alive and tells it
// whether its cancellation was requested.
func (s *Server) RecordActivityTaskHeartbeat(_ context.Context, req *workflowservice.RecordActivityTaskHeartbeatRequest) (*workflowservice.RecordActivityTaskHeartbeatResponse, error) {
	s.lock()
	defer s.unlock()
	if s.canceledAlready(req.GetTaskToken(), false) {
		return &workflowservice.RecordActivityTaskHeartbeatResponse{CancelRequested: true}, nil
	}
	a, err := s.runningActivity(req.GetTaskToken())
	if err != nil {
		return nil, err
	}
	a.details = req.GetDetails()
	s.armHeartbeat(a)
	return &workflowservice.RecordActivityTaskHeartbeatResponse{CancelRequested: a.cancelRequested != 0}, nil
}

// RespondActivityTaskCompleted records an activity's result.
func (s *Server) RespondActivityTaskCompleted(_ context.Context, req *workflowservice.RespondActivityTaskCompletedRequest) (*workflowservice.RespondActivityTaskCompletedResponse, error) {
	s.lock()
	defer s.unlock()
	if s.canceledAlready(req.GetTaskToken(), true) {
		return &workflowservice.RespondActivityTaskCompletedResponse{}, nil
	}
	a, err := s.runningActivity(req.GetTaskToken())
	if err != nil {
		return nil, err
	}
	startedID := s.finishActivity(a, true, req.GetIdentity())
	s.deliver(a.run, enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED, &historypb.HistoryEvent_ActivityTaskCompletedEventAttributes{
		ActivityTaskCompletedEventAttributes: &historypb.ActivityTaskCompletedEventAttributes{
			Result: req.GetResult(), ScheduledEventId: a.scheduledID, StartedEventId: startedID, Identity: req.GetIdentity()}}, true)
	return &workflowservice.RespondActivityTaskCompletedResponse{}, nil
}

// RespondActivityTaskFailed retries the activity when its retry policy
// allows, else records the failure.
func (s *Server) RespondActivityTaskFailed(_ context.Context, req *workflowservice.RespondActivityTaskFailedRequest) (*workflowservice.RespondActivityTaskFailedResponse, error) {
	s.lock()
	defer s.unlock()
	if s.canceledAlready(req.GetTaskToken(), true) {
		return &workflowservice.RespondActivityTaskFailedResponse{}, nil
	}
	a, err := s.runningActivity(req.GetTaskToken())
	if err != nil {
		return nil, err
	}
	if req.GetLastHeartbeatDetails() != nil {
		a.details = req.GetLastHeartbeatDetails()
	}
	s.failAttempt(a, req.GetFailure(), req.GetIdentity())
	return &workflowservice.RespondActivityTaskFailedResponse{}, nil
}

// RespondActivityTaskCanceled records an activity that stopped because its
// cancellation was requested.
func (s *Server) RespondActivityTaskCanceled(_ context.Context, req *workflowservice.RespondActivityTaskCanceledRequest) (*workflowservice.RespondActivityTaskCanceledResponse, error) {
	s.lock()
	defer s.unlock()
	if s.canceledAlready(req.GetTaskToken(), true) {
		return &workflowservice.RespondActivityTaskCanceledResponse{}, nil
	}
	a, err := s.runningActivity(req.GetTaskToken())
	if err != nil {
		return nil, err
	}
	startedID := s.finishActivity(a, true, req.GetIdentity())
	s.deliver(a.run, enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCELED, &historypb.HistoryEvent_ActivityTaskCanceledEventAttributes{
		ActivityTaskCanceledEventAttributes: &historypb.ActivityTaskCanceledEventAttributes{
			Details: req.GetDetails(), LatestCancelRequestedEventId: a.cancelRequested, ScheduledEventId: a.scheduledID,
			StartedEventId: startedID, Identity: req.GetIdentity()}}, true)
	return &workflowservice.RespondActivityTaskCanceledResponse{}, nil
}

// failAttempt ends the current attempt with failure: a retry after the
// policy's backoff, or the activity's final failure.
func (s *Server) failAttempt(a *activity, f *failurepb.Failure, identity string) {
	retry, backoff := s.retryDecision(a, f)
	if retry == enumspb.RETRY_STATE_IN_PROGRESS {
		s.stopAttemptTimers(a)
		s.release(&a.counted)
		if a.state == activityScheduled {
			queueOf(s.activityQueues, a.queue).remove(func(q *activity) bool { return q == a })
		}
		delete(s.tokens, string(a.token))
		a.state, a.lastFailure = activityBackoff, f
		a.backoff = s.clock.AfterFunc(backoff, func() {
			s.lock()
			defer s.unlock()
			if a.run.activities[a.scheduledID] != a || a.state != activityBackoff {
				return
			}
			a.attempt++
			s.queueAttempt(a)
		})
		return
	}
	wasStarted := a.state == activityStarted
	startedID := s.finishActivity(a, wasStarted, identity)
	if f.GetTimeoutFailureInfo() != nil {
		s.deliver(a.run, enumspb.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT, &historypb.HistoryEvent_ActivityTaskTimedOutEventAttributes{
			ActivityTaskTimedOutEventAttributes: &historypb.ActivityTaskTimedOutEventAttributes{
				Failure: f, ScheduledEventId: a.scheduledID, StartedEventId: startedID, RetryState: retry}}, true)
		return
	}
	s.deliver(a.run, enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED, &historypb.HistoryEvent_ActivityTaskFailedEventAttributes{
		ActivityTaskFailedEventAttributes: &historypb.ActivityTaskFailedEventAttributes{
			Failure: f, ScheduledEventId: a.scheduledID, StartedEventId: startedID, Identity: identity, RetryState: retry}}, true)
}

// retryDecision applies the activity's retry policy to a failed attempt:
// IN_PROGRESS and the backoff when it retries, else why it does not.
func (s *Server) retryDecision(a *activity, f *failurepb.Failure) (enumspb.RetryState, time.Duration) {
	p := a.attrs.GetRetryPolicy()
	if t := f.GetTimeoutFailureInfo(); t != nil {
		if tt := t.GetTimeoutType(); tt == enumspb.TIMEOUT_TYPE_SCHEDULE_TO_START || tt == enumspb.TIMEOUT_TYPE_SCHEDULE_TO_CLOSE {
			return enumspb.RETRY_STATE_TIMEOUT, 0
		}
		// As on a server, a policy stops retries after a start-to-close or
		// heartbeat timeout when it names "TemporalTimeout:<type>".
		if slices.Contains(p.GetNonRetryableErrorTypes(), "TemporalTimeout:"+timeoutName(t.GetTimeoutType())) {
			return enumspb.RETRY_STATE_NON_RETRYABLE_FAILURE, 0
		}
	}
	if app := f.GetApplicationFailureInfo(); app != nil {
		if app.GetNonRetryable() || slices.Contains(p.GetNonRetryableErrorTypes(), app.GetType()) {
			return enumspb.RETRY_STATE_NON_RETRYABLE_FAILURE, 0
		}
	}
	if max := p.GetMaximumAttempts(); max > 0 && a.attempt >= max {
		return enumspb.RETRY_STATE_MAXIMUM_ATTEMPTS_REACHED, 0
	}
	backoff := time.Duration(float64(p.GetInitialInterval().AsDuration()) * math.Pow(p.GetBackoffCoefficient(), float64(a.attempt-1)))
	if maxInterval := p.GetMaximumInterval().AsDuration(); backoff > maxInterval || backoff <= 0 {
		backoff = maxInterval
	}
	if next := f.GetApplicationFailureInfo().GetNextRetryDelay().AsDuration(); next > 0 {
		backoff = next
	}
	if d := a.attrs.GetScheduleToCloseTimeout().AsDuration(); d > 0 && s.clock.Now().Add(backoff).After(a.firstScheduled.Add(d)) {
		return enumspb.RETRY_STATE_TIMEOUT, 0
	}
	return enumspb.RETRY_STATE_IN_PROGRESS, backoff
}

// timeOutActivity handles a timeout of attempt (0: of the whole activity).
func (s *Server) timeOutActivity(a *activity, attempt int32, t enumspb.TimeoutType) {
	s.lock()
	defer s.unlock()
	if a.run.activities[a.scheduledID] != a || (attempt != 0 && attempt != a.attempt) || a.state == activityBackoff && attempt != 0 {
		return
	}
	f := &failurepb.Failure{
		Message: fmt.Sprintf("activity %s timeout", timeoutName(t)),
		Source:  "Server",
		FailureInfo: &failurepb.Failure_TimeoutFailureInfo{TimeoutFailureInfo: &failurepb.TimeoutFailureInfo{
			TimeoutType: t, LastHeartbeatDetails: a.details}},
	}
	if a.lastFailure.GetTimeoutFailureInfo() == nil {
		f.Cause = a.lastFailure // what failed the attempt before, if it did not time out too
	}
	s.failAttempt(a, f, a.identity)
}

func timeoutName(t enumspb.TimeoutType) string {
	switch t {
	case enumspb.TIMEOUT_TYPE_START_TO_CLOSE:
		return "StartToClose"
	case enumspb.TIMEOUT_TYPE_SCHEDULE_TO_START:
		return "ScheduleToStart"
	case enumspb.TIMEOUT_TYPE_SCHEDULE_TO_CLOSE:
		return "ScheduleToClose"
	case enumspb.TIMEOUT_TYPE_HEARTBEAT:
		return "Heartbeat"
	}
	return t.String()
}

func (s *Server) stopAttemptTimers(a *activity) {
	for _, t := range []*Timer{a.scheduleToStart, a.startToClose, a.heartbeat, a.backoff} {
		s.clock.Stop(t)
	}
}

// finishActivity forgets the activity and, when an attempt started, writes
// its ActivityTaskStarted event (the server writes it with the outcome).
// It returns that event's ID.
func (s *Server) finishActivity(a *activity, started bool, identity string) int64 {
	s.stopAttemptTimers(a)
	s.clock.Stop(a.scheduleToClose)
	s.release(&a.counted)
	if a.state == activityScheduled {
		queueOf(s.activityQueues, a.queue).remove(func(q *activity) bool { return q == a })
	}
	delete(a.run.activities, a.scheduledID)
	delete(s.tokens, string(a.token))
	if !started {
		return 0
	}
	if identity == "" {
		identity = a.identity
	}
	ev := newEvent(enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED, &historypb.HistoryEvent_ActivityTaskStartedEventAttributes{
		ActivityTaskStartedEventAttributes: &historypb.ActivityTaskStartedEventAttributes{
			ScheduledEventId: a.scheduledID, Identity: identity, RequestId: string(a.token), Attempt: a.attempt, LastFailure: a.lastFailure}})
	ev.EventTime = timestamppb.New(a.started)
	r := a.run
	if r.wft != nil && r.wft.startedID != 0 {
		r.buffer = append(r.buffer, ev)
		return startedIDPending
	}
	s.writeEvent(r, ev)
	return ev.GetEventId()
}

// finishedInBuffer tells whether the outcome of the activity scheduled at
// scheduledID waits in the run's buffer.
func finishedInBuffer(r *run, scheduledID int64) bool {
	for _, ev := range r.buffer {
		var id int64
		switch ev.GetEventType() {
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
			id = ev.GetActivityTaskCompletedEventAttributes().GetScheduledEventId()
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED:
			id = ev.GetActivityTaskFailedEventAttributes().GetScheduledEventId()
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT:
			id = ev.GetActivityTaskTimedOutEventAttributes().GetScheduledEventId()
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCELED:
			id = ev.GetActivityTaskCanceledEventAttributes().GetScheduledEventId()
		}
		if id == scheduledID {
			return true
		}
	}
	return false
}

// startedIDPending stands for the ID of an ActivityTaskStarted event that
// waits in the buffer with its outcome; writeEvent puts in the real one.
const startedIDPending = -1

// dropActivity forgets an activity of a closed run.
func (s *Server) dropActivity(a *activity) {
	s.stopAttemptTimers(a)
	s.clock.Stop(a.scheduleToClose)
	s.release(&a.counted)
	if a.state == activityScheduled {
		queueOf(s.activityQueues, a.queue).remove(func(q *activity) bool { return q == a })
	}
	delete(a.run.activities, a.scheduledID)
	delete(s.tokens, string(a.token))
}

// requestCancelActivity makes an ActivityTaskCancelRequested event. An
// activity that is not running is canceled at once (its
// ActivityTaskCanceled follows the task's command events); a running one
// learns of it from its next heartbeat, and is canceled when it says it
// stopped, unless Options.CancelRunningActivitiesAtOnce: then it is
// canceled at once too, and its attempt hears of it at its next heartbeat
// (see canceledAttempt).
func (s *Server) requestCancelActivity(r *run, completedID, scheduledID int64) (*historypb.HistoryEvent, func(int64)) {
	a := r.activities[scheduledID]
	ev := newEvent(enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED, &historypb.HistoryEvent_ActivityTaskCancelRequestedEventAttributes{
		ActivityTaskCancelRequestedEventAttributes: &historypb.ActivityTaskCancelRequestedEventAttributes{ScheduledEventId: scheduledID, WorkflowTaskCompletedEventId: completedID}})
	if a == nil {
		// It ended while the task ran, its outcome waits in the buffer: the
		// request is written all the same, before that outcome, as the
		// Temporal server writes it; the worker matches the task's
		// command against that event. Unknown otherwise: nothing to write.
		if finishedInBuffer(r, scheduledID) {
			return ev, nil
		}
		return nil, nil
	}
	return ev, func(id int64) {
		a.cancelRequested = id
		running := a.state == activityStarted
		if running && !s.opts.CancelRunningActivitiesAtOnce {
			return
		}
		token, identity := a.token, ""
		startedID := s.finishActivity(a, running, "")
		if running {
			s.tokens[string(token)] = canceledAttempt{}
			identity = a.identity // the worker that runs it, as if it had said it stopped
		}
		s.deliver(r, enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCELED, &historypb.HistoryEvent_ActivityTaskCanceledEventAttributes{
			ActivityTaskCanceledEventAttributes: &historypb.ActivityTaskCanceledEventAttributes{
				LatestCancelRequestedEventId: id, ScheduledEventId: scheduledID, StartedEventId: startedID, Identity: identity}}, true)
	}
}

// canceledAttempt stands, under its task token, for a running attempt
// that the server canceled without waiting for it to stop
// (Options.CancelRunningActivitiesAtOnce): its heartbeats are told that
// its cancellation was requested, so that its context is canceled as on
// a server, and the outcome it reports once it stopped is taken and
// dropped, the activity's outcome being written already.
type canceledAttempt struct{}

// canceledAlready reports whether token names a canceledAttempt; its
// report (final) forgets it.
func (s *Server) canceledAlready(token []byte, final bool) bool {
	if _, ok := s.tokens[string(token)].(canceledAttempt); !ok {
		return false
	}
	if final {
		delete(s.tokens, string(token))
	}
	return true
}
