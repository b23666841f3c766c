package testenv

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	querypb "go.temporal.io/api/query/v1"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/codecfail"
	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/workerrt"
)

// The test environment's run loop: ExecuteWorkflow's goroutine (the
// test's) starts the worker and the clock, then runs the callbacks that
// go.temporal.io/sdk's test environment runs on it (delayed callbacks,
// update callbacks) until the run closes, a workflow task fails, or the
// test timeout passes without progress.

// runUntilClosed runs the worker and the clock until the run closes, a
// workflow task fails, or nothing makes progress.
func (e *TestWorkflowEnvironment) runUntilClosed() {
	closed, _, err := e.server.Closed(e.execution)
	if err != nil {
		e.finish(nil, err)
		return
	}
	w, err := e.startWorker()
	if err != nil {
		e.finish(nil, err)
		return
	}
	e.clock.Start()
	stopWatch := e.watchProgress()
	returned := false
	defer func() {
		if !returned {
			// A callback stopped the test's goroutine (require's FailNow
			// calls runtime.Goexit): stop everything all the same.
			e.shutdown(w, stopWatch)
			e.finish(w, errors.New("the test stopped inside a callback of the test environment"))
		}
	}()
	early := e.serveUntilClosed(closed)
	returned = true
	e.shutdown(w, stopWatch)
	e.finish(w, early)
}

// serveUntilClosed runs callbacks until the run closed and the children
// it left running did (unless told not to wait for them), or something
// ended the test early.
func (e *TestWorkflowEnvironment) serveUntilClosed(closed <-chan struct{}) error {
	for {
		select {
		case <-closed:
			return e.waitForDetachedChildren()
		case err := <-e.endEarly:
			return err
		case <-e.callbacks.ready:
			e.callbacks.runQueued()
		}
	}
}

// waitForDetachedChildren waits, unless told not to, until every run the
// workflow left behind closed: children under the abandon or
// request-cancel parent close policy.
func (e *TestWorkflowEnvironment) waitForDetachedChildren() error {
	e.mu.Lock()
	skip := e.noDetachedChildWait
	e.mu.Unlock()
	for !skip {
		open := e.server.OpenChildren()
		if len(open) == 0 {
			return nil
		}
		e.clock.Release() // the children's timers fire
		select {
		case <-open[0]:
		case err := <-e.endEarly:
			return err
		case <-e.callbacks.ready:
			e.callbacks.runQueued()
		}
	}
	return nil
}

// shutdown lets update callbacks hear what arrived, then stops the clock
// and the worker. Delayed callbacks not run yet never run.
func (e *TestWorkflowEnvironment) shutdown(w *workerrt.Worker, stopWatch func()) {
	stopWatch()
	e.callbacks.dropDelayed()
	e.updates.finish()
	e.callbacks.runQueued()
	e.callbacks.close()
	e.clock.StopRunning()
	e.stopWorker(w)
}

// watchProgress ends the test when no event was written to any history
// of the test for the test timeout, in wall time: the workflow is blocked
// with nothing scheduled to wake it, or work keeps running without the
// workflow hearing of it (an activity that runs longer than the timeout,
// or retries without end). It returns the function that stops watching.
func (e *TestWorkflowEnvironment) watchProgress() func() {
	e.mu.Lock()
	limit := e.testTimeout
	e.mu.Unlock()
	stop := make(chan struct{})
	done := make(chan struct{})
	e.progress.Store(time.Now().UnixNano())
	go func() {
		defer close(done)
		for {
			wait := time.Until(time.Unix(0, e.progress.Load()).Add(limit))
			if wait <= 0 {
				e.endWithoutProgress(limit)
				return
			}
			select {
			case <-stop:
				return
			case <-time.After(wait):
			}
		}
	}()
	return func() {
		close(stop)
		<-done
	}
}

// onEvent sees every event written to a history of the test.
func (e *TestWorkflowEnvironment) onEvent(execution *commonpb.WorkflowExecution, ev *historypb.HistoryEvent) {
	e.progress.Store(time.Now().UnixNano())
	if execution.GetRunId() == e.execution.GetRunId() && engine.ClosesRun(ev.GetEventType()) {
		// The test's run ended: the clock stays at its end, as the test
		// reads it, though delayed callbacks are still due (they do not
		// run). Children it left running move it again (see
		// waitForDetachedChildren).
		e.clock.Hold()
	}
	e.listeners.onEvent(execution, ev)
}

// endWithoutProgress ends the test with an error that shows where the
// workflow's coroutines are blocked.
func (e *TestWorkflowEnvironment) endWithoutProgress(limit time.Duration) {
	stack := "(unavailable)"
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if p, err := e.server.Query(ctx, e.execution, &querypb.WorkflowQuery{QueryType: internal.QueryTypeStackTrace}); err == nil {
		var s string
		if dc, _ := e.workflowConverters(e.executionID()); dc.FromPayloads(p, &s) == nil {
			stack = s
		}
	}
	var err error
	if e.clock.Idle() {
		err = fmt.Errorf("test timeout: workflow %q made no progress for %v of wall time and nothing is scheduled that could wake it "+
			"(no timer, activity, signal or delayed callback); its coroutines are blocked here:\n%s", e.workflowType, limit, stack)
	} else {
		err = fmt.Errorf("test timeout: workflow %q wrote no history event for %v of wall time while work kept running "+
			"(an activity running longer than the test timeout, or retrying without end: give its retry policy a MaximumAttempts, "+
			"or raise SetTestTimeout); its coroutines are blocked here:\n%s", e.workflowType, limit, stack)
	}
	e.endTest(err)
}

