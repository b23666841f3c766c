package workerrt

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	workerpb "go.temporal.io/api/worker/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/extstore"
	"github.com/durable-go/sdk/internal/payloadlimit"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/log"
)

// DefaultMaxConcurrentTasks is how many tasks of each kind (workflow tasks,
// activities, local activity attempts) a worker runs at once unless its
// options or its tuner say otherwise, as in go.temporal.io/sdk.
const DefaultMaxConcurrentTasks = 1000

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
	// LocateNondeterminism, when set, finds the workflow code (file:line)
	// behind a task's non-determinism error err, which the engine does
	// not locate in live tasks (that would walk the stack at every
	// command): it replays the run's history from src once more, locating
	// each command, and returns the location, or "" when it finds none.
	// Only a task that fails for non-determinism pays for it.
	LocateNondeterminism func(src *engine.EventSource, workflowID, runID string, err error) string
	// Activities runs activity code; nil disables activity tasks.
	Activities ActivityExecutor
	// LocalActivities runs the local activities of workflow tasks; without
	// it, they fail.
	LocalActivities ActivityExecutor
	// FailureConverter reports activity failures.
	FailureConverter engine.FailureConverter
	// Payloads checks the payloads of the worker's answers before they
	// are sent (payloadlimit): too large ones fail the task instead; nil
	// checks nothing.
	Payloads *payloadlimit.Checker
	// Storage stores the payloads of the worker's answers outside
	// before they are checked (external storage); nil stores none.
	Storage *extstore.Storage
	// ShutdownHeartbeat, when set, is the worker's last heartbeat
	// (status SHUTTING_DOWN), which its ShutdownWorker call carries.
	ShutdownHeartbeat func() *workerpb.WorkerHeartbeat
	// Nexus runs Nexus tasks; nil disables them. The Service must then be
	// a NexusService too.
	Nexus NexusExecutor
	// MaxConcurrentNexusTasks (default DefaultMaxConcurrentTasks) bounds
	// running Nexus tasks, NexusPollers (default 2) are the polls kept
	// open, NexusSlots and NexusPollerScaling replace them as the
	// workflow and activity ones do.
	MaxConcurrentNexusTasks int
	NexusPollers            int
	NexusSlots              SlotSupplier
	NexusPollerScaling      *PollerScaling

	MaxConcurrentWorkflowTasks   int // default DefaultMaxConcurrentTasks
	MaxConcurrentActivities      int // default DefaultMaxConcurrentTasks
	WorkflowPollers              int // default 2
	ActivityPollers              int // default 2
	WorkerActivitiesPerSecond    float64
	TaskQueueActivitiesPerSecond float64
	// MaxConcurrentLocalActivities (default DefaultMaxConcurrentTasks) and
	// WorkerLocalActivitiesPerSecond (0: no limit) bound the attempts of
	// local activities.
	MaxConcurrentLocalActivities   int
	WorkerLocalActivitiesPerSecond float64

	// WorkflowSlots, ActivitySlots and LocalActivitySlots hand out the
	// slots tasks of each kind run in (a worker.WorkerTuner's suppliers);
	// nil: a fixed number, MaxConcurrentWorkflowTasks,
	// MaxConcurrentActivities and MaxConcurrentLocalActivities.
	WorkflowSlots, ActivitySlots, LocalActivitySlots SlotSupplier
	// WorkflowPollerScaling and ActivityPollerScaling, when set, scale the
	// number of polls (see PollerScaling) instead of keeping
	// WorkflowPollers and ActivityPollers open.
	WorkflowPollerScaling, ActivityPollerScaling *PollerScaling

	// MaxEagerActivitiesPerTask, when positive, lets a workflow task ask
	// the server to hand up to that many of the activities it schedules on
	// this worker's task queue straight back to the worker, in free
	// activity slots, rather than through a poll (eager activity
	// dispatch); MaxConcurrentEagerActivities (0: no bound but the slots)
	// bounds how many such activities run at once.
	MaxEagerActivitiesPerTask    int
	MaxConcurrentEagerActivities int

	// BinaryChecksum goes with workflow polls, completions and failures
	// when SendBinaryChecksum (a server without build-ID versioning), as
	// go.temporal.io/sdk sends it.
	BinaryChecksum     string
	SendBinaryChecksum bool
	// Versioning is what the worker tells the server of its version in
	// its polls and task reports (see Versioning).
	Versioning Versioning

	// Cache keeps workflow state between tasks; nil or size 0 disables the
	// sticky queue.
	Cache                        *StickyCache
	StickyScheduleToStartTimeout time.Duration // default 5s
	// StopTimeout is how long Stop lets running tasks finish before
	// canceling the activities still running (0: none, as in
	// go.temporal.io/sdk); see Worker.Stop.
	StopTimeout time.Duration
	// WorkerInstanceKey names this worker in its polls and its
	// ShutdownWorker call, as go.temporal.io/sdk's worker instance key
	// does: a server that completes a stopping worker's polls finds them
	// by it.
	WorkerInstanceKey string
	// PollCompleteOnShutdown says that the server completes the open polls
	// of a worker that tells it it stops (ShutdownWorker), as one whose
	// namespace reports the WorkerPollCompleteOnShutdown capability does
	// (server 1.32): Stop then lets them return, empty or with a task it
	// runs, rather than canceling them (see Stop).
	PollCompleteOnShutdown bool
	// DefaultHeartbeatInterval (0: 30s) is the least time between two
	// heartbeat calls of an activity without a heartbeat timeout (with
	// one, 80% of it); MaxHeartbeatInterval (0: 60s) bounds the interval
	// either way.
	DefaultHeartbeatInterval, MaxHeartbeatInterval time.Duration

	// BackgroundActivityContext, when set, is the parent of every activity
	// context: its values reach activities, and its end cancels them.
	BackgroundActivityContext context.Context

	// OnFatalError, when set, receives the first poll error that retrying
	// will not cure (a namespace that does not exist, an invalid request,
	// an unsupported client version) once polls have failed with it for
	// FatalErrorGrace (0: 2 minutes, as in go.temporal.io/sdk, since
	// proxies may return such errors for a while); polling stops then.
	// It is called once, on the failing poll's goroutine, and must not
	// block: the owner stops the worker from another goroutine.
	OnFatalError    func(error)
	FatalErrorGrace time.Duration

	// ActivityPollGate, when set, is waited on before each activity poll:
	// the worker asks for an activity only when it lets it (a session
	// worker, only while it has room for another session). It returns an
	// error only when ctx ends.
	ActivityPollGate func(ctx context.Context) error

	// NoWorkflowTaskHeartbeat keeps a workflow task that waits for local
	// activities open however long they take. Without it (a worker) such
	// a task reports its commands at 80% of its timeout, asking for the
	// next task at once, and goes on in that one, so that it does not time
	// out. The test environment sets it: its server times out no workflow
	// task, and go.temporal.io/sdk's test environment never splits one,
	// so a history with local activities must not depend on how fast the
	// machine runs them.
	NoWorkflowTaskHeartbeat bool

	// WorkflowTaskFailed, when set, is told of each workflow task that
	// fails, with the error as the engine returned it, before the failure
	// is reported (on every attempt, reported or not). The test
	// environment, which retries no task, ends its test with the error.
	WorkflowTaskFailed func(workflowID string, err error)

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

