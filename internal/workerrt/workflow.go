package workerrt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	querypb "go.temporal.io/api/query/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/rpc"
	"github.com/durable-go/sdk/internal/sdkmetrics"
)

// rpcTimeout bounds the calls that report a task's outcome.
const rpcTimeout = 10 * time.Second

func (w *Worker) pollWorkflowTask(ctx context.Context, queue *taskqueuepb.TaskQueue) (*workflowservice.PollWorkflowTaskQueueResponse, bool, error) {
	pollerType := sdkmetrics.PollerTypeWorkflowTask
	if queue.GetKind() == enumspb.TASK_QUEUE_KIND_STICKY {
		pollerType = sdkmetrics.PollerTypeWorkflowStickyTask
	}
	pollers := w.metrics.pollers(pollerType)
	pollers.add(1)
	resp, err := w.opts.Service.PollWorkflowTaskQueue(ctx, &workflowservice.PollWorkflowTaskQueueRequest{
		Namespace: w.opts.Namespace,
		TaskQueue: queue,
		Identity:  w.opts.Identity,
		//lint:ignore SA1019 go.temporal.io/sdk still sends the deprecated binary checksum.
		BinaryChecksum: w.opts.BinaryChecksum,
	})
	pollers.add(-1)
	if err != nil {
		if isCanceled(ctx, err) {
			return nil, false, nil
		}
		return nil, false, err
	}
	if len(resp.GetTaskToken()) == 0 {
		if w.metrics != nil {
			w.metrics.workflowPollEmpty().Inc(1)
		}
		return resp, false, nil
	}
	w.metrics.workflowPolled(resp)
	return resp, true, nil
}

