package workerrt

import (
	"context"
	"errors"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	failurepb "go.temporal.io/api/failure/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/payloadlimit"
	"github.com/durable-go/sdk/internal/sdkmetrics"
)

// ErrResultPending, returned by activity code, means the activity will be
// completed later through its task token (async completion).
var ErrResultPending = errors.New("not an error: the activity will be completed asynchronously through its task token (do not report it)")

// ActivityTask is one activity execution as activity code sees it.
type ActivityTask struct {
	Task *workflowservice.PollActivityTaskQueueResponse
	// Heartbeat records progress. Calls are throttled: the server sees the
	// first one at once and the latest one at the end of each interval.
	Heartbeat func(details *commonpb.Payloads)
	// WorkerStop is closed when the worker begins to stop.
	WorkerStop <-chan struct{}
	// HeartbeatNow sends one heartbeat at once, outside the throttling of
	// Heartbeat, and returns the call's error. For machinery that keeps a
	// long activity alive on a schedule of its own (a session's creation
	// activity); a cancellation it learns of cancels the context as
	// Heartbeat does.
	HeartbeatNow func(details *commonpb.Payloads) error
	// Local: a local activity's attempt; LocalFn, when set, is the
	// function the workflow passed (else the type names a registered one),
	// and LocalArgs the arguments, Go values the workflow passed, which
	// the activity gets as they are (Task.Input is empty).
	Local     bool
	LocalFn   any
	LocalArgs []any
	// FailureConverter converts the attempt's error to the failure the
	// server is told (not used for a local activity, whose failure the
	// engine converts): the worker's, which the executor may replace with
	// one told the activity's serialization context.
	FailureConverter engine.FailureConverter
}

// ActivityExecutor runs activity code: it finds the registered function
// for the task's type, decodes the input, calls it, and encodes the result.
type ActivityExecutor interface {
	Execute(ctx context.Context, t *ActivityTask) (*commonpb.Payloads, error)
}

func (w *Worker) pollActivityTask(ctx context.Context) (*workflowservice.PollActivityTaskQueueResponse, bool, error) {
	if w.opts.ActivityPollGate != nil {
		if err := w.opts.ActivityPollGate(ctx); err != nil {
			return nil, false, nil
		}
	}
	if w.limiter != nil {
		if err := w.limiter.wait(ctx); err != nil {
			return nil, false, nil
		}
	}
	if ctx.Err() != nil {
		return nil, false, nil // stopping: no new poll
	}
	req := &workflowservice.PollActivityTaskQueueRequest{
		Namespace: w.opts.Namespace,
		TaskQueue: w.normalQueue(),
		Identity:  w.opts.Identity,
		//lint:ignore SA1019 go.temporal.io/sdk still sends the deprecated build-ID capabilities.
		WorkerVersionCapabilities: w.versioning.capabilities,
		DeploymentOptions:         w.versioning.options,
		WorkerInstanceKey:         w.opts.WorkerInstanceKey,
	}
	if w.opts.TaskQueueActivitiesPerSecond > 0 {
		req.TaskQueueMetadata = &taskqueuepb.TaskQueueMetadata{MaxTasksPerSecond: wrapperspb.Double(w.opts.TaskQueueActivitiesPerSecond)}
	}
	return longPoll(w.pollRPCContext(ctx), w.metrics, sdkmetrics.PollerTypeActivityTask, func(ctx context.Context) (*workflowservice.PollActivityTaskQueueResponse, error) {
		return w.opts.Service.PollActivityTaskQueue(ctx, req)
	}, (*workerMetrics).activityPolled)
}

// activityDeadline is when the activity's time runs out: the earlier of
// schedule-to-close and start-to-close.
func activityDeadline(task *workflowservice.PollActivityTaskQueueResponse) time.Time {
	var deadline time.Time
	consider := func(from time.Time, d time.Duration) {
		if d <= 0 || from.IsZero() {
			return
		}
		if t := from.Add(d); deadline.IsZero() || t.Before(deadline) {
			deadline = t
		}
	}
	consider(task.GetScheduledTime().AsTime(), task.GetScheduleToCloseTimeout().AsDuration())
	consider(task.GetStartedTime().AsTime(), task.GetStartToCloseTimeout().AsDuration())
	return deadline
}

