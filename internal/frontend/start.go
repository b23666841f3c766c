package frontend

import (
	"context"
	"fmt"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/durable-go/sdk/internal/testserver"
	"github.com/durable-go/sdk/internal/uuid"
)

// startRequest is what StartWorkflowExecution and
// SignalWithStartWorkflowExecution share: the fields of a start.
type startRequest struct {
	namespace, workflowID, requestID, identity, cronSchedule string
	workflowType                                             *commonpb.WorkflowType
	taskQueue                                                *taskqueuepb.TaskQueue
	input                                                    *commonpb.Payloads
	executionTimeout, runTimeout, taskTimeout, startDelay    *durationpb.Duration
	reusePolicy                                              enumspb.WorkflowIdReusePolicy
	conflictPolicy                                           enumspb.WorkflowIdConflictPolicy
	retryPolicy                                              *commonpb.RetryPolicy
	memo                                                     *commonpb.Memo
	searchAttributes                                         *commonpb.SearchAttributes
	header                                                   *commonpb.Header
}

// maxWorkflowTaskTimeout is the longest workflow task timeout a server
// takes; longer ones are cut to it, and unset ones are 10 s.
const (
	maxWorkflowTaskTimeout     = 120 * time.Second
	defaultWorkflowTaskTimeout = 10 * time.Second
)

// startedAttributes maps a start request to the WorkflowExecutionStarted
// event a server writes for it: its timeouts normalized, its retry
// policy's unset fields filled in, a cron workflow's first run delayed to
// the schedule's first time.
func (f *Frontend) startedAttributes(req startRequest, runID string) (*historypb.WorkflowExecutionStartedEventAttributes, error) {
	if req.workflowID == "" {
		return nil, serviceerror.NewInvalidArgument("a workflow start needs a workflow ID")
	}
	if req.workflowType.GetName() == "" {
		return nil, serviceerror.NewInvalidArgument("a workflow start needs a workflow type")
	}
	if req.taskQueue.GetName() == "" {
		return nil, serviceerror.NewInvalidArgument("a workflow start needs a task queue")
	}
	for _, d := range []*durationpb.Duration{req.executionTimeout, req.runTimeout, req.taskTimeout, req.startDelay} {
		if d.AsDuration() < 0 {
			return nil, serviceerror.NewInvalidArgument(fmt.Sprintf("workflow %q: a timeout or delay is negative (%v)", req.workflowID, d.AsDuration()))
		}
	}
	runTimeout := req.runTimeout.AsDuration()
	executionTimeout := req.executionTimeout.AsDuration()
	if executionTimeout > 0 && (runTimeout == 0 || runTimeout > executionTimeout) {
		runTimeout = executionTimeout
	}
	taskTimeout := req.taskTimeout.AsDuration()
	if taskTimeout <= 0 {
		taskTimeout = defaultWorkflowTaskTimeout
	}
	taskTimeout = min(taskTimeout, maxWorkflowTaskTimeout)
	if runTimeout > 0 {
		taskTimeout = min(taskTimeout, runTimeout)
	}
	now := f.clock.Now()
	backoff := req.startDelay.AsDuration()
	if req.cronSchedule != "" {
		next, err := testserver.NextCronTime(req.cronSchedule, now.UTC())
		if err != nil {
			return nil, serviceerror.NewInvalidArgument(fmt.Sprintf("workflow %q: invalid cron schedule %q: %v", req.workflowID, req.cronSchedule, err))
		}
		if !next.IsZero() {
			backoff += next.Sub(now.UTC())
		}
	}
	taskQueue := &taskqueuepb.TaskQueue{Name: req.taskQueue.GetName(), Kind: enumspb.TASK_QUEUE_KIND_NORMAL}
	attrs := &historypb.WorkflowExecutionStartedEventAttributes{
		WorkflowType: req.workflowType, TaskQueue: taskQueue, Input: req.input,
		WorkflowExecutionTimeout: req.executionTimeout, WorkflowRunTimeout: durationpb.New(runTimeout),
		WorkflowTaskTimeout: durationpb.New(taskTimeout), Identity: req.identity,
		OriginalExecutionRunId: runID, FirstExecutionRunId: runID, Attempt: 1,
		CronSchedule: req.cronSchedule, Memo: req.memo, SearchAttributes: req.searchAttributes, Header: req.header,
		WorkflowId: req.workflowID,
	}
	if req.retryPolicy != nil {
		attrs.RetryPolicy = retryPolicyWithDefaults(req.retryPolicy)
	}
	if executionTimeout > 0 {
		attrs.WorkflowExecutionExpirationTime = timestamppb.New(now.Add(executionTimeout))
	}
	if backoff > 0 {
		attrs.FirstWorkflowTaskBackoff = durationpb.New(backoff)
	}
	return attrs, nil
}