// handleWorkflowTask processes a task and any task the server hands back
// in its completion response.
func (w *Worker) handleWorkflowTask(task *workflowservice.PollWorkflowTaskQueueResponse) {
	var carried *cachedRun
	for task != nil {
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
func (w *Worker) continueWorkflowTask(task *workflowservice.PollWorkflowTaskQueueResponse, carried *cachedRun) (*workflowservice.PollWorkflowTaskQueueResponse, *cachedRun) {
	// When the task began: its latencies count from here, and so does the
	// heartbeat of a task waiting for local activities.
	start := time.Now()
	wm := w.metrics.forWorkflow(task.GetWorkflowType().GetName())
	defer wm.cacheSized(w.opts.Cache)
	run, src, cached, err := w.runFor(task, carried)
	if err == nil {
		run.mu.Lock()
		defer run.mu.Unlock()
		// Whether the task follows on from a cached run is known only
		// under its lock: the run's last task may still wait for the
		// answer to its report, which can take that task back (a task the
		// server discarded), as go.temporal.io/sdk checks it.
		if stale := cached && run != carried && !followsOn(run, task); stale || run.closed {
			if stale && !run.closed {
				if w.opts.Cache.remove(run) {
					run.metrics.cachedRunEvicted()
				}
				run.closeLocked()
			}
			// Evicted between lookup and lock, or stale: rebuild the run
			// from history, holding it as the cache may soon share it.
			run, src, err = w.newRun(task, !startsHistory(task))
			cached = false
			if err == nil {
				run.mu.Lock()
				defer run.mu.Unlock()
			}
		}
	}
	if run != carried { // a carried run was not looked up
		wm.cacheLookup(cached, !startsHistory(task))
	}
	if err != nil {
		w.failWorkflowTask(task, wm, start, &engine.TaskError{Cause: enumspb.WORKFLOW_TASK_FAILED_CAUSE_WORKFLOW_WORKER_UNHANDLED_FAILURE, Err: err})
		return nil, nil
	}
	res, err := run.exec.ProcessTask(engine.Task{Events: src, Messages: task.GetMessages(), Replayed: wm.replayed(start)})
	if err != nil {
		w.evict(run)
		w.failWorkflowTask(task, wm, start, err)
		return nil, nil
	}
	var nonfirstAttempts uint32
	if res.WaitingForLocalActivities {
		var wait localActivityWait
		wait, err = w.waitForLocalActivities(run, task, res, start)
		if wait.task == nil { // given up: the server retries the task
			w.evict(run)
			return nil, nil
		}
		if err != nil {
			w.evict(run)
			w.failWorkflowTask(wait.task, wm, start, err)
			return nil, nil
		}
		res, task, nonfirstAttempts = wait.res, wait.task, wait.nonfirstAttempts
	}
	req := w.completionRequest(run, task, res, nonfirstAttempts)
	wm.executed(start)
	// Cache the run before reporting: the run's next task may reach
	// another poller as soon as the server has the report, and must find
	// this state (waiting on run.mu until this task is done), not rebuild
	// it while this one lands in the cache stale.
	keep := !res.Closed && w.stickyQueue != ""
	if keep {
		w.opts.Cache.put(run, w)
	}
	ctx, cancel := context.WithTimeout(wm.reportContext(), rpcTimeout)
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
		return nil, nil
	}
	if res.Closed {
		wm.closed(res.Commands, run.exec.Info())
	}
	next := resp.GetWorkflowTask()
	if reset := resp.GetResetHistoryEventId(); reset != 0 && !res.Closed && (keep || next != nil) {
		// The server discarded the task (a speculative one whose updates
		// were all rejected): go on from the run as it was before it.
		if len(res.Commands) > 0 {
			err = errors.New("the task had commands")
		} else {
			err = run.exec.DiscardTask(reset)
		}
		if err != nil {
			w.opts.Logger.Warn("the server discarded a workflow task that the worker cannot forget; the run will be replayed from history",
				"WorkflowID", task.GetWorkflowExecution().GetWorkflowId(), "RunID", run.runID, "Error", err)
			w.evict(run)
			return next, nil
		}
	}
	if !keep {
		if next != nil && !res.Closed {
			return next, run
		}
		w.evict(run)
	}
	return next, nil
}

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
		// task's commands, and the worker forgets it (Execution.DiscardTask),
		// so a rejected update leaves no workflow task in history.
		Capabilities: &workflowservice.RespondWorkflowTaskCompletedRequest_Capabilities{
			DiscardSpeculativeWorkflowTaskWithEvents: true,
		},
		SdkMetadata: &sdkpb.WorkflowTaskCompletedMetadata{
			LangUsedFlags: res.NewFlags,
			SdkName:       w.opts.SDKName,
			SdkVersion:    w.opts.SDKVersion,
		},
		MeteringMetadata: &commonpb.MeteringMetadata{NonfirstLocalActivityExecutionAttempts: nonfirstAttempts},
	}
	if w.opts.BinaryChecksumOnCompletion {
		//lint:ignore SA1019 go.temporal.io/sdk still sends the deprecated binary checksum.
		req.BinaryChecksum = w.opts.BinaryChecksum
	}
	if w.stickyQueue != "" {
		req.StickyAttributes = &taskqueuepb.StickyExecutionAttributes{
			WorkerTaskQueue:        w.stickyTaskQueue(),
			ScheduleToStartTimeout: durationpb.New(w.opts.StickyScheduleToStartTimeout),
		}
	}
	return req
}

// runFor finds the state a task continues from: the run carried over
// from the task before it, or the cached run, when the task's events
// follow on from it (cached), else a new run fed the full history.
func (w *Worker) runFor(task *workflowservice.PollWorkflowTaskQueueResponse, carried *cachedRun) (run *cachedRun, src *engine.EventSource, cached bool, err error) {
	runID := task.GetWorkflowExecution().GetRunId()
	events := task.GetHistory().GetEvents()
	var firstID int64
	if len(events) > 0 {
		firstID = events[0].GetEventId()
	}
	if carried != nil {
		if carried.runID == runID && followsOn(carried, task) {
			fetch := w.historyFetcher(task.GetWorkflowExecution())
			return carried, engine.NewEventSource(w.metrics.queueContext(), events, task.GetNextPageToken(), fetch), true, nil
		}
		closeRun(carried)
	}
	if w.opts.Cache != nil {
		if run := w.opts.Cache.get(runID); run != nil {
			// The caller checks, under the run's lock, that the task
			// follows on from it (followsOn).
			fetch := w.historyFetcher(task.GetWorkflowExecution())
			return run, engine.NewEventSource(w.metrics.queueContext(), events, task.GetNextPageToken(), fetch), true, nil
		}
	}
	run, src, err = w.newRun(task, firstID != 1)
	return run, src, false, err
}

