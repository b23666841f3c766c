package workerrt

import (
	"context"
	"errors"
	"math"
	"sync"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/rpc"
)

// A workflow task that waits for local activities runs them here, on
// goroutines of the task's handler, within the worker's local activity
// slots and rate. Each one's attempts run back to back: a failed attempt
// is retried after its backoff when the backoff fits in the workflow task
// timeout, as go.temporal.io/sdk does; a longer one goes back to the
// workflow code, which waits on a workflow timer and asks again.

// heartbeatRatio is the part of the workflow task timeout after which a
// task still waiting for local activities reports what it has and asks for
// the next task, so that it does not time out (go.temporal.io/sdk's
// ratio).
const heartbeatRatio = 0.8

// defaultWorkflowTaskTimeout stands in for a run that does not say.
const defaultWorkflowTaskTimeout = 10 * time.Second

// noRetryBackoff is the backoff the marker of a failed local activity
// records when no attempt follows (the error is not retryable, or the
// attempts or the schedule-to-close timeout are spent): go.temporal.io/sdk
// writes -1 there, and 0 only for a cancellation.
const noRetryBackoff = time.Duration(-1)

// localActivityOutcome is a finished local activity, for the task handler.
type localActivityOutcome struct {
	id      string
	outcome engine.LocalActivityOutcome
}

// localActivityRunner runs one task handler's local activities.
type localActivityRunner struct {
	w        *Worker
	task     *workflowservice.PollWorkflowTaskQueueResponse // for the activities' info
	outcomes chan localActivityOutcome
	done     chan struct{} // closed when the handler stops listening
	running  sync.WaitGroup
	cancels  map[string]context.CancelFunc
	meter    attemptMeter
}

func (w *Worker) newLocalActivityRunner(task *workflowservice.PollWorkflowTaskQueueResponse) *localActivityRunner {
	return &localActivityRunner{w: w, task: task, outcomes: make(chan localActivityOutcome), done: make(chan struct{}),
		cancels: make(map[string]context.CancelFunc)}
}

// attemptMeter counts what a workflow task's completion reports as
// MeteringMetadata.NonfirstLocalActivityExecutionAttempts, the extra
// actions Temporal Cloud bills: the attempts made during a task by the
// local activities that were already running when the task began (that
// is, scheduled by an earlier task of the same handler and kept alive by
// heartbeats). go.temporal.io/sdk counts the same way.
type attemptMeter struct {
	mu       sync.Mutex
	running  map[string]*meteredActivity
	finished uint32 // attempts this task of activities that ended in it
}

type meteredActivity struct {
	pastFirstTask bool
	thisTask      uint32
}

// attempted counts an attempt of the local activity id starting now.
func (m *attemptMeter) attempted(id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.running == nil {
		m.running = make(map[string]*meteredActivity)
	}
	a := m.running[id]
	if a == nil {
		a = &meteredActivity{}
		m.running[id] = a
	}
	a.thisTask++
}

// ended moves the attempts of a finished local activity to the task's total.
func (m *attemptMeter) ended(id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if a := m.running[id]; a != nil {
		if a.pastFirstTask {
			m.finished += a.thisTask
		}
		delete(m.running, id)
	}
}

// taskEnded returns the count to report for the task ending now and
// starts the next: every activity still running is then past its first
// task.
func (m *attemptMeter) taskEnded() uint32 {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := m.finished
	m.finished = 0
	for _, a := range m.running {
		if a.pastFirstTask {
			n += a.thisTask
		}
		a.pastFirstTask, a.thisTask = true, 0
	}
	return n
}

// start runs local activities, each on its own goroutine.
func (r *localActivityRunner) start(reqs []*engine.LocalActivityRequest) {
	for _, req := range reqs {
		ctx, cancel := context.WithCancel(r.w.workCtx)
		r.cancels[req.ID] = cancel
		r.running.Add(1)
		go func() {
			defer r.running.Done()
			o := r.w.runLocalActivity(ctx, r.task, req, func() { r.meter.attempted(req.ID) })
			select {
			case r.outcomes <- localActivityOutcome{id: req.ID, outcome: o}:
			case <-r.done:
			}
		}()
	}
}

// cancel cancels running local activities; each then reports canceled.
func (r *localActivityRunner) cancel(ids []string) {
	for _, id := range ids {
		if c := r.cancels[id]; c != nil {
			c()
		}
	}
}

