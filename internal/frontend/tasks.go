package frontend

import (
	"context"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/workflowservice/v1"
)

// The worker's calls: long polls of task queues (sticky ones included)
// and the answers to the tasks they hand out. A long poll that finds no
// task answers empty shortly before the call's deadline, as a server's.

// PollWorkflowTaskQueue hands out a workflow or query task.
func (f *Frontend) PollWorkflowTaskQueue(ctx context.Context, req *workflowservice.PollWorkflowTaskQueueRequest) (*workflowservice.PollWorkflowTaskQueueResponse, error) {
	if err := f.checkNamespace(req.GetNamespace()); err != nil {
		return nil, err
	}
	wait := longPollContext(ctx)
	defer wait.cancel()
	return f.server.PollWorkflowTaskQueue(wait.ctx, req)
}

// RespondWorkflowTaskCompleted takes a workflow task's commands.
func (f *Frontend) RespondWorkflowTaskCompleted(ctx context.Context, req *workflowservice.RespondWorkflowTaskCompletedRequest) (*workflowservice.RespondWorkflowTaskCompletedResponse, error) {
	if err := f.checkNamespace(req.GetNamespace()); err != nil {
		return nil, err
	}
	return f.server.RespondWorkflowTaskCompleted(ctx, req)
}

// RespondWorkflowTaskFailed records a failed workflow task.
func (f *Frontend) RespondWorkflowTaskFailed(ctx context.Context, req *workflowservice.RespondWorkflowTaskFailedRequest) (*workflowservice.RespondWorkflowTaskFailedResponse, error) {
	if err := f.checkNamespace(req.GetNamespace()); err != nil {
		return nil, err
	}
	return f.server.RespondWorkflowTaskFailed(ctx, req)
}

// RespondQueryTaskCompleted answers a query.
func (f *Frontend) RespondQueryTaskCompleted(ctx context.Context, req *workflowservice.RespondQueryTaskCompletedRequest) (*workflowservice.RespondQueryTaskCompletedResponse, error) {
	if err := f.checkNamespace(req.GetNamespace()); err != nil {
		return nil, err
	}
	return f.server.RespondQueryTaskCompleted(ctx, req)
}

// PollActivityTaskQueue hands out an activity task.
func (f *Frontend) PollActivityTaskQueue(ctx context.Context, req *workflowservice.PollActivityTaskQueueRequest) (*workflowservice.PollActivityTaskQueueResponse, error) {
	if err := f.checkNamespace(req.GetNamespace()); err != nil {
		return nil, err
	}
	wait := longPollContext(ctx)
	defer wait.cancel()
	return f.server.PollActivityTaskQueue(wait.ctx, req)
}

// RecordActivityTaskHeartbeat records a running activity's heartbeat.
func (f *Frontend) RecordActivityTaskHeartbeat(ctx context.Context, req *workflowservice.RecordActivityTaskHeartbeatRequest) (*workflowservice.RecordActivityTaskHeartbeatResponse, error) {
	if err := f.checkNamespace(req.GetNamespace()); err != nil {
		return nil, err
	}
	return f.server.RecordActivityTaskHeartbeat(ctx, req)
}

// RespondActivityTaskCompleted records an activity's result.
func (f *Frontend) RespondActivityTaskCompleted(ctx context.Context, req *workflowservice.RespondActivityTaskCompletedRequest) (*workflowservice.RespondActivityTaskCompletedResponse, error) {
	if err := f.checkNamespace(req.GetNamespace()); err != nil {
		return nil, err
	}
	return f.server.RespondActivityTaskCompleted(ctx, req)
}

// RespondActivityTaskFailed records an activity attempt's failure.
func (f *Frontend) RespondActivityTaskFailed(ctx context.Context, req *workflowservice.RespondActivityTaskFailedRequest) (*workflowservice.RespondActivityTaskFailedResponse, error) {
	if err := f.checkNamespace(req.GetNamespace()); err != nil {
		return nil, err
	}
	return f.server.RespondActivityTaskFailed(ctx, req)
}

// RespondActivityTaskCanceled records an activity's cancellation.
func (f *Frontend) RespondActivityTaskCanceled(ctx context.Context, req *workflowservice.RespondActivityTaskCanceledRequest) (*workflowservice.RespondActivityTaskCanceledResponse, error) {
	if err := f.checkNamespace(req.GetNamespace()); err != nil {
		return nil, err
	}
	return f.server.RespondActivityTaskCanceled(ctx, req)
}

