package testserver

import (
	"fmt"
	"math"
	"slices"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"
)

// Child workflows run again, as go.temporal.io/sdk's test environment
// reruns them: a failed run retries under its retry policy, and a run with
// a cron schedule (once completed, or failed with no retry left) starts
// again at the schedule's next time, with the last successful result. The
// closing run's event names the next run (NewExecutionRunId), as a
// server's does, and the parent hears only of the chain's end. The test's
// own workflow runs once, as there.

// rerun is how a closing run goes on.
type rerun struct {
	runID     string
	backoff   time.Duration // until the next run's first workflow task
	attempt   int32
	initiator enumspb.ContinueAsNewInitiator
}

// rerunOf decides whether a child run that closes as closing says (its
// result, or its failure) goes on in a new run.
func (s *Server) rerunOf(r *run, failure *failurepb.Failure) (rerun, bool) {
	if r.parent == nil && !s.opts.ChainTopLevelRuns {
		return rerun{}, false
	}
	next := rerun{runID: fmt.Sprintf("%s-run-%d", r.execution.GetWorkflowId(), len(s.runs)+1)}
	if failure != nil {
		if backoff, ok := retryBackoff(r.started.GetRetryPolicy(), r.started.GetAttempt(), failure); ok {
			next.backoff, next.attempt, next.initiator = backoff, r.started.GetAttempt()+1, enumspb.CONTINUE_AS_NEW_INITIATOR_RETRY
			return next, true
		}
	}
	if spec := r.started.GetCronSchedule(); spec != "" {
		schedule, err := parseCron(spec)
		if err != nil {
			return rerun{}, false // refused when the child started; see checkCommands
		}
		now := s.clock.Now().UTC()
		if at := schedule.next(now); !at.IsZero() {
			next.backoff, next.attempt, next.initiator = at.Sub(now), 1, enumspb.CONTINUE_AS_NEW_INITIATOR_CRON_SCHEDULE
			return next, true
		}
	}
	return rerun{}, false
}

// retryBackoff applies a child's retry policy as go.temporal.io/sdk's test
// environment does: the policy as given, no retry without one (or without
// an initial interval), none for a non-retryable failure or once the
// maximum of attempts (when set) is reached.
func retryBackoff(p *commonpb.RetryPolicy, attempt int32, f *failurepb.Failure) (time.Duration, bool) {
	if p == nil {
		return 0, false
	}
	if app := f.GetApplicationFailureInfo(); app != nil && (app.GetNonRetryable() || slices.Contains(p.GetNonRetryableErrorTypes(), app.GetType())) {
		return 0, false
	}
	if max := p.GetMaximumAttempts(); max > 0 && attempt >= max {
		return 0, false
	}
	backoff := f.GetApplicationFailureInfo().GetNextRetryDelay().AsDuration()
	if backoff <= 0 {
		backoff = time.Duration(float64(p.GetInitialInterval().AsDuration()) * math.Pow(p.GetBackoffCoefficient(), float64(attempt-1)))
		if maxInterval := p.GetMaximumInterval().AsDuration(); maxInterval > 0 && (backoff <= 0 || backoff > maxInterval) {
			backoff = maxInterval
		}
	}
	return backoff, backoff > 0
}

// startRerun starts the run that goes on after r, whose close event was
// written; result is r's when it completed.
func (s *Server) startRerun(r *run, next rerun, result *commonpb.Payloads, failure *failurepb.Failure) {
	prev := r.started
	last := result
	if last == nil {
		last = prev.GetLastCompletionResult() // a failed run passes on the last success
	}
	attrs := &historypb.WorkflowExecutionStartedEventAttributes{
		WorkflowType: prev.GetWorkflowType(), TaskQueue: prev.GetTaskQueue(), Input: prev.GetInput(), Header: prev.GetHeader(),
		WorkflowExecutionTimeout: prev.GetWorkflowExecutionTimeout(), WorkflowRunTimeout: prev.GetWorkflowRunTimeout(),
		WorkflowTaskTimeout: prev.GetWorkflowTaskTimeout(), ContinuedExecutionRunId: r.execution.GetRunId(), Initiator: next.initiator,
		ContinuedFailure: failure, LastCompletionResult: last, FirstExecutionRunId: prev.GetFirstExecutionRunId(),
		RetryPolicy: prev.GetRetryPolicy(), CronSchedule: prev.GetCronSchedule(), Attempt: next.attempt,
		Memo: prev.GetMemo(), SearchAttributes: prev.GetSearchAttributes(), Identity: prev.GetIdentity(), Priority: prev.GetPriority(),
		ParentWorkflowNamespace: prev.GetParentWorkflowNamespace(), ParentWorkflowExecution: prev.GetParentWorkflowExecution(),
		ParentInitiatedEventId: prev.GetParentInitiatedEventId(), RootWorkflowExecution: prev.GetRootWorkflowExecution(),
		FirstWorkflowTaskBackoff: durationOf(next.backoff),
	}
	nextRun := s.startLocked(r.execution.GetWorkflowId(), next.runID, attrs)
	if link := r.parent; link != nil { // the chain goes on; its parent waits for its end
		nextRun.parent = link
		link.parent.children = append(link.parent.children, nextRun)
	}
}

// closesForGood reports whether a close event ends its chain of runs: not
// one that names the run that goes on.
func closesForGood(ev *historypb.HistoryEvent) bool {
	switch a := ev.GetAttributes().(type) {
	case *historypb.HistoryEvent_WorkflowExecutionContinuedAsNewEventAttributes:
		return false
	case *historypb.HistoryEvent_WorkflowExecutionCompletedEventAttributes:
		return a.WorkflowExecutionCompletedEventAttributes.GetNewExecutionRunId() == ""
	case *historypb.HistoryEvent_WorkflowExecutionFailedEventAttributes:
		return a.WorkflowExecutionFailedEventAttributes.GetNewExecutionRunId() == ""
	case *historypb.HistoryEvent_WorkflowExecutionTimedOutEventAttributes:
		return a.WorkflowExecutionTimedOutEventAttributes.GetNewExecutionRunId() == ""
	}
	return true
}
