package internal

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	workerpb "go.temporal.io/api/worker/v1"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/durable-go/sdk/internal/logging"
	"github.com/durable-go/sdk/internal/payloadlimit"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/rpc"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/internal/tuning"
	"github.com/durable-go/sdk/internal/workerheartbeat"
	"github.com/durable-go/sdk/internal/workerrt"
	"github.com/durable-go/sdk/log"
)

// WorkflowPanicPolicy says what a panic in workflow code does.
type WorkflowPanicPolicy int

const (
	// BlockWorkflow fails the workflow task; the server retries it, so the
	// workflow waits until fixed code is deployed. The default.
	BlockWorkflow WorkflowPanicPolicy = iota
	// FailWorkflow fails the workflow.
	FailWorkflow
)

// WorkerOptions configure a worker (worker.Options). Zero values take the
// defaults of go.temporal.io/sdk.
type WorkerOptions struct {
	// MaxConcurrentActivityExecutionSize bounds running activities
	// (workerrt.DefaultMaxConcurrentTasks).
	MaxConcurrentActivityExecutionSize int
	// WorkerActivitiesPerSecond bounds how fast this worker starts
	// activities (unlimited).
	WorkerActivitiesPerSecond float64
	// TaskQueueActivitiesPerSecond bounds how fast the server hands out the
	// task queue's activities, across all workers (unlimited).
	TaskQueueActivitiesPerSecond float64
	// MaxConcurrentLocalActivityExecutionSize bounds running local
	// activity attempts (workerrt.DefaultMaxConcurrentTasks).
	MaxConcurrentLocalActivityExecutionSize int
	// WorkerLocalActivitiesPerSecond bounds how fast this worker starts
	// local activity attempts (unlimited).
	WorkerLocalActivitiesPerSecond float64
	// LocalActivityWorkerOnly: the worker runs workflows and their local
	// activities, and polls no activity tasks.
	LocalActivityWorkerOnly bool
	// MaxConcurrentWorkflowTaskExecutionSize bounds running workflow tasks
	// (workerrt.DefaultMaxConcurrentTasks).
	MaxConcurrentWorkflowTaskExecutionSize int
	// MaxConcurrentWorkflowTaskPollers and MaxConcurrentActivityTaskPollers
	// are the long polls kept open (2 each).
	MaxConcurrentWorkflowTaskPollers int
	MaxConcurrentActivityTaskPollers int
	// EnableLoggingInReplay keeps workflow loggers talking during replay.
	EnableLoggingInReplay bool
	// StickyScheduleToStartTimeout is how long a workflow's next task waits
	// for this worker before going to any worker (5s).
	StickyScheduleToStartTimeout time.Duration
	// WorkflowPanicPolicy says what a panic in workflow code does.
	WorkflowPanicPolicy WorkflowPanicPolicy
	// DefaultHeartbeatThrottleInterval is the least time between two
	// heartbeats an activity sends the server when its options set no
	// HeartbeatTimeout (30s); with one, the interval is 80% of it.
	// Heartbeats recorded in between are kept, and the latest is sent at
	// the interval's end.
	DefaultHeartbeatThrottleInterval time.Duration
	// MaxHeartbeatThrottleInterval bounds that interval, whatever the
	// heartbeat timeout (60s).
	MaxHeartbeatThrottleInterval time.Duration
	// BackgroundActivityContext is the parent of every activity context
	// of the worker: its values reach the activities (a way to hand them
	// dependencies, though fields of a struct whose methods are the
	// activities are the clearer one), and its cancellation cancels them.
	BackgroundActivityContext context.Context
	// DisableRegistrationAliasing: a function registered under a name of
	// its own (RegisterOptions.Name) is then scheduled by workflow code
	// (ExecuteActivity, ExecuteLocalActivity, ExecuteChildWorkflow,
	// NewContinueAsNewError) by its function name, not by that name. By
	// default it is scheduled by the registered name, as in
	// go.temporal.io/sdk.
	DisableRegistrationAliasing bool
	// OnFatalError is called once, with the first poll error that retrying
	// will not cure (a namespace deleted after the start, a request the
	// server refuses as invalid, an unsupported client version) after
	// polls have failed with it for two minutes; then the worker stops,
	// and Run returns that error. It runs on a goroutine of its own and
	// may call Stop. A namespace that does not exist when the worker
	// starts fails Start instead.
	OnFatalError func(error)
	// WorkerStopTimeout is how long Stop lets running tasks finish before
	// canceling the activities still running (0 by default, as in
	// go.temporal.io/sdk). Stop then returns without waiting for activity
	// code that ignores its canceled context: it logs the activities
	// still running, and the server retries each after its timeout
	// unless the code returns in time for its result to be reported.
	// Stop returns at most workerrt.StopMargin (0.5 s) after the timeout.
	WorkerStopTimeout time.Duration
	// DisableWorkflowWorker polls only activity tasks.
	DisableWorkflowWorker bool
	// DeploymentOptions opt the worker into Worker Deployment Versioning
	// (see WorkerDeploymentOptions, worker_deployment.go).
	DeploymentOptions WorkerDeploymentOptions
	// PreferredVersionProvider chooses the version a GetVersion call
	// records the first time a run reaches it (see
	// PreferredVersionProvider); nil: its maxSupported.
	PreferredVersionProvider PreferredVersionProvider
	// BuildID is the worker's build ID, which its task completions record
	// (deprecated: DeploymentOptions.Version replaces it). Default: the
	// binary checksum.
	BuildID string
	// UseBuildIDForVersioning opts the worker into build-ID versioning
	// (deprecated: DeploymentOptions.UseVersioning).
	UseBuildIDForVersioning bool
	// Identity names the worker to the server (pid@host@ by default).
	Identity string
	// DeadlockDetectionTimeout is how long workflow code may run without
	// yielding (1s); negative disables detection.
	DeadlockDetectionTimeout time.Duration
	// Interceptors wrap the worker's workflows and activities, the first
	// outermost. The client's interceptors that are also WorkerInterceptors
	// come before them.
	Interceptors []WorkerInterceptor
	// EnableSessionWorker lets the worker run sessions (workflow.CreateSession):
	// it also polls the task queue's session creation queue and a task
	// queue of its own, where its sessions' activities go.
	EnableSessionWorker bool
	// MaxConcurrentSessionExecutionSize bounds the sessions the worker
	// runs at once (1000); with that many open it takes no new one.
	MaxConcurrentSessionExecutionSize int
	// DisablePayloadErrorLimit sends what the worker's tasks produce
	// whatever its size. By default a payload or memo larger than its
	// namespace's limit (which the server reports; 2 MiB unless
	// configured) fails the task instead of reaching the server, which
	// would refuse it and terminate the workflow: the workflow task fails
	// with cause PAYLOADS_TOO_LARGE and is retried, an activity attempt
	// fails, a query answers with an error. (Experimental.)
	DisablePayloadErrorLimit bool
	// Plugins configure the worker and wrap its start and stop, in order
	// (see WorkerPlugin), after the client's plugins that are also worker
	// plugins.
	Plugins []WorkerPlugin
	// Tuner decides how many tasks of each kind run at once (see
	// NewFixedSizeTuner, NewResourceBasedTuner, NewCompositeTuner). Not
	// with the MaxConcurrent...ExecutionSize options, which size the
	// default, fixed-size tuner.
	Tuner tuning.WorkerTuner
	// WorkflowTaskPollerBehavior and ActivityTaskPollerBehavior say how
	// many long polls the worker keeps open (NewPollerBehaviorAutoscaling,
	// NewPollerBehaviorSimpleMaximum); each instead of the
	// MaxConcurrent...TaskPollers option of its kind.
	WorkflowTaskPollerBehavior tuning.PollerBehavior
	ActivityTaskPollerBehavior tuning.PollerBehavior
	// MaxConcurrentNexusTaskExecutionSize bounds the Nexus tasks running
	// at once (workerrt.DefaultMaxConcurrentTasks); not with Tuner.
	MaxConcurrentNexusTaskExecutionSize int
	// MaxConcurrentNexusTaskPollers are the long polls of Nexus tasks
	// kept open (2); NexusTaskPollerBehavior instead says how many
	// (NewPollerBehaviorAutoscaling, NewPollerBehaviorSimpleMaximum). The
	// worker polls Nexus tasks only when a Nexus service is registered
	// (RegisterNexusService).
	MaxConcurrentNexusTaskPollers int
	NexusTaskPollerBehavior       tuning.PollerBehavior
	// DisableEagerActivities stops workflow tasks from asking the server
	// to hand the activities they schedule on this worker's task queue
	// straight back to the worker, in free activity slots, rather than
	// through a poll. Eager activities are also off with
	// TaskQueueActivitiesPerSecond, which the server does not apply to
	// them, and an activity's options can turn them off
	// (ActivityOptions.DisableEagerExecution). The server must allow them
	// (dynamic config system.enableActivityEagerExecution).
	DisableEagerActivities bool
	// MaxEagerActivityReservationsPerWorkflowTask bounds the eager
	// activities one workflow task asks for (nil: 3; must be positive).
	MaxEagerActivityReservationsPerWorkflowTask *int
	// MaxConcurrentEagerActivityExecutionSize bounds the eager activities
	// running at once (0: only the activity slots bound them).
	MaxConcurrentEagerActivityExecutionSize int
}

