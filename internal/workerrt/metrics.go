package workerrt

import (
	"context"
	"errors"
	"sync"
	"time"

	commandpb "go.temporal.io/api/command/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/sdkmetrics"
)

// workerMetrics emits a worker's SDK metrics with the names, tags and
// meaning of go.temporal.io/sdk's (package sdkmetrics). A nil
// *workerMetrics emits nothing, and so do the nil *workflowMetrics and
// *activityMetrics it hands out: a worker without a handler runs no
// metrics code beyond those nil checks.
//
// Tagging a handler costs a map merge in most handlers, so the handlers of
// each workflow type and activity type are tagged once and kept, along with
// their instruments. An instrument a task may not record is made at its
// first use (sync.OnceValue), so that, as in the official SDK, a metric
// never emitted has no series.
type workerMetrics struct {
	handler        sdkmetrics.Handler // the root tags and task_queue
	workflowWorker sdkmetrics.Handler // and worker_type WorkflowWorker
	activityWorker sdkmetrics.Handler // and worker_type ActivityWorker
	localWorker    sdkmetrics.Handler // and worker_type LocalActivityWorker
	nexusWorker    sdkmetrics.Handler // and worker_type NexusWorker

	workflowPollEmpty  func() sdkmetrics.Counter
	activityPollNoTask func() sdkmetrics.Counter
	nexusPollNoTask    func() sdkmetrics.Counter
	forcedEviction     func() sdkmetrics.Counter

	workflowPollers, stickyPollers, activityPollers, nexusPollers *pollerGauge

	// queueCtx tags the request metrics of history reads and heartbeats
	// with the task queue.
	queueCtx context.Context

	workflowTypes sync.Map // workflow type -> *workflowMetrics
	activityTypes sync.Map // activityKey -> *activityMetrics
	localTypes    sync.Map // activityKey -> *localActivityMetrics
}

// newWorkerMetrics returns the metrics of a worker on taskQueue, or nil
// when handler records nothing. handler carries the root tags.
func newWorkerMetrics(handler sdkmetrics.Handler, taskQueue string) *workerMetrics {
	if sdkmetrics.IsNop(handler) {
		return nil
	}
	h := handler.WithTags(map[string]string{sdkmetrics.TagTaskQueue: taskQueue})
	poller := func(pollerType string) *pollerGauge {
		return &pollerGauge{gauge: sync.OnceValue(func() sdkmetrics.Gauge {
			return h.WithTags(map[string]string{sdkmetrics.TagPollerType: pollerType}).Gauge(sdkmetrics.NumPollers)
		})}
	}
	return &workerMetrics{
		handler:            h,
		workflowWorker:     h.WithTags(map[string]string{sdkmetrics.TagWorkerType: sdkmetrics.WorkerTypeWorkflow}),
		activityWorker:     h.WithTags(map[string]string{sdkmetrics.TagWorkerType: sdkmetrics.WorkerTypeActivity}),
		localWorker:        h.WithTags(map[string]string{sdkmetrics.TagWorkerType: sdkmetrics.WorkerTypeLocalActivity}),
		nexusWorker:        h.WithTags(map[string]string{sdkmetrics.TagWorkerType: sdkmetrics.WorkerTypeNexus}),
		workflowPollEmpty:  counterOnUse(h, sdkmetrics.WorkflowTaskQueuePollEmpty),
		activityPollNoTask: counterOnUse(h, sdkmetrics.ActivityPollNoTask),
		nexusPollNoTask:    counterOnUse(h, sdkmetrics.NexusPollNoTask),
		forcedEviction:     counterOnUse(h, sdkmetrics.StickyCacheTotalForcedEviction),
		workflowPollers:    poller(sdkmetrics.PollerTypeWorkflowTask),
		stickyPollers:      poller(sdkmetrics.PollerTypeWorkflowStickyTask),
		activityPollers:    poller(sdkmetrics.PollerTypeActivityTask),
		nexusPollers:       poller(sdkmetrics.PollerTypeNexusTask),
		queueCtx:           sdkmetrics.WithRequestTags(context.Background(), map[string]string{sdkmetrics.TagTaskQueue: taskQueue}),
	}
}

