package testenv

import (
	"context"
	"errors"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/testserver"
)

// The activity listeners hear an activity's outcome as go.temporal.io/sdk's
// test environment tells it: SetOnActivityCompletedListener once, with the
// outcome the workflow receives (an attempt that the retry policy retries
// is not an outcome), and SetOnActivityCanceledListener when the workflow
// asks to cancel the activity, instead of the outcome. Outcomes are read
// from the events the server writes, on the listeners' goroutine.

// scheduledKey names an activity by its run and scheduled event ID;
// attemptKey by its run and activity ID.
type scheduledKey struct {
	runID       string
	scheduledID int64
}

type attemptKey struct{ runID, activityID string }

// activityRecord is what the listeners know of a scheduled activity.
type activityRecord struct {
	activityID      string
	activityType    string
	taskQueue       string
	cancelRequested bool
}

// seenAttempt keeps the info of an activity's latest attempt, for the
// listeners of its outcome and its heartbeats.
func (l *testListeners) seenAttempt(info internal.ActivityInfo) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.attempts == nil {
		l.attempts = make(map[attemptKey]internal.ActivityInfo)
		l.byToken = make(map[string]internal.ActivityInfo)
	}
	l.attempts[attemptKey{info.WorkflowExecution.RunID, info.ActivityID}] = info
	l.byToken[string(info.TaskToken)] = info
}

// listenedService is the in-memory server as the environment's worker
// calls it: the heartbeat listener hears the heartbeats that reach it,
// those the worker's throttle let through, as go.temporal.io/sdk's
// listener hears those that reach its service.
type listenedService struct {
	testserver.Local
	listeners *testListeners
}

func (s listenedService) RecordActivityTaskHeartbeat(ctx context.Context, in *workflowservice.RecordActivityTaskHeartbeatRequest, opts ...grpc.CallOption) (*workflowservice.RecordActivityTaskHeartbeatResponse, error) {
	resp, err := s.Local.RecordActivityTaskHeartbeat(ctx, in, opts...)
	if err == nil {
		s.listeners.heardHeartbeat(in.GetTaskToken(), in.GetDetails())
	}
	return resp, err
}

// heardHeartbeat tells the heartbeat listener of a heartbeat the server
// took, on the attempt's goroutine.
func (l *testListeners) heardHeartbeat(token []byte, details *commonpb.Payloads) {
	l.mu.Lock()
	listener, dc := l.set.activityHeartbeat, l.dc
	info, ok := l.byToken[string(token)]
	l.mu.Unlock()
	if listener != nil && ok {
		listener(&info, failure.NewEncodedValues(details, dc))
	}
}

// activityEvent reports whether the activity listeners need ev.
func activityEvent(ev *historypb.HistoryEvent) bool {
	switch ev.GetEventType() {
	case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED, enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED,
		enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED, enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED,
		enumspb.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT:
		return true
	}
	return false
}

// deliverActivityEvent runs on the listeners' goroutine, in event order.
func (l *testListeners) deliverActivityEvent(execution *commonpb.WorkflowExecution, ev *historypb.HistoryEvent, set listenerSet) {
	runID := execution.GetRunId()
	if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil {
		l.mu.Lock()
		if l.scheduled == nil {
			l.scheduled = make(map[scheduledKey]*activityRecord)
		}
		l.scheduled[scheduledKey{runID, ev.GetEventId()}] = &activityRecord{
			activityID: a.GetActivityId(), activityType: a.GetActivityType().GetName(), taskQueue: a.GetTaskQueue().GetName()}
		l.mu.Unlock()
		return
	}
	rec, info := l.activityOf(execution, scheduledIDOf(ev))
	if rec == nil {
		return
	}
	if ev.GetEventType() == enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED {
		rec.cancelRequested = true
		if set.activityCanceled != nil {
			set.activityCanceled(info)
		}
		return
	}
	if rec.cancelRequested || set.activityCompleted == nil {
		return // the canceled listener heard of it
	}
	l.mu.Lock()
	dc, fc, identity := l.dc, l.fc, l.identity
	l.mu.Unlock()
	if a := ev.GetActivityTaskCompletedEventAttributes(); a != nil {
		set.activityCompleted(info, failure.NewEncodedValue(a.GetResult(), dc), nil)
		return
	}
	var cause error
	var retryState enumspb.RetryState
	switch a := ev.GetAttributes().(type) {
	case *historypb.HistoryEvent_ActivityTaskFailedEventAttributes:
		cause, retryState = fc.FailureToError(a.ActivityTaskFailedEventAttributes.GetFailure()), a.ActivityTaskFailedEventAttributes.GetRetryState()
	case *historypb.HistoryEvent_ActivityTaskTimedOutEventAttributes:
		cause, retryState = fc.FailureToError(a.ActivityTaskTimedOutEventAttributes.GetFailure()), a.ActivityTaskTimedOutEventAttributes.GetRetryState()
	}
	var canceled *failure.CanceledError
	if errors.As(cause, &canceled) {
		return
	}
	set.activityCompleted(info, nil, failure.NewActivityError(0, 0, identity, rec.activityType, rec.activityID, retryState, cause))
}

// activityOf finds the activity an outcome event names, and the info of
// its latest attempt (made up from its schedule if none started).
func (l *testListeners) activityOf(execution *commonpb.WorkflowExecution, scheduledID int64) (*activityRecord, *internal.ActivityInfo) {
	l.mu.Lock()
	defer l.mu.Unlock()
	rec := l.scheduled[scheduledKey{execution.GetRunId(), scheduledID}]
	if rec == nil {
		return nil, nil
	}
	info, ok := l.attempts[attemptKey{execution.GetRunId(), rec.activityID}]
	if !ok {
		info = internal.ActivityInfo{
			ActivityID:        rec.activityID,
			ActivityType:      internal.ActivityType{Name: rec.activityType},
			TaskQueue:         rec.taskQueue,
			WorkflowExecution: clientapi.WorkflowExecution{ID: execution.GetWorkflowId(), RunID: execution.GetRunId()},
			Attempt:           1,
		}
	}
	return rec, &info
}

func scheduledIDOf(ev *historypb.HistoryEvent) int64 {
	switch a := ev.GetAttributes().(type) {
	case *historypb.HistoryEvent_ActivityTaskCancelRequestedEventAttributes:
		return a.ActivityTaskCancelRequestedEventAttributes.GetScheduledEventId()
	case *historypb.HistoryEvent_ActivityTaskCompletedEventAttributes:
		return a.ActivityTaskCompletedEventAttributes.GetScheduledEventId()
	case *historypb.HistoryEvent_ActivityTaskFailedEventAttributes:
		return a.ActivityTaskFailedEventAttributes.GetScheduledEventId()
	case *historypb.HistoryEvent_ActivityTaskTimedOutEventAttributes:
		return a.ActivityTaskTimedOutEventAttributes.GetScheduledEventId()
	}
	return 0
}