// The sticky cache is shared by the running workers of a process; the
// last of them to stop clears it, as go.temporal.io/sdk does, so that no
// workflow run (its coroutines, its state) outlives the workers.
var (
	stickyCacheMu   sync.Mutex
	stickyCacheSize = 10000
	stickyCache     *sharedCache
)

// sharedCache is a sticky cache and the number of running workers using it.
type sharedCache struct {
	cache *workerrt.StickyCache
	users int
}

// SetStickyWorkflowCacheSize sets how many workflow runs the process keeps
// in memory between tasks (10000). Call it before starting any worker.
func SetStickyWorkflowCacheSize(size int) {
	stickyCacheMu.Lock()
	defer stickyCacheMu.Unlock()
	stickyCacheSize = size
	stickyCache = nil
}

// PurgeStickyWorkflowCache drops every cached workflow run; their next
// tasks replay history.
func PurgeStickyWorkflowCache() {
	stickyCacheMu.Lock()
	c := stickyCache
	stickyCacheMu.Unlock()
	if c != nil {
		c.cache.Purge()
	}
}

// acquireStickyCache returns the process's cache for a starting worker,
// which must release it when it stops.
func acquireStickyCache() *sharedCache {
	stickyCacheMu.Lock()
	defer stickyCacheMu.Unlock()
	if stickyCache == nil {
		stickyCache = &sharedCache{cache: workerrt.NewStickyCache(stickyCacheSize)}
	}
	stickyCache.users++
	return stickyCache
}