// followsOn reports a task that holds the events after the run's last
// task, from the WorkflowTaskCompleted that ended it.
func followsOn(run *cachedRun, task *workflowservice.PollWorkflowTaskQueueResponse) bool {
	events := task.GetHistory().GetEvents()
	return len(events) > 0 && events[0].GetEventId() > 1 && events[0].GetEventId() == run.exec.LastStartedEventID()+1
}

// startsHistory reports a task that holds its history from the first
// event (not only the events new since the run's last task).
func startsHistory(task *workflowservice.PollWorkflowTaskQueueResponse) bool {
	events := task.GetHistory().GetEvents()
	return len(events) > 0 && events[0].GetEventId() == 1
}

// newRun makes a run that will replay the task's history from the start,
// fetching it all first when the task holds only its tail.
func (w *Worker) newRun(task *workflowservice.PollWorkflowTaskQueueResponse, fetchAll bool) (*cachedRun, *engine.EventSource, error) {
	exec := task.GetWorkflowExecution()
	run := &cachedRun{runID: exec.GetRunId(), workflow: w.workflowOf(exec), exec: engine.NewExecution(w.opts.Engine), metrics: w.metrics}
	run.exec.SetRun(exec.GetWorkflowId(), exec.GetRunId())
	fetch := w.historyFetcher(exec)
	ctx := w.metrics.queueContext()
	if !fetchAll {
		return run, engine.NewEventSource(ctx, task.GetHistory().GetEvents(), task.GetNextPageToken(), fetch), nil
	}
	fetch = upToTheTask(fetch, task)
	page, next, err := fetch(ctx, nil)
	if err != nil {
		return nil, nil, err
	}
	return run, engine.NewEventSource(ctx, page.GetEvents(), next, fetch), nil
}

// taskTailToken is the page token upToTheTask gives for the task's own
// events, after the server's last page.
var taskTailToken = []byte("durable-go: the events of the task itself")

// upToTheTask makes the history of a task that holds only the events new
// since the run's last task from the history fetch reads: cut at the
// task's WorkflowTaskStarted event (the server may have written events
// since), and followed by the task's events past what the server holds
// (a speculative workflow task, as an update starts, and the attempts of
// a failing one are written to history only when they complete).
func upToTheTask(fetch engine.PageFetcher, task *workflowservice.PollWorkflowTaskQueueResponse) engine.PageFetcher {
	startedID := task.GetStartedEventId()
	var lastID int64 // of the events served
	past := func(events []*historypb.HistoryEvent) []*historypb.HistoryEvent {
		var kept []*historypb.HistoryEvent
		for _, ev := range events {
			if ev.GetEventId() > lastID && (startedID == 0 || ev.GetEventId() <= startedID) {
				kept = append(kept, ev)
				lastID = ev.GetEventId()
			}
		}
		return kept
	}
	return func(ctx context.Context, token []byte) (*historypb.History, []byte, error) {
		if bytes.Equal(token, taskTailToken) {
			tail := past(task.GetHistory().GetEvents())
			if lastID < startedID {
				return nil, nil, fmt.Errorf("history ends at event %d, before the task's WorkflowTaskStarted event %d", lastID, startedID)
			}
			return &historypb.History{Events: tail}, nil, nil
		}
		page, next, err := fetch(ctx, token)
		if err != nil {
			return nil, nil, err
		}
		events := past(page.GetEvents())
		if startedID > 0 && lastID >= startedID {
			next = nil // the rest came after the task
		}
		if len(next) == 0 && (startedID == 0 || lastID < startedID) {
			next = taskTailToken
		}
		return &historypb.History{Events: events}, next, nil
	}
}