// retryPolicyWithDefaults fills in a workflow retry policy's unset fields
// as a server does.
func retryPolicyWithDefaults(p *commonpb.RetryPolicy) *commonpb.RetryPolicy {
	out := &commonpb.RetryPolicy{
		InitialInterval: p.GetInitialInterval(), BackoffCoefficient: p.GetBackoffCoefficient(),
		MaximumInterval: p.GetMaximumInterval(), MaximumAttempts: p.GetMaximumAttempts(),
		NonRetryableErrorTypes: p.GetNonRetryableErrorTypes(),
	}
	if out.GetInitialInterval().AsDuration() <= 0 {
		out.InitialInterval = durationpb.New(time.Second)
	}
	if out.GetBackoffCoefficient() < 1 {
		out.BackoffCoefficient = 2
	}
	if out.GetMaximumInterval().AsDuration() <= 0 {
		out.MaximumInterval = durationpb.New(100 * out.GetInitialInterval().AsDuration())
	}
	return out
}

// admit applies the workflow ID's reuse and conflict policies to a start:
// existing, when set, is the open run the start resolves to (use
// existing); otherwise the start may go ahead, after any open run it
// replaces was terminated.
func (f *Frontend) admit(srv *testserver.Server, req startRequest) (existing *commonpb.WorkflowExecution, err error) {
	latest, err := srv.Describe(&commonpb.WorkflowExecution{WorkflowId: req.workflowID})
	if err != nil {
		return nil, nil // no run of this workflow ID yet
	}
	runID := latest.Execution.GetRunId()
	if latest.Status == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
		conflict := req.conflictPolicy
		if conflict == enumspb.WORKFLOW_ID_CONFLICT_POLICY_UNSPECIFIED {
			conflict = enumspb.WORKFLOW_ID_CONFLICT_POLICY_FAIL
			//lint:ignore SA1019 older clients still send it, and a server still honours it
			if req.reusePolicy == enumspb.WORKFLOW_ID_REUSE_POLICY_TERMINATE_IF_RUNNING {
				conflict = enumspb.WORKFLOW_ID_CONFLICT_POLICY_TERMINATE_EXISTING
			}
		}
		switch conflict {
		case enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING:
			return latest.Execution, nil
		case enumspb.WORKFLOW_ID_CONFLICT_POLICY_TERMINATE_EXISTING:
			err := srv.Terminate(latest.Execution, "terminated by a new start of its workflow ID (conflict policy TERMINATE_EXISTING)", nil, req.identity)
			return nil, err
		default:
			return nil, serviceerror.NewWorkflowExecutionAlreadyStarted(
				fmt.Sprintf("workflow %q is already running (run %s)", req.workflowID, runID), req.requestID, runID)
		}
	}
	switch req.reusePolicy {
	case enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE:
		return nil, serviceerror.NewWorkflowExecutionAlreadyStarted(
			fmt.Sprintf("workflow %q ran before (run %s) and its ID reuse policy is REJECT_DUPLICATE", req.workflowID, runID), req.requestID, runID)
	case enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY:
		if latest.Status == enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED {
			return nil, serviceerror.NewWorkflowExecutionAlreadyStarted(
				fmt.Sprintf("workflow %q completed before (run %s) and its ID reuse policy is ALLOW_DUPLICATE_FAILED_ONLY", req.workflowID, runID), req.requestID, runID)
		}
	}
	return nil, nil
}

// StartWorkflowExecution starts a workflow run.
func (f *Frontend) StartWorkflowExecution(_ context.Context, req *workflowservice.StartWorkflowExecutionRequest) (*workflowservice.StartWorkflowExecutionResponse, error) {
	srv, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	if err := checkTaskQueue(req.GetTaskQueue()); err != nil {
		return nil, err
	}
	if seen := f.seenRequest(req.GetNamespace(), req.GetRequestId()); seen != nil {
		return &workflowservice.StartWorkflowExecutionResponse{RunId: seen.GetRunId(), Started: true}, nil
	}
	start := startRequest{
		namespace: req.GetNamespace(), workflowID: req.GetWorkflowId(), requestID: req.GetRequestId(), identity: req.GetIdentity(),
		cronSchedule: req.GetCronSchedule(), workflowType: req.GetWorkflowType(), taskQueue: req.GetTaskQueue(), input: req.GetInput(),
		executionTimeout: req.GetWorkflowExecutionTimeout(), runTimeout: req.GetWorkflowRunTimeout(), taskTimeout: req.GetWorkflowTaskTimeout(),
		startDelay: req.GetWorkflowStartDelay(), reusePolicy: req.GetWorkflowIdReusePolicy(), conflictPolicy: req.GetWorkflowIdConflictPolicy(),
		retryPolicy: req.GetRetryPolicy(), memo: req.GetMemo(), searchAttributes: req.GetSearchAttributes(), header: req.GetHeader(),
	}
	if err := srv.CheckSearchAttributes(req.GetSearchAttributes()); err != nil {
		return nil, err
	}
	existing, err := f.admit(srv, start)
	if err != nil {
		return nil, err
	}
	if existing != nil {
		return &workflowservice.StartWorkflowExecutionResponse{RunId: existing.GetRunId(), Started: false}, nil
	}
	runID := uuid.New()
	attrs, err := f.startedAttributes(start, runID)
	if err != nil {
		return nil, err
	}
	attrs.ContinuedFailure, attrs.LastCompletionResult = req.GetContinuedFailure(), req.GetLastCompletionResult()
	attrs.CompletionCallbacks, attrs.Priority = req.GetCompletionCallbacks(), req.GetPriority()
	execution, err := srv.StartWorkflowWith(req.GetWorkflowId(), runID, attrs,
		testserver.StartEvent{UserMetadata: req.GetUserMetadata(), Links: req.GetLinks()})
	if err != nil {
		return nil, err
	}
	f.recordRequest(req.GetNamespace(), req.GetRequestId(), execution)
	return &workflowservice.StartWorkflowExecutionResponse{RunId: execution.GetRunId(), Started: true,
		Status: enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING, Link: startedEventLink(req.GetNamespace(), execution)}, nil
}