// release is a worker's stop: the last user clears the cache.
func (c *sharedCache) release() {
	stickyCacheMu.Lock()
	c.users--
	last := c.users == 0
	if last && stickyCache == c {
		stickyCache = nil
	}
	stickyCacheMu.Unlock()
	if last {
		c.cache.Purge()
	}
}

// AggregatedWorker polls one task queue for workflow and activity tasks
// and runs the functions registered with it (worker.Worker).
type AggregatedWorker struct {
	client    WorkerClient
	taskQueue string
	options   WorkerOptions
	registry  *registry.Registry

	// clientSettings are what the worker shares with its client.
	clientSettings ClientSettings

	mu       sync.Mutex
	runtime  *workerrt.Worker
	sessions []*workerrt.Worker // with EnableSessionWorker; see worker_session.go
	cache    *sharedCache       // released by Stop

	plugins   workerPlugins           // see worker_plugin.go
	heartbeat *workerheartbeat.Worker // while running, with heartbeats on (worker_heartbeat.go)
	nexus     nexusServices           // see worker_nexus.go
	// versioning is the worker's version and its workflow types'
	// versioning behaviors (worker_deployment.go).
	versioning *workerVersioning

	fatalMu  sync.Mutex
	fatalErr error         // the first fatal poll error
	fatal    chan struct{} // closed when fatalErr is set
	// fatalErrorGrace is how long polls fail with an error retrying will
	// not cure before the worker stops; 0: the runtime's 2 minutes. Only
	// tests set it (SetFatalPollErrorGrace), under mu.
	fatalErrorGrace time.Duration
}

// ErrWorkerShutdown is the cause (context.Cause) of the cancellation of
// the activities still running when a stopping worker's WorkerStopTimeout
// ends.
var ErrWorkerShutdown = workerrt.ErrWorkerShutdown

