package clientimpl

import (
	"context"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/rpc"
	"github.com/durable-go/sdk/internal/searchattr"
)

// DescribeWorkflow implements Client.
func (c *workflowClient) DescribeWorkflow(ctx context.Context, workflowID, runID string) (*clientapi.WorkflowExecutionDescription, error) {
	out, err := c.interceptor.DescribeWorkflow(ctx, &clientapi.ClientDescribeWorkflowInput{WorkflowID: workflowID, RunID: runID})
	if err != nil {
		return nil, err
	}
	return out.Response, nil
}

// DescribeWorkflow describes the run.
func (r *clientRoot) DescribeWorkflow(ctx context.Context, in *clientapi.ClientDescribeWorkflowInput) (*clientapi.ClientDescribeWorkflowOutput, error) {
	d, err := r.c.describeWorkflow(ctx, in.WorkflowID, in.RunID)
	if err != nil {
		return nil, err
	}
	return &clientapi.ClientDescribeWorkflowOutput{Response: d}, nil
}

// describeWorkflow is DescribeWorkflow at the end of the interceptor chain.
func (c *workflowClient) describeWorkflow(ctx context.Context, workflowID, runID string) (*clientapi.WorkflowExecutionDescription, error) {
	resp, err := c.DescribeWorkflowExecution(ctx, workflowID, runID)
	if err != nil {
		return nil, err
	}
	info := resp.GetWorkflowExecutionInfo()
	typed, err := searchattr.Decode(info.GetSearchAttributes())
	if err != nil {
		// One unreadable attribute should not hide the rest of the
		// description.
		c.logger.Warn("DescribeWorkflow: search attributes cannot be decoded", "WorkflowID", workflowID, "Error", err)
	}
	metadata := clientapi.WorkflowExecutionMetadata{
		WorkflowExecution:       clientapi.WorkflowExecution{ID: info.GetExecution().GetWorkflowId(), RunID: info.GetExecution().GetRunId()},
		WorkflowType:            clientapi.WorkflowType{Name: info.GetType().GetName()},
		TaskQueueName:           info.GetTaskQueue(),
		Status:                  info.GetStatus(),
		Memo:                    info.GetMemo(),
		TypedSearchAttributes:   typed,
		ParentWorkflowExecution: describedExecution(info.GetParentExecution()),
		RootWorkflowExecution:   describedExecution(info.GetRootExecution()),
		WorkflowStartTime:       info.GetStartTime().AsTime(),
		HistoryLength:           int(info.GetHistoryLength()),
	}
	if info.GetCloseTime().IsValid() {
		t := info.GetCloseTime().AsTime()
		metadata.WorkflowCloseTime = &t
	}
	if info.GetExecutionTime().IsValid() {
		t := info.GetExecutionTime().AsTime()
		metadata.ExecutionTime = &t
	}
	return clientapi.NewWorkflowExecutionDescription(metadata, c.converterFor(workflowID), resp), nil
}

func describedExecution(e *commonpb.WorkflowExecution) *clientapi.WorkflowExecution {
	if e == nil {
		return nil
	}
	return &clientapi.WorkflowExecution{ID: e.GetWorkflowId(), RunID: e.GetRunId()}
}

// DescribeWorkflowExecution implements Client.
func (c *workflowClient) DescribeWorkflowExecution(ctx context.Context, workflowID, runID string) (*workflowservice.DescribeWorkflowExecutionResponse, error) {
	if err := c.ensureInitialized(ctx); err != nil {
		return nil, err
	}
	resp, err := c.service.DescribeWorkflowExecution(ctx, &workflowservice.DescribeWorkflowExecutionRequest{
		Namespace: c.namespace,
		Execution: &commonpb.WorkflowExecution{WorkflowId: workflowID, RunId: runID},
	})
	if err != nil {
		return nil, wrapCallError(err, "describing workflow %q (run %q)", workflowID, runID)
	}
	return resp, nil
}