// SignalWithStartWorkflowExecution signals a workflow's open run, or
// starts one with the signal.
func (f *Frontend) SignalWithStartWorkflowExecution(_ context.Context, req *workflowservice.SignalWithStartWorkflowExecutionRequest) (*workflowservice.SignalWithStartWorkflowExecutionResponse, error) {
	srv, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	if req.GetSignalName() == "" {
		return nil, serviceerror.NewInvalidArgument("a signal-with-start needs a signal name")
	}
	if err := checkTaskQueue(req.GetTaskQueue()); err != nil {
		return nil, err
	}
	if err := srv.CheckSearchAttributes(req.GetSearchAttributes()); err != nil {
		return nil, err
	}
	start := startRequest{
		namespace: req.GetNamespace(), workflowID: req.GetWorkflowId(), requestID: req.GetRequestId(), identity: req.GetIdentity(),
		cronSchedule: req.GetCronSchedule(), workflowType: req.GetWorkflowType(), taskQueue: req.GetTaskQueue(), input: req.GetInput(),
		executionTimeout: req.GetWorkflowExecutionTimeout(), runTimeout: req.GetWorkflowRunTimeout(), taskTimeout: req.GetWorkflowTaskTimeout(),
		startDelay: req.GetWorkflowStartDelay(), reusePolicy: req.GetWorkflowIdReusePolicy(), conflictPolicy: req.GetWorkflowIdConflictPolicy(),
		retryPolicy: req.GetRetryPolicy(), memo: req.GetMemo(), searchAttributes: req.GetSearchAttributes(), header: req.GetHeader(),
	}
	// An open run takes the signal whatever the policies say (a
	// signal-with-start's conflict policy is "use existing").
	if start.conflictPolicy == enumspb.WORKFLOW_ID_CONFLICT_POLICY_UNSPECIFIED {
		start.conflictPolicy = enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING
	}
	if start.conflictPolicy != enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING {
		if _, err := f.admit(srv, start); err != nil {
			return nil, err
		}
	} else if _, err := f.admit(srv, startRequest{workflowID: start.workflowID, reusePolicy: start.reusePolicy,
		conflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING, requestID: start.requestID}); err != nil {
		return nil, err
	}
	runID := uuid.New()
	attrs, err := f.startedAttributes(start, runID)
	if err != nil {
		return nil, err
	}
	attrs.Priority = req.GetPriority()
	signal := &historypb.WorkflowExecutionSignaledEventAttributes{
		SignalName: req.GetSignalName(), Input: req.GetSignalInput(), Header: req.GetHeader(), Identity: req.GetIdentity(),
	}
	execution, started, err := srv.SignalWithStart(req.GetWorkflowId(), runID, attrs,
		testserver.StartEvent{UserMetadata: req.GetUserMetadata(), Links: req.GetLinks()}, signal)
	if err != nil {
		return nil, err
	}
	return &workflowservice.SignalWithStartWorkflowExecutionResponse{RunId: execution.GetRunId(), Started: started}, nil
}

// startedEventLink is the link a server's start answers with: to the
// started run's first event.
func startedEventLink(namespace string, execution *commonpb.WorkflowExecution) *commonpb.Link {
	return &commonpb.Link{Variant: &commonpb.Link_WorkflowEvent_{WorkflowEvent: &commonpb.Link_WorkflowEvent{
		Namespace: namespace, WorkflowId: execution.GetWorkflowId(), RunId: execution.GetRunId(),
		Reference: &commonpb.Link_WorkflowEvent_EventRef{EventRef: &commonpb.Link_WorkflowEvent_EventReference{
			EventId: 1, EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED}},
	}}}
}