// ErrActivityPaused and ErrActivityReset are the causes of an activity's
// context canceled because the activity was paused or reset on the server
// (see activity.RecordHeartbeat).
var (
	ErrActivityPaused = workerrt.ErrActivityPaused
	ErrActivityReset  = workerrt.ErrActivityReset
)

// SetFatalPollErrorGrace sets how long the polls of w, a worker of
// worker.New not yet started, must fail with an error retrying will not
// cure before it stops (2 minutes, as in go.temporal.io/sdk, whose
// options have no such setting). It is for this module's tests, which
// cannot wait that long; it sets nothing any other worker reads.
func SetFatalPollErrorGrace(w *AggregatedWorker, d time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.fatalErrorGrace = d
}

// onFatalError records a runtime's first fatal poll error, then calls the
// user's hook and stops the worker on a goroutine of its own, so that the
// failing poll, which Stop waits for, returns first.
func (w *AggregatedWorker) onFatalError(err error) {
	w.fatalMu.Lock()
	first := w.fatalErr == nil
	if first {
		w.fatalErr = err
		close(w.fatal)
	}
	w.fatalMu.Unlock()
	if !first {
		return
	}
	go func() {
		if w.options.OnFatalError != nil {
			w.options.OnFatalError(err)
		}
		w.Stop()
	}()
}

func (w *AggregatedWorker) fatalError() error {
	w.fatalMu.Lock()
	defer w.fatalMu.Unlock()
	return w.fatalErr
}

// NewWorker returns a worker for taskQueue that uses client's connection,
// namespace and converters. Register functions, then Start or Run it.
func NewWorker(client Client, taskQueue string, options WorkerOptions) *AggregatedWorker {
	wc, ok := client.(WorkerClient)
	if !ok {
		panic(fmt.Sprintf("worker.New: the client must come from client.Dial or client.NewLazyClient, got %T", client))
	}
	if taskQueue == "" {
		panic("worker.New: the task queue name is empty")
	}
	w := &AggregatedWorker{client: wc, clientSettings: wc.WorkerSettings(), taskQueue: taskQueue, options: options, registry: registry.New(), fatal: make(chan struct{})}
	w.configureThroughPlugins()
	if w.options.DisableRegistrationAliasing { // as the plugins left it
		w.registry.DisableAliasing()
	}
	checkTuning(w.options) // as the plugins left them
	checkWorkerOptionsNotNegative(w.options)
	w.versioning = newWorkerVersioning(taskQueue, w.options)
	return w
}

// RegisterWorkflow registers a workflow function under its name.
func (w *AggregatedWorker) RegisterWorkflow(fn any) {
	w.RegisterWorkflowWithOptions(fn, RegisterWorkflowOptions{})
}

// RegisterWorkflowWithOptions registers a workflow function. It panics on
// an invalid function or a duplicate name, and on a worker whose
// workflow worker is disabled, as go.temporal.io/sdk does: registration
// mistakes are programming errors found at startup. Like the other
// registrations, it may also be called after Start: the worker polls its
// task queue from the start, and runs what is registered when a task
// comes.
func (w *AggregatedWorker) RegisterWorkflowWithOptions(fn any, options RegisterWorkflowOptions) {
	w.checkWorkflowWorkerEnabled()
	w.versioning.checkBehavior(w.taskQueue, fn, options)
	if on := w.plugins.registryHooks.OnRegisterWorkflow; on != nil {
		on(fn, options)
	}
	if err := w.registry.RegisterWorkflow(fn, options.Name, options.DisableAlreadyRegisteredCheck); err != nil {
		panic(err)
	}
	w.versioning.register(fn, options)
}

// checkWorkflowWorkerEnabled panics, as go.temporal.io/sdk does, when a
// workflow is registered with a worker that runs none.
func (w *AggregatedWorker) checkWorkflowWorkerEnabled() {
	if w.options.DisableWorkflowWorker {
		panic(fmt.Sprintf("worker for task queue %q: cannot register a workflow: worker.Options.DisableWorkflowWorker is set, so this worker runs no workflows", w.taskQueue))
	}
}

