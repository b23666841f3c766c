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

	"github.com/durable-go/sdk/internal/extstore"
	"github.com/durable-go/sdk/internal/failure"
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
// the activity's cancellation was requested (by its workflow, or by a
// client for a standalone activity): a *temporal.CanceledError, as
// go.temporal.io/sdk's. An activity context canceled because the server
// no longer knows the activity (it timed out, was terminated, or its
// workflow closed) has the server's *serviceerror.NotFound as its cause,
// as there too.
var errCanceledByServer = failure.NewCanceledError()

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

// HeartbeatThrottle holds back an activity attempt's heartbeats as a
// worker throttles them (go.temporal.io/sdk's rule): the first is sent at
// once and starts an interval; those recorded during it wait, the last
// one wins, and it is sent at the interval's end (starting the next
// interval); once the attempt ends, the one still waiting is sent unless
// the attempt completed. Intervals run on wall time. The worker sends
// through it to the server; the test environment's activity environment
// sends to its heartbeat listener.
type HeartbeatThrottle struct {
	interval time.Duration
	send     func(*commonpb.Payloads)

	mu         sync.Mutex
	pending    *commonpb.Payloads // latest details not yet sent
	hasPending bool
	timer      *time.Timer // set while an interval runs
	stopped    bool
}

// HeartbeatInterval is the throttle's interval for an attempt: 80% of its
// heartbeat timeout, or defaultInterval (0: 30s) without one, and never
// more than maxInterval (0: 60s).
func HeartbeatInterval(heartbeatTimeout, defaultInterval, maxInterval time.Duration) time.Duration {
	interval := cmp.Or(defaultInterval, defaultHeartbeatInterval)
	if heartbeatTimeout > 0 {
		interval = heartbeatTimeout * 4 / 5
	}
	return min(interval, cmp.Or(maxInterval, maxHeartbeatInterval))
}

// NewHeartbeatThrottle returns a throttle that sends with send, which
// must not call the throttle.
func NewHeartbeatThrottle(interval time.Duration, send func(details *commonpb.Payloads)) *HeartbeatThrottle {
	return &HeartbeatThrottle{interval: interval, send: send}
}

// Record sends details now if no interval runs, else keeps them for the
// interval's end.
func (t *HeartbeatThrottle) Record(details *commonpb.Payloads) {
	t.mu.Lock()
	if t.stopped {
		t.mu.Unlock()
		return
	}
	if t.timer != nil {
		t.pending, t.hasPending = details, true
		t.mu.Unlock()
		return
	}
	t.timer = time.AfterFunc(t.interval, t.intervalEnded)
	t.mu.Unlock()
	t.send(details)
}

// intervalEnded sends what was recorded during the interval, if anything,
// and starts the next interval.
func (t *HeartbeatThrottle) intervalEnded() {
	t.mu.Lock()
	if t.stopped || !t.hasPending {
		t.timer = nil
		t.mu.Unlock()
		return
	}
	details := t.pending
	t.pending, t.hasPending = nil, false
	t.timer = time.AfterFunc(t.interval, t.intervalEnded)
	t.mu.Unlock()
	t.send(details)
}

// Finish ends the throttle once the attempt returned. Unless it
// completed, the details still held back are sent first, so that the
// server keeps the last progress recorded (its next attempt resumes from
// it, a heartbeat timeout reports it), as go.temporal.io/sdk does; a
// completion supersedes them.
func (t *HeartbeatThrottle) Finish(completed bool) {
	t.mu.Lock()
	details, flush := t.pending, t.hasPending && !completed && !t.stopped
	t.pending, t.hasPending = nil, false
	t.mu.Unlock()
	t.Stop()
	if flush {
		t.send(details)
	}
}

// Stop ends the throttle; details still held back are dropped.
func (t *HeartbeatThrottle) Stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.stopped = true
	if t.timer != nil {
		t.timer.Stop()
	}
}

// Stopped reports whether the throttle ended.
func (t *HeartbeatThrottle) Stopped() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.stopped
}

// heartbeater sends an activity's heartbeats to the server, throttled,
// and cancels the activity when the server says so.
type heartbeater struct {
	w        *Worker
	task     *workflowservice.PollActivityTaskQueueResponse
	cancel   context.CancelCauseFunc
	interval time.Duration
	throttle *HeartbeatThrottle

	mu       sync.Mutex
	canceled bool // the server asked to cancel
}

func newHeartbeater(w *Worker, task *workflowservice.PollActivityTaskQueueResponse, cancel context.CancelCauseFunc) *heartbeater {
	h := &heartbeater{w: w, task: task, cancel: cancel}
	h.interval = HeartbeatInterval(task.GetHeartbeatTimeout().AsDuration(), w.opts.DefaultHeartbeatInterval, w.opts.MaxHeartbeatInterval)
	// A failure to send is logged; the next heartbeat may pass.
	h.throttle = NewHeartbeatThrottle(h.interval, func(details *commonpb.Payloads) { _ = h.send(details) })
	return h
}

func (h *heartbeater) record(details *commonpb.Payloads) { h.throttle.Record(details) }

// finish ends heartbeating once the activity returned (see
// HeartbeatThrottle.Finish).
func (h *heartbeater) finish(completed bool) { h.throttle.Finish(completed) }

// stop ends heartbeating; details still pending are dropped.
func (h *heartbeater) stop() { h.throttle.Stop() }

// sendNow sends details at once, whatever interval runs.
func (h *heartbeater) sendNow(details *commonpb.Payloads) error {
	if h.throttle.Stopped() {
		return errHeartbeatAfterEnd
	}
	return h.send(details)
}

// errHeartbeatAfterEnd is returned by a heartbeat sent after the attempt ended.
var errHeartbeatAfterEnd = errors.New("heartbeat not sent: the activity attempt has ended")

// CanceledByServer reports whether an activity's context was canceled
// because the activity's cancellation was requested, rather than by the
// worker stopping, a deadline, or the activity's disappearance.
func CanceledByServer(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), errCanceledByServer)
}

func (h *heartbeater) send(details *commonpb.Payloads) error {
	ctx, cancel := context.WithTimeout(extstore.WithTarget(h.w.metrics.queueContext(), h.w.activityTaskTarget(h.task)), rpcTimeout)
	defer cancel()
	resp, err := h.w.opts.Service.RecordActivityTaskHeartbeat(ctx, &workflowservice.RecordActivityTaskHeartbeatRequest{
		TaskToken: h.task.GetTaskToken(), Details: details, Identity: h.w.opts.Identity, Namespace: h.w.opts.Namespace,
	})
	var notFound *serviceerror.NotFound
	switch {
	case errors.As(err, &notFound):
		h.cancel(notFound)
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
