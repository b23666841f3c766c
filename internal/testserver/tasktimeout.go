package testserver

import (
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
)

// Workflow task timeouts (Options.WorkflowTaskTimeouts), as a server
// applies them: a started task's start-to-close (the run's workflow task
// timeout) and a sticky task's schedule-to-start (the timeout its worker
// gave with its sticky queue). Either writes WorkflowTaskTimedOut and
// schedules the task again on the run's normal queue, where any worker
// takes it with the whole history.

// armStickyTimeout sets a sticky task's schedule-to-start timer.
func (s *Server) armStickyTimeout(t *workflowTask) {
	if !s.opts.WorkflowTaskTimeouts || t.run.stickyTimeout <= 0 {
		return
	}
	t.timeout = s.clock.AfterFunc(t.run.stickyTimeout, func() {
		s.timeOutWorkflowTask(t, enumspb.TIMEOUT_TYPE_SCHEDULE_TO_START)
	})
}

// armStartToClose replaces a task's timer, now that it started, with its
// start-to-close timer.
func (s *Server) armStartToClose(t *workflowTask) {
	if !s.opts.WorkflowTaskTimeouts {
		return
	}
	s.clock.Stop(t.timeout)
	t.timeout = nil
	if d := t.run.started.GetWorkflowTaskTimeout().AsDuration(); d > 0 {
		t.timeout = s.clock.AfterFunc(d, func() { s.timeOutWorkflowTask(t, enumspb.TIMEOUT_TYPE_START_TO_CLOSE) })
	}
}

// timeOutWorkflowTask writes off a task that is still the run's current
// one, and in the state the timeout applies to.
func (s *Server) timeOutWorkflowTask(t *workflowTask, timeoutType enumspb.TimeoutType) {
	s.lock()
	defer s.unlock()
	r := t.run
	if r.wft != t || r.closed {
		return
	}
	attrs := &historypb.WorkflowTaskTimedOutEventAttributes{ScheduledEventId: t.scheduledID, TimeoutType: timeoutType}
	next := t.attempt
	switch timeoutType {
	case enumspb.TIMEOUT_TYPE_SCHEDULE_TO_START:
		if t.startedID != 0 {
			return
		}
		queueOf(s.workflowQueues, t.queue).remove(func(q *workflowTask) bool { return q == t })
	default:
		if t.startedID == 0 {
			return
		}
		attrs.StartedEventId = t.startedID
		next++
	}
	s.write(r, enumspb.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT, &historypb.HistoryEvent_WorkflowTaskTimedOutEventAttributes{WorkflowTaskTimedOutEventAttributes: attrs})
	r.wft = nil
	delete(s.tokens, string(t.token))
	s.release(&t.counted)
	defer s.releaseHeldQueries(r) // after the next attempt is scheduled
	r.stickyQueue = ""            // its worker is gone, or lost the run's state
	s.unanswered(r)
	buffered := r.buffer
	r.buffer, r.wftNeeded = nil, false
	for _, ev := range buffered {
		s.writeEvent(r, ev)
	}
	s.scheduleWorkflowTaskAttempt(r, next)
}