// RegisterActivity registers an activity function, or the exported
// methods of a struct as activities.
func (w *AggregatedWorker) RegisterActivity(fn any) {
	w.RegisterActivityWithOptions(fn, RegisterActivityOptions{})
}

// RegisterActivityWithOptions registers activities with options.
func (w *AggregatedWorker) RegisterActivityWithOptions(fn any, options RegisterActivityOptions) {
	if on := w.plugins.registryHooks.OnRegisterActivity; on != nil {
		on(fn, options)
	}
	if err := w.registry.RegisterActivity(fn, options.Name, options.DisableAlreadyRegisteredCheck, options.SkipInvalidStructFunctions); err != nil {
		panic(err)
	}
}

// DynamicRegisterWorkflowOptions configure the registration of a dynamic
// workflow (workflow.DynamicRegisterOptions).
type DynamicRegisterWorkflowOptions struct {
	// LoadDynamicRuntimeOptions picks the options of each workflow type the
	// dynamic workflow runs: today only a worker-deployment versioning
	// behavior, which a worker that is versioned, or names a deployment
	// version, asks for as each task of such a type completes (an error
	// leaves the worker's default behavior).
	LoadDynamicRuntimeOptions func(details LoadDynamicRuntimeOptionsDetails) (DynamicRuntimeWorkflowOptions, error)
}

// DynamicRegisterActivityOptions configure the registration of a dynamic
// activity (activity.DynamicRegisterOptions); there are none yet, as in
// go.temporal.io/sdk.
type DynamicRegisterActivityOptions struct{}

// RegisterDynamicWorkflow registers the workflow that runs every workflow
// type not registered by name: a func(workflow.Context,
// converter.EncodedValues) returning (result, error) or error; the
// EncodedValues decode the input, workflow.GetInfo names the type. A
// worker has at most one.
func (w *AggregatedWorker) RegisterDynamicWorkflow(fn any, options DynamicRegisterWorkflowOptions) {
	w.checkWorkflowWorkerEnabled()
	w.versioning.checkDynamicBehavior(w.taskQueue, options)
	if on := w.plugins.registryHooks.OnRegisterDynamicWorkflow; on != nil {
		on(fn, options)
	}
	if err := w.registry.RegisterDynamicWorkflow(fn); err != nil {
		panic(err)
	}
	w.versioning.registerDynamic(options)
}

// RegisterDynamicActivity registers the activity that runs every activity
// type not registered by name: a func(context.Context,
// converter.EncodedValues) returning (result, error) or error;
// activity.GetInfo names the type. A worker has at most one.
func (w *AggregatedWorker) RegisterDynamicActivity(fn any, options DynamicRegisterActivityOptions) {
	if on := w.plugins.registryHooks.OnRegisterDynamicActivity; on != nil {
		on(fn, options)
	}
	if err := w.registry.RegisterDynamicActivity(fn); err != nil {
		panic(err)
	}
}

// RegisterWorkflowOptions configure a workflow registration
// (workflow.RegisterOptions).
type RegisterWorkflowOptions struct {
	// Name is the workflow type; the function's name by default.
	Name string
	// DisableAlreadyRegisteredCheck allows replacing a registration.
	DisableAlreadyRegisteredCheck bool
	// VersioningBehavior is the type's behavior on a versioned worker
	// (see VersioningBehavior); unspecified: the worker's
	// DeploymentOptions.DefaultVersioningBehavior.
	VersioningBehavior VersioningBehavior
}

// RegisterActivityOptions configure an activity registration
// (activity.RegisterOptions).
type RegisterActivityOptions struct {
	// Name is the activity type (for a struct: the prefix of its methods).
	Name string
	// DisableAlreadyRegisteredCheck allows replacing a registration.
	DisableAlreadyRegisteredCheck bool
	// SkipInvalidStructFunctions skips struct methods that cannot be
	// activities instead of failing.
	SkipInvalidStructFunctions bool
}

// runConfig is the environment of the worker's workflow runs.
func (w *AggregatedWorker) runConfig() *runConfig {
	return newRunConfig(w.registry, w.runConfigOptions())
}

