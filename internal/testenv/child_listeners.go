package testenv

import (
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/failure"
)

// The child completed listener (SetOnChildWorkflowCompletedListener)
// hears of a child as go.temporal.io/sdk's test environment tells of it: once, when its parent
// gets its outcome, that is at the end of its chain of runs (after its
// retries, continue-as-new and cron runs: a cron child that runs until its
// parent ends is never heard of), with the info of its last run and what
// the parent gets: the result, or the error, a *ChildWorkflowExecutionError
// wrapping the cause (a canceled child included). It follows the parent's
// history, on the listeners' goroutine.

// seenChildRun keeps the info of a child's run as its code starts, for the
// completed listener.
func (l *testListeners) seenChildRun(info *internal.WorkflowInfo) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.childRuns == nil {
		l.childRuns = make(map[string]*internal.WorkflowInfo)
	}
	l.childRuns[info.WorkflowExecution.RunID] = info
}

// childEnd is the parent's event of a child's end, read.
type childEnd struct {
	namespace    string
	execution    *commonpb.WorkflowExecution
	workflowType string
	result       *commonpb.Payloads
	cause        *failurepb.Failure // nil when the child completed
	retryState   enumspb.RetryState
	initiatedID  int64
	startedID    int64
}

// readChildEnd reads a parent's event that tells of a child's end; false
// for any other event. The causes are those the workflow engine gives the
// parent (internal/commands/child.go).
func readChildEnd(ev *historypb.HistoryEvent) (childEnd, bool) {
	switch a := ev.GetAttributes().(type) {
	case *historypb.HistoryEvent_ChildWorkflowExecutionCompletedEventAttributes:
		x := a.ChildWorkflowExecutionCompletedEventAttributes
		return childEnd{x.GetNamespace(), x.GetWorkflowExecution(), x.GetWorkflowType().GetName(), x.GetResult(), nil,
			enumspb.RETRY_STATE_UNSPECIFIED, x.GetInitiatedEventId(), x.GetStartedEventId()}, true
	case *historypb.HistoryEvent_ChildWorkflowExecutionFailedEventAttributes:
		x := a.ChildWorkflowExecutionFailedEventAttributes
		return childEnd{x.GetNamespace(), x.GetWorkflowExecution(), x.GetWorkflowType().GetName(), nil, x.GetFailure(),
			x.GetRetryState(), x.GetInitiatedEventId(), x.GetStartedEventId()}, true
	case *historypb.HistoryEvent_ChildWorkflowExecutionTimedOutEventAttributes:
		x := a.ChildWorkflowExecutionTimedOutEventAttributes
		cause := &failurepb.Failure{Message: "Child workflow timeout", FailureInfo: &failurepb.Failure_TimeoutFailureInfo{
			TimeoutFailureInfo: &failurepb.TimeoutFailureInfo{TimeoutType: enumspb.TIMEOUT_TYPE_START_TO_CLOSE}}}
		return childEnd{x.GetNamespace(), x.GetWorkflowExecution(), x.GetWorkflowType().GetName(), nil, cause,
			x.GetRetryState(), x.GetInitiatedEventId(), x.GetStartedEventId()}, true
	case *historypb.HistoryEvent_ChildWorkflowExecutionCanceledEventAttributes:
		x := a.ChildWorkflowExecutionCanceledEventAttributes
		cause := &failurepb.Failure{Message: "canceled", FailureInfo: &failurepb.Failure_CanceledFailureInfo{
			CanceledFailureInfo: &failurepb.CanceledFailureInfo{Details: x.GetDetails()}}}
		return childEnd{x.GetNamespace(), x.GetWorkflowExecution(), x.GetWorkflowType().GetName(), nil, cause,
			enumspb.RETRY_STATE_NON_RETRYABLE_FAILURE, x.GetInitiatedEventId(), x.GetStartedEventId()}, true
	case *historypb.HistoryEvent_ChildWorkflowExecutionTerminatedEventAttributes:
		x := a.ChildWorkflowExecutionTerminatedEventAttributes
		cause := &failurepb.Failure{Message: "terminated", FailureInfo: &failurepb.Failure_TerminatedFailureInfo{
			TerminatedFailureInfo: &failurepb.TerminatedFailureInfo{}}}
		return childEnd{x.GetNamespace(), x.GetWorkflowExecution(), x.GetWorkflowType().GetName(), nil, cause,
			enumspb.RETRY_STATE_NON_RETRYABLE_FAILURE, x.GetInitiatedEventId(), x.GetStartedEventId()}, true
	}
	return childEnd{}, false
}

// childEndEvent reports whether the child listener needs ev.
func childEndEvent(ev *historypb.HistoryEvent) bool {
	_, ok := readChildEnd(ev)
	return ok
}

// deliverChildEnd tells the completed listener of a child's end, on the
// listeners' goroutine.
func (l *testListeners) deliverChildEnd(ev *historypb.HistoryEvent, listener func(*internal.WorkflowInfo, converter.EncodedValue, error)) {
	end, ok := readChildEnd(ev)
	if !ok || listener == nil {
		return
	}
	l.mu.Lock()
	dc, fc := l.dc, l.fc
	runID := end.execution.GetRunId()
	info := l.childRuns[runID]
	delete(l.childRuns, runID)
	l.mu.Unlock()
	if info == nil { // its code never ran (it ended before its first task)
		info = &internal.WorkflowInfo{
			WorkflowExecution: clientapi.WorkflowExecution{ID: end.execution.GetWorkflowId(), RunID: runID},
			WorkflowType:      clientapi.WorkflowType{Name: end.workflowType},
			Namespace:         end.namespace,
			Attempt:           1,
		}
	}
	if end.cause == nil {
		listener(info, failure.NewEncodedValue(end.result, dc), nil)
		return
	}
	// The error the parent gets, through the same failure converter.
	wrapped := &failurepb.Failure{
		Message: "child workflow execution error",
		Cause:   end.cause,
		FailureInfo: &failurepb.Failure_ChildWorkflowExecutionFailureInfo{ChildWorkflowExecutionFailureInfo: &failurepb.ChildWorkflowExecutionFailureInfo{
			Namespace: end.namespace, WorkflowExecution: end.execution, WorkflowType: &commonpb.WorkflowType{Name: end.workflowType},
			InitiatedEventId: end.initiatedID, StartedEventId: end.startedID, RetryState: end.retryState,
		}},
	}
	listener(info, nil, fc.FailureToError(wrapped))
}