// endTest ends the test early with err; the first error wins.
func (e *TestWorkflowEnvironment) endTest(err error) {
	select {
	case e.endEarly <- err:
	default:
	}
	e.endOnce.Do(func() { close(e.ended) })
}

// workflowTaskFailed ends the test when a task of the workflow fails: a
// panic, a deadlock or non-determinism, which on a server would block the
// workflow until fixed code is deployed.
func (e *TestWorkflowEnvironment) workflowTaskFailed(execution *commonpb.WorkflowExecution, attrs *historypb.WorkflowTaskFailedEventAttributes) {
	if execution.GetWorkflowId() != e.execution.GetWorkflowId() || attrs.GetCause() == enumspb.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND {
		return
	}
	_, fc := e.workflowConverters(execution.GetWorkflowId())
	e.endTest(fc.FailureToError(attrs.GetFailure()))
}

// codecFailedWorkflowTask ends the test when a payload codec fails a
// workflow task of the test's workflow or of one of its children
// (converter.WorkflowTaskFailureError): the environment retries no task,
// so, as in go.temporal.io/sdk's, the workflow error wraps the codec's
// error itself, not a failure decoded from the task's report.
func (e *TestWorkflowEnvironment) codecFailedWorkflowTask(workflowID string, err error) {
	if codecfail.Has(err) {
		e.endTest(fmt.Errorf("workflow %q: the test environment does not retry workflow tasks: %w", workflowID, err))
	}
}

// callbackQueue runs functions on the test's goroutine, one at a time in
// the order they came, as go.temporal.io/sdk's test environment runs
// delayed callbacks and update callbacks on its main loop: a require
// inside one stops the test as it does in the test's own code.
type callbackQueue struct {
	mu    sync.Mutex
	queue []queuedCallback
	ready chan struct{} // holds a token while the queue is not empty
	// urgentReady holds a token while an urgent callback is queued.
	urgentReady chan struct{}
	closed      bool
	// noDelayed: the run ended; delayed callbacks no longer run.
	noDelayed bool
	running   bool // a callback runs
	// busy counts posted callbacks as work in flight on the clock until
	// they ran: the clock must not skip ahead of what the test sent.
	busy func(delta int)
}

type queuedCallback struct {
	fn   func()
	done chan struct{} // closed once fn ran, or will never run
	// delayed: a delayed callback, which does not run once the run ended.
	delayed bool
	// urgent: workflow code waits for it (an update's callbacks), so it
	// runs even while the test's goroutine waits for the workflow (see
	// runUrgent).
	urgent bool
}

func newCallbackQueue(busy func(delta int)) *callbackQueue {
	return &callbackQueue{ready: make(chan struct{}, 1), urgentReady: make(chan struct{}, 1), busy: busy}
}

// call runs fn on the test's goroutine and waits until it ran. It reports
// false, without running fn, once the run ended.
func (q *callbackQueue) call(fn func(), delayed bool) bool {
	done := make(chan struct{})
	ran := false
	if !q.push(queuedCallback{fn: func() { fn(); ran = true }, done: done, delayed: delayed, urgent: !delayed}) {
		return false
	}
	<-done
	return ran
}

// post queues fn to run on the test's goroutine; false once the run
// ended. It counts as work in flight until it ran (or never will).
func (q *callbackQueue) post(fn func()) bool {
	q.busy(1)
	done := make(chan struct{})
	if !q.push(queuedCallback{fn: fn, done: done}) {
		q.busy(-1)
		return false
	}
	go func() {
		<-done
		q.busy(-1)
	}()
	return true
}

func (q *callbackQueue) push(c queuedCallback) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return false
	}
	q.queue = append(q.queue, c)
	select {
	case q.ready <- struct{}{}:
	default:
	}
	if c.urgent {
		select {
		case q.urgentReady <- struct{}{}:
		default:
		}
	}
	return true
}

// runUrgent runs, on the calling goroutine (the test's), the urgent
// callbacks queued, leaving the others queued.
func (q *callbackQueue) runUrgent() {
	for {
		q.mu.Lock()
		i := slices.IndexFunc(q.queue, func(c queuedCallback) bool { return c.urgent })
		if i < 0 {
			q.mu.Unlock()
			return
		}
		c := q.queue[i]
		q.queue = slices.Delete(q.queue, i, i+1)
		q.mu.Unlock()
		q.run(c)
	}
}

// runQueued runs, on the calling goroutine (the test's), what is queued,
// until the queue is empty.
func (q *callbackQueue) runQueued() {
	for {
		q.mu.Lock()
		if len(q.queue) == 0 {
			q.mu.Unlock()
			return
		}
		c := q.queue[0]
		q.queue = q.queue[1:]
		q.mu.Unlock()
		q.run(c)
	}
}

func (q *callbackQueue) run(c queuedCallback) {
	defer close(c.done) // even when fn leaves through runtime.Goexit
	q.mu.Lock()
	skip := q.noDelayed && c.delayed
	q.running = !skip
	q.mu.Unlock()
	defer func() {
		q.mu.Lock()
		q.running = false
		q.mu.Unlock()
	}()
	if !skip {
		c.fn()
	}
}

// inCallback reports whether a callback is running on the test's
// goroutine.
func (q *callbackQueue) inCallback() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.running
}

// dropDelayed says the run ended: delayed callbacks queued or to come do
// not run, as go.temporal.io/sdk's main loop ends with the workflow.
func (q *callbackQueue) dropDelayed() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.noDelayed = true
}

// close ends the queue: callbacks still queued never run, and their
// callers stop waiting.
func (q *callbackQueue) close() {
	q.mu.Lock()
	q.closed = true
	left := q.queue
	q.queue = nil
	q.mu.Unlock()
	for _, c := range left {
		close(c.done)
	}
}
