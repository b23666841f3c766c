package workerrt

import (
	"context"
	"errors"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/payloadlimit"
	"github.com/durable-go/sdk/internal/sdkmetrics"
)

// rpcTimeout bounds the calls that report a task's outcome.
const rpcTimeout = 10 * time.Second

func (w *Worker) pollWorkflowTask(ctx context.Context, queue *taskqueuepb.TaskQueue) (*workflowservice.PollWorkflowTaskQueueResponse, bool, error) {
	pollerType := sdkmetrics.PollerTypeWorkflowTask
	if queue.GetKind() == enumspb.TASK_QUEUE_KIND_STICKY {
		pollerType = sdkmetrics.PollerTypeWorkflowStickyTask
	}
	if ctx.Err() != nil {
		return nil, false, nil // stopping: no new poll
	}
	req := &workflowservice.PollWorkflowTaskQueueRequest{
		Namespace: w.opts.Namespace,
		TaskQueue: queue,
		Identity:  w.opts.Identity,
		//lint:ignore SA1019 go.temporal.io/sdk still sends the deprecated build-ID capabilities.
		WorkerVersionCapabilities: w.versioning.capabilities,
		DeploymentOptions:         w.versioning.options,
		WorkerInstanceKey:         w.opts.WorkerInstanceKey,
	}
	if w.opts.SendBinaryChecksum {
		//lint:ignore SA1019 go.temporal.io/sdk still sends the deprecated binary checksum to servers without build-ID versioning.
		req.BinaryChecksum = w.opts.BinaryChecksum
	}
	return longPoll(w.pollRPCContext(ctx), w.metrics, pollerType, func(ctx context.Context) (*workflowservice.PollWorkflowTaskQueueResponse, error) {
		return w.opts.Service.PollWorkflowTaskQueue(ctx, req)
	}, (*workerMetrics).workflowPolled)
}

// handleWorkflowTask processes a task and any task the server hands back
// in its completion response.
func (w *Worker) handleWorkflowTask(task *workflowservice.PollWorkflowTaskQueueResponse) {
	var carried *cachedRun
	for task != nil {
		if !w.retrieveWorkflowTask(task) {
			break
		}
		if task.GetQuery() != nil {
			w.answerLegacyQuery(task)
			break
		}
		w.releaseOlderRun(task)
		task, carried = w.continueWorkflowTask(task, carried)
	}
	if carried != nil {
		closeRun(carried)
	}
}

// continueWorkflowTask runs one workflow task and reports its outcome, on
// the run carried over from the task before it when not nil. It returns
// the next task if the server sent one back, and, when the run is not
// cached (no sticky cache), the run to carry over to that task: the server
// hands a task back with the events new since the last one only (it takes
// the worker for sticky), and the newest of them may not be in the
// history a replay would fetch (a speculative workflow task, as an update
// starts, is kept only if it records something), so only the run's state
// can go on from them, as in go.temporal.io/sdk.
//
// A task goes through four steps: claim the run it goes on from
// (claimRun, runclaim.go), run the workflow code on it with the local
// activities the code waits for (executeWorkflowTask), report the
// completion (reportCompletion, report.go), and act on the server's
// answer (afterCompletion): a task the server discarded, the next task,
// the run to carry over.
func (w *Worker) continueWorkflowTask(task *workflowservice.PollWorkflowTaskQueueResponse, carried *cachedRun) (*workflowservice.PollWorkflowTaskQueueResponse, *cachedRun) {
	// When the task began: its latencies count from here, and so does the
	// heartbeat of a task waiting for local activities.
	start := time.Now()
	wm := w.metrics.forWorkflow(task.GetWorkflowType().GetName())
	defer wm.cacheSized(w.opts.Cache)
	claim, err := w.claimRun(task, carried, wm)
	defer claim.release()
	if err != nil {
		w.failWorkflowTask(task, wm, start, &engine.TaskError{Cause: enumspb.WORKFLOW_TASK_FAILED_CAUSE_WORKFLOW_WORKER_UNHANDLED_FAILURE, Err: err})
		return nil, nil
	}
	run := claim.run
	done := w.executeWorkflowTask(run, claim.src, task, wm, start)
	if done.task == nil {
		return nil, nil // failed or given up: the server retries it
	}
	req := w.completionRequest(run, done.task, done.res, done.nonfirstAttempts)
	if err := w.storeAnswer(context.Background(), w.workflowTaskTarget(done.task), req); err != nil {
		// The commands cannot be sent as they are: fail the task, which
		// the server retries, as go.temporal.io/sdk does.
		w.opts.Logger.Warn("Workflow task postprocess error: "+err.Error(), "WorkflowType", done.task.GetWorkflowType().GetName(),
			"WorkflowID", done.task.GetWorkflowExecution().GetWorkflowId(), "RunID", done.task.GetWorkflowExecution().GetRunId(), "Attempt", done.task.GetAttempt())
		w.evict(run)
		w.failWorkflowTask(done.task, wm, start, &engine.TaskError{Cause: enumspb.WORKFLOW_TASK_FAILED_CAUSE_WORKFLOW_WORKER_UNHANDLED_FAILURE, Err: err})
		return nil, nil
	}
	if err := w.opts.Payloads.Check(context.Background(), req); err != nil {
		// The server would terminate the workflow: fail the task instead,
		// which the server retries, as go.temporal.io/sdk does (and with
		// its warning).
		size, limit, _ := payloadlimit.TooLarge(err)
		w.opts.Logger.Warn("Workflow task postprocess error: "+err.Error(), "WorkflowType", done.task.GetWorkflowType().GetName(),
			"WorkflowID", done.task.GetWorkflowExecution().GetWorkflowId(), "RunID", done.task.GetWorkflowExecution().GetRunId(),
			"Attempt", done.task.GetAttempt(), payloadlimit.KeyPayloadSize, size, payloadlimit.KeyPayloadSizeLimit, limit)
		w.evict(run)
		w.failWorkflowTask(done.task, wm, start, &engine.TaskError{Cause: enumspb.WORKFLOW_TASK_FAILED_CAUSE_PAYLOADS_TOO_LARGE, Err: err})
		return nil, nil
	}
	wm.executed(start)
	keep := !done.res.Closed && w.stickyQueue != ""
	resp, ok := w.reportCompletion(run, done.task, req, keep, wm)
	if !ok {
		return nil, nil
	}
	return w.afterCompletion(run, done.task, done.res, resp, keep, wm)
}