// stop cancels what still runs (the task ended without waiting for it, or
// was given up) and waits for the goroutines.
func (r *localActivityRunner) stop() {
	close(r.done)
	for _, c := range r.cancels {
		c()
	}
	r.running.Wait()
}

// runLocalActivity makes the attempts of one local activity, calling
// attempted as each one starts.
func (w *Worker) runLocalActivity(ctx context.Context, task *workflowservice.PollWorkflowTaskQueueResponse, req *engine.LocalActivityRequest, attempted func()) engine.LocalActivityOutcome {
	expire := w.wallTime(req.ScheduledTime.Add(req.ScheduleToCloseTimeout))
	threshold := req.WorkflowTaskTimeout
	if threshold <= 0 {
		threshold = defaultWorkflowTaskTimeout
	}
	lm := w.metrics.forLocalActivity(task.GetWorkflowType().GetName(), req.ActivityType)
	for attempt := req.Attempt; ; attempt++ {
		result, err := w.localActivityAttempt(ctx, lm, task, req, attempt, expire, attempted)
		if err == nil {
			lm.succeeded(w.wallTime(req.ScheduledTime))
			return engine.LocalActivityOutcome{Result: result, Attempt: attempt}
		}
		if failure.IsCanceledError(err) {
			return engine.LocalActivityOutcome{Err: err, Attempt: attempt}
		}
		backoff := localRetryBackoff(req.RetryPolicy, attempt, err, time.Now(), expire)
		switch {
		case backoff <= 0:
			return engine.LocalActivityOutcome{Err: err, Attempt: attempt, Backoff: noRetryBackoff}
		case backoff > threshold:
			// Too long to keep the task open: the code retries after a
			// workflow timer.
			return engine.LocalActivityOutcome{Err: err, Attempt: attempt, Backoff: backoff}
		}
		if !rpc.Sleep(ctx, backoff) {
			// The attempt canceled is the one the backoff waited for, as
			// go.temporal.io/sdk counts it.
			return engine.LocalActivityOutcome{Err: failure.NewCanceledError(), Attempt: attempt + 1}
		}
	}
}

// localActivityAttempt runs one attempt within its deadline, in a local
// activity slot.
func (w *Worker) localActivityAttempt(ctx context.Context, lm *localActivityMetrics, task *workflowservice.PollWorkflowTaskQueueResponse,
	req *engine.LocalActivityRequest, attempt int32, expire time.Time, attempted func()) (result *commonpb.Payloads, err error) {
	if ctx.Err() != nil {
		return nil, failure.NewCanceledError()
	}
	if w.opts.LocalActivities == nil {
		return nil, failure.NewNonRetryableApplicationError("this worker runtime was built without a local activity executor", "LocalActivitiesUnsupported", nil)
	}
	permit, err := w.reserveLocalActivitySlot(ctx)
	if err != nil {
		return nil, failure.NewCanceledError()
	}
	w.localActivitySlots.markUsed(permit)
	defer w.localActivitySlots.release(permit, true)
	if w.localActivityLimiter != nil {
		if err := w.localActivityLimiter.wait(ctx); err != nil {
			return nil, failure.NewCanceledError()
		}
	}
	attempted()
	now := time.Now()
	deadline := now.Add(req.StartToCloseTimeout)
	if req.ScheduleToCloseTimeout > 0 && expire.Before(deadline) {
		deadline = expire
	}
	actx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	defer func() {
		lm.attempted(now, err)
		if isCountedFailure(err) {
			w.localActivitySlots.taskFailed()
		}
	}()
	returned := w.executeLocalActivity(actx, task, req, attempt, now)
	return attemptVerdict(ctx, actx, req, returned, deadline, expire)
}

// executeLocalActivity runs an attempt's code on a goroutine of its own
// and returns what it returned, or, once actx is done, actx's error. As
// go.temporal.io/sdk does, the attempt ends when its context does, whether
// or not its code watches the context: what the code returns after that
// is dropped.
func (w *Worker) executeLocalActivity(actx context.Context, task *workflowservice.PollWorkflowTaskQueueResponse, req *engine.LocalActivityRequest,
	attempt int32, started time.Time) attemptResult {
	returned := make(chan attemptResult, 1)
	go func() {
		defer backstop(w.opts.Logger, "local activity") // the attempt then times out
		var r attemptResult
		r.result, r.err = w.opts.LocalActivities.Execute(actx, &ActivityTask{
			Task:       localActivityTask(w.opts.Namespace, task, req, attempt, started),
			Local:      true,
			LocalFn:    req.Fn,
			LocalArgs:  req.Args,
			Heartbeat:  func(*commonpb.Payloads) {}, // local activities do not heartbeat
			WorkerStop: w.stopped,
		})
		r.err = failure.SafeChain(r.err) // before the retry policy and the engine walk it
		returned <- r
	}()
	var r attemptResult
	select {
	case r = <-returned:
	case <-actx.Done():
		select {
		case r = <-returned:
		default:
			r.err = actx.Err()
		}
	}
	return r
}

