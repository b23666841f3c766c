package workerrt

import (
	"context"

	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/internal/extstore"
)

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
