package workerrt

import (
	"bytes"
	"context"
	"fmt"

	commonpb "go.temporal.io/api/common/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/rpc"
)

// The first step of a workflow task claims the run the task goes on from:
// the run carried over from the task before it, the cached run, or a new
// run that replays the workflow's history. The task holds the run's lock
// until it ends, so that a run's tasks and queries take turns.

// claimedRun is the run a workflow task goes on from, locked by the task.
type claimedRun struct {
	run *cachedRun          // locked; nil when no run could be made
	src *engine.EventSource // the events the task applies to run
	// stale is a cached run the task found it could not go on from,
	// closed and replaced by run. The task holds its lock too until it
	// ends, so that whoever waits on it finds it closed after this task.
	stale *cachedRun
}

// release unlocks the runs the task holds; call it once the task has
// ended, whether or not claimRun failed.
func (c claimedRun) release() {
	if c.run != nil {
		c.run.mu.Unlock()
	}
	if c.stale != nil {
		c.stale.mu.Unlock()
	}
}

// claimRun finds the run a task goes on from (runFor) and locks it, and
// counts the sticky cache's hit or miss. A looked-up run the task cannot
// go on from (outdated) is replaced by a new run that replays the history.
func (w *Worker) claimRun(task *workflowservice.PollWorkflowTaskQueueResponse, carried *cachedRun, wm *workflowMetrics) (claimedRun, error) {
	var c claimedRun
	run, src, cached, err := w.runFor(task, carried)
	if err == nil {
		run.mu.Lock()
		if w.outdated(run, task, cached && run != carried) {
			// Rebuild the run from history, holding it as the cache may
			// soon share it.
			c.stale = run
			run, src, err = w.newCachedRun(task, !startsHistory(task))
			cached = false
			if err == nil {
				run.mu.Lock()
			}
		}
	}
	if run != carried { // a carried run was not looked up
		wm.cacheLookup(cached, !startsHistory(task))
		w.status.cacheLookup(cached, !startsHistory(task))
	}
	c.run, c.src = run, src
	return c, err
}

// outdated reports, under the run's lock, a run the task cannot go on
// from: closed (evicted between lookup and lock), or, for a run found in
// the cache (lookedUp), stale: the task does not follow on from it, and
// outdated evicts it. That is known only under the lock: the run's last
// task may still wait for the answer to its report, which can take that
// task back (a task the server discarded), as go.temporal.io/sdk checks
// it.
func (w *Worker) outdated(run *cachedRun, task *workflowservice.PollWorkflowTaskQueueResponse, lookedUp bool) bool {
	stale := lookedUp && !followsOn(run, task)
	if stale && !run.closed {
		if w.opts.Cache.remove(run) {
			run.metrics.cachedRunEvicted()
		}
		run.closeLocked()
	}
	return stale || run.closed
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
		if run := w.opts.Cache.lookup(w.workflowOf(task.GetWorkflowExecution()), runID); run != nil {
			// The caller checks, under the run's lock, that the task
			// follows on from it (followsOn).
			fetch := w.historyFetcher(task.GetWorkflowExecution())
			return run, engine.NewEventSource(w.metrics.queueContext(), events, task.GetNextPageToken(), fetch), true, nil
		}
	}
	run, src, err = w.newCachedRun(task, firstID != 1)
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

// newCachedRun makes a run that will replay the task's history from the start,
// fetching it all first when the task holds only its tail.
func (w *Worker) newCachedRun(task *workflowservice.PollWorkflowTaskQueueResponse, fetchAll bool) (*cachedRun, *engine.EventSource, error) {
	exec := task.GetWorkflowExecution()
	src, err := w.historySource(task, fetchAll)
	if err != nil {
		return nil, nil, err
	}
	// The run keeps its workflow ID and run ID in one string of its own,
	// not as the task's two, each in a span of the task's other strings
	// that the run would keep from being freed.
	workflowID, runID := exec.GetWorkflowId(), exec.GetRunId()
	ids := workflowID + runID
	workflowID, runID = ids[:len(workflowID)], ids[len(workflowID):]
	run := &cachedRun{runID: runID, workflow: workflowKey{namespace: w.opts.Namespace, workflowID: workflowID}, exec: engine.NewRun(w.opts.Engine), metrics: w.metrics}
	run.exec.SetRun(workflowID, runID)
	return run, src, nil
}

// historySource serves the task's history from the start: the task's own
// events and the pages after them, or, when the task holds only its tail
// (fetchAll), the history fetched up to the task, then the task's events.
func (w *Worker) historySource(task *workflowservice.PollWorkflowTaskQueueResponse, fetchAll bool) (*engine.EventSource, error) {
	fetch := w.historyFetcher(task.GetWorkflowExecution())
	ctx := w.metrics.queueContext()
	if !fetchAll {
		return engine.NewEventSource(ctx, task.GetHistory().GetEvents(), task.GetNextPageToken(), fetch), nil
	}
	fetch = upToTheTask(fetch, task)
	page, next, err := fetch(ctx, nil)
	if err != nil {
		return nil, err
	}
	return engine.NewEventSource(ctx, page.GetEvents(), next, fetch), nil
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

// evict drops a run from the cache and releases its coroutines; the
// caller holds run.mu.
func (w *Worker) evict(run *cachedRun) {
	if w.opts.Cache != nil {
		w.opts.Cache.remove(run)
	}
	run.closeLocked()
}