// attemptVerdict is an attempt's outcome: canceled when the activity was
// (ctx), timed out when it outlived its deadline (actx's), else what its
// code returned.
func attemptVerdict(ctx, actx context.Context, req *engine.LocalActivityRequest, r attemptResult, deadline, expire time.Time) (*commonpb.Payloads, error) {
	switch {
	case ctx.Err() != nil:
		return nil, failure.NewCanceledError()
	case errors.Is(actx.Err(), context.DeadlineExceeded) && (r.err != nil || time.Now().After(deadline)):
		// As go.temporal.io/sdk does, an attempt that outlived its deadline
		// is timed out whatever it returned.
		if req.ScheduleToCloseTimeout > 0 && !time.Now().Before(expire) {
			return nil, failure.NewTimeoutError("deadline exceeded", enumspb.TIMEOUT_TYPE_SCHEDULE_TO_CLOSE, nil)
		}
		return nil, failure.NewTimeoutError("deadline exceeded", enumspb.TIMEOUT_TYPE_START_TO_CLOSE, nil)
	}
	return r.result, r.err
}

// attemptResult is what an attempt's code returned.
type attemptResult struct {
	result *commonpb.Payloads
	err    error
}

// reserveLocalActivitySlot waits for a local activity slot; a supplier
// that fails is logged and asked again after a second, until ctx ends.
func (w *Worker) reserveLocalActivitySlot(ctx context.Context) (Permit, error) {
	for {
		permit, err := w.localActivitySlots.reserve(ctx, enumspb.TASK_QUEUE_KIND_UNSPECIFIED)
		if err == nil || ctx.Err() != nil {
			return permit, err
		}
		w.opts.Logger.Error("reserving a local activity slot failed; trying again in a second", "Error", err)
		if !rpc.Sleep(ctx, time.Second) {
			return nil, ctx.Err()
		}
	}
}

// localActivityTask is the activity task a local activity's code sees in
// its activity.Info: the workflow's identity, the attempt, the timeouts;
// no task token, since the server never hears of it.
func localActivityTask(namespace string, task *workflowservice.PollWorkflowTaskQueueResponse, req *engine.LocalActivityRequest, attempt int32, started time.Time) *workflowservice.PollActivityTaskQueueResponse {
	return &workflowservice.PollActivityTaskQueueResponse{
		WorkflowNamespace:           namespace,
		WorkflowType:                task.GetWorkflowType(),
		WorkflowExecution:           task.GetWorkflowExecution(),
		ActivityType:                &commonpb.ActivityType{Name: req.ActivityType},
		ActivityId:                  req.ID,
		Header:                      req.Header,
		ScheduledTime:               timestamppb.New(req.ScheduledTime),
		StartedTime:                 timestamppb.New(started),
		CurrentAttemptScheduledTime: timestamppb.New(started),
		Attempt:                     attempt,
		ScheduleToCloseTimeout:      durationpb.New(req.ScheduleToCloseTimeout),
		StartToCloseTimeout:         durationpb.New(req.StartToCloseTimeout),
		RetryPolicy:                 req.RetryPolicy,
	}
}

// localRetryBackoff is how long to wait before the next attempt after err,
// or 0 for no retry: the error is not retryable, the attempts ran out, or
// the next attempt would start after expire.
func localRetryBackoff(p *commonpb.RetryPolicy, attempt int32, err error, now, expire time.Time) time.Duration {
	if p == nil || !failure.IsRetryable(err, p.GetNonRetryableErrorTypes()) {
		return 0
	}
	if p.GetMaximumAttempts() > 0 && attempt >= p.GetMaximumAttempts() {
		return 0
	}
	var backoff time.Duration
	var app *failure.ApplicationError
	if errors.As(err, &app) {
		backoff = app.NextRetryDelay()
	}
	if backoff == 0 {
		backoff = time.Duration(float64(p.GetInitialInterval().AsDuration()) * math.Pow(p.GetBackoffCoefficient(), float64(attempt-1)))
		if max := p.GetMaximumInterval().AsDuration(); max > 0 && (backoff <= 0 || backoff > max) {
			backoff = max // capped, or the power overflowed
		}
	}
	if backoff <= 0 || !expire.IsZero() && now.Add(backoff).After(expire) {
		return 0
	}
	return backoff
}

