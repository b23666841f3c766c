package workerrt

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/log"
)

// Options configure a worker runtime. Zero values take the defaults of
// go.temporal.io/sdk's worker.
type Options struct {
	Service   Service
	Namespace string
	TaskQueue string
	Identity  string
	Logger    log.Logger

	// Engine configures the workflow engine; nil disables workflow tasks.
	Engine *engine.Options
	// Activities runs activity code; nil disables activity tasks.
	Activities ActivityExecutor
	// LocalActivities runs the local activities of workflow tasks; without
	// it, they fail.
	LocalActivities ActivityExecutor
	// FailureConverter reports activity failures.
	FailureConverter engine.FailureConverter

	MaxConcurrentWorkflowTasks   int // default 1000
	MaxConcurrentActivities      int // default 1000
	WorkflowPollers              int // default 2
	ActivityPollers              int // default 2
	WorkerActivitiesPerSecond    float64
	TaskQueueActivitiesPerSecond float64
	// MaxConcurrentLocalActivities (default 1000) and
	// WorkerLocalActivitiesPerSecond (0: no limit) bound the attempts of
	// local activities.
	MaxConcurrentLocalActivities   int
	WorkerLocalActivitiesPerSecond float64

	// Cache keeps workflow state between tasks; nil or size 0 disables the
	// sticky queue.
	Cache                        *StickyCache
	StickyScheduleToStartTimeout time.Duration // default 5s
	// StopTimeout is how long Stop lets running activities finish before
	// canceling them.
	StopTimeout time.Duration

	// ActivityPollGate, when set, is waited on before each activity poll:
	// the worker asks for an activity only when it lets it (a session
	// worker, only while it has room for another session). It returns an
	// error only when ctx ends.
	ActivityPollGate func(ctx context.Context) error

	// WallTime converts the server's times (an activity's start, from which
	// its deadline is computed) to wall-clock time; nil when they are wall
	// time already. The test environment's server runs a virtual clock.
	WallTime func(time.Time) time.Time

	// SDKName and SDKVersion go into workflow task completions.
	SDKName, SDKVersion string

	// Metrics receives the worker's SDK metrics (temporal_workflow_...,
	// temporal_activity_..., the sticky cache, slots and pollers), tagged
	// with the task queue on top of the tags it carries already, which
	// should be sdkmetrics.RootTags. Nil or sdkmetrics.NopHandler: none, at
	// no cost.
	Metrics sdkmetrics.Handler
}

// Worker polls one task queue.
type Worker struct {
	opts        Options
	stickyQueue string

	stopOnce sync.Once
	stopPoll context.CancelFunc // ends polling
	stopWork context.CancelFunc // cancels running activities
	workCtx  context.Context    // parent of activity contexts
	stopped  chan struct{}      // closed when Stop begins: activity.GetWorkerStopChannel
	polling  sync.WaitGroup     // the poll loops
	running  taskGroup          // running tasks
	limiter  *rateLimiter       // worker-wide activity rate
	// localActivitySlots and localActivityLimiter bound local activity
	// attempts.
	localActivitySlots   *slots
	localActivityLimiter *rateLimiter
	metrics              *workerMetrics // nil without a metrics handler
}

// New checks options and applies defaults; Start begins polling.
func New(opts Options) (*Worker, error) {
	if opts.Service == nil {
		return nil, errors.New("worker: no connection to the Temporal server was given")
	}
	if opts.TaskQueue == "" {
		return nil, errors.New("worker: a task queue name is required")
	}
	if opts.Engine == nil && opts.Activities == nil {
		return nil, fmt.Errorf("worker for task queue %q has nothing to run: register at least one workflow or activity", opts.TaskQueue)
	}
	setDefault(&opts.MaxConcurrentWorkflowTasks, 1000)
	setDefault(&opts.MaxConcurrentActivities, 1000)
	setDefault(&opts.MaxConcurrentLocalActivities, 1000)
	setDefault(&opts.WorkflowPollers, 2)
	setDefault(&opts.ActivityPollers, 2)
	if opts.StickyScheduleToStartTimeout <= 0 {
		opts.StickyScheduleToStartTimeout = 5 * time.Second
	}
	if opts.Identity == "" {
		host, _ := os.Hostname()
		opts.Identity = fmt.Sprintf("%d@%s@", os.Getpid(), host)
	}
	w := &Worker{opts: opts, stopped: make(chan struct{}), metrics: newWorkerMetrics(opts.Metrics, opts.TaskQueue)}
	if opts.Cache != nil && opts.Cache.size > 0 {
		host, _ := os.Hostname()
		w.stickyQueue = fmt.Sprintf("%s:%s", host, randomID())
	}
	if opts.WorkerActivitiesPerSecond > 0 {
		w.limiter = newRateLimiter(opts.WorkerActivitiesPerSecond)
	}
	if opts.Engine != nil {
		w.localActivitySlots = newSlots(opts.MaxConcurrentLocalActivities, w.metrics.slotGauges(sdkmetrics.WorkerTypeLocalActivity))
	}
	if opts.WorkerLocalActivitiesPerSecond > 0 {
		w.localActivityLimiter = newRateLimiter(opts.WorkerLocalActivitiesPerSecond)
	}
	return w, nil
}