// ErrWorkerShutdown is the cause (context.Cause) of the cancellation of
// activities still running when a stopping worker's stop timeout ends.
var ErrWorkerShutdown = errors.New("worker is now shutdown")

// Worker polls one task queue.
type Worker struct {
	opts        Options
	stickyQueue string

	stopOnce sync.Once
	stopMu   sync.Mutex              // held to close stopped; see eagerWorkflowSlot.run
	stopPoll context.CancelFunc      // ends the poll loops: no new poll opens
	stopWork context.CancelCauseFunc // cancels running activities
	workCtx  context.Context         // parent of activity contexts
	stopped  chan struct{}           // closed when Stop begins: activity.GetWorkerStopChannel
	polling  sync.WaitGroup          // the poll loops
	running  taskGroup               // running tasks, and the activities among them whose code runs
	// pollCalls is the context of the polls' RPCs with
	// PollCompleteOnShutdown (without it, the poll loops' context is);
	// abandonPolls cancels it, and the poll loops with it.
	pollCalls    context.Context
	abandonPolls context.CancelFunc
	// stickyPolls are the open polls of the sticky queue, which Stop lets
	// end on their own once the server has answered them (see Stop).
	stickyPolls pollDrain
	limiter     *rateLimiter // worker-wide activity rate

	fatalMu       sync.Mutex
	fatalReported bool // OnFatalError was called

	// The slots of each kind of task; nil for a kind the worker does not
	// run.
	workflowSlots, activitySlots, localActivitySlots, nexusSlots *slots
	// localActivityLimiter bounds the rate of local activity attempts.
	localActivityLimiter *rateLimiter
	eager                eagerActivities
	metrics              *workerMetrics // nil without a metrics handler
	versioning           versioningWire
	status               statusTrackers
}