func (w *Worker) handleActivityTask(task *workflowservice.PollActivityTaskQueueResponse) {
	if !w.retrieveActivityTask(task) {
		return
	}
	ctx, cancel := context.WithCancelCause(w.workCtx)
	defer cancel(nil)
	if d := activityDeadline(task); !d.IsZero() {
		if w.opts.WallTime != nil {
			d = w.opts.WallTime(d)
		}
		var cancelDeadline context.CancelFunc
		ctx, cancelDeadline = context.WithDeadline(ctx, d)
		defer cancelDeadline()
	}
	hb := newHeartbeater(w, task, cancel)
	defer hb.stop()
	am := w.metrics.forActivity(task)
	start := am.start()
	at := &ActivityTask{Task: task, Heartbeat: hb.record, HeartbeatNow: hb.sendNow, WorkerStop: w.stopped, FailureConverter: w.opts.FailureConverter}
	result, err := w.opts.Activities.Execute(ctx, at)
	err = failure.SafeChain(err) // before anything walks it: a cyclic chain would spin for ever
	hb.finish(err == nil)
	if errors.Is(err, ErrResultPending) {
		am.executed(start)
		return
	}
	w.reportActivity(ctx, task, at.FailureConverter, am, start, result, err, hb.serverCanceled())
}

// reportActivity tells the server how the activity ended, and records the
// attempt's metrics as go.temporal.io/sdk does: its execution latency (not
// for an attempt past its deadline), a failure unless benign, and the
// end-to-end latency of a success the server accepted.
func (w *Worker) reportActivity(ctx context.Context, task *workflowservice.PollActivityTaskQueueResponse, fc engine.FailureConverter, am *activityMetrics, start time.Time,
	result *commonpb.Payloads, err error, serverCanceled bool) {
	rctx, cancel := context.WithTimeout(payloadlimit.Checked(am.reportContext()), rpcTimeout)
	defer cancel()
	var rerr error
	switch {
	case err == nil:
		am.executed(start)
		req := &workflowservice.RespondActivityTaskCompletedRequest{
			TaskToken: task.GetTaskToken(), Result: result, Identity: w.opts.Identity, Namespace: w.opts.Namespace,
			//lint:ignore SA1019 go.temporal.io/sdk still sends the deprecated version stamp and deployment.
			WorkerVersion: w.versioning.stamp, Deployment: w.versioning.deployment, DeploymentOptions: w.versioning.options,
		}
		if !w.sendable(rctx, task, fc, am, req) {
			return
		}
		_, rerr = w.opts.Service.RespondActivityTaskCompleted(rctx, req)
		if rerr == nil {
			am.succeeded(task)
		}
	case serverCanceled && (errors.Is(err, context.Canceled) || isCanceledFailure(fc, err)):
		am.executed(start)
		f := toFailure(fc, err)
		req := &workflowservice.RespondActivityTaskCanceledRequest{
			TaskToken: task.GetTaskToken(), Details: f.GetCanceledFailureInfo().GetDetails(), Identity: w.opts.Identity, Namespace: w.opts.Namespace,
			//lint:ignore SA1019 go.temporal.io/sdk still sends the deprecated version stamp and deployment.
			WorkerVersion: w.versioning.stamp, Deployment: w.versioning.deployment, DeploymentOptions: w.versioning.options,
		}
		if !w.sendable(rctx, task, fc, am, req) {
			return
		}
		_, rerr = w.opts.Service.RespondActivityTaskCanceled(rctx, req)
	default:
		if ctx.Err() == context.DeadlineExceeded {
			// The server has timed the activity out already; a failure
			// report would be refused.
			am.failed()
			w.activitySlots.taskFailed()
			w.opts.Logger.Warn("activity ran past its deadline", "ActivityID", task.GetActivityId(), "Error", err)
			return
		}
		f := toFailure(fc, err)
		if !isBenign(f) {
			am.failed()
			w.activitySlots.taskFailed()
		}
		am.executed(start)
		rerr = w.respondActivityFailed(rctx, task, f)
	}
	w.logActivityReportError(task, rerr)
}

