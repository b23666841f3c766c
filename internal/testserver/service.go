package testserver

import (
	"context"

	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
)

// Local is the server as a worker calls it (workerrt.Service and
// rpc.HistoryService): in-process calls with the gRPC client's method
// signatures. Requests and responses are copied at the boundary, as a
// network would, so neither side sees the other's later changes; unlike
// a network, the copies keep payloads as they were (see clone).
type Local struct{ S *Server }

func call[Req, Resp proto.Message](ctx context.Context, req Req, do func(context.Context, Req) (Resp, error)) (Resp, error) {
	resp, err := do(ctx, clone(req))
	if err != nil {
		var zero Resp
		return zero, err
	}
	return clone(resp), nil
}

func (l Local) PollWorkflowTaskQueue(ctx context.Context, in *workflowservice.PollWorkflowTaskQueueRequest, _ ...grpc.CallOption) (*workflowservice.PollWorkflowTaskQueueResponse, error) {
	// Poll responses are built from copies already.
	return l.S.PollWorkflowTaskQueue(ctx, proto.CloneOf(in))
}

func (l Local) RespondWorkflowTaskCompleted(ctx context.Context, in *workflowservice.RespondWorkflowTaskCompletedRequest, _ ...grpc.CallOption) (*workflowservice.RespondWorkflowTaskCompletedResponse, error) {
	return call(ctx, in, l.S.RespondWorkflowTaskCompleted)
}

func (l Local) RespondWorkflowTaskFailed(ctx context.Context, in *workflowservice.RespondWorkflowTaskFailedRequest, _ ...grpc.CallOption) (*workflowservice.RespondWorkflowTaskFailedResponse, error) {
	return call(ctx, in, l.S.RespondWorkflowTaskFailed)
}

func (l Local) RespondQueryTaskCompleted(ctx context.Context, in *workflowservice.RespondQueryTaskCompletedRequest, _ ...grpc.CallOption) (*workflowservice.RespondQueryTaskCompletedResponse, error) {
	return call(ctx, in, l.S.RespondQueryTaskCompleted)
}

func (l Local) GetWorkflowExecutionHistory(ctx context.Context, in *workflowservice.GetWorkflowExecutionHistoryRequest, _ ...grpc.CallOption) (*workflowservice.GetWorkflowExecutionHistoryResponse, error) {
	return l.S.GetWorkflowExecutionHistory(ctx, proto.CloneOf(in)) // a copy already
}

func (l Local) PollActivityTaskQueue(ctx context.Context, in *workflowservice.PollActivityTaskQueueRequest, _ ...grpc.CallOption) (*workflowservice.PollActivityTaskQueueResponse, error) {
	return call(ctx, in, l.S.PollActivityTaskQueue)
}

func (l Local) RecordActivityTaskHeartbeat(ctx context.Context, in *workflowservice.RecordActivityTaskHeartbeatRequest, _ ...grpc.CallOption) (*workflowservice.RecordActivityTaskHeartbeatResponse, error) {
	return call(ctx, in, l.S.RecordActivityTaskHeartbeat)
}

func (l Local) RespondActivityTaskCompleted(ctx context.Context, in *workflowservice.RespondActivityTaskCompletedRequest, _ ...grpc.CallOption) (*workflowservice.RespondActivityTaskCompletedResponse, error) {
	return call(ctx, in, l.S.RespondActivityTaskCompleted)
}

func (l Local) RespondActivityTaskFailed(ctx context.Context, in *workflowservice.RespondActivityTaskFailedRequest, _ ...grpc.CallOption) (*workflowservice.RespondActivityTaskFailedResponse, error) {
	return call(ctx, in, l.S.RespondActivityTaskFailed)
}

func (l Local) RespondActivityTaskCanceled(ctx context.Context, in *workflowservice.RespondActivityTaskCanceledRequest, _ ...grpc.CallOption) (*workflowservice.RespondActivityTaskCanceledResponse, error) {
	return call(ctx, in, l.S.RespondActivityTaskCanceled)
}

func (l Local) PollNexusTaskQueue(ctx context.Context, in *workflowservice.PollNexusTaskQueueRequest, _ ...grpc.CallOption) (*workflowservice.PollNexusTaskQueueResponse, error) {
	return call(ctx, in, l.S.PollNexusTaskQueue)
}

func (l Local) RespondNexusTaskCompleted(ctx context.Context, in *workflowservice.RespondNexusTaskCompletedRequest, _ ...grpc.CallOption) (*workflowservice.RespondNexusTaskCompletedResponse, error) {
	return call(ctx, in, l.S.RespondNexusTaskCompleted)
}

func (l Local) RespondNexusTaskFailed(ctx context.Context, in *workflowservice.RespondNexusTaskFailedRequest, _ ...grpc.CallOption) (*workflowservice.RespondNexusTaskFailedResponse, error) {
	return call(ctx, in, l.S.RespondNexusTaskFailed)
}
