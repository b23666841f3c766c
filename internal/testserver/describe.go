package testserver

import (
	"fmt"
	"slices"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
	"go.temporal.io/api/serviceerror"
	workflowpb "go.temporal.io/api/workflow/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// RunInfo is what the server can say of one run, for a frontend's
// DescribeWorkflowExecution and its workflow ID policies.
type RunInfo struct {
	Execution *commonpb.WorkflowExecution
	// Started is a copy of the run's WorkflowExecutionStarted attributes.
	Started    *historypb.WorkflowExecutionStartedEventAttributes
	Status     enumspb.WorkflowExecutionStatus
	StartTime  time.Time
	CloseTime  time.Time // zero while the run is open
	HistoryLen int64
	// HistorySize is the size of the history's events in bytes.
	HistorySize int64
	// Memo and SearchAttributes are the run's, with the upserts its
	// workflow made since it started.
	Memo             *commonpb.Memo
	SearchAttributes *commonpb.SearchAttributes
	// PendingActivities are the activities scheduled and not closed, in
	// the order they were scheduled.
	PendingActivities []*workflowpb.PendingActivityInfo
	// UserMetadata is the start's summary and details.
	UserMetadata *sdkpb.UserMetadata
	// CancelRequested: the run was asked to cancel.
	CancelRequested bool
	// WorkflowTaskAttempt is the attempt of the workflow task scheduled
	// or running (more than 1 while the run's tasks fail); 0 when none is.
	WorkflowTaskAttempt int32
}

// Describe says what the server knows of a run (the workflow's newest for
// an empty run ID).
func (s *Server) Describe(execution *commonpb.WorkflowExecution) (RunInfo, error) {
	s.lock()
	defer s.unlock()
	r, err := s.runLocked(execution)
	if err != nil {
		return RunInfo{}, err
	}
	info := runInfo(r)
	info.PendingActivities = s.pendingActivities(r)
	return info, nil
}

// Executions says what the server knows of each of its runs (their
// pending activities left out), for a frontend's visibility queries.
func (s *Server) Executions() []RunInfo {
	s.lock()
	defer s.unlock()
	out := make([]RunInfo, 0, len(s.runs))
	for _, r := range s.runs {
		out = append(out, runInfo(r))
	}
	return out
}

func runInfo(r *run) RunInfo {
	info := RunInfo{
		Execution: proto.CloneOf(r.execution), Started: clone(r.started),
		Status:     enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING,
		StartTime:  r.history[0].GetEventTime().AsTime(),
		HistoryLen: int64(len(r.history)), HistorySize: r.historyBytes,
		UserMetadata: clone(r.history[0].GetUserMetadata()), CancelRequested: r.cancelRequested,
	}
	info.Memo, info.SearchAttributes = upserted(r)
	if r.wft != nil {
		info.WorkflowTaskAttempt = r.wft.attempt
	}
	if r.closed {
		last := r.history[len(r.history)-1]
		info.Status = closeStatus(last.GetEventType())
		info.CloseTime = last.GetEventTime().AsTime()
	}
	return info
}

// upserted is a run's memo and search attributes: those it started with,
// updated by its upserts.
func upserted(r *run) (*commonpb.Memo, *commonpb.SearchAttributes) {
	memo := clone(r.started.GetMemo())
	attrs := clone(r.started.GetSearchAttributes())
	for _, ev := range r.history {
		if up := ev.GetUpsertWorkflowSearchAttributesEventAttributes(); up != nil {
			if attrs == nil {
				attrs = &commonpb.SearchAttributes{}
			}
			if attrs.IndexedFields == nil {
				attrs.IndexedFields = make(map[string]*commonpb.Payload)
			}
			for k, v := range up.GetSearchAttributes().GetIndexedFields() {
				if isNullPayload(v) {
					delete(attrs.IndexedFields, k) // an upsert of no value removes it
					continue
				}
				attrs.IndexedFields[k] = clone(v)
			}
		}
		if mod := ev.GetWorkflowPropertiesModifiedEventAttributes(); mod != nil {
			if memo == nil {
				memo = &commonpb.Memo{}
			}
			if memo.Fields == nil {
				memo.Fields = make(map[string]*commonpb.Payload)
			}
			for k, v := range mod.GetUpsertedMemo().GetFields() {
				if isNullPayload(v) {
					delete(memo.Fields, k)
					continue
				}
				memo.Fields[k] = clone(v)
			}
		}
	}
	return memo, attrs
}

// pendingActivities describes a run's open activities as a server's
// DescribeWorkflowExecution does.
func (s *Server) pendingActivities(r *run) []*workflowpb.PendingActivityInfo {
	ids := make([]int64, 0, len(r.activities))
	for id := range r.activities {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := make([]*workflowpb.PendingActivityInfo, 0, len(ids))
	for _, id := range ids {
		a := r.activities[id]
		info := &workflowpb.PendingActivityInfo{
			ActivityId: a.attrs.GetActivityId(), ActivityType: proto.CloneOf(a.attrs.GetActivityType()),
			State: enumspb.PENDING_ACTIVITY_STATE_SCHEDULED, HeartbeatDetails: clone(a.details), Attempt: a.attempt,
			MaximumAttempts: a.attrs.GetRetryPolicy().GetMaximumAttempts(), LastFailure: clone(a.lastFailure),
			LastWorkerIdentity: a.identity, ScheduledTime: timestamppb.New(a.attemptSchedule), Priority: proto.CloneOf(a.attrs.GetPriority()),
		}
		if a.state == activityStarted {
			info.State = enumspb.PENDING_ACTIVITY_STATE_STARTED
			info.LastStartedTime = timestamppb.New(a.started)
		}
		if a.cancelRequested != 0 {
			info.State = enumspb.PENDING_ACTIVITY_STATE_CANCEL_REQUESTED
		}
		out = append(out, info)
	}
	return out
}

// closeStatus is the status a run's close event gives it.
func closeStatus(t enumspb.EventType) enumspb.WorkflowExecutionStatus {
	switch t {
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED:
		return enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED:
		return enumspb.WORKFLOW_EXECUTION_STATUS_FAILED
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED:
		return enumspb.WORKFLOW_EXECUTION_STATUS_CANCELED
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED:
		return enumspb.WORKFLOW_EXECUTION_STATUS_TERMINATED
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT:
		return enumspb.WORKFLOW_EXECUTION_STATUS_TIMED_OUT
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW:
		return enumspb.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW
	}
	return enumspb.WORKFLOW_EXECUTION_STATUS_UNSPECIFIED
}

// ActivityTaskToken returns the task token of the running attempt of a
// run's activity, by its activity ID: the calls that name an activity by
// ID (RecordActivityTaskHeartbeatById, RespondActivityTaskCompletedById,
// ...) act on it.
func (s *Server) ActivityTaskToken(execution *commonpb.WorkflowExecution, activityID string) ([]byte, error) {
	s.lock()
	defer s.unlock()
	r, err := s.openRunLocked(execution)
	if err != nil {
		return nil, err
	}
	for _, a := range r.activities {
		if a.attrs.GetActivityId() != activityID {
			continue
		}
		if a.state != activityStarted {
			return nil, serviceerror.NewNotFound(fmt.Sprintf("activity %q of workflow %q is not running: no worker has started its attempt", activityID, execution.GetWorkflowId()))
		}
		return append([]byte(nil), a.token...), nil
	}
	return nil, serviceerror.NewNotFound(fmt.Sprintf("workflow %q has no open activity %q", execution.GetWorkflowId(), activityID))
}

// WatchUpdate returns a watcher of an update the run already knows, by
// its ID (a client polling for its outcome).
func (s *Server) WatchUpdate(execution *commonpb.WorkflowExecution, updateID string) (*UpdateWatcher, error) {
	s.lock()
	defer s.unlock()
	r, err := s.runLocked(execution)
	if err != nil {
		return nil, err
	}
	u := r.updates[updateID]
	if u == nil {
		return nil, serviceerror.NewNotFound(fmt.Sprintf("workflow %q has no update %q", execution.GetWorkflowId(), updateID))
	}
	ch := make(chan UpdateNotice, 2)
	u.watchers = append(u.watchers, ch)
	if u.state >= updateAccepted && u.state != updateRejected {
		s.notify(ch, UpdateNotice{Stage: UpdateAccepted})
	}
	if u.state == updateCompleted {
		s.notify(ch, UpdateNotice{Stage: UpdateCompleted, Outcome: u.outcome})
	}
	return &UpdateWatcher{C: ch, clock: s.clock}, nil
}
