package workerrt

import (
	"context"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/extstore"
	"github.com/durable-go/sdk/internal/payloadlimit"
)

// The tasks the worker polls (and those a completion or a start hands
// back) reach it with their references: the client's service leaves them
// (see rpc.StoringWorkflowService), so that a payload that cannot be
// retrieved fails the task, which the server retries, as in
// go.temporal.io/sdk, rather than the poll, which would lose the task
// until it timed out.

// retrieveWorkflowTask retrieves the payloads a workflow or query task
// holds in external storage. When it cannot, it fails the task (a query
// task: answers that the query failed) and returns false.
func (w *Worker) retrieveWorkflowTask(task *workflowservice.PollWorkflowTaskQueueResponse) bool {
	if w.opts.Storage == nil {
		return true
	}
	err := w.opts.Storage.Retrieve(context.Background(), task)
	if err == nil {
		return true
	}
	err = fmt.Errorf("retrieving the task's externally stored payloads: %w", err)
	if task.GetQuery() != nil {
		w.opts.Logger.Warn("a query failed: "+err.Error(), "WorkflowID", task.GetWorkflowExecution().GetWorkflowId())
		ctx, cancel := context.WithTimeout(context.Background(), rpcTimeout)
		defer cancel()
		_, _ = w.opts.Service.RespondQueryTaskCompleted(ctx, &workflowservice.RespondQueryTaskCompletedRequest{TaskToken: task.GetTaskToken(),
			Namespace: w.opts.Namespace, CompletedType: enumspb.QUERY_RESULT_TYPE_FAILED, ErrorMessage: err.Error()})
		return false
	}
	w.failWorkflowTask(task, w.metrics.forWorkflow(task.GetWorkflowType().GetName()), time.Now(),
		&engine.TaskError{Cause: enumspb.WORKFLOW_TASK_FAILED_CAUSE_WORKFLOW_WORKER_UNHANDLED_FAILURE, Err: err})
	return false
}

// retrieveActivityTask retrieves the payloads an activity task holds in
// external storage. When it cannot, it fails the attempt (retried under
// the activity's retry policy) and returns false.
func (w *Worker) retrieveActivityTask(task *workflowservice.PollActivityTaskQueueResponse) bool {
	if w.opts.Storage == nil {
		return true
	}
	err := w.opts.Storage.Retrieve(context.Background(), task)
	if err == nil {
		return true
	}
	am := w.metrics.forActivity(task)
	ctx, cancel := context.WithTimeout(payloadlimit.Checked(am.reportContext()), rpcTimeout)
	defer cancel()
	w.failActivityForStorage(ctx, task, w.opts.FailureConverter, am, fmt.Errorf("retrieving the task's externally stored payloads: %w", err))
	return false
}

// storeAnswer stores outside the payloads of answer, a task's answer, that
// reach the external storage's threshold, for target, so that its size
// is checked (Options.Payloads) as it will be sent. Without storage it
// does nothing; the answers of tasks it is not called for are stored as
// they are sent, by the client's service.
func (w *Worker) storeAnswer(ctx context.Context, target extstore.StorageDriverTargetInfo, answer proto.Message) error {
	if w.opts.Storage == nil {
		return nil
	}
	return w.opts.Storage.Store(extstore.WithTarget(ctx, target), answer)
}

// workflowTaskTarget is the run a workflow task's payloads are stored for.
func (w *Worker) workflowTaskTarget(task *workflowservice.PollWorkflowTaskQueueResponse) extstore.StorageDriverTargetInfo {
	return extstore.StorageDriverWorkflowInfo{Namespace: w.opts.Namespace, WorkflowType: task.GetWorkflowType().GetName(),
		WorkflowID: task.GetWorkflowExecution().GetWorkflowId(), RunID: task.GetWorkflowExecution().GetRunId()}
}

// activityTaskTarget is what an activity task's payloads are stored for:
// the workflow that scheduled it, or the activity itself when a client
// started it (a standalone activity), as go.temporal.io/sdk stores them.
func (w *Worker) activityTaskTarget(task *workflowservice.PollActivityTaskQueueResponse) extstore.StorageDriverTargetInfo {
	if id := task.GetWorkflowExecution().GetWorkflowId(); id != "" {
		return extstore.StorageDriverWorkflowInfo{Namespace: w.opts.Namespace, WorkflowType: task.GetWorkflowType().GetName(),
			WorkflowID: id, RunID: task.GetWorkflowExecution().GetRunId()}
	}
	return extstore.StorageDriverActivityInfo{Namespace: w.opts.Namespace, ActivityType: task.GetActivityType().GetName(),
		ActivityID: task.GetActivityId(), RunID: task.GetActivityRunId()}
}
