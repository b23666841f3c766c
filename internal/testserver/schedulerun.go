package testserver

import (
	"fmt"
	"slices"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"
	schedulepb "go.temporal.io/api/schedule/v1"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/durable-go/sdk/internal/uuid"
)

// A schedule acts in steps, as a server's scheduler workflow does each
// time it wakes: it takes the actions due since its last step (those
// that missed the catchup window are counted, not taken), applies a
// patch or an update when one came, moves its backfills along, starts
// what its overlap policy lets it start, and sets its next wake-up. It
// wakes at its next action, when a workflow it started closes, and when
// it is patched or updated. All of it runs with the schedules' lock held
// (scheduleBook).

// stepSchedule runs one step of sc; patch and update may be nil.
func (s *Server) stepSchedule(sc *schedule, patch *schedulepb.SchedulePatch, update *scheduleUpdate) {
	now := s.clock.Now()
	until := maxTime(now, sc.lastProcessed)
	next, lastAction := s.takeDueActions(sc, sc.lastProcessed, until, enumspb.SCHEDULE_OVERLAP_POLICY_UNSPECIFIED, false, nil)
	sc.lastProcessed = lastAction
	if patch != nil {
		applySchedulePatch(sc, patch)
	}
	if update != nil {
		s.applyScheduleUpdate(sc, update, now)
		next, _ = s.takeDueActions(sc, sc.lastProcessed, until, enumspb.SCHEDULE_OVERLAP_POLICY_UNSPECIFIED, false, nil)
	}
	s.moveBackfills(sc)
	for s.startBuffered(sc) {
	}
	if expires := sc.retentionEnd(next); !expires.IsZero() && !expires.After(now) {
		s.dropScheduleLocked(sc) // nothing left to do for a week: a server's scheduler ends
		return
	}
	switch {
	case sc.moreAllowAllBackfills():
		next = now.Add(time.Second)
	case !sc.canAct(false, false):
		next = time.Time{} // paused or out of actions: only a patch or an update wakes it
	}
	if expires := sc.retentionEnd(next); !expires.IsZero() {
		next = expires
	}
	s.setScheduleWakeup(sc, next, now)
}

// setScheduleWakeup sets the clock to wake sc at at (never, for the zero
// time), keeping a wake-up already set for that time.
func (s *Server) setScheduleWakeup(sc *schedule, at, now time.Time) {
	if sc.wakeup != nil && at.Equal(sc.wakeupAt) {
		return
	}
	s.clock.Stop(sc.wakeup)
	sc.wakeup, sc.wakeupAt = nil, at
	if at.IsZero() {
		return
	}
	var t *Timer
	t = s.clock.AfterFunc(max(at.Sub(now), 0), func() {
		b := &s.schedules
		b.mu.Lock()
		defer b.mu.Unlock()
		if sc.deleted || sc.wakeup != t {
			return
		}
		sc.wakeup = nil
		s.stepSchedule(sc, nil, nil)
	})
	sc.wakeup = t
}

// takeDueActions buffers the actions due after start up to end (with
// manual, those of a backfill, which no pause, limit or catchup window
// holds back; limit, when set, counts them down and stops at zero). It
// returns the first time after those taken, and the time of the last
// one taken (start for none).
func (s *Server) takeDueActions(sc *schedule, start, end time.Time, overlap enumspb.ScheduleOverlapPolicy, manual bool, limit *int) (next, lastAction time.Time) {
	if !sc.canAct(manual, false) {
		// Paused or out of actions: the time passes without them, missed
		// catchup windows uncounted.
		return sc.spec.next(end).actual, end
	}
	lastAction = start
	updated := sc.info.GetUpdateTime().AsTime()
	window := catchupWindow(sc.def)
	t := sc.spec.next(start)
	for ; !t.actual.IsZero() && !t.actual.After(end); t = sc.spec.next(t.actual) {
		if !manual && updated.After(t.actual) {
			continue // due before the last update
		}
		if !manual && end.Sub(t.actual) > window {
			sc.info.MissedCatchupWindow++
			continue
		}
		sc.addStart(t.nominal, t.actual, overlap, manual)
		lastAction = t.actual
		if limit != nil {
			if *limit--; *limit <= 0 {
				break
			}
		}
	}
	return t.actual, lastAction
}