// counterOnUse returns the counter of that name, made at its first use.
func counterOnUse(h sdkmetrics.Handler, name string) func() sdkmetrics.Counter {
	return sync.OnceValue(func() sdkmetrics.Counter { return h.Counter(name) })
}

// byWorkerType is the handler tagged with a worker_type.
func (m *workerMetrics) byWorkerType(workerType string) sdkmetrics.Handler {
	switch workerType {
	case sdkmetrics.WorkerTypeWorkflow:
		return m.workflowWorker
	case sdkmetrics.WorkerTypeLocalActivity:
		return m.localWorker
	case sdkmetrics.WorkerTypeNexus:
		return m.nexusWorker
	}
	return m.activityWorker
}

// workerStarted counts the start of a worker of that type (WorkflowWorker,
// ActivityWorker).
func (m *workerMetrics) workerStarted(workerType string) {
	if m != nil {
		m.byWorkerType(workerType).Counter(sdkmetrics.WorkerStart).Inc(1)
	}
}

// pollerStarted counts the start of a poller of that worker type.
func (m *workerMetrics) pollerStarted(workerType string) {
	if m != nil {
		m.byWorkerType(workerType).Counter(sdkmetrics.PollerStart).Inc(1)
	}
}

// slotGauges returns the task slot gauges of that worker type, or nil.
func (m *workerMetrics) slotGauges(workerType string) *slotGauges {
	if m == nil {
		return nil
	}
	h := m.byWorkerType(workerType)
	return &slotGauges{
		available: h.Gauge(sdkmetrics.WorkerTaskSlotsAvailable),
		used:      h.Gauge(sdkmetrics.WorkerTaskSlotsUsed),
	}
}

// pollers returns temporal_num_pollers of a poller type, or nil.
func (m *workerMetrics) pollers(pollerType string) *pollerGauge {
	if m == nil {
		return nil
	}
	switch pollerType {
	case sdkmetrics.PollerTypeWorkflowTask:
		return m.workflowPollers
	case sdkmetrics.PollerTypeWorkflowStickyTask:
		return m.stickyPollers
	case sdkmetrics.PollerTypeNexusTask:
		return m.nexusPollers
	}
	return m.activityPollers
}

// pollExpired counts a poll of pollerType that brought no task.
func (m *workerMetrics) pollExpired(pollerType string) {
	switch {
	case m == nil:
	case pollerType == sdkmetrics.PollerTypeActivityTask:
		m.activityPollNoTask().Inc(1)
	case pollerType == sdkmetrics.PollerTypeNexusTask:
		m.nexusPollNoTask().Inc(1)
	default:
		m.workflowPollEmpty().Inc(1)
	}
}

// queueContext is the context of calls whose request metrics are tagged
// with the task queue (history reads, heartbeats).
func (m *workerMetrics) queueContext() context.Context {
	if m == nil {
		return context.Background()
	}
	return m.queueCtx
}

// cachedRunEvicted counts a run dropped from the sticky cache while open.
func (m *workerMetrics) cachedRunEvicted() {
	if m != nil {
		m.forcedEviction().Inc(1)
	}
}

// pollerGauge is temporal_num_pollers of one poller type: the polls in
// flight.
type pollerGauge struct {
	mu    sync.Mutex
	n     int
	gauge func() sdkmetrics.Gauge
}

// add counts polls starting (1) or ending (-1).
func (p *pollerGauge) add(d int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n += d
	p.gauge().Update(float64(p.n))
}

// workflowMetrics are the metrics of one workflow type.
type workflowMetrics struct {
	handler   sdkmetrics.Handler // tagged with workflow_type
	reportCtx context.Context    // of the task's reports, tagged with workflow_type

	pollSucceed     sdkmetrics.Counter
	scheduleToStart sdkmetrics.Timer
	execution       sdkmetrics.Timer
	replay          func() sdkmetrics.Timer
	cacheHit        func() sdkmetrics.Counter
	cacheSize       func() sdkmetrics.Gauge
}

