package session

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/workerrt"
	"github.com/durable-go/sdk/log"
)

// SignalFunc signals a workflow run.
type SignalFunc func(ctx context.Context, workflowID, runID, signalName string, arg any) error

// HostOptions configure a Host.
type HostOptions struct {
	// ResourceID names the worker's resource; unique per worker.
	ResourceID string
	// MaxConcurrentSessions bounds the sessions open at once
	// (DefaultMaxConcurrentSessions when not positive).
	MaxConcurrentSessions int
	// DataConverter decodes the session ID the protocol activities receive.
	DataConverter converter.DataConverter
	// Signal tells a workflow its session was created.
	Signal SignalFunc
	Logger log.Logger
	// Brief makes the creation activity return as soon as the workflow
	// knows of the session, the completion activity freeing the slot,
	// rather than run, heartbeating, as long as the session does. The test
	// environment uses it, as go.temporal.io/sdk's does: no activity runs
	// for the life of a session, so its clock can skip ahead. A brief host
	// does not notice that a worker died.
	Brief bool
}

// Host runs the sessions of one worker: it bounds how many are open, and
// runs the creation and completion activities (see the package doc).
type Host struct {
	opts      HostOptions
	hostName  string
	taskQueue string
	slots     *slots

	mu   sync.Mutex
	open map[string]chan struct{} // closed when the session completes
}

// NewHost returns the session host of a worker.
func NewHost(opts HostOptions) (*Host, error) {
	if opts.ResourceID == "" || opts.Signal == nil || opts.DataConverter == nil || opts.Logger == nil {
		return nil, errors.New("session host: a resource ID, a signal function, a data converter and a logger are required")
	}
	if opts.MaxConcurrentSessions <= 0 {
		opts.MaxConcurrentSessions = DefaultMaxConcurrentSessions
	}
	host := HostName()
	return &Host{
		opts:      opts,
		hostName:  host,
		taskQueue: ResourceTaskQueue(opts.ResourceID, host),
		slots:     newSlots(opts.MaxConcurrentSessions),
		open:      make(map[string]chan struct{}),
	}, nil
}

// TaskQueue is the worker's resource-specific task queue, where its
// sessions' activities are scheduled.
func (h *Host) TaskQueue() string { return h.taskQueue }

// WaitForRoom blocks until the worker has room for another session, or ctx
// ends: the creation queue's poller waits on it, so a full worker leaves
// new sessions to other workers.
func (h *Host) WaitForRoom(ctx context.Context) error { return h.slots.wait(ctx) }

// Executor returns an executor, for the activity worker polling
// taskQueue, that runs the protocol's activities and hands every other
// activity to next.
func (h *Host) Executor(taskQueue string, next workerrt.ActivityExecutor) workerrt.ActivityExecutor {
	return &executor{host: h, taskQueue: taskQueue, next: next}
}

type executor struct {
	host      *Host
	taskQueue string
	next      workerrt.ActivityExecutor
}

func (e *executor) Execute(ctx context.Context, t *workerrt.ActivityTask) (*commonpb.Payloads, error) {
	switch t.Task.GetActivityType().GetName() {
	case CreationActivity:
		return nil, e.host.create(ctx, t, e.taskQueue)
	case CompletionActivity:
		return nil, e.host.complete(t, e.taskQueue)
	}
	return e.next.Execute(ctx, t)
}

// sessionID decodes the protocol activities' only argument, with the
// activity's serialization context, as every activity's input (the worker
// polling taskQueue runs it).
func (h *Host) sessionID(t *workerrt.ActivityTask, taskQueue string) (string, error) {
	var id string
	dc := h.opts.DataConverter
	if _, aware := dc.(converter.DataConverterWithSerializationContext); aware {
		dc = converter.WithDataConverterSerializationContext(dc, converter.ActivitySerializationContext{
			Namespace:    t.Task.GetWorkflowNamespace(),
			WorkflowID:   t.Task.GetWorkflowExecution().GetWorkflowId(),
			WorkflowType: t.Task.GetWorkflowType().GetName(),
			ActivityType: t.Task.GetActivityType().GetName(),
			TaskQueue:    taskQueue,
		})
	}
	if err := dc.FromPayloads(t.Task.GetInput(), &id); err != nil || id == "" {
		return "", failure.NewNonRetryableApplicationError(
			fmt.Sprintf("%s: the input is not a session ID: %v", t.Task.GetActivityType().GetName(), err), "SessionProtocolError", nil)
	}
	return id, nil
}

