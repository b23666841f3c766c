package frontend

import (
	"context"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal/testserver"
)

// The worker's calls: long polls of task queues (sticky ones included)
// and the answers to the tasks they hand out. A long poll that finds no
// task answers empty shortly before the call's deadline, as a server's.

// PollWorkflowTaskQueue hands out a workflow or query task.
func (f *Frontend) PollWorkflowTaskQueue(ctx context.Context, req *workflowservice.PollWorkflowTaskQueueRequest) (*workflowservice.PollWorkflowTaskQueueResponse, error) {
	srv, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	if err := checkTaskQueue(req.GetTaskQueue()); err != nil {
		return nil, err
	}
	wait := longPollContext(ctx)
	defer wait.cancel()
	return srv.PollWorkflowTaskQueue(wait.ctx, req)
}

// RespondWorkflowTaskCompleted takes a workflow task's commands.
func (f *Frontend) RespondWorkflowTaskCompleted(ctx context.Context, req *workflowservice.RespondWorkflowTaskCompletedRequest) (*workflowservice.RespondWorkflowTaskCompletedResponse, error) {
	srv, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	return srv.RespondWorkflowTaskCompleted(ctx, req)
}

// RespondWorkflowTaskFailed records a failed workflow task.
func (f *Frontend) RespondWorkflowTaskFailed(ctx context.Context, req *workflowservice.RespondWorkflowTaskFailedRequest) (*workflowservice.RespondWorkflowTaskFailedResponse, error) {
	srv, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	return srv.RespondWorkflowTaskFailed(ctx, req)
}

// RespondQueryTaskCompleted answers a query.
func (f *Frontend) RespondQueryTaskCompleted(ctx context.Context, req *workflowservice.RespondQueryTaskCompletedRequest) (*workflowservice.RespondQueryTaskCompletedResponse, error) {
	srv, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	return srv.RespondQueryTaskCompleted(ctx, req)
}

// PollActivityTaskQueue hands out an activity task.
func (f *Frontend) PollActivityTaskQueue(ctx context.Context, req *workflowservice.PollActivityTaskQueueRequest) (*workflowservice.PollActivityTaskQueueResponse, error) {
	srv, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	if err := checkTaskQueue(req.GetTaskQueue()); err != nil {
		return nil, err
	}
	wait := longPollContext(ctx)
	defer wait.cancel()
	return srv.PollActivityTaskQueue(wait.ctx, req)
}

// RecordActivityTaskHeartbeat records a running activity's heartbeat.
func (f *Frontend) RecordActivityTaskHeartbeat(ctx context.Context, req *workflowservice.RecordActivityTaskHeartbeatRequest) (*workflowservice.RecordActivityTaskHeartbeatResponse, error) {
	srv, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	return srv.RecordActivityTaskHeartbeat(ctx, req)
}

// RespondActivityTaskCompleted records an activity's result.
func (f *Frontend) RespondActivityTaskCompleted(ctx context.Context, req *workflowservice.RespondActivityTaskCompletedRequest) (*workflowservice.RespondActivityTaskCompletedResponse, error) {
	srv, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	return srv.RespondActivityTaskCompleted(ctx, req)
}

// RespondActivityTaskFailed records an activity attempt's failure.
func (f *Frontend) RespondActivityTaskFailed(ctx context.Context, req *workflowservice.RespondActivityTaskFailedRequest) (*workflowservice.RespondActivityTaskFailedResponse, error) {
	srv, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	return srv.RespondActivityTaskFailed(ctx, req)
}

// RespondActivityTaskCanceled records an activity's cancellation.
func (f *Frontend) RespondActivityTaskCanceled(ctx context.Context, req *workflowservice.RespondActivityTaskCanceledRequest) (*workflowservice.RespondActivityTaskCanceledResponse, error) {
	srv, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	return srv.RespondActivityTaskCanceled(ctx, req)
}

// activityToken finds the task token of an activity named by its
// workflow and activity IDs (the ...ById calls), and its namespace's
// server.
func (f *Frontend) activityToken(namespace, workflowID, runID, activityID string) (*testserver.Server, []byte, error) {
	srv, err := f.serverOf(namespace)
	if err != nil {
		return nil, nil, err
	}
	token, err := srv.ActivityTaskToken(&commonpb.WorkflowExecution{WorkflowId: workflowID, RunId: runID}, activityID)
	return srv, token, err
}

