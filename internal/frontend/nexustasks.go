package frontend

import (
	"context"

	"go.temporal.io/api/workflowservice/v1"
)

// The Nexus handler's calls: a worker polls its namespace's task queue
// for the requests of the operations that workflows, of any namespace,
// call through an endpoint that targets it, and answers them; the
// answer reaches the caller's namespace (testserver.NexusRouter).

// PollNexusTaskQueue hands out a Nexus request.
func (f *Frontend) PollNexusTaskQueue(ctx context.Context, req *workflowservice.PollNexusTaskQueueRequest) (*workflowservice.PollNexusTaskQueueResponse, error) {
	srv, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	if err := checkTaskQueue(req.GetTaskQueue()); err != nil {
		return nil, err
	}
	wait := longPollContext(ctx)
	defer wait.cancel()
	return srv.PollNexusTaskQueue(wait.ctx, req)
}

// RespondNexusTaskCompleted takes a handler's answer.
func (f *Frontend) RespondNexusTaskCompleted(ctx context.Context, req *workflowservice.RespondNexusTaskCompletedRequest) (*workflowservice.RespondNexusTaskCompletedResponse, error) {
	srv, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	return srv.RespondNexusTaskCompleted(ctx, req)
}

// RespondNexusTaskFailed takes a handler's error.
func (f *Frontend) RespondNexusTaskFailed(ctx context.Context, req *workflowservice.RespondNexusTaskFailedRequest) (*workflowservice.RespondNexusTaskFailedResponse, error) {
	srv, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	return srv.RespondNexusTaskFailed(ctx, req)
}