// DescribeTaskQueue implements Client.
func (c *workflowClient) DescribeTaskQueue(ctx context.Context, taskQueue string, taskQueueType enumspb.TaskQueueType) (*workflowservice.DescribeTaskQueueResponse, error) {
	if err := c.ensureInitialized(ctx); err != nil {
		return nil, err
	}
	resp, err := c.service.DescribeTaskQueue(ctx, &workflowservice.DescribeTaskQueueRequest{
		Namespace:     c.namespace,
		TaskQueue:     &taskqueuepb.TaskQueue{Name: taskQueue, Kind: enumspb.TASK_QUEUE_KIND_NORMAL},
		TaskQueueType: taskQueueType,
	})
	if err != nil {
		return nil, wrapCallError(err, "describing task queue %q", taskQueue)
	}
	return resp, nil
}

// ListClosedWorkflow implements Client.
func (c *workflowClient) ListClosedWorkflow(ctx context.Context, request *workflowservice.ListClosedWorkflowExecutionsRequest) (*workflowservice.ListClosedWorkflowExecutionsResponse, error) {
	if request.GetNamespace() == "" {
		request.Namespace = c.namespace
	}
	return visibilityCall(ctx, c, "listing closed workflows", request, c.service.ListClosedWorkflowExecutions)
}

// ListOpenWorkflow implements Client.
func (c *workflowClient) ListOpenWorkflow(ctx context.Context, request *workflowservice.ListOpenWorkflowExecutionsRequest) (*workflowservice.ListOpenWorkflowExecutionsResponse, error) {
	if request.GetNamespace() == "" {
		request.Namespace = c.namespace
	}
	return visibilityCall(ctx, c, "listing open workflows", request, c.service.ListOpenWorkflowExecutions)
}

// ListWorkflow implements Client.
func (c *workflowClient) ListWorkflow(ctx context.Context, request *workflowservice.ListWorkflowExecutionsRequest) (*workflowservice.ListWorkflowExecutionsResponse, error) {
	if request.GetNamespace() == "" {
		request.Namespace = c.namespace
	}
	return visibilityCall(ctx, c, "listing workflows", request, c.service.ListWorkflowExecutions)
}

// ListArchivedWorkflow implements Client.
func (c *workflowClient) ListArchivedWorkflow(ctx context.Context, request *workflowservice.ListArchivedWorkflowExecutionsRequest) (*workflowservice.ListArchivedWorkflowExecutionsResponse, error) {
	if request.GetNamespace() == "" {
		request.Namespace = c.namespace
	}
	return visibilityCall(ctx, c, "listing archived workflows", request, c.service.ListArchivedWorkflowExecutions)
}

// ScanWorkflow implements Client.
//
//lint:ignore SA1019 the server deprecates Scan, but the Client interface keeps it.
func (c *workflowClient) ScanWorkflow(ctx context.Context, request *workflowservice.ScanWorkflowExecutionsRequest) (*workflowservice.ScanWorkflowExecutionsResponse, error) {
	if request.GetNamespace() == "" {
		request.Namespace = c.namespace
	}
	//lint:ignore SA1019 as above.
	return visibilityCall(ctx, c, "scanning workflows", request, c.service.ScanWorkflowExecutions)
}

// CountWorkflow implements Client.
func (c *workflowClient) CountWorkflow(ctx context.Context, request *workflowservice.CountWorkflowExecutionsRequest) (*workflowservice.CountWorkflowExecutionsResponse, error) {
	if request.GetNamespace() == "" {
		request.Namespace = c.namespace
	}
	return visibilityCall(ctx, c, "counting workflows", request, c.service.CountWorkflowExecutions)
}

// GetSearchAttributes implements Client.
func (c *workflowClient) GetSearchAttributes(ctx context.Context) (*workflowservice.GetSearchAttributesResponse, error) {
	// The request names no namespace: the server answers for the one in
	// the header, which must be this client's even when it shares another
	// namespace's connection.
	ctx = metadata.AppendToOutgoingContext(ctx, rpc.HeaderNamespace, c.namespace)
	return visibilityCall(ctx, c, "getting search attributes", &workflowservice.GetSearchAttributesRequest{}, c.service.GetSearchAttributes)
}

// visibilityCall makes one request-response call after the client is
// initialized, saying what failed.
func visibilityCall[Req any, Resp any](ctx context.Context, c *workflowClient, what string, request Req,
	call func(context.Context, Req, ...grpc.CallOption) (Resp, error),
) (Resp, error) {
	var zero Resp
	if err := c.ensureInitialized(ctx); err != nil {
		return zero, err
	}
	resp, err := call(ctx, request)
	if err != nil {
		return zero, wrapCallError(err, "%s", what)
	}
	return resp, nil
}
