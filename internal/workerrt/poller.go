package workerrt

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"

	"github.com/durable-go/sdk/internal/rpc"
	"github.com/durable-go/sdk/log"
)

// pollResponse is what a poll returns: a task, or an empty response when
// the long poll expired. Both poll responses of the API have the server's
// advice on the number of pollers.
type pollResponse interface {
	GetPollerScalingDecision() *taskqueuepb.PollerScalingDecision
}

// longPoll makes one long poll with call, counted among the open polls of
// pollerType while it waits, and sorts its outcome: a task (true),
// recorded with polled; an empty response, the poll having expired on the
// server (false), counted as such; or an error, none when ctx's end caused
// it.
func longPoll[T interface{ GetTaskToken() []byte }](ctx context.Context, m *workerMetrics, pollerType string,
	call func(context.Context) (T, error), polled func(*workerMetrics, T)) (T, bool, error) {
	pollers := m.pollers(pollerType)
	pollers.add(1)
	resp, err := call(ctx)
	pollers.add(-1)
	if err != nil {
		var none T
		if isCanceled(ctx, err) {
			return none, false, nil
		}
		return none, false, err
	}
	if len(resp.GetTaskToken()) == 0 {
		m.pollExpired(pollerType)
		return resp, false, nil
	}
	polled(m, resp)
	return resp, true, nil
}

// pollGroup keeps long polls of one task queue open: as many as its
// pollers' target, each in a slot of its own. A poll that brings a task
// runs it on the poll's goroutine, having handed its place on to the next
// poll; the slot is freed when the task is done.
type pollGroup[T pollResponse] struct {
	what    string // for logs: "workflow", "sticky workflow", "activity"
	kind    enumspb.TaskQueueKind
	slots   *slots
	pollers *pollerCount
	tracker *pollTracker // the worker's Status of these polls
	logger  log.Logger
	// poll long-polls once; ok reports a task (not an empty response).
	// Errors caused by ctx ending are not errors.
	poll func(ctx context.Context) (resp T, ok bool, err error)
	// handle runs a task.
	handle  func(T)
	running *taskGroup
	// fatal, when set, receives a poll error the server will keep
	// returning (see isFatalPollError) once polls have failed for
	// fatalAfter, instead of a retry; it ends the polling.
	fatal      func(error)
	fatalAfter time.Duration

	backoffMu    sync.Mutex
	backoff      time.Duration // after the last failed poll; 0 after a success
	failingSince time.Time     // first failure since the last success; zero after a success
}

// run polls until ctx ends, and waits for the polls it opened to return
// (not for the tasks they brought: those are in running).
func (g *pollGroup[T]) run(ctx context.Context) {
	var polls sync.WaitGroup
	defer polls.Wait()
	for {
		if err := g.pollers.admit(ctx); err != nil {
			return
		}
		permit, err := g.slots.reserve(ctx, g.kind)
		if err != nil {
			g.pollers.done()
			if ctx.Err() != nil {
				return
			}
			g.logger.Error("reserving a task slot failed; trying again in a second", "TaskKind", g.what, "Error", err)
			if !rpc.Sleep(ctx, time.Second) {
				return
			}
			continue
		}
		polls.Add(1)
		go g.pollOnce(ctx, permit, &polls)
	}
}