// runConfigOptions are the options of the worker's runs.
func (w *AggregatedWorker) runConfigOptions() runConfigOptions {
	return runConfigOptions{
		DataConverter:    w.clientSettings.DataConverter,
		FailureConverter: w.clientSettings.FailureConverter,
		Logger:           w.clientSettings.Logger,
		Metrics:          w.metricsHandler(),
		Namespace:        w.clientSettings.Namespace,
		DeadlockTimeout:  w.options.DeadlockDetectionTimeout,
		LogDuringReplay:  w.options.EnableLoggingInReplay,
		FailOnPanic:      w.options.WorkflowPanicPolicy == FailWorkflow,
		SDKMetadataFlags: true,
		Interceptors:     w.interceptors(),
		Propagators:      w.clientSettings.Propagators,
		BinaryChecksum:   w.versioning.buildID,
		BuildID:          w.versioning.buildID,
		PreferredVersion: w.options.PreferredVersionProvider,
	}
}

// metricsHandler receives the worker's metrics, the SDK's own and those
// its workflows and activities record: the client's handler with the root
// tags go.temporal.io/sdk gives them (namespace, client_name, and "none"
// for the tags a metric narrows down).
func (w *AggregatedWorker) metricsHandler() sdkmetrics.Handler {
	if sdkmetrics.IsNop(w.clientSettings.Metrics) {
		return sdkmetrics.NopHandler
	}
	return w.clientSettings.Metrics.WithTags(sdkmetrics.RootTags(w.clientSettings.Namespace))
}

// interceptors are the client's worker interceptors, then the worker's
// own, as in go.temporal.io/sdk.
func (w *AggregatedWorker) interceptors() []WorkerInterceptor {
	return slices.Concat(w.clientSettings.Interceptors, w.options.Interceptors)
}

// startRuntime begins polling; it returns once the worker runs. As
// go.temporal.io/sdk's, it first asks the server about its namespace, so
// that a namespace that does not exist fails the start at once, and polls
// the workflow and activity queues (unless DisableWorkflowWorker or
// LocalActivityWorkerOnly) whatever is registered: functions registered
// later run when their tasks come.
func (w *AggregatedWorker) startRuntime() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.runtime != nil {
		return errors.New("worker: already started")
	}
	if err := w.checkNamespace(); err != nil {
		return err
	}
	cache := acquireStickyCache()
	opts := workerrt.Options{
		Service:           w.clientSettings.Service,
		Namespace:         w.clientSettings.Namespace,
		TaskQueue:         w.taskQueue,
		Identity:          w.options.Identity,
		Logger:            w.clientSettings.Logger,
		FailureConverter:  w.clientSettings.FailureConverter,
		OnFatalError:      w.onFatalError,
		FatalErrorGrace:   w.fatalErrorGrace,
		Cache:             cache.cache,
		SDKName:           SDKName,
		SDKVersion:        SDKVersion,
		WorkerInstanceKey: w.plugins.instanceKey,
		// Read, as go.temporal.io/sdk reads it, from the namespace check
		// above: the server completes a stopping worker's polls.
		PollCompleteOnShutdown: w.clientSettings.Conn.KnownNamespaceCapabilities(w.clientSettings.Namespace).GetWorkerPollCompleteOnShutdown(),
		Payloads:               w.payloadChecker(),
		Storage:                w.clientSettings.Storage.WithOwnLimit(),
	}
	if opts.Identity == "" {
		opts.Identity = w.clientSettings.Identity
	}
	if !w.options.DisableWorkflowWorker {
		opts.Engine = w.runConfig().engineOptions()
		// The runs that find the code behind a non-determinism error are
		// the worker's, quiet: they replay what the failed task did.
		quiet := w.runConfigOptions()
		quiet.Logger, quiet.Metrics = logging.NewTextLogger(io.Discard, slog.LevelError), nil
		opts.LocateNondeterminism = nondeterminismLocator(newRunConfig(w.registry, quiet), workflowCodeLocation)
		// Only workflow tasks carry the binary checksum (the build ID). As
		// go.temporal.io/sdk: only to a server that does not say it has
		// build-ID versioning (every server since 1.21 does); one not
		// asked yet is taken to have it.
		opts.BinaryChecksum = w.versioning.buildID
		if info := w.clientSettings.Conn.KnownSystemInfo(); info != nil && !info.GetCapabilities().GetBuildIdBasedVersioning() {
			opts.SendBinaryChecksum = true
		}
	}
	opts.Versioning = w.versioning.runtime(false)
	activities := w.activityExecutor(w.taskQueue)
	if opts.Engine != nil {
		opts.LocalActivities = activities
	}
	if !w.options.LocalActivityWorkerOnly {
		opts.Activities = activities
	}
	nexusTasks, err := w.nexusTaskHandler()
	if err != nil {
		cache.release()
		return err
	}
	if nexusTasks != nil {
		opts.Nexus = nexusTasks
	}
	opts, err = runtimeOptions(w.options, opts, w.metricsHandler())
	if err != nil {
		cache.release()
		return err
	}
	heartbeat := w.heartbeatSource()
	if heartbeat != nil {
		opts.ShutdownHeartbeat = func() *workerpb.WorkerHeartbeat {
			heartbeat.Stopping()
			return heartbeat.Heartbeat()
		}
	}
	rt, err := workerrt.New(opts)
	if err != nil {
		cache.release()
		return err
	}
	var sessions []*workerrt.Worker
	if w.options.EnableSessionWorker {
		if sessions, err = w.sessionWorkers(opts); err != nil {
			cache.release()
			return err
		}
	}
	rt.Start()
	for _, s := range sessions {
		s.Start()
	}
	if opts.Engine != nil {
		w.client.AddEagerWorkflowWorker(w.taskQueue, rt)
	}
	w.runtime, w.sessions, w.cache = rt, sessions, cache
	if heartbeat != nil {
		heartbeat.Status = rt.Status
		w.clientSettings.Heartbeats.Add(heartbeat)
		w.heartbeat = heartbeat
	}
	w.logger().Info("Started Worker")
	return nil
}

