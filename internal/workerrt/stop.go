package workerrt

import (
	"context"
	"errors"
	"sync"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	workerpb "go.temporal.io/api/worker/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
)

// pollAnswerWait bounds how long Stop waits for the open polls the
// server is meant to answer, once it has been told that the worker stops:
// the sticky queue's, within the stop timeout; with
// PollCompleteOnShutdown, all of them, for the stop timeout or this long
// if that is later, within the margin. The server answers them at once,
// but a dev server does not always. A variable for tests.
var pollAnswerWait = time.Second

// StopMargin is how long Stop may take past Options.StopTimeout: to tell
// the server that the worker stops (and, with PollCompleteOnShutdown, for
// the polls it completes to return), and, once the activities still
// running are canceled, for the worker's own work to end (workflow tasks,
// the reports of activities that returned). On a server that answers, it
// takes milliseconds; past the margin, Stop returns and that work ends in
// the background.
const StopMargin = 500 * time.Millisecond

// Stop stops the worker as go.temporal.io/sdk's Stop does, and returns
// within Options.StopTimeout plus StopMargin, even when activity code
// ignores its canceled context:
//
//  1. it tells the server the worker stops (ShutdownWorker, when the
//     Service has it), which answers the sticky queue's polls, empty, and
//     sends the cached runs' next tasks to the task queue without waiting
//     for the sticky schedule-to-start timeout;
//  2. it stops polling. Within the stop timeout, the sticky queue's polls
//     may end with the server's answers first. With
//     PollCompleteOnShutdown (server 1.32), as go.temporal.io/sdk does
//     when the namespace says the server completes a stopping worker's
//     polls, no poll is canceled until the server has had the time to
//     answer: it opens no new poll before step 1, and the open ones return
//     with the server's answers, empty or with a task the worker runs
//     like any other; only those still open after the stop timeout (and
//     at least pollAnswerWait after step 1, within the margin) are
//     canceled;
//  3. it lets running tasks finish until the stop timeout (0: none);
//  4. it cancels the activities still running (context.Cause is
//     ErrWorkerShutdown), and waits, until StopMargin past the stop
//     timeout, for the worker's own work to end: workflow tasks, and the
//     reports of activities whose code returned;
//  5. it names, in a warning, the activities whose code has not returned.
//     Their code goes on, on goroutines that are the user's from then on:
//     what it returns is reported if the server still takes it, else the
//     server retries the activity after its timeout, on another worker;
//  6. the runs it cached leave the cache.
//
// If the worker's own work has not ended within the margin (a server that
// does not answer, workflow code that does not yield), Stop says so in a
// warning and returns; steps 5 and 6 follow in the background once that
// work ends. Workflow tasks that did not finish are not reported: the
// server retries them.
func (w *Worker) Stop() {
	w.stopOnce.Do(func() {
		timeout := time.Now().Add(w.opts.StopTimeout)
		returnBy := timeout.Add(StopMargin)
		w.stopMu.Lock()
		close(w.stopped)
		w.stopMu.Unlock()
		if w.stopPoll != nil {
			w.endPolling(timeout, returnBy)
			if !w.finishTasks(timeout, returnBy) {
				go func() {
					w.running.waitUntil(w.running.onlyActivityCodeLeft, nil)
					w.warnActivitiesInCode()
					w.releaseCachedRuns()
				}()
				return
			}
			w.warnActivitiesInCode()
		}
		w.releaseCachedRuns()
	})
}

// endPolling tells the server that the worker stops and ends the polls
// (steps 1 and 2 of Stop).
func (w *Worker) endPolling(timeout, returnBy time.Time) {
	if w.opts.PollCompleteOnShutdown {
		w.stopPoll() // no new poll; the open ones are left to the server
		if w.announceShutdown(returnBy) {
			w.awaitPollAnswers(timeout, returnBy)
		}
	} else if w.announceShutdown(returnBy) {
		w.awaitStickyAnswers(timeout)
	}
	w.abandonPolls()
	w.polling.Wait()
}