// activityToken finds the task token of an activity named by its
// workflow and activity IDs (the ...ById calls).
func (f *Frontend) activityToken(namespace, workflowID, runID, activityID string) ([]byte, error) {
	if err := f.checkNamespace(namespace); err != nil {
		return nil, err
	}
	return f.server.ActivityTaskToken(&commonpb.WorkflowExecution{WorkflowId: workflowID, RunId: runID}, activityID)
}

// RecordActivityTaskHeartbeatById is RecordActivityTaskHeartbeat for an
// activity named by ID.
func (f *Frontend) RecordActivityTaskHeartbeatById(ctx context.Context, req *workflowservice.RecordActivityTaskHeartbeatByIdRequest) (*workflowservice.RecordActivityTaskHeartbeatByIdResponse, error) {
	token, err := f.activityToken(req.GetNamespace(), req.GetWorkflowId(), req.GetRunId(), req.GetActivityId())
	if err != nil {
		return nil, err
	}
	resp, err := f.server.RecordActivityTaskHeartbeat(ctx, &workflowservice.RecordActivityTaskHeartbeatRequest{
		Namespace: req.GetNamespace(), TaskToken: token, Details: req.GetDetails(), Identity: req.GetIdentity()})
	if err != nil {
		return nil, err
	}
	return &workflowservice.RecordActivityTaskHeartbeatByIdResponse{CancelRequested: resp.GetCancelRequested()}, nil
}

// RespondActivityTaskCompletedById is RespondActivityTaskCompleted for an
// activity named by ID.
func (f *Frontend) RespondActivityTaskCompletedById(ctx context.Context, req *workflowservice.RespondActivityTaskCompletedByIdRequest) (*workflowservice.RespondActivityTaskCompletedByIdResponse, error) {
	token, err := f.activityToken(req.GetNamespace(), req.GetWorkflowId(), req.GetRunId(), req.GetActivityId())
	if err != nil {
		return nil, err
	}
	if _, err := f.server.RespondActivityTaskCompleted(ctx, &workflowservice.RespondActivityTaskCompletedRequest{
		Namespace: req.GetNamespace(), TaskToken: token, Result: req.GetResult(), Identity: req.GetIdentity()}); err != nil {
		return nil, err
	}
	return &workflowservice.RespondActivityTaskCompletedByIdResponse{}, nil
}

// RespondActivityTaskFailedById is RespondActivityTaskFailed for an
// activity named by ID.
func (f *Frontend) RespondActivityTaskFailedById(ctx context.Context, req *workflowservice.RespondActivityTaskFailedByIdRequest) (*workflowservice.RespondActivityTaskFailedByIdResponse, error) {
	token, err := f.activityToken(req.GetNamespace(), req.GetWorkflowId(), req.GetRunId(), req.GetActivityId())
	if err != nil {
		return nil, err
	}
	if _, err := f.server.RespondActivityTaskFailed(ctx, &workflowservice.RespondActivityTaskFailedRequest{
		Namespace: req.GetNamespace(), TaskToken: token, Failure: req.GetFailure(), Identity: req.GetIdentity(),
		LastHeartbeatDetails: req.GetLastHeartbeatDetails()}); err != nil {
		return nil, err
	}
	return &workflowservice.RespondActivityTaskFailedByIdResponse{}, nil
}

// RespondActivityTaskCanceledById is RespondActivityTaskCanceled for an
// activity named by ID.
func (f *Frontend) RespondActivityTaskCanceledById(ctx context.Context, req *workflowservice.RespondActivityTaskCanceledByIdRequest) (*workflowservice.RespondActivityTaskCanceledByIdResponse, error) {
	token, err := f.activityToken(req.GetNamespace(), req.GetWorkflowId(), req.GetRunId(), req.GetActivityId())
	if err != nil {
		return nil, err
	}
	if _, err := f.server.RespondActivityTaskCanceled(ctx, &workflowservice.RespondActivityTaskCanceledRequest{
		Namespace: req.GetNamespace(), TaskToken: token, Details: req.GetDetails(), Identity: req.GetIdentity()}); err != nil {
		return nil, err
	}
	return &workflowservice.RespondActivityTaskCanceledByIdResponse{}, nil
}

// ShutdownWorker sends the runs sticky to the stopping worker's queue
// back to their normal queues, as a server does.
func (f *Frontend) ShutdownWorker(_ context.Context, req *workflowservice.ShutdownWorkerRequest) (*workflowservice.ShutdownWorkerResponse, error) {
	if err := f.checkNamespace(req.GetNamespace()); err != nil {
		return nil, err
	}
	if q := req.GetStickyTaskQueue(); q != "" {
		f.server.ForgetStickyQueue(q)
	}
	return &workflowservice.ShutdownWorkerResponse{}, nil
}