// historyFetcher reads a run's history page by page; the context it is
// given carries the request tags (Worker.metrics.queueContext).
func (w *Worker) historyFetcher(exec *commonpb.WorkflowExecution) engine.PageFetcher {
	fetch := rpc.HistoryPages(w.opts.Service, w.opts.Namespace, exec)
	return func(ctx context.Context, token []byte) (*historypb.History, []byte, error) {
		ctx, cancel := context.WithTimeout(ctx, rpcTimeout)
		defer cancel()
		return fetch(ctx, token)
	}
}

// workflowOf names the workflow of a run.
func (w *Worker) workflowOf(exec *commonpb.WorkflowExecution) workflowKey {
	return workflowKey{namespace: w.opts.Namespace, workflowID: exec.GetWorkflowId()}
}

// releaseOlderRun releases the cached run of a workflow task's workflow if
// it is another run: a workflow has one open run at a time, and the run a
// workflow task is for is open, so the cached one closed (it was
// terminated, timed out and retried, reset, or terminated by a start of
// the new run), which the server never tells a worker. (A query may be
// for a closed run: it shows nothing of the others.)
func (w *Worker) releaseOlderRun(task *workflowservice.PollWorkflowTaskQueueResponse) {
	if w.opts.Cache == nil {
		return
	}
	exec := task.GetWorkflowExecution()
	if old := w.opts.Cache.removeOtherRun(w.workflowOf(exec), exec.GetRunId()); old != nil {
		go closeRun(old)
	}
}

// showsClosed reports a task whose history ends with the event that
// closed the workflow: a query of a closed workflow.
func showsClosed(task *workflowservice.PollWorkflowTaskQueueResponse) bool {
	events := task.GetHistory().GetEvents()
	if len(events) == 0 || len(task.GetNextPageToken()) > 0 {
		return false
	}
	switch events[len(events)-1].GetEventType() {
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED,
		enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED,
		enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW:
		return true
	}
	return false
}

// evict drops a run from the cache and releases its coroutines; the
// caller holds run.mu.
func (w *Worker) evict(run *cachedRun) {
	if w.opts.Cache != nil {
		w.opts.Cache.remove(run)
	}
	run.closeLocked()
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
	kv := []any{"WorkflowID", task.GetWorkflowExecution().GetWorkflowId(), "RunID", task.GetWorkflowExecution().GetRunId(),
		"WorkflowType", task.GetWorkflowType().GetName(), "Attempt", task.GetAttempt(), "Error", err}
	if stack, ok := panicStack(err); ok {
		kv = append(kv, "PanicStack", stack)
	}
	w.opts.Logger.Error("workflow task failed", kv...)
	if task.GetAttempt() > 1 {
		return
	}
	ctx, cancel := context.WithTimeout(wm.reportContext(), rpcTimeout)
	defer cancel()
	_, rerr := w.opts.Service.RespondWorkflowTaskFailed(ctx, &workflowservice.RespondWorkflowTaskFailedRequest{
		TaskToken: task.GetTaskToken(),
		Cause:     cause,
		Failure:   toFailure(w.opts.Engine.FailureConverter, engine.PanicFailure(err)),
		Identity:  w.opts.Identity,
		Namespace: w.opts.Namespace,
		//lint:ignore SA1019 go.temporal.io/sdk still sends the deprecated binary checksum.
		BinaryChecksum: w.opts.BinaryChecksum,
	})
	if rerr != nil {
		w.opts.Logger.Warn("reporting a workflow task's failure failed; it will time out and be retried", "Error", rerr)
	}
}

// answerQueries answers the queries that came with a workflow task, after
// the task's events were applied.
func (w *Worker) answerQueries(exec *engine.Execution, queries map[string]*querypb.WorkflowQuery) map[string]*querypb.WorkflowQueryResult {
	if len(queries) == 0 {
		return nil
	}
	results := make(map[string]*querypb.WorkflowQueryResult, len(queries))
	for id, q := range queries {
		answer, err := exec.Query(q.GetQueryType(), q.GetQueryArgs(), q.GetHeader())
		w.logQueryPanic(exec.Info().WorkflowID, exec.Info().RunID, q.GetQueryType(), err)
		if err != nil {
			results[id] = &querypb.WorkflowQueryResult{ResultType: enumspb.QUERY_RESULT_TYPE_FAILED, ErrorMessage: err.Error()}
			continue
		}
		results[id] = &querypb.WorkflowQueryResult{ResultType: enumspb.QUERY_RESULT_TYPE_ANSWERED, Answer: answer}
	}
	return results
}