func setDefault(v *int, d int) {
	if *v <= 0 {
		*v = d
	}
}

// Start begins polling; it returns at once.
func (w *Worker) Start() {
	pollCtx, stopPoll := context.WithCancel(context.Background())
	w.workCtx, w.stopWork = context.WithCancel(context.Background())
	w.stopPoll = stopPoll
	m := w.metrics
	if w.opts.Engine != nil {
		m.workerStarted(sdkmetrics.WorkerTypeWorkflow)
		s := newSlots(w.opts.MaxConcurrentWorkflowTasks, m.slotGauges(sdkmetrics.WorkerTypeWorkflow))
		for i := range w.opts.WorkflowPollers {
			queue := w.normalQueue()
			// Half the pollers (at least one) serve the sticky queue.
			if w.stickyQueue != "" && (i%2 == 0) {
				queue = w.stickyTaskQueue()
			}
			m.pollerStarted(sdkmetrics.WorkerTypeWorkflow)
			w.goPoll(func() {
				pollLoop(pollCtx, s, w.opts.Logger, "workflow", func(ctx context.Context) (*workflowservice.PollWorkflowTaskQueueResponse, bool, error) {
					return w.pollWorkflowTask(ctx, queue)
				}, w.handleWorkflowTask, &w.running)
			})
		}
	}
	if w.opts.Activities != nil {
		m.workerStarted(sdkmetrics.WorkerTypeActivity)
		s := newSlots(w.opts.MaxConcurrentActivities, m.slotGauges(sdkmetrics.WorkerTypeActivity))
		for range w.opts.ActivityPollers {
			m.pollerStarted(sdkmetrics.WorkerTypeActivity)
			w.goPoll(func() {
				pollLoop(pollCtx, s, w.opts.Logger, "activity", w.pollActivityTask, w.handleActivityTask, &w.running)
			})
		}
	}
}

func (w *Worker) goPoll(loop func()) {
	w.polling.Add(1)
	go func() {
		defer w.polling.Done()
		loop()
	}()
}

// Stop stops polling, lets running tasks finish within the stop timeout,
// then cancels running activities and waits for them. Workflow tasks that
// were not finished are not reported: the server retries them.
func (w *Worker) Stop() {
	w.stopOnce.Do(func() {
		close(w.stopped)
		if w.stopPoll == nil {
			return
		}
		w.stopPoll()
		w.polling.Wait()
		if !w.running.waitFor(w.opts.StopTimeout) && w.opts.StopTimeout > 0 {
			w.opts.Logger.Warn("the worker stop timeout passed with tasks still running; canceling running activities",
				"TaskQueue", w.opts.TaskQueue, "StopTimeout", w.opts.StopTimeout)
		}
		w.stopWork()
		w.running.Wait()
	})
}

// StickyQueue is the name of the worker's sticky task queue ("" without
// a cache).
func (w *Worker) StickyQueue() string { return w.stickyQueue }

func (w *Worker) normalQueue() *taskqueuepb.TaskQueue {
	return &taskqueuepb.TaskQueue{Name: w.opts.TaskQueue, Kind: enumspb.TASK_QUEUE_KIND_NORMAL}
}

func (w *Worker) stickyTaskQueue() *taskqueuepb.TaskQueue {
	return &taskqueuepb.TaskQueue{Name: w.stickyQueue, Kind: enumspb.TASK_QUEUE_KIND_STICKY, NormalName: w.opts.TaskQueue}
}
