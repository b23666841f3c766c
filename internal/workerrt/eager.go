package workerrt

import (
	"sync"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
)

// Eager dispatch skips a poll: a workflow task that schedules activities
// on this worker's own task queue asks the server to hand them back in its
// completion's response, in activity slots reserved before it asks; and a
// client starting a workflow on a queue this worker polls asks for the
// workflow's first task in the start's response, in a reserved workflow
// slot. Either way a slot the server did not fill is given back.

// eagerActivities counts the eager activities that hold slots, within
// Options.MaxConcurrentEagerActivities.
type eagerActivities struct {
	maxRunning int // 0: no bound
	mu         sync.Mutex
	running    int
}

// reserve counts one more eager activity if there is room.
func (e *eagerActivities) reserve() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.maxRunning > 0 && e.running >= e.maxRunning {
		return false
	}
	e.running++
	return true
}

func (e *eagerActivities) done() {
	e.mu.Lock()
	e.running--
	e.mu.Unlock()
}

// reserveEagerActivities decides, for each activity the request schedules
// with eager execution requested (by default: unless its options disable
// it), whether to keep the request: only on this worker's task queue, up
// to MaxEagerActivitiesPerTask, and with a free activity slot, which it
// reserves. Other requests are withdrawn, so the server never hands over
// an activity the worker has no slot for.
func (w *Worker) reserveEagerActivities(req *workflowservice.RespondWorkflowTaskCompletedRequest) []Permit {
	var permits []Permit
	for _, c := range req.GetCommands() {
		attrs := c.GetScheduleActivityTaskCommandAttributes()
		if attrs == nil || !attrs.GetRequestEagerExecution() {
			continue
		}
		attrs.RequestEagerExecution = false
		if w.activitySlots == nil || len(permits) >= w.opts.MaxEagerActivitiesPerTask ||
			attrs.GetTaskQueue().GetName() != w.opts.TaskQueue || w.stopping() || !w.eager.reserve() {
			continue
		}
		p := w.activitySlots.tryReserve(enumspb.TASK_QUEUE_KIND_NORMAL)
		if p == nil {
			w.eager.done()
			continue
		}
		attrs.RequestEagerExecution = true
		permits = append(permits, p)
	}
	return permits
}

// releaseEagerActivities gives back slots no activity came for.
func (w *Worker) releaseEagerActivities(permits []Permit) {
	for _, p := range permits {
		w.activitySlots.release(p, false)
		w.eager.done()
	}
}

// startEagerActivities runs the activity tasks a completion's response
// holds, each in a reserved slot, and gives back the slots left over.
func (w *Worker) startEagerActivities(tasks []*workflowservice.PollActivityTaskQueueResponse, permits []Permit) {
	if len(tasks) > len(permits) {
		// The server never sends more than asked for; without a slot, the
		// extra ones are left to time out and be retried.
		w.opts.Logger.Error("the server handed back more eager activities than the workflow task asked for; the extra ones will time out and be retried",
			"Asked", len(permits), "Received", len(tasks))
		tasks = tasks[:len(permits)]
	}
	w.releaseEagerActivities(permits[len(tasks):])
	for i, task := range tasks {
		p := permits[i]
		w.activitySlots.markUsed(p)
		w.running.Add(1)
		go func() {
			defer w.running.Done()
			defer w.eager.done()
			defer w.activitySlots.release(p, true)
			defer backstop(w.opts.Logger, "eager activity")
			w.handleActivityTask(task)
		}()
	}
}

// stopping reports that Stop has begun.
func (w *Worker) stopping() bool {
	select {
	case <-w.stopped:
		return true
	default:
		return false
	}
}

// eagerWorkflowSlot is a workflow task slot reserved for the first task of
// a workflow a client is starting with eager start.
type eagerWorkflowSlot struct {
	w      *Worker
	permit Permit
	once   sync.Once
}

// ReserveEagerWorkflowTask reserves a free workflow task slot for the
// first task of a workflow a client is starting with eager start, and
// returns the function the start's response goes to: called with the task
// the response brought, it runs the task in the slot; called with nil (no
// task came), it gives the slot back. Calls after the first do nothing.
// It returns nil when the worker runs no workflows, is stopping, or has no
// slot free.
func (w *Worker) ReserveEagerWorkflowTask() func(*workflowservice.PollWorkflowTaskQueueResponse) {
	if w.workflowSlots == nil || w.stopping() {
		return nil
	}
	p := w.workflowSlots.tryReserve(enumspb.TASK_QUEUE_KIND_NORMAL)
	if p == nil {
		return nil
	}
	slot := &eagerWorkflowSlot{w: w, permit: p}
	return func(task *workflowservice.PollWorkflowTaskQueueResponse) {
		if task == nil {
			slot.release()
			return
		}
		slot.run(task)
	}
}

// run processes the workflow task the start's response brought, in the
// slot, on a goroutine of its own. A worker that has begun to stop leaves
// the task to time out; the server then retries it through a poll.
func (s *eagerWorkflowSlot) run(task *workflowservice.PollWorkflowTaskQueueResponse) {
	s.once.Do(func() {
		w := s.w
		// Under stopMu: Stop must not wait for running tasks before this
		// one is counted, nor this one begin after that wait.
		w.stopMu.Lock()
		defer w.stopMu.Unlock()
		if w.stopping() {
			w.workflowSlots.release(s.permit, false)
			return
		}
		w.workflowSlots.markUsed(s.permit)
		w.running.Add(1)
		go func() {
			defer w.running.Done()
			defer w.workflowSlots.release(s.permit, true)
			defer backstop(w.opts.Logger, "eager workflow")
			w.handleWorkflowTask(task)
		}()
	})
}

// release gives the slot back when the start brought no task.
func (s *eagerWorkflowSlot) release() {
	s.once.Do(func() { s.w.workflowSlots.release(s.permit, false) })
}
