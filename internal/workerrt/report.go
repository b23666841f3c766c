package workerrt

import (
	"context"
	"errors"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/payloadlimit"
)

// The last steps of a workflow task report its outcome to the server: its
// completion (its commands and messages, the answers to the queries that
// came with it, the eager activities the worker has room for), or its
// failure; then the worker acts on the server's answer to a completion.

// completionRequest reports a task's commands and messages, and the
// answers to the queries that came with it; nonfirstAttempts is its
// MeteringMetadata (see attemptMeter).
func (w *Worker) completionRequest(run *cachedRun, task *workflowservice.PollWorkflowTaskQueueResponse, res *engine.TaskResult, nonfirstAttempts uint32) *workflowservice.RespondWorkflowTaskCompletedRequest {
	req := &workflowservice.RespondWorkflowTaskCompletedRequest{
		TaskToken:             task.GetTaskToken(),
		Namespace:             w.opts.Namespace,
		Identity:              w.opts.Identity,
		Commands:              res.Commands,
		Messages:              res.Messages,
		ReturnNewWorkflowTask: true,
		QueryResults:          w.answerQueries(run.exec, task.GetQueries()),
		// As go.temporal.io/sdk: the server may discard a speculative task
		// that recorded nothing even when it holds the events of the last
		// task's commands, and the worker forgets it (Run.DiscardTask),
		// so a rejected update leaves no workflow task in history.
		Capabilities: &workflowservice.RespondWorkflowTaskCompletedRequest_Capabilities{
			DiscardSpeculativeWorkflowTaskWithEvents: true,
		},
		SdkMetadata:      &sdkpb.WorkflowTaskCompletedMetadata{LangUsedFlags: res.NewFlags},
		MeteringMetadata: &commonpb.MeteringMetadata{NonfirstLocalActivityExecutionAttempts: nonfirstAttempts},
	}
	// As go.temporal.io/sdk: the SDK's name and version only when they
	// change (Run.SDKToReport), not in every task of the history.
	req.SdkMetadata.SdkName, req.SdkMetadata.SdkVersion = run.exec.SDKToReport(w.opts.SDKName, w.opts.SDKVersion)
	if w.opts.SendBinaryChecksum {
		//lint:ignore SA1019 go.temporal.io/sdk still sends the deprecated binary checksum.
		req.BinaryChecksum = w.opts.BinaryChecksum
	}
	w.stampWorkflowTaskCompletion(req, task.GetWorkflowType().GetName())
	if w.stickyQueue != "" {
		req.StickyAttributes = &taskqueuepb.StickyExecutionAttributes{
			WorkerTaskQueue:        w.stickyTaskQueue(),
			ScheduleToStartTimeout: durationpb.New(w.opts.StickyScheduleToStartTimeout),
		}
	}
	return req
}

// reportCompletion reports a task's completion, caching the run first
// when keep. A report that fails is logged and the run evicted: the server
// retries the task. It returns the server's answer, and whether there is
// one.
func (w *Worker) reportCompletion(run *cachedRun, task *workflowservice.PollWorkflowTaskQueueResponse, req *workflowservice.RespondWorkflowTaskCompletedRequest,
	keep bool, wm *workflowMetrics) (*workflowservice.RespondWorkflowTaskCompletedResponse, bool) {
	// Cache the run before reporting: the run's next task may reach
	// another poller as soon as the server has the report, and must find
	// this state (waiting on run.mu until this task is done), not rebuild
	// it while this one lands in the cache stale.
	if keep {
		w.opts.Cache.put(run, w)
	}
	ctx, cancel := context.WithTimeout(payloadlimit.Checked(wm.reportContext()), rpcTimeout)
	defer cancel()
	resp, err := w.respondWorkflowTaskCompleted(ctx, req)
	if err != nil {
		// The server did not take the commands, or took them from an
		// earlier attempt whose answer was lost: either way, the cached
		// state may not be what history says. Replay next time.
		msg := "reporting a workflow task's completion failed; the server will retry the task"
		var notFound *serviceerror.NotFound
		if errors.As(err, &notFound) {
			msg = "the server refused a workflow task's completion: it no longer knows the task, which was completed already (by an earlier attempt of this report whose answer was lost) or timed out; the workflow goes on from what history recorded"
		}
		w.opts.Logger.Warn(msg, "WorkflowID", task.GetWorkflowExecution().GetWorkflowId(), "RunID", run.runID, "Error", err)
		w.evict(run)
		return nil, false
	}
	return resp, true
}

// respondWorkflowTaskCompleted reports a workflow task's completion with
// eager execution asked for the activities this worker has room for, and
// starts those the server hands back (eager.go).
func (w *Worker) respondWorkflowTaskCompleted(ctx context.Context, req *workflowservice.RespondWorkflowTaskCompletedRequest) (*workflowservice.RespondWorkflowTaskCompletedResponse, error) {
	permits := w.reserveEagerActivities(req)
	resp, err := w.opts.Service.RespondWorkflowTaskCompleted(ctx, req)
	if err != nil {
		w.releaseEagerActivities(permits)
		return nil, err
	}
	w.startEagerActivities(resp.GetActivityTasks(), permits)
	return resp, nil
}