// processedTask is where the processing of a workflow task ended: the
// engine's result, and the task it answers (a later one than the task
// polled when waiting for local activities took the server's next task);
// the task is nil when it failed or was given up.
type processedTask struct {
	res  *engine.TaskResult
	task *workflowservice.PollWorkflowTaskQueueResponse
	// nonfirstAttempts is the task's MeteringMetadata (see attemptMeter).
	nonfirstAttempts uint32
}

// executeWorkflowTask applies the task's events to the run and runs the
// workflow code until it blocks, and, when the code waits for local
// activities, until they have finished (waitForLocalActivities). A task
// that fails is reported failed, and one given up is left to time out;
// the run is evicted either way.
func (w *Worker) executeWorkflowTask(run *cachedRun, src *engine.EventSource, task *workflowservice.PollWorkflowTaskQueueResponse, wm *workflowMetrics, start time.Time) processedTask {
	res, err := run.exec.ProcessTask(engine.Task{Events: src, Messages: task.GetMessages(), Replayed: wm.replayed(start)})
	if err != nil {
		w.evict(run)
		w.failWorkflowTask(task, wm, start, w.locateNondeterminism(task, err))
		return processedTask{}
	}
	if !res.WaitingForLocalActivities {
		return processedTask{res: res, task: task}
	}
	done, err := w.waitForLocalActivities(run, task, res, start)
	if done.task == nil || err != nil {
		w.evict(run)
		if done.task != nil {
			w.failWorkflowTask(done.task, wm, start, err)
		}
		return processedTask{}
	}
	return done
}

// locateNondeterminism adds to a task's non-determinism error the file:line
// of the workflow code behind it, as the replayer's error gives it, so
// that the worker's log and the failure it reports say where the code
// differs from history (Options.LocateNondeterminism, which replays the
// run's history again). Any other error, or one the code is not found
// for, is returned as it is.
func (w *Worker) locateNondeterminism(task *workflowservice.PollWorkflowTaskQueueResponse, err error) error {
	var te *engine.TaskError
	if w.opts.LocateNondeterminism == nil || !errors.As(err, &te) || te.Cause != enumspb.WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR {
		return err
	}
	src, serr := w.historySource(task, !startsHistory(task))
	if serr != nil {
		return err
	}
	exec := task.GetWorkflowExecution()
	location := w.opts.LocateNondeterminism(src, exec.GetWorkflowId(), exec.GetRunId(), err)
	if location == "" {
		return err
	}
	return fmt.Errorf("%w (workflow code at %s)", err, location)
}
