package frontend

import (
	"context"
	"fmt"

	enumspb "go.temporal.io/api/enums/v1"
	querypb "go.temporal.io/api/query/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// SignalWorkflowExecution delivers a signal to a run.
func (f *Frontend) SignalWorkflowExecution(_ context.Context, req *workflowservice.SignalWorkflowExecutionRequest) (*workflowservice.SignalWorkflowExecutionResponse, error) {
	srv, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	err = srv.Signal(req.GetWorkflowExecution(), req.GetSignalName(), req.GetInput(), req.GetHeader(), req.GetIdentity(), false)
	if err != nil {
		return nil, err
	}
	return &workflowservice.SignalWorkflowExecutionResponse{}, nil
}

// RequestCancelWorkflowExecution asks a run to cancel itself, for the
// request's reason. As on a server, asking again, or asking a run that
// has closed, succeeds and writes nothing.
func (f *Frontend) RequestCancelWorkflowExecution(_ context.Context, req *workflowservice.RequestCancelWorkflowExecutionRequest) (*workflowservice.RequestCancelWorkflowExecutionResponse, error) {
	srv, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	if err := requestCancel(srv, req); err != nil {
		return nil, err
	}
	return &workflowservice.RequestCancelWorkflowExecutionResponse{}, nil
}

// TerminateWorkflowExecution closes a run at once.
func (f *Frontend) TerminateWorkflowExecution(_ context.Context, req *workflowservice.TerminateWorkflowExecutionRequest) (*workflowservice.TerminateWorkflowExecutionResponse, error) {
	srv, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	if err := srv.Terminate(req.GetWorkflowExecution(), req.GetReason(), req.GetDetails(), req.GetIdentity()); err != nil {
		return nil, err
	}
	return &workflowservice.TerminateWorkflowExecutionResponse{}, nil
}

// failingWorkflowTaskAttempt is the workflow task attempt from which a
// query fails at once, as on a Temporal server.
const failingWorkflowTaskAttempt = 3

// QueryWorkflow asks the run's worker a query and waits for its answer.
func (f *Frontend) QueryWorkflow(ctx context.Context, req *workflowservice.QueryWorkflowRequest) (*workflowservice.QueryWorkflowResponse, error) {
	srv, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	info, err := srv.Describe(req.GetExecution())
	if err != nil {
		return nil, err
	}
	if req.GetQueryRejectCondition() != enumspb.QUERY_REJECT_CONDITION_NONE && req.GetQueryRejectCondition() != enumspb.QUERY_REJECT_CONDITION_UNSPECIFIED {
		reject := info.Status != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING
		if req.GetQueryRejectCondition() == enumspb.QUERY_REJECT_CONDITION_NOT_COMPLETED_CLEANLY {
			reject = reject && info.Status != enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED
		}
		if reject {
			return &workflowservice.QueryWorkflowResponse{QueryRejected: &querypb.QueryRejected{Status: info.Status}}, nil
		}
	}
	// A worker cannot answer while the run's workflow tasks keep failing:
	// a Temporal server says so at once from the third attempt on.
	if info.Status == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING && info.WorkflowTaskAttempt >= failingWorkflowTaskAttempt {
		return nil, serviceerror.NewWorkflowNotReady(fmt.Sprintf(
			"cannot query workflow %q: its workflow task is failing (attempt %d); see the worker's log for why, and query again once a task succeeds",
			info.Execution.GetWorkflowId(), info.WorkflowTaskAttempt))
	}
	// A Temporal server answers a query after the workflow has handled
	// what reached it before the query: while a workflow task is
	// scheduled or running, the query waits for it, so that a query sent
	// after a signal sees the signal.
	if err := srv.WaitSettled(ctx, req.GetExecution()); err != nil {
		return nil, err
	}
	result, err := srv.Query(ctx, req.GetExecution(), req.GetQuery())
	if err != nil {
		return nil, err
	}
	return &workflowservice.QueryWorkflowResponse{QueryResult: result}, nil
}

// DescribeWorkflowExecution describes a run: its configuration (with the
// start's summary and details), status, history length, memo and search
// attributes, and pending activities. Pending children are not listed.
func (f *Frontend) DescribeWorkflowExecution(_ context.Context, req *workflowservice.DescribeWorkflowExecutionRequest) (*workflowservice.DescribeWorkflowExecutionResponse, error) {
	srv, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	info, err := srv.Describe(req.GetExecution())
	if err != nil {
		return nil, err
	}
	started := info.Started
	return &workflowservice.DescribeWorkflowExecutionResponse{
		ExecutionConfig: &workflowpb.WorkflowExecutionConfig{
			TaskQueue:                  &taskqueuepb.TaskQueue{Name: started.GetTaskQueue().GetName(), Kind: enumspb.TASK_QUEUE_KIND_NORMAL},
			WorkflowExecutionTimeout:   started.GetWorkflowExecutionTimeout(),
			WorkflowRunTimeout:         started.GetWorkflowRunTimeout(),
			DefaultWorkflowTaskTimeout: started.GetWorkflowTaskTimeout(),
			UserMetadata:               info.UserMetadata,
		},
		WorkflowExecutionInfo: executionInfo(req.GetNamespace(), info),
		PendingActivities:     info.PendingActivities,
		WorkflowExtendedInfo: &workflowpb.WorkflowExecutionExtendedInfo{
			ExecutionExpirationTime: started.GetWorkflowExecutionExpirationTime(),
			OriginalStartTime:       timestamppb.New(info.StartTime), CancelRequested: info.CancelRequested,
		},
	}, nil
}