// afterCompletion acts on the server's answer to a task's completion
// (res): it forgets a task the server discarded, and returns the next task
// the server handed back, if any, with the run to carry over to it when no
// cache holds the run (see continueWorkflowTask). A run neither kept nor
// carried over is evicted.
func (w *Worker) afterCompletion(run *cachedRun, task *workflowservice.PollWorkflowTaskQueueResponse, res *engine.TaskResult,
	resp *workflowservice.RespondWorkflowTaskCompletedResponse, keep bool, wm *workflowMetrics) (*workflowservice.PollWorkflowTaskQueueResponse, *cachedRun) {
	if res.Closed {
		wm.closed(res.Commands, run.exec.Info())
	}
	next := resp.GetWorkflowTask()
	if reset := resp.GetResetHistoryEventId(); reset != 0 && !res.Closed && (keep || next != nil) {
		if err := forgetDiscardedTask(run, res, reset); err != nil {
			w.opts.Logger.Warn("the server discarded a workflow task that the worker cannot forget; the run will be replayed from history",
				"WorkflowID", task.GetWorkflowExecution().GetWorkflowId(), "RunID", run.runID, "Error", err)
			w.evict(run)
			return next, nil
		}
	}
	switch {
	case keep:
		return next, nil
	case next != nil && !res.Closed:
		return next, run
	}
	w.evict(run)
	return next, nil
}

// forgetDiscardedTask takes back a task the server discarded (a
// speculative one whose updates were all rejected), so that the run goes
// on from the state before it: the next task's events take that task's
// event IDs.
func forgetDiscardedTask(run *cachedRun, res *engine.TaskResult, resetEventID int64) error {
	if len(res.Commands) > 0 {
		return errors.New("the task had commands")
	}
	return run.exec.DiscardTask(resetEventID)
}

// failWorkflowTask reports a failed task. Like go.temporal.io/sdk, only the
// first attempt is reported: later attempts time out, so a workflow stuck
// on a bug does not fill its history with failures.
func (w *Worker) failWorkflowTask(task *workflowservice.PollWorkflowTaskQueueResponse, wm *workflowMetrics, start time.Time, err error) {
	cause := enumspb.WORKFLOW_TASK_FAILED_CAUSE_WORKFLOW_WORKER_UNHANDLED_FAILURE
	var te *engine.TaskError
	if errors.As(err, &te) {
		cause = te.Cause
	}
	// Every attempt counts, reported or not, as in go.temporal.io/sdk.
	wm.failed(start, cause)
	w.workflowSlots.taskFailed()
	kv := []any{"WorkflowID", task.GetWorkflowExecution().GetWorkflowId(), "RunID", task.GetWorkflowExecution().GetRunId(),
		"WorkflowType", task.GetWorkflowType().GetName(), "Attempt", task.GetAttempt(), "Error", err}
	reported := engine.PanicFailure(err)
	if size, limit, ok := payloadlimit.TooLarge(errors.Unwrap(err)); ok {
		kv = append(kv, payloadlimit.KeyPayloadSize, size, payloadlimit.KeyPayloadSizeLimit, limit)
		reported = errors.Unwrap(err) // its own type names the failure, as in go.temporal.io/sdk
	}
	if stack, ok := panicStack(err); ok {
		kv = append(kv, "PanicStack", stack)
	}
	w.opts.Logger.Error("workflow task failed", kv...)
	if w.opts.WorkflowTaskFailed != nil {
		w.opts.WorkflowTaskFailed(task.GetWorkflowExecution().GetWorkflowId(), err)
	}
	if task.GetAttempt() > 1 {
		return
	}
	ctx, cancel := context.WithTimeout(payloadlimit.Checked(wm.reportContext()), rpcTimeout)
	defer cancel()
	req := &workflowservice.RespondWorkflowTaskFailedRequest{
		TaskToken: task.GetTaskToken(),
		Cause:     cause,
		Failure:   toFailure(w.opts.Engine.FailureConverter, reported),
		Identity:  w.opts.Identity,
		Namespace: w.opts.Namespace,
		//lint:ignore SA1019 go.temporal.io/sdk still sends the deprecated binary checksum to servers without build-ID versioning.
		BinaryChecksum: w.binaryChecksumToSend(),
		//lint:ignore SA1019 go.temporal.io/sdk still sends the deprecated version stamp.
		WorkerVersion: w.versioning.stamp,
		//lint:ignore SA1019 go.temporal.io/sdk still sends the deprecated deployment.
		Deployment:        w.versioning.deployment,
		DeploymentOptions: w.versioning.options,
	}
	if err := w.storeAnswer(ctx, w.workflowTaskTarget(task), req); err != nil {
		w.opts.Logger.Warn("reporting a workflow task's failure failed; it will time out and be retried", "Error", err)
		return
	}
	_ = w.opts.Payloads.Check(ctx, req) // a failure is only warned of: the server takes it
	_, rerr := w.opts.Service.RespondWorkflowTaskFailed(ctx, req)
	if rerr != nil {
		w.opts.Logger.Warn("reporting a workflow task's failure failed; it will time out and be retried", "Error", rerr)
	}
}