// create is the creation activity: take a slot, tell the workflow where
// the session runs, and hold the slot until the session completes, the
// worker stops, or the workflow cancels the activity.
func (h *Host) create(ctx context.Context, t *workerrt.ActivityTask, taskQueue string) error {
	id, err := h.sessionID(t, taskQueue)
	if err != nil {
		return err
	}
	if !h.slots.take() {
		// Retryable: the retry may find room, here or on another worker.
		return failure.NewApplicationError(tooManySessions, "")
	}
	done := make(chan struct{})
	h.mu.Lock()
	h.open[id] = done
	h.mu.Unlock()
	if !h.opts.Brief {
		defer h.slots.give()
		defer h.forget(id)
	}
	wf := t.Task.GetWorkflowExecution()
	response := CreationResponse{Taskqueue: h.taskQueue, HostName: h.hostName, ResourceID: h.opts.ResourceID}
	if err := h.opts.Signal(ctx, wf.GetWorkflowId(), wf.GetRunId(), id, response); err != nil {
		if h.opts.Brief {
			h.forget(id)
			h.slots.give()
		}
		return err
	}
	if h.opts.Brief {
		return nil
	}
	return h.hold(ctx, t, id, done)
}

// hold heartbeats until the session ends. The heartbeats go out on a
// schedule of their own, three per timeout (at most 10s apart), and a
// failed one is tried again a second later: the session must not die of
// one lost call.
func (h *Host) hold(ctx context.Context, t *workerrt.ActivityTask, id string, done <-chan struct{}) error {
	timeout := t.Task.GetHeartbeatTimeout().AsDuration()
	if timeout <= 0 {
		timeout = DefaultHeartbeatTimeout
	}
	interval := min(timeout/3, maxHeartbeatInterval)
	next := time.NewTimer(interval)
	defer next.Stop()
	for {
		select {
		case <-done:
			return nil
		case <-ctx.Done():
			if workerrt.CanceledByServer(ctx) {
				return ctx.Err() // the workflow canceled it: reported canceled
			}
			// The worker stops (or the activity ran out of time): the
			// session is over, and retrying it elsewhere would not help.
			return failure.NewApplicationErrorWithOptions("session failed due to worker shutdown", workerShutdownType,
				failure.ApplicationErrorOptions{NonRetryable: true, Cause: ctx.Err()})
		case <-next.C:
			wait := interval
			if err := t.HeartbeatNow(nil); err != nil && ctx.Err() == nil {
				h.opts.Logger.Info("session heartbeat failed; trying again", "SessionID", id, "Error", err)
				wait = min(time.Second, interval)
			}
			next.Reset(wait)
		}
	}
}

// complete is the completion activity: it ends the session's creation
// activity, which frees the slot (a brief host frees it here).
func (h *Host) complete(t *workerrt.ActivityTask, taskQueue string) error {
	id, err := h.sessionID(t, taskQueue)
	if err != nil {
		return err
	}
	if h.forget(id) && h.opts.Brief {
		h.slots.give()
	}
	return nil
}

// forget closes a session's done channel; it reports whether the session
// was open here.
func (h *Host) forget(id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	done, ok := h.open[id]
	if ok {
		delete(h.open, id)
		close(done)
	}
	return ok
}

// slots counts free session slots. Waiting for one does not take it: the
// creation activity takes it, and one that finds none fails, to be retried
// (the creation queue's poller waits only so that a full worker does not
// take tasks it cannot serve).
type slots struct {
	mu    sync.Mutex
	free  int
	freed chan struct{} // closed, and replaced, whenever a slot is given back
}

func newSlots(n int) *slots { return &slots{free: n, freed: make(chan struct{})} }

func (s *slots) take() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.free == 0 {
		return false
	}
	s.free--
	return true
}

func (s *slots) give() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.free++
	close(s.freed)
	s.freed = make(chan struct{})
}

func (s *slots) wait(ctx context.Context) error {
	for {
		s.mu.Lock()
		free, freed := s.free, s.freed
		s.mu.Unlock()
		if free > 0 {
			return nil
		}
		select {
		case <-freed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
