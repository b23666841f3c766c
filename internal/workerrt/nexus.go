package workerrt

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"

	"github.com/durable-go/sdk/internal/payloadlimit"
	"github.com/durable-go/sdk/internal/sdkmetrics"
)

// NexusExecutor runs the Nexus tasks a worker polls (internal/nexushandler
// implements it): it returns the completion or the failure to report, or
// an error, and then nothing is reported (ErrNexusTaskTimeout: the
// request's deadline passed; the server times the task out).
type NexusExecutor interface {
	ExecuteNexusTask(task *workflowservice.PollNexusTaskQueueResponse) (*workflowservice.RespondNexusTaskCompletedRequest, *workflowservice.RespondNexusTaskFailedRequest, error)
	// FailNexusTask is the failure to report for a task the worker could
	// not run, because of err: an internal handler error.
	FailNexusTask(task *workflowservice.PollNexusTaskQueueResponse, err error) (*workflowservice.RespondNexusTaskFailedRequest, error)
}

// ErrNexusTaskTimeout is the error of a Nexus task whose request deadline
// passed while its handler ran.
var ErrNexusTaskTimeout = errors.New("nexus task timeout")

// NexusService is the part of the frontend a worker that runs Nexus tasks
// calls besides Service; the gRPC client has it.
type NexusService interface {
	PollNexusTaskQueue(ctx context.Context, in *workflowservice.PollNexusTaskQueueRequest, opts ...grpc.CallOption) (*workflowservice.PollNexusTaskQueueResponse, error)
	RespondNexusTaskCompleted(ctx context.Context, in *workflowservice.RespondNexusTaskCompletedRequest, opts ...grpc.CallOption) (*workflowservice.RespondNexusTaskCompletedResponse, error)
	RespondNexusTaskFailed(ctx context.Context, in *workflowservice.RespondNexusTaskFailedRequest, opts ...grpc.CallOption) (*workflowservice.RespondNexusTaskFailedResponse, error)
}

var _ NexusService = workflowservice.WorkflowServiceClient(nil)

// nexusService is the worker's service as a NexusService; New checks it
// is one when the worker runs Nexus tasks.
func (w *Worker) nexusService() NexusService { return w.opts.Service.(NexusService) }

// startNexusPolls begins polling the task queue's Nexus tasks.
func (w *Worker) startNexusPolls(ctx context.Context) {
	w.metrics.workerStarted(sdkmetrics.WorkerTypeNexus)
	pollers := w.pollers(w.opts.NexusPollers, w.opts.NexusPollerScaling, sdkmetrics.WorkerTypeNexus)
	g := &pollGroup[*workflowservice.PollNexusTaskQueueResponse]{what: "nexus", kind: w.normalQueue().GetKind(),
		slots: w.nexusSlots, pollers: pollers, tracker: w.status.track(&w.status.nexus, pollers), logger: w.opts.Logger,
		poll: w.pollNexusTask, handle: w.handleNexusTask, running: &w.running,
		fatal: w.fatalOnce(), fatalAfter: w.opts.FatalErrorGrace}
	w.goPoll(func() { g.run(ctx) })
}

func (w *Worker) pollNexusTask(ctx context.Context) (*workflowservice.PollNexusTaskQueueResponse, bool, error) {
	if ctx.Err() != nil {
		return nil, false, nil // stopping: no new poll
	}
	req := &workflowservice.PollNexusTaskQueueRequest{
		Namespace: w.opts.Namespace,
		TaskQueue: w.normalQueue(),
		Identity:  w.opts.Identity,
		//lint:ignore SA1019 go.temporal.io/sdk still sends the deprecated build-ID capabilities.
		WorkerVersionCapabilities: w.versioning.capabilities,
		DeploymentOptions:         w.versioning.options,
		WorkerInstanceKey:         w.opts.WorkerInstanceKey,
	}
	return longPoll(w.pollRPCContext(ctx), w.metrics, sdkmetrics.PollerTypeNexusTask, func(ctx context.Context) (*workflowservice.PollNexusTaskQueueResponse, error) {
		return w.nexusService().PollNexusTaskQueue(ctx, req)
	}, func(*workerMetrics, *workflowservice.PollNexusTaskQueueResponse) {})
}

// handleNexusTask runs a Nexus task and reports its outcome.
func (w *Worker) handleNexusTask(task *workflowservice.PollNexusTaskQueueResponse) {
	if task.GetRequest() == nil {
		return
	}
	started := time.Now()
	m := w.metrics.forNexusTask(task)
	m.scheduledToStart(started)
	completed, failed, err := w.executeNexusTask(task)
	m.executed(time.Since(started), completed, failed, err)
	if nexusFailureReason(completed, failed, err) != "" {
		w.nexusSlots.taskFailed()
	}
	if err != nil {
		if !errors.Is(err, ErrNexusTaskTimeout) {
			w.opts.Logger.Error("Error processing nexus task", "TaskQueue", w.opts.TaskQueue, "Error", err)
		}
		return // the server times the task out
	}
	ctx, cancel := context.WithTimeout(payloadlimit.Checked(w.metrics.queueContext()), rpcTimeout)
	defer cancel()
	if failed != nil {
		_ = w.opts.Payloads.Check(ctx, failed) // warned of only: the server takes failures
		_, err = w.nexusService().RespondNexusTaskFailed(ctx, failed)
	} else {
		_, err = w.nexusService().RespondNexusTaskCompleted(ctx, completed)
	}
	if err != nil {
		w.opts.Logger.Warn("reporting a Nexus task failed; the server times it out and the caller retries", "TaskQueue", w.opts.TaskQueue, "Error", err)
		return
	}
	m.endToEnd()
}