// workerShutdownService is the part of the frontend that takes a
// worker's notice that it stops; the gRPC client has it, the test
// environment's in-memory service does not need it.
type workerShutdownService interface {
	ShutdownWorker(ctx context.Context, in *workflowservice.ShutdownWorkerRequest, opts ...grpc.CallOption) (*workflowservice.ShutdownWorkerResponse, error)
}

// shutdownHeartbeat is the worker's last heartbeat, for its ShutdownWorker
// call, or nil without heartbeats.
func (w *Worker) shutdownHeartbeat() *workerpb.WorkerHeartbeat {
	if w.opts.ShutdownHeartbeat == nil {
		return nil
	}
	return w.opts.ShutdownHeartbeat()
}

// announceShutdown tells the server that the worker stops, as
// go.temporal.io/sdk does, and reports whether the server took it by
// returnBy.
func (w *Worker) announceShutdown(returnBy time.Time) bool {
	svc, ok := w.opts.Service.(workerShutdownService)
	if !ok {
		return false
	}
	var types []enumspb.TaskQueueType
	if w.opts.Engine != nil {
		types = append(types, enumspb.TASK_QUEUE_TYPE_WORKFLOW)
	}
	if w.opts.Activities != nil {
		types = append(types, enumspb.TASK_QUEUE_TYPE_ACTIVITY)
	}
	if w.opts.Nexus != nil {
		types = append(types, enumspb.TASK_QUEUE_TYPE_NEXUS)
	}
	ctx, cancel := context.WithTimeout(w.metrics.queueContext(), min(time.Until(returnBy), rpcTimeout))
	defer cancel()
	_, err := svc.ShutdownWorker(ctx, &workflowservice.ShutdownWorkerRequest{
		Namespace:         w.opts.Namespace,
		StickyTaskQueue:   w.stickyQueue,
		Identity:          w.opts.Identity,
		Reason:            "graceful shutdown",
		WorkerInstanceKey: w.opts.WorkerInstanceKey,
		TaskQueue:         w.opts.TaskQueue,
		TaskQueueTypes:    types,
		WorkerHeartbeat:   w.shutdownHeartbeat(),
	})
	var unimplemented *serviceerror.Unimplemented
	switch {
	case errors.As(err, &unimplemented):
		// A server older than the call: the sticky queue times out instead.
		return false
	case err != nil && ctx.Err() != nil && !time.Now().Before(returnBy):
		w.opts.Logger.Info("the server did not answer in time that the worker stops (ShutdownWorker); the worker stops anyway, and the server sends its cached workflows' next tasks to the task queue after the sticky schedule-to-start timeout",
			"TaskQueue", w.opts.TaskQueue, "Error", err)
		return false
	case err != nil:
		w.opts.Logger.Warn("telling the server that the worker stops (ShutdownWorker) failed; the worker stops anyway, and the server sends its cached workflows' next tasks to the task queue after the sticky schedule-to-start timeout",
			"TaskQueue", w.opts.TaskQueue, "Error", err)
		return false
	}
	return true
}

// awaitStickyAnswers lets the sticky queue's open polls return with the
// server's empty answers (counted, as go.temporal.io/sdk counts them, in
// temporal_workflow_task_queue_poll_empty) rather than cutting them
// short, for pollAnswerWait at most and not past the stop timeout, and
// opens no new one.
func (w *Worker) awaitStickyAnswers(timeout time.Time) {
	wait := min(pollAnswerWait, time.Until(timeout))
	if w.stickyQueue == "" || wait <= 0 {
		return
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-w.stickyPolls.drain():
	case <-t.C:
	}
}

