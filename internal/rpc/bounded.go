package rpc

import (
	"context"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/internal/extstore"
	"github.com/durable-go/sdk/internal/payloadlimit"
)

// DefaultCallTimeout bounds a call the SDK makes for the user (a client
// method, a worker's task completion), its retries included, when the
// client's Options.RPCTimeout is zero: 10 s, as go.temporal.io/sdk.
const DefaultCallTimeout = 10 * time.Second

// BoundedWorkflowService returns a workflow service client on the same
// connection whose calls end after timeout (DefaultCallTimeout when zero),
// retries included; a shorter deadline of the caller's wins. Long polls
// (see IsLongPoll), GetSystemInfo and ListArchivedWorkflowExecutions keep
// their own budgets, as go.temporal.io/sdk gives them. The client's and the
// worker's own calls go through it; WorkflowService, which users call
// directly, stays unbounded. When payloads is not nil, each request not
// marked payloadlimit.Checked is checked with it first (the client's
// warnings of large payloads).
func (c *Conn) BoundedWorkflowService(timeout time.Duration, payloads *payloadlimit.Checker) workflowservice.WorkflowServiceClient {
	return c.StoringWorkflowService(timeout, payloads, nil)
}

// StoringWorkflowService is BoundedWorkflowService with external storage:
// when storage is not nil, the payloads of each request that reach its
// threshold are stored outside before the size check, and the references
// in each answer are replaced by the payloads they stand for.
func (c *Conn) StoringWorkflowService(timeout time.Duration, payloads *payloadlimit.Checker, storage *extstore.Storage) workflowservice.WorkflowServiceClient {
	if timeout <= 0 {
		timeout = DefaultCallTimeout
	}
	return workflowservice.NewWorkflowServiceClient(boundedCalls{c.cc, timeout, payloads, storage})
}

// boundedCalls puts a deadline on each unary call before the interceptor
// chain runs, so that the retry interceptor retries within it.
type boundedCalls struct {
	grpc.ClientConnInterface
	timeout  time.Duration
	payloads *payloadlimit.Checker
	storage  *extstore.Storage
}

func (b boundedCalls) Invoke(ctx context.Context, method string, req, reply any, opts ...grpc.CallOption) error {
	msg, isMsg := req.(proto.Message)
	if isMsg && b.storage != nil {
		if err := b.storage.Store(ctx, msg); err != nil {
			return err
		}
	}
	if isMsg && b.payloads != nil && !payloadlimit.WasChecked(ctx) {
		if err := b.payloads.Check(ctx, msg); err != nil {
			return err
		}
	}
	if b.storage != nil {
		if err := b.invoke(ctx, method, req, reply, opts...); err != nil {
			return err
		}
		if answer, ok := reply.(proto.Message); ok && !retrievedByWorker(method) {
			return b.storage.Retrieve(ctx, answer)
		}
		return nil
	}
	return b.invoke(ctx, method, req, reply, opts...)
}

func (b boundedCalls) invoke(ctx context.Context, method string, req, reply any, opts ...grpc.CallOption) error {
	if !hasOwnBudget(method, req) {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, b.timeout)
		defer cancel()
	}
	return b.ClientConnInterface.Invoke(ctx, method, req, reply, opts...)
}

// retrievedByWorker reports the calls whose answers carry tasks (and
// nothing else with payloads) that the worker retrieves itself, one by
// one, so that a payload it cannot retrieve fails that task (see
// workerrt's storage.go) rather than the call; the server took the
// completion or started the workflow already.
func retrievedByWorker(method string) bool {
	switch method {
	case workflowservice.WorkflowService_PollWorkflowTaskQueue_FullMethodName,
		workflowservice.WorkflowService_PollActivityTaskQueue_FullMethodName,
		workflowservice.WorkflowService_PollNexusTaskQueue_FullMethodName,
		workflowservice.WorkflowService_RespondWorkflowTaskCompleted_FullMethodName,
		workflowservice.WorkflowService_StartWorkflowExecution_FullMethodName:
		return true
	}
	return false
}

func hasOwnBudget(method string, req any) bool {
	switch method {
	case workflowservice.WorkflowService_GetSystemInfo_FullMethodName,
		workflowservice.WorkflowService_ListArchivedWorkflowExecutions_FullMethodName:
		return true
	}
	return IsLongPoll(method, req)
}