func (sc *schedule) addStart(nominal, actual time.Time, overlap enumspb.ScheduleOverlapPolicy, manual bool) {
	if len(sc.buffer) >= maxScheduleBuffer {
		sc.info.BufferDropped++
		return
	}
	sc.buffer = append(sc.buffer, &bufferedStart{nominal: nominal, actual: actual, overlap: overlap, manual: manual})
}

// canAct reports whether the schedule may take an action now: a manual
// one always; a scheduled one unless paused or out of its limited
// actions. With take, it counts the action against the limit.
func (sc *schedule) canAct(manual, take bool) bool {
	state := sc.def.GetState()
	switch {
	case manual:
		return true
	case state.GetPaused():
		return false
	case !state.GetLimitedActions():
		return true
	case state.GetRemainingActions() > 0:
		if take {
			state.RemainingActions--
			sc.conflictToken++
		}
		return true
	}
	return false
}

// applySchedulePatch applies a trigger, backfills, a pause or an unpause.
func applySchedulePatch(sc *schedule, patch *schedulepb.SchedulePatch) {
	if trigger := patch.GetTriggerImmediately(); trigger != nil {
		at := trigger.GetScheduledTime().AsTime()
		sc.addStart(at, at, trigger.GetOverlapPolicy(), true)
	}
	for _, backfill := range patch.GetBackfillRequest() {
		if len(sc.backfills) >= maxScheduleBuffer {
			sc.info.BufferDropped++
			continue
		}
		backfill = proto.CloneOf(backfill)
		// Its start time is included: the first action may be due then.
		backfill.StartTime = timestamppb.New(backfill.GetStartTime().AsTime().Add(-time.Millisecond))
		sc.backfills = append(sc.backfills, backfill)
	}
	state := sc.def.GetState()
	if patch.GetPause() != "" {
		state.Paused, state.Notes = true, patch.GetPause()
		sc.conflictToken++
	}
	if patch.GetUnpause() != "" {
		state.Paused, state.Notes = false, patch.GetUnpause()
		sc.conflictToken++
	}
}

// applyScheduleUpdate replaces the schedule's definition; what it did
// stays.
func (s *Server) applyScheduleUpdate(sc *schedule, update *scheduleUpdate, now time.Time) {
	sc.def, sc.spec = update.def, update.spec
	fillSchedulePolicies(sc.def)
	if update.searchAttributes != nil { // empty: none left
		sc.searchAttributes = proto.CloneOf(update.searchAttributes)
	}
	sc.info.UpdateTime = timestamppb.New(now)
	sc.conflictToken++
}

// moveBackfills buffers the next actions of the backfills, ten a step,
// filling at most half the buffer.
func (s *Server) moveBackfills(sc *schedule) {
	limit := backfillsPerStep
	for len(sc.backfills) > 0 && limit > 0 && len(sc.buffer) < maxScheduleBuffer/2 {
		b := sc.backfills[0]
		end := b.GetEndTime().AsTime()
		next, _ := s.takeDueActions(sc, b.GetStartTime().AsTime(), end, b.GetOverlapPolicy(), true, &limit)
		if next.IsZero() || next.After(end) {
			sc.backfills = sc.backfills[1:]
		} else {
			b.StartTime = timestamppb.New(next)
		}
	}
}

// moreAllowAllBackfills: an ALLOW_ALL backfill goes on a second later.
func (sc *schedule) moreAllowAllBackfills() bool {
	return len(sc.backfills) > 0 && resolveOverlap(sc.def, sc.backfills[0].GetOverlapPolicy()) == enumspb.SCHEDULE_OVERLAP_POLICY_ALLOW_ALL
}