// forWorkflow returns the metrics of a workflow type, or nil.
func (m *workerMetrics) forWorkflow(workflowType string) *workflowMetrics {
	if m == nil {
		return nil
	}
	if wm, ok := m.workflowTypes.Load(workflowType); ok {
		return wm.(*workflowMetrics)
	}
	h := m.handler.WithTags(map[string]string{sdkmetrics.TagWorkflowType: workflowType})
	wm, _ := m.workflowTypes.LoadOrStore(workflowType, &workflowMetrics{
		handler:         h,
		reportCtx:       sdkmetrics.WithRequestTags(context.Background(), map[string]string{sdkmetrics.TagWorkflowType: workflowType}),
		pollSucceed:     h.Counter(sdkmetrics.WorkflowTaskQueuePollSucceed),
		scheduleToStart: h.Timer(sdkmetrics.WorkflowTaskScheduleToStartLatency),
		execution:       h.Timer(sdkmetrics.WorkflowTaskExecutionLatency),
		replay:          sync.OnceValue(func() sdkmetrics.Timer { return h.Timer(sdkmetrics.WorkflowTaskReplayLatency) }),
		cacheHit:        counterOnUse(h, sdkmetrics.StickyCacheHit),
		cacheSize:       sync.OnceValue(func() sdkmetrics.Gauge { return h.Gauge(sdkmetrics.StickyCacheSize) }),
	})
	return wm.(*workflowMetrics)
}

// workflowPolled records a workflow task that a poll brought.
func (m *workerMetrics) workflowPolled(task *workflowservice.PollWorkflowTaskQueueResponse) {
	if m == nil {
		return
	}
	wm := m.forWorkflow(task.GetWorkflowType().GetName())
	wm.pollSucceed.Inc(1)
	wm.scheduleToStart.Record(task.GetStartedTime().AsTime().Sub(task.GetScheduledTime().AsTime()))
}

// start returns when the task began, for its latencies (zero without
// metrics: reading the clock is not free).
func (wm *workflowMetrics) start() time.Time {
	if wm == nil {
		return time.Time{}
	}
	return time.Now()
}

// replayed returns the engine's hook that times the task's replay.
func (wm *workflowMetrics) replayed(start time.Time) func() {
	if wm == nil {
		return nil
	}
	return func() { wm.replay().Record(time.Since(start)) }
}

// cacheLookup records how the sticky cache served a task: a hit when the
// task continued a cached run; a miss when the task held only new events
// (partial) and the whole history had to be replayed instead.
func (wm *workflowMetrics) cacheLookup(hit, partial bool) {
	if wm == nil {
		return
	}
	switch {
	case hit:
		wm.cacheHit().Inc(1)
	case partial:
		wm.handler.Counter(sdkmetrics.StickyCacheMiss).Inc(1)
	}
}

// cacheSized records the size of the cache once a task is done with it.
func (wm *workflowMetrics) cacheSized(cache *StickyCache) {
	if wm != nil && cache != nil {
		wm.cacheSize().Update(float64(cache.Len()))
	}
}

// executed records how long the task took, up to its report.
func (wm *workflowMetrics) executed(start time.Time) {
	if wm != nil {
		wm.execution.Record(time.Since(start))
	}
}

// failed records a failed task: its latency, and the failure counted by
// reason.
func (wm *workflowMetrics) failed(start time.Time, cause enumspb.WorkflowTaskFailedCause) {
	if wm == nil {
		return
	}
	wm.executed(start)
	reason := sdkmetrics.FailureReasonWorkflowError
	switch cause {
	case enumspb.WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR:
		reason = sdkmetrics.FailureReasonNonDeterminismError
	case enumspb.WORKFLOW_TASK_FAILED_CAUSE_PAYLOADS_TOO_LARGE:
		reason = sdkmetrics.FailureReasonPayloadsTooLarge
	}
	wm.handler.WithTags(map[string]string{sdkmetrics.TagFailureReason: reason}).
		Counter(sdkmetrics.WorkflowTaskExecutionFailed).Inc(1)
}