// runtimeOptions completes rt, which says where and with what a worker
// runtime runs (its service, task queue, identity, converters, sticky
// cache, engine and activity executors), with what the worker's options
// decide: concurrency or the tuner, pollers, rate limits, the sticky
// schedule-to-start and stop timeouts, heartbeat throttling, the
// activities' background context, eager activities, and metrics, sent to
// metrics. The worker and the test environment (TestEnvSeam) both build
// their runtime's options with it, so that an option the one honours the
// other honours too.
func runtimeOptions(o WorkerOptions, rt workerrt.Options, metrics sdkmetrics.Handler) (workerrt.Options, error) {
	rt.MaxConcurrentWorkflowTasks = o.MaxConcurrentWorkflowTaskExecutionSize
	rt.MaxConcurrentActivities = o.MaxConcurrentActivityExecutionSize
	rt.WorkflowPollers = o.MaxConcurrentWorkflowTaskPollers
	rt.ActivityPollers = o.MaxConcurrentActivityTaskPollers
	rt.MaxConcurrentNexusTasks = o.MaxConcurrentNexusTaskExecutionSize
	rt.NexusPollers = o.MaxConcurrentNexusTaskPollers
	rt.WorkerActivitiesPerSecond = o.WorkerActivitiesPerSecond
	rt.MaxConcurrentLocalActivities = o.MaxConcurrentLocalActivityExecutionSize
	rt.WorkerLocalActivitiesPerSecond = o.WorkerLocalActivitiesPerSecond
	rt.TaskQueueActivitiesPerSecond = o.TaskQueueActivitiesPerSecond
	rt.StickyScheduleToStartTimeout = o.StickyScheduleToStartTimeout
	rt.StopTimeout = o.WorkerStopTimeout
	rt.DefaultHeartbeatInterval = o.DefaultHeartbeatThrottleInterval
	rt.MaxHeartbeatInterval = o.MaxHeartbeatThrottleInterval
	rt.BackgroundActivityContext = o.BackgroundActivityContext
	rt.Metrics = metrics
	if err := applyTuning(o, &rt, metrics); err != nil {
		return workerrt.Options{}, err
	}
	return rt, nil
}

// payloadChecker checks the payloads of the worker's answers: warnings
// above the client's PayloadLimits, and, unless DisablePayloadErrorLimit,
// refusals above the limits the namespace check (at start) learned.
func (w *AggregatedWorker) payloadChecker() *payloadlimit.Checker {
	c := payloadlimit.New(w.clientSettings.PayloadWarnings, w.logger())
	if !w.options.DisablePayloadErrorLimit {
		limits := w.clientSettings.Conn.KnownNamespaceLimits(w.clientSettings.Namespace)
		c.Refuse(payloadlimit.Sizes{Payload: limits.GetBlobSizeLimitError(), Memo: limits.GetMemoSizeLimitError()})
	}
	return c
}