// RecordActivityTaskHeartbeatById is RecordActivityTaskHeartbeat for an
// activity named by ID.
func (f *Frontend) RecordActivityTaskHeartbeatById(ctx context.Context, req *workflowservice.RecordActivityTaskHeartbeatByIdRequest) (*workflowservice.RecordActivityTaskHeartbeatByIdResponse, error) {
	srv, token, err := f.activityToken(req.GetNamespace(), req.GetWorkflowId(), req.GetRunId(), req.GetActivityId())
	if err != nil {
		return nil, err
	}
	resp, err := srv.RecordActivityTaskHeartbeat(ctx, &workflowservice.RecordActivityTaskHeartbeatRequest{
		Namespace: req.GetNamespace(), TaskToken: token, Details: req.GetDetails(), Identity: req.GetIdentity()})
	if err != nil {
		return nil, err
	}
	return &workflowservice.RecordActivityTaskHeartbeatByIdResponse{CancelRequested: resp.GetCancelRequested()}, nil
}

// RespondActivityTaskCompletedById is RespondActivityTaskCompleted for an
// activity named by ID.
func (f *Frontend) RespondActivityTaskCompletedById(ctx context.Context, req *workflowservice.RespondActivityTaskCompletedByIdRequest) (*workflowservice.RespondActivityTaskCompletedByIdResponse, error) {
	srv, token, err := f.activityToken(req.GetNamespace(), req.GetWorkflowId(), req.GetRunId(), req.GetActivityId())
	if err != nil {
		return nil, err
	}
	if _, err := srv.RespondActivityTaskCompleted(ctx, &workflowservice.RespondActivityTaskCompletedRequest{
		Namespace: req.GetNamespace(), TaskToken: token, Result: req.GetResult(), Identity: req.GetIdentity()}); err != nil {
		return nil, err
	}
	return &workflowservice.RespondActivityTaskCompletedByIdResponse{}, nil
}

// RespondActivityTaskFailedById is RespondActivityTaskFailed for an
// activity named by ID.
func (f *Frontend) RespondActivityTaskFailedById(ctx context.Context, req *workflowservice.RespondActivityTaskFailedByIdRequest) (*workflowservice.RespondActivityTaskFailedByIdResponse, error) {
	srv, token, err := f.activityToken(req.GetNamespace(), req.GetWorkflowId(), req.GetRunId(), req.GetActivityId())
	if err != nil {
		return nil, err
	}
	if _, err := srv.RespondActivityTaskFailed(ctx, &workflowservice.RespondActivityTaskFailedRequest{
		Namespace: req.GetNamespace(), TaskToken: token, Failure: req.GetFailure(), Identity: req.GetIdentity(),
		LastHeartbeatDetails: req.GetLastHeartbeatDetails()}); err != nil {
		return nil, err
	}
	return &workflowservice.RespondActivityTaskFailedByIdResponse{}, nil
}

// RespondActivityTaskCanceledById is RespondActivityTaskCanceled for an
// activity named by ID.
func (f *Frontend) RespondActivityTaskCanceledById(ctx context.Context, req *workflowservice.RespondActivityTaskCanceledByIdRequest) (*workflowservice.RespondActivityTaskCanceledByIdResponse, error) {
	srv, token, err := f.activityToken(req.GetNamespace(), req.GetWorkflowId(), req.GetRunId(), req.GetActivityId())
	if err != nil {
		return nil, err
	}
	if _, err := srv.RespondActivityTaskCanceled(ctx, &workflowservice.RespondActivityTaskCanceledRequest{
		Namespace: req.GetNamespace(), TaskToken: token, Details: req.GetDetails(), Identity: req.GetIdentity()}); err != nil {
		return nil, err
	}
	return &workflowservice.RespondActivityTaskCanceledByIdResponse{}, nil
}

// ShutdownWorker sends the runs sticky to the stopping worker's queue
// back to their normal queues, as a server does.
func (f *Frontend) ShutdownWorker(_ context.Context, req *workflowservice.ShutdownWorkerRequest) (*workflowservice.ShutdownWorkerResponse, error) {
	srv, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	if q := req.GetStickyTaskQueue(); q != "" {
		srv.ForgetStickyQueue(q)
	}
	return &workflowservice.ShutdownWorkerResponse{}, nil
}