// closed records the close of a run the server accepted: how it closed,
// by its closing command, and its end-to-end latency.
func (wm *workflowMetrics) closed(commands []*commandpb.Command, info *engine.Info) {
	if wm == nil {
		return
	}
	counter, closes := closeCounter(commands)
	if !closes {
		return
	}
	if counter != "" {
		wm.handler.Counter(counter).Inc(1)
	}
	wm.handler.Timer(sdkmetrics.WorkflowEndToEndLatency).Record(time.Since(info.StartedTime))
}

// closeCounter finds the command that closes the run and names the
// counter of that close; "" for a failure with a benign error, which
// closes the run but is not counted as failed.
func closeCounter(commands []*commandpb.Command) (counter string, closes bool) {
	for i := len(commands) - 1; i >= 0; i-- {
		c := commands[i]
		switch c.GetCommandType() {
		case enumspb.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION:
			return sdkmetrics.WorkflowCompleted, true
		case enumspb.COMMAND_TYPE_CANCEL_WORKFLOW_EXECUTION:
			return sdkmetrics.WorkflowCanceled, true
		case enumspb.COMMAND_TYPE_CONTINUE_AS_NEW_WORKFLOW_EXECUTION:
			return sdkmetrics.WorkflowContinueAsNew, true
		case enumspb.COMMAND_TYPE_FAIL_WORKFLOW_EXECUTION:
			if isBenign(c.GetFailWorkflowExecutionCommandAttributes().GetFailure()) {
				return "", true
			}
			return sdkmetrics.WorkflowFailed, true
		}
	}
	return "", false
}

// reportContext is the context of the task's reports: their request
// metrics are tagged with the workflow type.
func (wm *workflowMetrics) reportContext() context.Context {
	if wm == nil {
		return context.Background()
	}
	return wm.reportCtx
}

// isBenign reports a failure of an application error of the benign
// category: expected in normal operation, not counted as a failure.
func isBenign(f *failurepb.Failure) bool {
	return f.GetApplicationFailureInfo().GetCategory() == enumspb.APPLICATION_ERROR_CATEGORY_BENIGN
}

// activityKey names the metrics of an activity type scheduled by a
// workflow type.
type activityKey struct{ workflowType, activityType string }

// activityMetrics are the metrics of one activity type of one workflow
// type.
type activityMetrics struct {
	handler   sdkmetrics.Handler // tagged with workflow_type and activity_type
	reportCtx context.Context    // of the attempt's report, tagged alike

	scheduleToStart  sdkmetrics.Timer
	execution        sdkmetrics.Timer
	succeedEndToEnd  func() sdkmetrics.Timer
	executionFailure func() sdkmetrics.Counter
}

// forActivity returns the metrics of the task's activity type, or nil.
func (m *workerMetrics) forActivity(task *workflowservice.PollActivityTaskQueueResponse) *activityMetrics {
	if m == nil {
		return nil
	}
	key := activityKey{task.GetWorkflowType().GetName(), task.GetActivityType().GetName()}
	if am, ok := m.activityTypes.Load(key); ok {
		return am.(*activityMetrics)
	}
	tags := map[string]string{sdkmetrics.TagWorkflowType: key.workflowType, sdkmetrics.TagActivityType: key.activityType}
	h := m.handler.WithTags(tags)
	am, _ := m.activityTypes.LoadOrStore(key, &activityMetrics{
		handler:          h,
		reportCtx:        sdkmetrics.WithRequestTags(context.Background(), tags),
		scheduleToStart:  h.Timer(sdkmetrics.ActivityScheduleToStartLatency),
		execution:        h.Timer(sdkmetrics.ActivityExecutionLatency),
		succeedEndToEnd:  sync.OnceValue(func() sdkmetrics.Timer { return h.Timer(sdkmetrics.ActivitySucceedEndToEndLatency) }),
		executionFailure: counterOnUse(h.WithTags(map[string]string{sdkmetrics.TagFailureReason: sdkmetrics.FailureReasonActivityError}), sdkmetrics.ActivityExecutionFailed),
	})
	return am.(*activityMetrics)
}

