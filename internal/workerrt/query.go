package workerrt

import (
	"context"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	querypb "go.temporal.io/api/query/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/payloadlimit"
)

// Queries are answered against a run's state without changing it: those
// that come with a workflow task once the task's events are applied, and
// query tasks (legacy queries) against the cached run or a run rebuilt
// for the query alone.

// answerQueries answers the queries that came with a workflow task, after
// the task's events were applied.
func (w *Worker) answerQueries(exec *engine.Run, queries map[string]*querypb.WorkflowQuery) map[string]*querypb.WorkflowQueryResult {
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
	answer, fc, err := w.query(task, wm)
	w.logQueryPanic(task.GetWorkflowExecution().GetWorkflowId(), task.GetWorkflowExecution().GetRunId(), task.GetQuery().GetQueryType(), err)
	if err != nil {
		req.CompletedType = enumspb.QUERY_RESULT_TYPE_FAILED
		req.ErrorMessage = err.Error()
		req.Failure = toFailure(fc, err)
	} else {
		req.CompletedType = enumspb.QUERY_RESULT_TYPE_ANSWERED
		req.QueryResult = answer
	}
	wm.executed(start)
	ctx, cancel := context.WithTimeout(payloadlimit.Checked(wm.reportContext()), rpcTimeout)
	defer cancel()
	if err := w.storeAnswer(ctx, w.workflowTaskTarget(task), req); err != nil {
		req.CompletedType, req.QueryResult = enumspb.QUERY_RESULT_TYPE_FAILED, nil
		req.ErrorMessage, req.Failure = err.Error(), toFailure(fc, err)
	}
	_ = w.opts.Payloads.Check(ctx, req) // a too large answer becomes a failed one
	if _, err := w.opts.Service.RespondQueryTaskCompleted(ctx, req); err != nil {
		w.opts.Logger.Warn("answering a query failed", "Error", err)
	}
}

// query answers a query task's query (see answerLegacyQuery); fc is what
// converts its failure: the run's (told its serialization context), or the
// worker's when there is no run.
func (w *Worker) query(task *workflowservice.PollWorkflowTaskQueueResponse, wm *workflowMetrics) (_ *commonpb.Payloads, fc engine.FailureConverter, _ error) {
	fc = w.opts.Engine.FailureConverter
	q := task.GetQuery()
	if w.opts.Cache != nil {
		exec := task.GetWorkflowExecution()
		if run := w.opts.Cache.lookup(w.workflowOf(exec), exec.GetRunId()); run != nil {
			run.mu.Lock()
			if !run.closed && !showsClosed(task) {
				defer run.mu.Unlock()
				wm.cacheLookup(true, true)
				w.status.cacheLookup(true, true)
				answer, err := run.exec.Query(q.GetQueryType(), q.GetQueryArgs(), q.GetHeader())
				return answer, run.exec.FailureConverter(), err
			}
			// A query of a workflow that closed without the worker (it was
			// terminated or timed out): history may hold events the cached
			// state never saw, and the run leaves the cache.
			w.evict(run)
			run.mu.Unlock()
		}
	}
	wm.cacheLookup(false, !startsHistory(task))
	w.status.cacheLookup(false, !startsHistory(task))
	exec := engine.NewRun(w.opts.Engine)
	defer exec.Close()
	exec.SetRun(task.GetWorkflowExecution().GetWorkflowId(), task.GetWorkflowExecution().GetRunId())
	exec.QueryOnly()
	fetch := w.historyFetcher(task.GetWorkflowExecution())
	ctx := w.metrics.queueContext()
	src := engine.NewEventSource(ctx, task.GetHistory().GetEvents(), task.GetNextPageToken(), fetch)
	if len(task.GetHistory().GetEvents()) == 0 || task.GetHistory().GetEvents()[0].GetEventId() != 1 {
		page, next, err := fetch(ctx, nil)
		if err != nil {
			return nil, fc, err
		}
		src = engine.NewEventSource(ctx, page.GetEvents(), next, fetch)
	}
	if _, err := exec.ProcessTask(engine.Task{Events: src}); err != nil {
		return nil, exec.FailureConverter(), err
	}
	answer, err := exec.Query(q.GetQueryType(), q.GetQueryArgs(), q.GetHeader())
	return answer, exec.FailureConverter(), err
}

// showsClosed reports a task whose history ends with the event that
// closed the workflow: a query of a closed workflow.
func showsClosed(task *workflowservice.PollWorkflowTaskQueueResponse) bool {
	events := task.GetHistory().GetEvents()
	if len(events) == 0 || len(task.GetNextPageToken()) > 0 {
		return false
	}
	return engine.ClosesRun(events[len(events)-1].GetEventType())
}