// retentionEnd is when a schedule with nothing left to do (no next
// action, or none it may take) ends: a week after its last action,
// creation or update. Zero while it has something to do or is paused.
func (sc *schedule) retentionEnd(next time.Time) time.Time {
	if sc.def.GetState().GetPaused() || !next.IsZero() && sc.canAct(false, false) || sc.moreAllowAllBackfills() {
		return time.Time{}
	}
	last := maxTime(sc.info.GetCreateTime().AsTime(), sc.info.GetUpdateTime().AsTime())
	if recent := sc.info.GetRecentActions(); len(recent) > 0 {
		last = maxTime(last, recent[len(recent)-1].GetActualTime().AsTime())
	}
	return last.Add(scheduleRetention)
}

// startBuffered starts what the buffer and the overlap policies allow,
// and cancels or terminates the running workflow when they say so. It
// reports whether it should run again (a start failed or was not
// allowed).
func (s *Server) startBuffered(sc *schedule) bool {
	s.refreshScheduleRuns(sc)
	action := sc.def.GetAction().GetStartWorkflow()
	if action == nil || len(sc.buffer) == 0 {
		sc.buffer = nil
		return false
	}
	d := decideOverlap(sc.buffer, len(sc.info.RunningWorkflows) > 0, func(p enumspb.ScheduleOverlapPolicy) enumspb.ScheduleOverlapPolicy {
		return resolveOverlap(sc.def, p)
	})
	sc.buffer = d.buffer
	sc.info.OverlapSkipped += d.skipped
	starts := d.overlapping
	if d.next != nil {
		starts = append(starts, d.next)
	}
	again := false
	for _, start := range starts {
		if !sc.canAct(start.manual, true) {
			again = true
			continue
		}
		result, err := s.startScheduledWorkflow(sc, start, action)
		if err != nil {
			again = true // the action is lost, as on a server (an ID taken, ...)
			continue
		}
		sc.info.ActionCount++
		recent := append(sc.info.RecentActions, result)
		sc.info.RecentActions = recent[max(len(recent)-recentActionCount, 0):]
		if start == d.next { // ALLOW_ALL's workflows are not tracked
			sc.info.RunningWorkflows = append(sc.info.RunningWorkflows, proto.CloneOf(result.GetStartWorkflowResult()))
		}
	}
	identity := fmt.Sprintf(scheduleIdentityFormat, s.opts.Namespace, sc.id)
	for _, w := range sc.info.RunningWorkflows {
		latest := &commonpb.WorkflowExecution{WorkflowId: w.GetWorkflowId()}
		switch {
		case d.terminate:
			_ = s.Terminate(latest, "terminated by schedule overlap policy", nil, identity)
		case d.cancel:
			_ = s.RequestCancel(latest, identity, "cancelled by schedule overlap policy")
		}
	}
	return again
}

// overlapDecision is what the overlap policies make of the buffer.
type overlapDecision struct {
	overlapping       []*bufferedStart // ALLOW_ALL: start them all
	next              *bufferedStart   // the one other start to make now, or nil
	buffer            []*bufferedStart // what waits
	cancel, terminate bool             // the running workflow, so that the next may start
	skipped           int64
}

// decideOverlap applies each buffered start's overlap policy (resolved
// now, so that an update of the schedule's policy reaches starts already
// buffered) in order.
func decideOverlap(buffer []*bufferedStart, running bool, resolve func(enumspb.ScheduleOverlapPolicy) enumspb.ScheduleOverlapPolicy) overlapDecision {
	var d overlapDecision
	for _, start := range buffer {
		policy := resolve(start.overlap)
		if policy == enumspb.SCHEDULE_OVERLAP_POLICY_ALLOW_ALL {
			d.overlapping = append(d.overlapping, start)
			continue
		}
		if !running && d.next == nil {
			d.next = start
			continue
		}
		// It overlaps the running workflow, or the start chosen above.
		switch policy {
		case enumspb.SCHEDULE_OVERLAP_POLICY_SKIP:
			d.skipped++
		case enumspb.SCHEDULE_OVERLAP_POLICY_BUFFER_ONE:
			if len(d.buffer) == 0 {
				d.buffer = append(d.buffer, start)
			} else {
				d.skipped++
			}
		case enumspb.SCHEDULE_OVERLAP_POLICY_BUFFER_ALL:
			d.buffer = append(d.buffer, start)
		case enumspb.SCHEDULE_OVERLAP_POLICY_CANCEL_OTHER, enumspb.SCHEDULE_OVERLAP_POLICY_TERMINATE_OTHER:
			if !running { // it replaces the start chosen above
				d.next = start
				continue
			}
			if policy == enumspb.SCHEDULE_OVERLAP_POLICY_CANCEL_OTHER {
				d.cancel = true
			} else {
				d.terminate = true
			}
			d.buffer = append(d.buffer, start) // it starts once the other has closed
		}
	}
	if d.cancel || d.terminate {
		d.overlapping = nil // they would be canceled or terminated at once
	}
	return d
}