// activityPolled records an activity task that a poll brought.
func (m *workerMetrics) activityPolled(task *workflowservice.PollActivityTaskQueueResponse) {
	if m == nil {
		return
	}
	started, scheduled := task.GetStartedTime().AsTime(), task.GetCurrentAttemptScheduledTime().AsTime()
	m.forActivity(task).scheduleToStart.Record(started.Sub(scheduled))
}

func (am *activityMetrics) start() time.Time {
	if am == nil {
		return time.Time{}
	}
	return time.Now()
}

// executed records how long the attempt's code ran.
func (am *activityMetrics) executed(start time.Time) {
	if am != nil {
		am.execution.Record(time.Since(start))
	}
}

// failed counts a failed attempt.
func (am *activityMetrics) failed() {
	if am != nil {
		am.executionFailure().Inc(1)
	}
}

// succeeded records the end-to-end latency of an activity whose success
// the server accepted: from its first scheduling, retries included.
func (am *activityMetrics) succeeded(task *workflowservice.PollActivityTaskQueueResponse) {
	if am != nil {
		am.succeedEndToEnd().Record(time.Since(task.GetScheduledTime().AsTime()))
	}
}

// reportContext is the context of the attempt's report: its request
// metrics are tagged with the workflow and activity types.
func (am *activityMetrics) reportContext() context.Context {
	if am == nil {
		return context.Background()
	}
	return am.reportCtx
}

// localActivityMetrics are the metrics of one local activity type of one
// workflow type, as go.temporal.io/sdk records them: per attempt, its
// count, latency, and failure or cancellation; per activity, the
// end-to-end latency of a success.
type localActivityMetrics struct {
	total           sdkmetrics.Counter
	execution       sdkmetrics.Timer
	failed          func() sdkmetrics.Counter
	canceled        func() sdkmetrics.Counter
	succeedEndToEnd func() sdkmetrics.Timer
}

// forLocalActivity returns the metrics of a local activity type, or nil.
func (m *workerMetrics) forLocalActivity(workflowType, activityType string) *localActivityMetrics {
	if m == nil {
		return nil
	}
	key := activityKey{workflowType, activityType}
	if lm, ok := m.localTypes.Load(key); ok {
		return lm.(*localActivityMetrics)
	}
	h := m.handler.WithTags(map[string]string{sdkmetrics.TagWorkflowType: workflowType, sdkmetrics.TagActivityType: activityType})
	lm, _ := m.localTypes.LoadOrStore(key, &localActivityMetrics{
		total:           h.Counter(sdkmetrics.LocalActivityTotal),
		execution:       h.Timer(sdkmetrics.LocalActivityExecutionLatency),
		failed:          counterOnUse(h.WithTags(map[string]string{sdkmetrics.TagFailureReason: sdkmetrics.FailureReasonActivityError}), sdkmetrics.LocalActivityExecutionFailed),
		canceled:        counterOnUse(h, sdkmetrics.LocalActivityExecutionCanceled),
		succeedEndToEnd: sync.OnceValue(func() sdkmetrics.Timer { return h.Timer(sdkmetrics.LocalActivitySucceedEndToEndLatency) }),
	})
	return lm.(*localActivityMetrics)
}

// attempted records an attempt that ran from start and ended in err.
func (lm *localActivityMetrics) attempted(start time.Time, err error) {
	if lm == nil {
		return
	}
	lm.total.Inc(1)
	lm.execution.Record(time.Since(start))
	switch {
	case failure.IsCanceledError(err):
		lm.canceled().Inc(1)
	case isCountedFailure(err):
		lm.failed().Inc(1)
	}
}

// isCountedFailure reports a local activity attempt's error that counts
// as a failure, as go.temporal.io/sdk counts them: not a cancellation, not
// a benign application error.
func isCountedFailure(err error) bool {
	var app *failure.ApplicationError
	switch {
	case err == nil, failure.IsCanceledError(err):
		return false
	case errors.As(err, &app) && app.Category() == failure.ApplicationErrorCategoryBenign:
		return false
	}
	return true
}

// succeeded records a local activity's success, from its first scheduling.
func (lm *localActivityMetrics) succeeded(scheduled time.Time) {
	if lm != nil {
		lm.succeedEndToEnd().Record(time.Since(scheduled))
	}
}