// logQueryPanic logs a query that failed with a panic, with its stack:
// the caller sees the panic's message only.
func (w *Worker) logQueryPanic(workflowID, runID, queryType string, err error) {
	if stack, ok := panicStack(err); ok {
		w.opts.Logger.Warn("a query failed with a panic", "WorkflowID", workflowID, "RunID", runID,
			"QueryType", queryType, "Error", err, "PanicStack", stack)
	}
}

// answerLegacyQuery answers a query task: against the cached run when the
// task's events follow on from it, else against a run rebuilt from the full
// history (which is not cached: a query must not change anything).
func (w *Worker) answerLegacyQuery(task *workflowservice.PollWorkflowTaskQueueResponse) {
	wm := w.metrics.forWorkflow(task.GetWorkflowType().GetName())
	start := wm.start()
	defer wm.cacheSized(w.opts.Cache)
	req := &workflowservice.RespondQueryTaskCompletedRequest{TaskToken: task.GetTaskToken(), Namespace: w.opts.Namespace}
	answer, err := w.query(task, wm)
	w.logQueryPanic(task.GetWorkflowExecution().GetWorkflowId(), task.GetWorkflowExecution().GetRunId(), task.GetQuery().GetQueryType(), err)
	if err != nil {
		req.CompletedType = enumspb.QUERY_RESULT_TYPE_FAILED
		req.ErrorMessage = err.Error()
		req.Failure = toFailure(w.opts.Engine.FailureConverter, err)
	} else {
		req.CompletedType = enumspb.QUERY_RESULT_TYPE_ANSWERED
		req.QueryResult = answer
	}
	wm.executed(start)
	ctx, cancel := context.WithTimeout(wm.reportContext(), rpcTimeout)
	defer cancel()
	if _, err := w.opts.Service.RespondQueryTaskCompleted(ctx, req); err != nil {
		w.opts.Logger.Warn("answering a query failed", "Error", err)
	}
}

func (w *Worker) query(task *workflowservice.PollWorkflowTaskQueueResponse, wm *workflowMetrics) (*commonpb.Payloads, error) {
	q := task.GetQuery()
	if w.opts.Cache != nil {
		if run := w.opts.Cache.get(task.GetWorkflowExecution().GetRunId()); run != nil {
			run.mu.Lock()
			if !run.closed && !showsClosed(task) {
				defer run.mu.Unlock()
				wm.cacheLookup(true, true)
				return run.exec.Query(q.GetQueryType(), q.GetQueryArgs(), q.GetHeader())
			}
			// A query of a workflow that closed without the worker (it was
			// terminated or timed out): history may hold events the cached
			// state never saw, and the run leaves the cache.
			w.evict(run)
			run.mu.Unlock()
		}
	}
	wm.cacheLookup(false, !startsHistory(task))
	exec := engine.NewExecution(w.opts.Engine)
	defer exec.Close()
	exec.SetRun(task.GetWorkflowExecution().GetWorkflowId(), task.GetWorkflowExecution().GetRunId())
	exec.QueryOnly()
	fetch := w.historyFetcher(task.GetWorkflowExecution())
	ctx := w.metrics.queueContext()
	src := engine.NewEventSource(ctx, task.GetHistory().GetEvents(), task.GetNextPageToken(), fetch)
	if len(task.GetHistory().GetEvents()) == 0 || task.GetHistory().GetEvents()[0].GetEventId() != 1 {
		page, next, err := fetch(ctx, nil)
		if err != nil {
			return nil, err
		}
		src = engine.NewEventSource(ctx, page.GetEvents(), next, fetch)
	}
	if _, err := exec.ProcessTask(engine.Task{Events: src}); err != nil {
		return nil, err
	}
	return exec.Query(q.GetQueryType(), q.GetQueryArgs(), q.GetHeader())
}