// startScheduledWorkflow starts the action's workflow for a buffered
// start, as a server's scheduler does: its ID is the action's ID and the
// nominal time (in UTC, to the second), it carries the schedule's ID and
// that time in search attributes, and the last completion result or
// failure of the schedule's workflows.
func (s *Server) startScheduledWorkflow(sc *schedule, start *bufferedStart, action *workflowpb.NewWorkflowExecutionInfo) (*schedulepb.ScheduleActionResult, error) {
	nominal := start.nominal.UTC().Truncate(time.Second)
	workflowID := action.GetWorkflowId() + "-" + nominal.Format(time.RFC3339)
	lastCompletion, continuedFailure := sc.lastCompletion, sc.continuedFailure
	if start.overlap == enumspb.SCHEDULE_OVERLAP_POLICY_ALLOW_ALL {
		lastCompletion, continuedFailure = nil, nil
	}
	// A scheduled time starts once; a manual one may start again.
	reuse := enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE
	if start.manual {
		reuse = enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE
	}
	resp, err := s.opts.StartScheduledWorkflow(&workflowservice.StartWorkflowExecutionRequest{
		Namespace: s.opts.Namespace, WorkflowId: workflowID, WorkflowType: action.GetWorkflowType(), TaskQueue: action.GetTaskQueue(),
		Input: action.GetInput(), WorkflowExecutionTimeout: action.GetWorkflowExecutionTimeout(), WorkflowRunTimeout: action.GetWorkflowRunTimeout(),
		WorkflowTaskTimeout: action.GetWorkflowTaskTimeout(), Identity: fmt.Sprintf(scheduleIdentityFormat, s.opts.Namespace, sc.id),
		RequestId: uuid.New(), WorkflowIdReusePolicy: reuse, RetryPolicy: action.GetRetryPolicy(), Memo: action.GetMemo(),
		SearchAttributes: withScheduleAttributes(action.GetSearchAttributes(), sc.id, nominal), Header: action.GetHeader(),
		LastCompletionResult: lastCompletion, ContinuedFailure: continuedFailure, UserMetadata: action.GetUserMetadata(),
		Priority: action.GetPriority(),
	})
	if err != nil {
		return nil, err
	}
	return &schedulepb.ScheduleActionResult{
		ScheduleTime: timestamppb.New(start.actual), ActualTime: timestamppb.New(s.clock.Now()),
		StartWorkflowResult: &commonpb.WorkflowExecution{WorkflowId: workflowID, RunId: resp.GetRunId()},
		StartWorkflowStatus: enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING,
	}, nil
}

// withScheduleAttributes adds to the action's search attributes the two
// a server adds: the schedule's ID (a Keyword) and the nominal time (a
// Datetime), JSON-encoded with their types, as a client encodes them.
func withScheduleAttributes(attrs *commonpb.SearchAttributes, scheduleID string, nominal time.Time) *commonpb.SearchAttributes {
	fields := make(map[string]*commonpb.Payload, len(attrs.GetIndexedFields())+2)
	for k, v := range attrs.GetIndexedFields() {
		fields[k] = v
	}
	fields[scheduledByIDAttribute] = typedJSONString(scheduleID, "Keyword")
	fields[scheduledStartTimeAttribute] = typedJSONString(nominal.Format(time.RFC3339Nano), "Datetime")
	return &commonpb.SearchAttributes{IndexedFields: fields}
}

func typedJSONString(s, valueType string) *commonpb.Payload {
	return &commonpb.Payload{
		Metadata: map[string][]byte{"encoding": []byte("json/plain"), "type": []byte(valueType)},
		Data:     []byte(fmt.Sprintf("%q", s)),
	}
}