// New checks options and applies defaults; Start begins polling.
func New(opts Options) (*Worker, error) {
	if err := checkOptions(opts); err != nil {
		return nil, err
	}
	setDefault(&opts.MaxConcurrentWorkflowTasks, DefaultMaxConcurrentTasks)
	setDefault(&opts.MaxConcurrentActivities, DefaultMaxConcurrentTasks)
	setDefault(&opts.MaxConcurrentLocalActivities, DefaultMaxConcurrentTasks)
	setDefault(&opts.WorkflowPollers, 2)
	setDefault(&opts.ActivityPollers, 2)
	setDefault(&opts.MaxConcurrentNexusTasks, DefaultMaxConcurrentTasks)
	setDefault(&opts.NexusPollers, 2)
	if opts.FatalErrorGrace <= 0 {
		opts.FatalErrorGrace = 2 * time.Minute
	}
	if opts.StickyScheduleToStartTimeout <= 0 {
		opts.StickyScheduleToStartTimeout = 5 * time.Second
	}
	if opts.Identity == "" {
		host, _ := os.Hostname()
		opts.Identity = fmt.Sprintf("%d@%s@", os.Getpid(), host)
	}
	w := &Worker{opts: opts, stopped: make(chan struct{}), metrics: newWorkerMetrics(opts.Metrics, opts.TaskQueue),
		versioning: newVersioningWire(opts.Versioning)}
	w.pollCalls, w.abandonPolls = context.WithCancel(context.Background())
	if opts.Activities != nil {
		// So that Stop can tell the activities whose code still runs.
		w.opts.Activities = trackedActivities{ActivityExecutor: opts.Activities, group: &w.running}
	}
	// A sticky queue needs a poller of its own: not with a single one.
	if opts.Cache != nil && opts.Cache.size > 0 && (opts.WorkflowPollers > 1 || opts.WorkflowPollerScaling != nil) {
		host, _ := os.Hostname()
		w.stickyQueue = fmt.Sprintf("%s:%s", host, randomID())
	}
	if opts.WorkerActivitiesPerSecond > 0 {
		w.limiter = newRateLimiter(opts.WorkerActivitiesPerSecond)
	}
	if opts.Engine != nil {
		w.workflowSlots = w.newSlots(opts.WorkflowSlots, opts.MaxConcurrentWorkflowTasks, sdkmetrics.WorkerTypeWorkflow)
		w.localActivitySlots = w.newSlots(opts.LocalActivitySlots, opts.MaxConcurrentLocalActivities, sdkmetrics.WorkerTypeLocalActivity)
	}
	if opts.Activities != nil {
		w.activitySlots = w.newSlots(opts.ActivitySlots, opts.MaxConcurrentActivities, sdkmetrics.WorkerTypeActivity)
	}
	if opts.Nexus != nil {
		w.nexusSlots = w.newSlots(opts.NexusSlots, opts.MaxConcurrentNexusTasks, sdkmetrics.WorkerTypeNexus)
	}
	w.eager.maxRunning = opts.MaxConcurrentEagerActivities
	if opts.WorkerLocalActivitiesPerSecond > 0 {
		w.localActivityLimiter = newRateLimiter(opts.WorkerLocalActivitiesPerSecond)
	}
	return w, nil
}