// wallTime converts a server (or workflow) time to wall time.
func (w *Worker) wallTime(t time.Time) time.Time {
	if w.opts.WallTime != nil {
		return w.opts.WallTime(t)
	}
	return t
}

// waitForLocalActivities runs a task's local activities and hands their
// outcomes to the run until the task may end. Before the task would time
// out (counted from started, when its processing began, as
// go.temporal.io/sdk counts it), it reports the commands so far asking for
// a new task at once, and goes on with the task the server hands back
// (unless Options.NoWorkflowTaskHeartbeat). It
// returns the final result and the task it answers; a nil task means the
// task was given up (the run must be evicted; the server will retry).
func (w *Worker) waitForLocalActivities(run *cachedRun, task *workflowservice.PollWorkflowTaskQueueResponse, res *engine.TaskResult, started time.Time) (processedTask, error) {
	las := w.newLocalActivityRunner(task)
	defer las.stop()
	timeout := run.exec.WorkflowTaskTimeout()
	if timeout <= 0 {
		timeout = defaultWorkflowTaskTimeout
	}
	heartbeatAfter := time.Duration(heartbeatRatio * float64(timeout))
	var heartbeat *time.Timer
	var heartbeatDue <-chan time.Time // nil with NoWorkflowTaskHeartbeat: the task never heartbeats
	if !w.opts.NoWorkflowTaskHeartbeat {
		heartbeat = time.NewTimer(time.Until(started.Add(heartbeatAfter)))
		defer heartbeat.Stop()
		heartbeatDue = heartbeat.C
	}
	for res.WaitingForLocalActivities {
		las.start(res.StartLocalActivities)
		las.cancel(res.CancelLocalActivities)
		var err error
		select {
		case o := <-las.outcomes:
			delete(las.cancels, o.id)
			las.meter.ended(o.id)
			if res, err = run.exec.ResolveLocalActivity(o.id, o.outcome); err != nil {
				return processedTask{task: task}, err
			}
		case <-heartbeatDue:
			next, err := w.heartbeatWorkflowTask(run, task, las.meter.taskEnded())
			if err != nil || next == nil {
				if err != nil {
					w.opts.Logger.Warn("a workflow task waiting for local activities could not be kept open; the server will retry it",
						"WorkflowID", task.GetWorkflowExecution().GetWorkflowId(), "RunID", run.runID, "Error", err)
				}
				return processedTask{}, nil
			}
			task = next
			started = time.Now()
			src := engine.NewEventSource(context.Background(), task.GetHistory().GetEvents(), task.GetNextPageToken(), w.historyFetcher(task.GetWorkflowExecution()))
			if res, err = run.exec.ProcessTask(engine.Task{Events: src, Messages: task.GetMessages()}); err != nil {
				return processedTask{task: task}, err
			}
			heartbeat.Reset(time.Until(started.Add(heartbeatAfter)))
		case <-w.stopped:
			return processedTask{}, nil // the server retries the task with another worker
		}
	}
	return processedTask{res: res, task: task, nonfirstAttempts: las.meter.taskEnded()}, nil
}

// heartbeatWorkflowTask reports the commands of a task that still waits for
// local activities, asking the server to start the run's next task at once
// and hand it back. It returns nil when the server did not, or when that
// task does not follow on from the run.
func (w *Worker) heartbeatWorkflowTask(run *cachedRun, task *workflowservice.PollWorkflowTaskQueueResponse, nonfirstAttempts uint32) (*workflowservice.PollWorkflowTaskQueueResponse, error) {
	hb, err := run.exec.HeartbeatTask()
	if err != nil {
		return nil, err
	}
	req := w.completionRequest(run, task, hb, nonfirstAttempts)
	req.ForceCreateNewWorkflowTask = true
	ctx, cancel := context.WithTimeout(context.Background(), rpcTimeout)
	defer cancel()
	resp, err := w.respondWorkflowTaskCompleted(ctx, req)
	if err != nil {
		return nil, err
	}
	next := resp.GetWorkflowTask()
	if next == nil || len(next.GetHistory().GetEvents()) == 0 || next.GetHistory().GetEvents()[0].GetEventId() > run.exec.LastEventID()+1 {
		return nil, nil
	}
	return next, nil
}