// sendable prepares req, an attempt's completion or cancellation, to be
// sent: its large payloads stored outside (external storage), its size
// checked. When either fails, the attempt fails instead, as in
// go.temporal.io/sdk (retried under the activity's retry policy), and it
// returns false.
func (w *Worker) sendable(ctx context.Context, task *workflowservice.PollActivityTaskQueueResponse, fc engine.FailureConverter, am *activityMetrics, req proto.Message) bool {
	if err := w.storeAnswer(ctx, w.activityTaskTarget(task), req); err != nil {
		w.failActivityForStorage(ctx, task, fc, am, err)
		return false
	}
	if err := w.opts.Payloads.Check(ctx, req); err != nil {
		w.failActivityForPayloads(ctx, task, fc, am, err)
		return false
	}
	return true
}

// respondActivityFailed reports an attempt's failure f. A failure's
// payloads are only warned of when too large: the server takes it.
func (w *Worker) respondActivityFailed(ctx context.Context, task *workflowservice.PollActivityTaskQueueResponse, f *failurepb.Failure) error {
	req := &workflowservice.RespondActivityTaskFailedRequest{
		TaskToken: task.GetTaskToken(), Failure: f, Identity: w.opts.Identity, Namespace: w.opts.Namespace,
		//lint:ignore SA1019 go.temporal.io/sdk still sends the deprecated version stamp and deployment.
		WorkerVersion: w.versioning.stamp, Deployment: w.versioning.deployment, DeploymentOptions: w.versioning.options,
	}
	if err := w.storeAnswer(ctx, w.activityTaskTarget(task), req); err != nil {
		return err
	}
	_ = w.opts.Payloads.Check(ctx, req)
	_, err := w.opts.Service.RespondActivityTaskFailed(ctx, req)
	return err
}

// failActivityForStorage fails an attempt whose outcome could not be
// stored outside (storeErr, the external storage driver's error): it is
// retried under the activity's retry policy, as go.temporal.io/sdk
// retries it.
func (w *Worker) failActivityForStorage(ctx context.Context, task *workflowservice.PollActivityTaskQueueResponse, fc engine.FailureConverter, am *activityMetrics, storeErr error) {
	w.opts.Logger.Error("Activity task postprocess error: "+storeErr.Error(), "ActivityID", task.GetActivityId(), "ActivityType", task.GetActivityType().GetName(),
		"Attempt", task.GetAttempt())
	am.failed()
	w.activitySlots.taskFailed()
	w.logActivityReportError(task, w.respondActivityFailed(ctx, task, toFailure(fc, storeErr)))
}

// failActivityForPayloads fails an attempt whose outcome has payloads
// the server would refuse (tooLarge, a payloadlimit refusal).
func (w *Worker) failActivityForPayloads(ctx context.Context, task *workflowservice.PollActivityTaskQueueResponse, fc engine.FailureConverter, am *activityMetrics, tooLarge error) {
	size, limit, _ := payloadlimit.TooLarge(tooLarge)
	w.opts.Logger.Error("activity task failed: "+tooLarge.Error(), "ActivityID", task.GetActivityId(), "ActivityType", task.GetActivityType().GetName(),
		"Attempt", task.GetAttempt(), payloadlimit.KeyPayloadSize, size, payloadlimit.KeyPayloadSizeLimit, limit)
	am.failed()
	w.activitySlots.taskFailed()
	w.logActivityReportError(task, w.respondActivityFailed(ctx, task, toFailure(fc, tooLarge)))
}

// logActivityReportError logs a report of an activity's outcome that the
// server did not take (rerr; nothing when nil).
func (w *Worker) logActivityReportError(task *workflowservice.PollActivityTaskQueueResponse, rerr error) {
	var notFound *serviceerror.NotFound
	switch {
	case errors.As(rerr, &notFound):
		// After a lost connection, the report may have been retried: its
		// first attempt reached the server, the answer did not.
		w.opts.Logger.Warn("the server refused an activity's outcome: it no longer knows the activity task, which was completed already (by an earlier attempt of this report whose answer was lost), timed out, or belongs to a closed workflow",
			"ActivityID", task.GetActivityId(), "ActivityType", task.GetActivityType().GetName(), "Error", rerr)
	case rerr != nil:
		w.opts.Logger.Warn("reporting an activity's outcome failed; the server will time it out and retry it",
			"ActivityID", task.GetActivityId(), "ActivityType", task.GetActivityType().GetName(), "Error", rerr)
	}
}

// isCanceledFailure reports an error that converts to a canceled failure
// (a CanceledError the activity returned).
func isCanceledFailure(fc engine.FailureConverter, err error) bool {
	return toFailure(fc, err).GetCanceledFailureInfo() != nil
}