// checkOptions refuses options a worker cannot run with.
func checkOptions(opts Options) error {
	if opts.Service == nil {
		return errors.New("worker: no connection to the Temporal server was given")
	}
	if opts.TaskQueue == "" {
		return errors.New("worker: a task queue name is required")
	}
	if opts.Engine == nil && opts.Activities == nil && opts.Nexus == nil {
		return fmt.Errorf("worker for task queue %q has nothing to run: neither workflow tasks nor activity tasks nor Nexus tasks are enabled", opts.TaskQueue)
	}
	if _, ok := opts.Service.(NexusService); opts.Nexus != nil && !ok {
		return fmt.Errorf("worker for task queue %q: its service (%T) cannot poll Nexus tasks", opts.TaskQueue, opts.Service)
	}
	if opts.DefaultHeartbeatInterval < 0 || opts.MaxHeartbeatInterval < 0 {
		return fmt.Errorf("worker: the heartbeat throttle intervals must not be negative (DefaultHeartbeatThrottleInterval %v, MaxHeartbeatThrottleInterval %v); 0 means the defaults, 30s and 60s",
			opts.DefaultHeartbeatInterval, opts.MaxHeartbeatInterval)
	}
	return nil
}

// newSlots tracks a supplier's slots for a worker type; a nil supplier is
// a fixed number of slots.
func (w *Worker) newSlots(supplier SlotSupplier, fixed int, workerType string) *slots {
	if supplier == nil {
		supplier = NewFixedSlots(fixed)
	}
	return newSlots(supplier, w.opts.TaskQueue, w.opts.Identity, w.metrics.slotGauges(workerType))
}

func setDefault(v *int, d int) {
	if *v <= 0 {
		*v = d
	}
}

// Start begins polling; it returns at once.
func (w *Worker) Start() {
	pollCtx, stopPoll := context.WithCancel(w.pollCalls)
	w.workCtx, w.stopWork = context.WithCancelCause(cmp.Or(w.opts.BackgroundActivityContext, context.Background()))
	w.stopPoll = stopPoll
	m := w.metrics
	if w.opts.Engine != nil {
		m.workerStarted(sdkmetrics.WorkerTypeWorkflow)
		// go.temporal.io/sdk starts a local activity worker with every
		// workflow worker, with two pollers of its in-process queue.
		m.workerStarted(sdkmetrics.WorkerTypeLocalActivity)
		m.pollerStarted(sdkmetrics.WorkerTypeLocalActivity)
		m.pollerStarted(sdkmetrics.WorkerTypeLocalActivity)
		normal, sticky := w.workflowPollers()
		w.startWorkflowPolls(pollCtx, w.normalQueue(), normal)
		if sticky != nil {
			w.startWorkflowPolls(pollCtx, w.stickyTaskQueue(), sticky)
		}
	}
	if w.opts.Activities != nil {
		m.workerStarted(sdkmetrics.WorkerTypeActivity)
		pollers := w.pollers(w.opts.ActivityPollers, w.opts.ActivityPollerScaling, sdkmetrics.WorkerTypeActivity)
		g := &pollGroup[*workflowservice.PollActivityTaskQueueResponse]{what: "activity", kind: enumspb.TASK_QUEUE_KIND_NORMAL,
			slots: w.activitySlots, pollers: pollers, tracker: w.status.track(&w.status.activity, pollers), logger: w.opts.Logger,
			poll: w.pollActivityTask, handle: w.handleActivityTask, running: &w.running,
			fatal: w.fatalOnce(), fatalAfter: w.opts.FatalErrorGrace}
		w.goPoll(func() { g.run(pollCtx) })
	}
	if w.opts.Nexus != nil {
		w.startNexusPolls(pollCtx)
	}
}