// executeNexusTask runs the task once its input, if stored outside, is
// retrieved; one that cannot be fails with an internal handler error, as
// in go.temporal.io/sdk, and the caller retries.
func (w *Worker) executeNexusTask(task *workflowservice.PollNexusTaskQueueResponse) (*workflowservice.RespondNexusTaskCompletedRequest, *workflowservice.RespondNexusTaskFailedRequest, error) {
	if w.opts.Storage != nil {
		if err := w.opts.Storage.Retrieve(context.Background(), task); err != nil {
			failed, err := w.opts.Nexus.FailNexusTask(task, fmt.Errorf("failed to retrieve Nexus operation input from external storage: %w", err))
			return nil, failed, err
		}
	}
	return w.opts.Nexus.ExecuteNexusTask(task)
}

// nexusTaskMetrics are the metrics of one Nexus task, as
// go.temporal.io/sdk records them; nil records nothing.
type nexusTaskMetrics struct {
	queue     sdkmetrics.Handler // tagged with the task queue
	operation sdkmetrics.Handler // and with the service and operation
	scheduled time.Time          // when the request reached the server
}

// The tags of a Nexus task's metrics, besides the task queue.
const (
	tagNexusService   = "nexus_service"
	tagNexusOperation = "nexus_operation"
)

// forNexusTask returns the metrics of a task, or nil.
func (m *workerMetrics) forNexusTask(task *workflowservice.PollNexusTaskQueueResponse) *nexusTaskMetrics {
	if m == nil {
		return nil
	}
	req := task.GetRequest()
	service, operation := req.GetStartOperation().GetService(), req.GetStartOperation().GetOperation()
	if c := req.GetCancelOperation(); c != nil {
		service, operation = c.GetService(), c.GetOperation()
	}
	return &nexusTaskMetrics{
		queue:     m.handler,
		operation: m.handler.WithTags(map[string]string{tagNexusService: service, tagNexusOperation: operation}),
		scheduled: req.GetScheduledTime().AsTime(),
	}
}

// scheduledToStart records the time from the request reaching the server
// to the task starting here (not tagged with the operation, which the
// task queue's polls do not choose).
func (m *nexusTaskMetrics) scheduledToStart(started time.Time) {
	if m != nil {
		m.queue.Timer(sdkmetrics.NexusTaskScheduleToStartLatency).Record(started.Sub(m.scheduled))
	}
}

// executed records the handler's run and, when the task did not succeed,
// why: a timeout or an error of the SDK (no report), a handler error (by
// its type), or an operation that failed or was canceled.
func (m *nexusTaskMetrics) executed(d time.Duration, completed *workflowservice.RespondNexusTaskCompletedRequest,
	failed *workflowservice.RespondNexusTaskFailedRequest, err error) {
	if m == nil {
		return
	}
	m.operation.Timer(sdkmetrics.NexusTaskExecutionLatency).Record(d)
	if reason := nexusFailureReason(completed, failed, err); reason != "" {
		m.operation.WithTags(map[string]string{sdkmetrics.TagFailureReason: reason}).Counter(sdkmetrics.NexusTaskExecutionFailed).Inc(1)
	}
}

// nexusFailureReason is why a Nexus task did not succeed, "" when it
// did: a timeout or an error of the SDK (no report), a handler error (by
// its type), or an operation that failed or was canceled.
func nexusFailureReason(completed *workflowservice.RespondNexusTaskCompletedRequest, failed *workflowservice.RespondNexusTaskFailedRequest, err error) string {
	var reason string
	switch {
	case errors.Is(err, ErrNexusTaskTimeout):
		reason = "timeout"
	case err != nil:
		reason = "internal_sdk_error"
	case failed != nil:
		//lint:ignore SA1019 a server without Temporal failure responses reads the older handler error.
		if legacy := failed.GetError(); legacy != nil {
			reason = "handler_error_" + legacy.GetErrorType()
		} else if f := failed.GetFailure(); f != nil {
			reason = "handler_error_" + f.GetNexusHandlerFailureInfo().GetType()
		}
	default:
		start := completed.GetResponse().GetStartOperation()
		//lint:ignore SA1019 a server without Temporal failure responses reads the older operation error.
		if legacy := start.GetOperationError(); legacy != nil {
			reason = "operation_" + legacy.GetOperationState()
		} else if f := start.GetFailure(); f.GetApplicationFailureInfo() != nil {
			reason = "operation_failed"
		} else if f.GetCanceledFailureInfo() != nil {
			reason = "operation_canceled"
		}
	}
	return reason
}

// endToEnd records the time from the request reaching the server to its
// report.
func (m *nexusTaskMetrics) endToEnd() {
	if m != nil {
		m.operation.Timer(sdkmetrics.NexusTaskEndToEndLatency).Record(time.Since(m.scheduled))
	}
}