// pollOnce polls in a reserved slot and runs the task it brings.
func (g *pollGroup[T]) pollOnce(ctx context.Context, permit Permit, polls *sync.WaitGroup) {
	growStack()
	start := time.Now()
	resp, ok, err := g.poll(ctx)
	if err != nil || !ok {
		g.slots.release(permit, false)
		switch {
		case ctx.Err() != nil:
		case err != nil:
			g.pollers.failed(err)
			backoff, failingFor := g.nextBackoff()
			if g.fatal != nil && isFatalPollError(err) && failingFor >= g.fatalAfter {
				g.fatal(err)
				break
			}
			g.logger.Warn("polling failed; retrying", "TaskKind", g.what, "Error", err, "RetryIn", backoff)
			rpc.Sleep(ctx, backoff) // in the poll's place: failing polls do not multiply
		default:
			g.pollers.empty()
			g.resetBackoff()
			if verboseLogging.Load() {
				g.logger.Debug("long poll expired without a task", "TaskKind", g.what)
			}
		}
		g.pollers.done()
		polls.Done()
		return
	}
	g.resetBackoff()
	g.tracker.gotTask()
	g.pollers.gotTask(resp.GetPollerScalingDecision(), time.Since(start))
	g.slots.markUsed(permit)
	g.running.Add(1) // before polls.Done: Stop waits for polls, then tasks
	defer g.running.Done()
	// Released before running.Done, so that a stopped worker holds no slot.
	defer g.slots.release(permit, true)
	defer backstop(g.logger, g.what)
	g.pollers.done()
	polls.Done()
	if verboseLogging.Load() {
		g.traceTask(resp, time.Since(start))
	}
	g.handle(resp)
}

// verboseLogging turns on debug lines for every poll and task (see
// SetVerboseLogging).
var verboseLogging atomic.Bool

// SetVerboseLogging makes every worker of the process log, at debug
// level, each long poll that expires empty and each task it receives
// (worker.EnableVerboseLogging), for debugging a worker that seems idle.
func SetVerboseLogging(enable bool) { verboseLogging.Store(enable) }

// traceTask logs a task a poll brought.
func (g *pollGroup[T]) traceTask(resp T, waited time.Duration) {
	kv := []any{"TaskKind", g.what, "PollWaited", waited.Round(time.Millisecond)}
	if t, ok := any(resp).(interface {
		GetWorkflowExecution() *commonpb.WorkflowExecution
		GetAttempt() int32
	}); ok {
		kv = append(kv, "WorkflowID", t.GetWorkflowExecution().GetWorkflowId(), "RunID", t.GetWorkflowExecution().GetRunId(), "Attempt", t.GetAttempt())
	}
	if t, ok := any(resp).(interface{ GetActivityType() *commonpb.ActivityType }); ok {
		kv = append(kv, "ActivityType", t.GetActivityType().GetName())
	}
	g.logger.Debug("processing a task", kv...)
}

// nextBackoff counts a failed poll: it returns how long to wait before
// the next one and how long polls have been failing.
func (g *pollGroup[T]) nextBackoff() (backoff, failingFor time.Duration) {
	g.backoffMu.Lock()
	defer g.backoffMu.Unlock()
	g.backoff = nextBackoff(g.backoff)
	if g.failingSince.IsZero() {
		g.failingSince = time.Now()
	}
	return g.backoff, time.Since(g.failingSince)
}

func (g *pollGroup[T]) resetBackoff() {
	g.backoffMu.Lock()
	g.backoff = 0
	g.failingSince = time.Time{}
	g.backoffMu.Unlock()
}

// isFatalPollError reports the poll errors that retrying will not cure, as
// go.temporal.io/sdk counts them: a namespace that does not exist, a
// request the server refuses as invalid, a client version it does not
// support.
func isFatalPollError(err error) bool {
	var notFound *serviceerror.NamespaceNotFound
	var invalid *serviceerror.InvalidArgument
	var version *serviceerror.ClientVersionNotSupported
	return errors.As(err, &notFound) || errors.As(err, &invalid) || errors.As(err, &version)
}

// nextBackoff doubles from 200ms up to 10s, with jitter so that many
// pollers do not retry in step.
func nextBackoff(prev time.Duration) time.Duration {
	next := 2 * prev
	if next < 200*time.Millisecond {
		next = 200 * time.Millisecond
	}
	if next > 10*time.Second {
		next = 10 * time.Second
	}
	return next/2 + rand.N(next/2+1)
}

// isCanceled reports errors caused by ending the poll's context.
func isCanceled(ctx context.Context, err error) bool {
	return ctx.Err() != nil || errors.Is(err, context.Canceled)
}
