package workerrt

import (
	"cmp"
	"context"
	"errors"
	"sync"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
)

// Heartbeat throttling, as in go.temporal.io/sdk: at most one call per
// interval, the interval being 80% of the heartbeat timeout, or
// Options.DefaultHeartbeatInterval (30s) without one, and never more than
// Options.MaxHeartbeatInterval (60s).
const (
	defaultHeartbeatInterval = 30 * time.Second
	maxHeartbeatInterval     = 60 * time.Second
)

// errCanceledByServer is the cause of an activity context canceled because
// the workflow asked to cancel the activity.
var errCanceledByServer = errors.New("the activity was canceled: its workflow requested cancellation")

// errActivityGone is the cause of an activity context canceled because the
// server no longer knows the activity (it timed out, or its workflow closed).
var errActivityGone = errors.New("the activity no longer exists on the server: it timed out or its workflow closed")

// ErrActivityPaused and ErrActivityReset are the causes of an activity
// context canceled because a heartbeat's answer said the activity was
// paused or reset (PauseActivity, ResetActivity), as go.temporal.io/sdk's
// are; the attempt's outcome is then reported as usual, and the server
// retries the activity when it is unpaused, or from the start after a
// reset.
var (
	ErrActivityPaused = errors.New("activity paused")
	ErrActivityReset  = errors.New("activity reset")
)

// heartbeater sends an activity's heartbeats, throttled, and cancels the
// activity when the server says so.
type heartbeater struct {
	w        *Worker
	task     *workflowservice.PollActivityTaskQueueResponse
	cancel   context.CancelCauseFunc
	interval time.Duration

	mu         sync.Mutex
	pending    *commonpb.Payloads // latest details not yet sent
	hasPending bool
	timer      *time.Timer // set while an interval runs
	stopped    bool
	canceled   bool // the server asked to cancel
}

func newHeartbeater(w *Worker, task *workflowservice.PollActivityTaskQueueResponse, cancel context.CancelCauseFunc) *heartbeater {
	interval := cmp.Or(w.opts.DefaultHeartbeatInterval, defaultHeartbeatInterval)
	if t := task.GetHeartbeatTimeout().AsDuration(); t > 0 {
		interval = t * 4 / 5
	}
	interval = min(interval, cmp.Or(w.opts.MaxHeartbeatInterval, maxHeartbeatInterval))
	return &heartbeater{w: w, task: task, cancel: cancel, interval: interval}
}

// record sends details now if no interval runs, else keeps them for the
// interval's end.
func (h *heartbeater) record(details *commonpb.Payloads) {
	h.mu.Lock()
	if h.stopped {
		h.mu.Unlock()
		return
	}
	if h.timer != nil {
		h.pending, h.hasPending = details, true
		h.mu.Unlock()
		return
	}
	h.timer = time.AfterFunc(h.interval, h.intervalEnded)
	h.mu.Unlock()
	_ = h.send(details) // a failure is logged; the next heartbeat may pass
}

// intervalEnded sends what was recorded during the interval, if anything,
// and starts the next interval.
func (h *heartbeater) intervalEnded() {
	h.mu.Lock()
	if h.stopped || !h.hasPending {
		h.timer = nil
		h.mu.Unlock()
		return
	}
	details := h.pending
	h.pending, h.hasPending = nil, false
	h.timer = time.AfterFunc(h.interval, h.intervalEnded)
	h.mu.Unlock()
	_ = h.send(details)
}

// sendNow sends details at once, whatever interval runs.
func (h *heartbeater) sendNow(details *commonpb.Payloads) error {
	h.mu.Lock()
	stopped := h.stopped
	h.mu.Unlock()
	if stopped {
		return errHeartbeatAfterEnd
	}
	return h.send(details)
}

// errHeartbeatAfterEnd is returned by a heartbeat sent after the attempt ended.
var errHeartbeatAfterEnd = errors.New("heartbeat not sent: the activity attempt has ended")

// CanceledByServer reports whether an activity's context was canceled
// because its workflow asked to cancel the activity, rather than by the
// worker stopping, a deadline, or the activity's disappearance.
func CanceledByServer(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), errCanceledByServer)
}

func (h *heartbeater) send(details *commonpb.Payloads) error {
	ctx, cancel := context.WithTimeout(h.w.metrics.queueContext(), rpcTimeout)
	defer cancel()
	resp, err := h.w.opts.Service.RecordActivityTaskHeartbeat(ctx, &workflowservice.RecordActivityTaskHeartbeatRequest{
		TaskToken: h.task.GetTaskToken(), Details: details, Identity: h.w.opts.Identity, Namespace: h.w.opts.Namespace,
	})
	var notFound *serviceerror.NotFound
	switch {
	case errors.As(err, &notFound):
		h.cancel(errActivityGone)
	case err != nil:
		h.w.opts.Logger.Warn("recording a heartbeat failed", "ActivityID", h.task.GetActivityId(), "Error", err)
	case resp.GetCancelRequested():
		h.mu.Lock()
		h.canceled = true
		h.mu.Unlock()
		h.cancel(errCanceledByServer)
	case resp.GetActivityPaused():
		h.cancel(ErrActivityPaused)
	case resp.GetActivityReset():
		h.cancel(ErrActivityReset)
	}
	return err
}

// serverCanceled reports that the server asked to cancel the activity.
func (h *heartbeater) serverCanceled() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.canceled
}

// finish ends heartbeating once the activity returned. Unless it
// completed, the details the throttle still holds back are sent first, so
// that the server keeps the last progress recorded (its next attempt
// resumes from it, a heartbeat timeout reports it), as go.temporal.io/sdk
// does; a completion supersedes them.
func (h *heartbeater) finish(completed bool) {
	h.mu.Lock()
	details, flush := h.pending, h.hasPending && !completed && !h.stopped
	h.pending, h.hasPending = nil, false
	h.mu.Unlock()
	h.stop()
	if flush {
		_ = h.send(details) // a failure is logged
	}
}

// stop ends heartbeating; details still pending are dropped.
func (h *heartbeater) stop() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.stopped = true
	if h.timer != nil {
		h.timer.Stop()
	}
}