// workflowPollers are the poll counts of the normal queue and of the
// sticky one (nil without a sticky queue). Fixed pollers are split between
// them, the normal queue getting the odd one; scaling ones scale each
// within the bounds.
func (w *Worker) workflowPollers() (normal, sticky *pollerCount) {
	n, scaling := w.opts.WorkflowPollers, w.opts.WorkflowPollerScaling
	if w.stickyQueue == "" {
		return w.pollers(n, scaling, sdkmetrics.WorkerTypeWorkflow), nil
	}
	if scaling != nil {
		return w.pollers(0, scaling, sdkmetrics.WorkerTypeWorkflow), w.pollers(0, scaling, sdkmetrics.WorkerTypeWorkflow)
	}
	return w.pollers(n-n/2, nil, sdkmetrics.WorkerTypeWorkflow), w.pollers(n/2, nil, sdkmetrics.WorkerTypeWorkflow)
}

// pollers returns a scaling poll count, or n fixed ones, counting the
// start of fixed pollers as go.temporal.io/sdk does.
func (w *Worker) pollers(n int, scaling *PollerScaling, workerType string) *pollerCount {
	if scaling != nil {
		return scaledPollers(*scaling)
	}
	for range n {
		w.metrics.pollerStarted(workerType)
	}
	return fixedPollers(n)
}

func (w *Worker) startWorkflowPolls(ctx context.Context, queue *taskqueuepb.TaskQueue, pollers *pollerCount) {
	what, tracked := "workflow", &w.status.workflow
	if queue.GetKind() == enumspb.TASK_QUEUE_KIND_STICKY {
		what, tracked = "sticky workflow", &w.status.sticky
	}
	g := &pollGroup[*workflowservice.PollWorkflowTaskQueueResponse]{what: what, kind: queue.GetKind(),
		slots: w.workflowSlots, pollers: pollers, tracker: w.status.track(tracked, pollers), logger: w.opts.Logger,
		poll: func(ctx context.Context) (*workflowservice.PollWorkflowTaskQueueResponse, bool, error) {
			if queue.GetKind() == enumspb.TASK_QUEUE_KIND_STICKY {
				if !w.stickyPolls.open() {
					// Stopping: the server was told, and no new sticky
					// poll opens; this one waits for polling to end.
					<-ctx.Done()
					return nil, false, nil
				}
				defer w.stickyPolls.closed()
			}
			return w.pollWorkflowTask(ctx, queue)
		},
		handle: w.handleWorkflowTask, running: &w.running,
		fatal: w.fatalOnce(), fatalAfter: w.opts.FatalErrorGrace}
	w.goPoll(func() { g.run(ctx) })
}

// fatalOnce is the fatal error report of a poll group: every poll group
// stops polling, and the worker's first such error is logged and goes to
// OnFatalError.
func (w *Worker) fatalOnce() func(error) {
	if w.opts.OnFatalError == nil {
		return nil
	}
	return func(err error) {
		w.abandonPolls()
		w.fatalMu.Lock()
		first := !w.fatalReported
		w.fatalReported = true
		w.fatalMu.Unlock()
		if first {
			w.opts.Logger.Error("polling failed with an error the server will keep returning; the worker stops (worker.Options.OnFatalError receives the error)",
				"TaskQueue", w.opts.TaskQueue, "Error", err, "FailingForAtLeast", w.opts.FatalErrorGrace)
			w.opts.OnFatalError(err)
		}
	}
}

// pollRPCContext is the context of the RPC of a poll the poll loops
// make under ctx: ctx itself, or, with PollCompleteOnShutdown, one that
// the end of the loops leaves open, for the server to complete the poll
// (see Stop).
func (w *Worker) pollRPCContext(ctx context.Context) context.Context {
	if w.opts.PollCompleteOnShutdown {
		return w.pollCalls
	}
	return ctx
}

func (w *Worker) goPoll(loop func()) {
	w.polling.Add(1)
	go func() {
		defer w.polling.Done()
		loop()
	}()
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