// logger is the client's logger with the worker's namespace, task queue
// and identity, the tags go.temporal.io/sdk gives its worker's lines.
func (w *AggregatedWorker) logger() log.Logger {
	identity := cmp.Or(w.options.Identity, w.clientSettings.Identity)
	return log.With(w.clientSettings.Logger, "Namespace", w.clientSettings.Namespace, "TaskQueue", w.taskQueue, "WorkerID", identity)
}

// checkNamespace asks the server about the worker's namespace, as
// go.temporal.io/sdk's worker does as it starts: a client made with
// NewLazyClient has not asked yet, and a worker would otherwise retry
// polls for minutes before reporting a namespace that does not exist. As
// at Dial, credentials not allowed to describe the namespace, and servers
// without the call, let the start go on.
func (w *AggregatedWorker) checkNamespace() error {
	if _, err := w.clientSettings.Conn.SystemInfo(context.Background()); err != nil {
		return fmt.Errorf("worker for task queue %q not started: %w", w.taskQueue, err)
	}
	// Tagged with the task queue, as go.temporal.io/sdk's worker tags it.
	ctx := context.Background()
	if !sdkmetrics.IsNop(w.clientSettings.Metrics) {
		ctx = sdkmetrics.WithRequestTags(ctx, map[string]string{sdkmetrics.TagTaskQueue: w.taskQueue})
	}
	if err := w.client.CheckNamespace(ctx); err != nil {
		return fmt.Errorf("worker for task queue %q not started: %w", w.taskQueue, err)
	}
	return nil
}

// activityExecutor runs the worker's activities polled from taskQueue.
func (w *AggregatedWorker) activityExecutor(taskQueue string) *activityExecutor {
	return &activityExecutor{registry: w.registry, dc: w.clientSettings.DataConverter, logger: w.clientSettings.Logger, metrics: w.metricsHandler(),
		namespace: w.clientSettings.Namespace, taskQueue: taskQueue, client: w.client,
		interceptors: w.interceptors(), propagators: w.clientSettings.Propagators}
}

// stopRuntime stops the runtimes (see workerrt.Worker.Stop and
// WorkerStopTimeout). The last worker of the process to stop clears the
// sticky cache.
func (w *AggregatedWorker) stopRuntime() {
	w.mu.Lock()
	rt, sessions, cache, heartbeat := w.runtime, w.sessions, w.cache, w.heartbeat
	w.cache, w.heartbeat = nil, nil
	w.mu.Unlock()
	if rt != nil {
		w.client.RemoveEagerWorkflowWorker(w.taskQueue, rt)
		rt.Stop() // its ShutdownWorker call carries the last heartbeat
	}
	if heartbeat != nil {
		w.clientSettings.Heartbeats.Remove(heartbeat)
	}
	for _, s := range sessions {
		s.Stop()
	}
	if cache != nil {
		cache.release()
	}
}

// Run starts the worker and stops it when interruptCh delivers, or when
// polling fails with an error retrying will not cure, which it returns
// (see WorkerOptions.OnFatalError).
func (w *AggregatedWorker) Run(interruptCh <-chan any) error {
	if err := w.Start(); err != nil {
		return err
	}
	select {
	case s := <-interruptCh:
		w.logger().Info("Worker has been stopped.", "Signal", s)
	case <-w.fatal:
	}
	w.Stop()
	return w.fatalError()
}

// EnableVerboseLogging makes every worker of the process log, at debug
// level, each long poll that expires empty and each task it receives.
func EnableVerboseLogging(enable bool) { workerrt.SetVerboseLogging(enable) }

// InterruptCh returns a channel that delivers on SIGINT or SIGTERM.
func InterruptCh() <-chan any {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	out := make(chan any, 1)
	go func() { out <- <-c }()
	return out
}

// SDKName and SDKVersion identify this SDK in workflow task completions,
// as its clients identify it in their headers.
const (
	SDKName    = rpc.DefaultClientName
	SDKVersion = rpc.DefaultClientVersion
)