// chain is what the schedule knows of a workflow it started: the status
// of the chain of runs its first run began (retries, continue-as-new),
// and the last run's result or failure once closed.
type chain struct {
	status  enumspb.WorkflowExecutionStatus
	result  *commonpb.Payloads
	failure *failurepb.Failure
}

// chainOf looks up a workflow a schedule started (its ID and first run
// ID): a workflow ID that another chain took since has closed, status
// unknown.
func (s *Server) chainOf(w *commonpb.WorkflowExecution) chain {
	s.lock()
	defer s.unlock()
	r := s.latest[w.GetWorkflowId()]
	if r == nil || r.started.GetFirstExecutionRunId() != w.GetRunId() {
		return chain{}
	}
	if !r.closed {
		return chain{status: enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING}
	}
	last := r.history[len(r.history)-1]
	out := chain{status: closeStatus(last.GetEventType())}
	switch a := last.GetAttributes().(type) {
	case *historypb.HistoryEvent_WorkflowExecutionCompletedEventAttributes:
		out.result = clone(a.WorkflowExecutionCompletedEventAttributes.GetResult())
	case *historypb.HistoryEvent_WorkflowExecutionFailedEventAttributes:
		out.failure = clone(a.WorkflowExecutionFailedEventAttributes.GetFailure())
	}
	return out
}

// refreshScheduleRuns notes which of the schedule's running workflows
// closed: their status in its recent actions, their result or failure
// for the next workflow, a failure pausing the schedule if its policy
// says so.
func (s *Server) refreshScheduleRuns(sc *schedule) {
	sc.info.RunningWorkflows = slices.DeleteFunc(sc.info.RunningWorkflows, func(w *commonpb.WorkflowExecution) bool {
		c := s.chainOf(w)
		if c.status == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
			return false
		}
		sc.workflowClosed(w.GetWorkflowId(), c)
		return true
	})
}

func (sc *schedule) workflowClosed(workflowID string, c chain) {
	for _, a := range sc.info.GetRecentActions() {
		if a.GetStartWorkflowResult().GetWorkflowId() == workflowID {
			a.StartWorkflowStatus = c.status
		}
	}
	state := sc.def.GetState()
	if sc.def.GetPolicies().GetPauseOnFailure() && !state.GetPaused() {
		switch c.status {
		case enumspb.WORKFLOW_EXECUTION_STATUS_FAILED:
			state.Paused, state.Notes = true, fmt.Sprintf("paused due to workflow failure: %s: %s", workflowID, c.failure.GetMessage())
			sc.conflictToken++
		case enumspb.WORKFLOW_EXECUTION_STATUS_TIMED_OUT:
			state.Paused, state.Notes = true, fmt.Sprintf("paused due to workflow timeout: %s", workflowID)
			sc.conflictToken++
		}
	}
	switch {
	case c.result != nil:
		sc.lastCompletion, sc.continuedFailure = c.result, nil
	case c.failure != nil:
		sc.continuedFailure = c.failure
	}
}

// noteClosedRun wakes the schedules of a workflow that closed for good
// (not for a retry or a continue-as-new), on the clock's goroutine: the
// server's lock is held here, and a schedule's step takes the schedules'
// lock first.
func (s *Server) noteClosedRun(r *run, closeEvent *historypb.HistoryEvent) {
	if s.schedules.count.Load() == 0 || !closesForGood(closeEvent) {
		return
	}
	if r.started.GetSearchAttributes().GetIndexedFields()[scheduledByIDAttribute] == nil {
		return
	}
	workflowID := r.execution.GetWorkflowId()
	s.clock.AfterFunc(0, func() {
		b := &s.schedules
		b.mu.Lock()
		defer b.mu.Unlock()
		for _, sc := range b.byID {
			if slices.ContainsFunc(sc.info.GetRunningWorkflows(), func(w *commonpb.WorkflowExecution) bool { return w.GetWorkflowId() == workflowID }) {
				s.stepSchedule(sc, nil, nil)
			}
		}
	})
}