// awaitPollAnswers waits for the open polls, which the server completes
// once told that the worker stops, to return with its answers (counted,
// as go.temporal.io/sdk counts them, as empty polls:
// temporal_workflow_task_queue_poll_empty, temporal_activity_poll_no_task;
// not as canceled requests), and for the tasks they bring to start: until the
// stop timeout, or pollAnswerWait from now if that is later, but not past
// returnBy.
func (w *Worker) awaitPollAnswers(timeout, returnBy time.Time) {
	start := time.Now()
	giveUp := start.Add(pollAnswerWait)
	if timeout.After(giveUp) {
		giveUp = timeout
	}
	if giveUp.After(returnBy) {
		giveUp = returnBy
	}
	returned := make(chan struct{})
	go func() {
		w.polling.Wait()
		close(returned)
	}()
	t := time.NewTimer(time.Until(giveUp))
	defer t.Stop()
	select {
	case <-returned:
	case <-t.C:
		w.opts.Logger.Info("the server did not complete the stopping worker's open polls in time; canceling them",
			"TaskQueue", w.opts.TaskQueue, "Waited", time.Since(start).Round(time.Millisecond))
	}
}

// finishTasks lets running tasks finish until timeout, cancels the
// activities still running, and waits until returnBy for all but the
// activity code that has not returned; it reports whether they ended.
func (w *Worker) finishTasks(timeout, returnBy time.Time) bool {
	ctx, cancel := context.WithDeadline(context.Background(), timeout)
	finished := w.running.waitUntil(w.running.idle, ctx.Done())
	cancel()
	if !finished && w.opts.StopTimeout > 0 {
		w.opts.Logger.Info("the worker stop timeout passed with tasks still running; canceling the running activities",
			"TaskQueue", w.opts.TaskQueue, "StopTimeout", w.opts.StopTimeout)
	}
	w.stopWork(ErrWorkerShutdown)
	ctx, cancel = context.WithDeadline(context.Background(), returnBy)
	defer cancel()
	if w.running.waitUntil(w.running.onlyActivityCodeLeft, ctx.Done()) {
		return true
	}
	w.opts.Logger.Warn("the worker's own work (workflow tasks, reports of activities that returned) did not end within the stop timeout and its margin; Stop returns, and that work ends in the background: a workflow task that does not finish is retried by the server",
		"TaskQueue", w.opts.TaskQueue, "StopTimeout", w.opts.StopTimeout, "StopMargin", StopMargin)
	return false
}

// warnActivitiesInCode names, in a warning, the activities whose code has
// not returned after Stop canceled them.
func (w *Worker) warnActivitiesInCode() {
	if left := w.running.activitiesInCode(); len(left) > 0 {
		w.opts.Logger.Warn("the worker stopped with activities still running: their contexts are canceled (context.Cause is worker.ErrWorkerShutdown) but their code has not returned. What it returns will be reported if the server still takes it; otherwise the server retries each activity after its timeout. Activity code should return when its context is done",
			"TaskQueue", w.opts.TaskQueue, "StopTimeout", w.opts.StopTimeout, "Activities", left)
	}
}

// releaseCachedRuns releases the runs whose next tasks would come to the
// worker's sticky queue, which no one polls any more: the server sends
// them to the task queue, with their full history. They had not
// completed (completed runs are not cached), so each counts as a forced
// eviction.
func (w *Worker) releaseCachedRuns() {
	if w.opts.Cache == nil {
		return
	}
	for _, r := range w.opts.Cache.removeOwnedBy(w) {
		r.metrics.cachedRunEvicted()
		closeRun(r)
	}
}

// pollDrain counts the open polls of a queue, so that a stopping worker
// can wait for them to return while opening no new one.
type pollDrain struct {
	mu       sync.Mutex
	polls    int
	draining bool
	drained  chan struct{} // closed when the last open poll returns
}

// open counts a poll about to open; false once draining began.
func (d *pollDrain) open() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.draining {
		return false
	}
	d.polls++
	return true
}

// closed counts a poll that returned.
func (d *pollDrain) closed() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.polls--
	if d.draining && d.polls == 0 && d.drained != nil {
		close(d.drained)
		d.drained = nil
	}
}

// drain stops new polls and returns a channel closed once the open ones
// have returned.
func (d *pollDrain) drain() <-chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.draining = true
	done := make(chan struct{})
	if d.polls == 0 {
		close(done)
	} else {
		d.drained = done
	}
	return done
}
