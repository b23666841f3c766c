package workerimpl

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"slices"
	"sync"
	"syscall"
	"time"

	workerpb "go.temporal.io/api/worker/v1"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/logging"
	"github.com/durable-go/sdk/internal/payloadlimit"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/internal/tuning"
	"github.com/durable-go/sdk/internal/workerheartbeat"
	"github.com/durable-go/sdk/internal/workerrt"
	"github.com/durable-go/sdk/log"
)

// AggregatedWorker polls one task queue for workflow and activity tasks
// and runs the functions registered with it (worker.Worker).
type AggregatedWorker struct {
	client    internal.WorkerClient
	taskQueue string
	options   internal.WorkerOptions
	registry  *registry.Registry

	// clientSettings are what the worker shares with its client.
	clientSettings internal.ClientSettings

	mu       sync.Mutex
	runtime  *workerrt.Worker
	sessions []*workerrt.Worker // with EnableSessionWorker; see sessions.go
	cache    *sharedCache       // released by Stop

	plugins   workerPlugins           // see plugins.go
	heartbeat *workerheartbeat.Worker // while running, with heartbeats on (heartbeat.go)
	nexus     nexusServices           // see nexus.go
	// sysInfo measures the host for the heartbeats (nil: they report 0).
	sysInfo tuning.SysInfoProvider
	// versioning is the worker's version and its workflow types'
	// versioning behaviors (versioning.go).
	versioning *workerVersioning

	fatalMu  sync.Mutex
	fatalErr error         // the first fatal poll error
	fatal    chan struct{} // closed when fatalErr is set
	// fatalErrorGrace is how long polls fail with an error retrying will
	// not cure before the worker stops; 0: the runtime's 2 minutes. Only
	// tests set it (SetFatalPollErrorGrace), under mu.
	fatalErrorGrace time.Duration
}

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
func NewWorker(client internal.Client, taskQueue string, options internal.WorkerOptions) *AggregatedWorker {
	wc, ok := client.(internal.WorkerClient)
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
	w.sysInfo = sysInfoProvider(w.options)
	checkWorkerOptionsNotNegative(w.options)
	w.versioning = newWorkerVersioning(taskQueue, w.options)
	return w
}

// RegisterWorkflow registers a workflow function under its name.
func (w *AggregatedWorker) RegisterWorkflow(fn any) {
	w.RegisterWorkflowWithOptions(fn, internal.RegisterWorkflowOptions{})
}

// RegisterWorkflowWithOptions registers a workflow function. It panics on
// an invalid function or a duplicate name, and on a worker whose
// workflow worker is disabled, as go.temporal.io/sdk does: registration
// mistakes are programming errors found at startup. Like the other
// registrations, it may also be called after Start: the worker polls its
// task queue from the start, and runs what is registered when a task
// comes.
func (w *AggregatedWorker) RegisterWorkflowWithOptions(fn any, options internal.RegisterWorkflowOptions) {
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
	w.RegisterActivityWithOptions(fn, internal.RegisterActivityOptions{})
}

// RegisterActivityWithOptions registers activities with options.
func (w *AggregatedWorker) RegisterActivityWithOptions(fn any, options internal.RegisterActivityOptions) {
	if on := w.plugins.registryHooks.OnRegisterActivity; on != nil {
		on(fn, options)
	}
	if err := w.registry.RegisterActivity(fn, options.Name, options.DisableAlreadyRegisteredCheck, options.SkipInvalidStructFunctions); err != nil {
		panic(err)
	}
}

// RegisterDynamicWorkflow registers the workflow that runs every workflow
// type not registered by name: a func(workflow.Context,
// converter.EncodedValues) returning (result, error) or error; the
// EncodedValues decode the input, workflow.GetInfo names the type. A
// worker has at most one.
func (w *AggregatedWorker) RegisterDynamicWorkflow(fn any, options internal.DynamicRegisterWorkflowOptions) {
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
func (w *AggregatedWorker) RegisterDynamicActivity(fn any, options internal.DynamicRegisterActivityOptions) {
	if on := w.plugins.registryHooks.OnRegisterDynamicActivity; on != nil {
		on(fn, options)
	}
	if err := w.registry.RegisterDynamicActivity(fn); err != nil {
		panic(err)
	}
}

// runOptions are the options of the worker's workflow runs.
func (w *AggregatedWorker) runOptions() internal.RunOptions {
	return internal.RunOptions{
		DataConverter:    w.clientSettings.DataConverter,
		FailureConverter: w.clientSettings.FailureConverter,
		Logger:           w.clientSettings.Logger,
		Metrics:          w.metricsHandler(),
		Namespace:        w.clientSettings.Namespace,
		DeadlockTimeout:  w.options.DeadlockDetectionTimeout,
		LogDuringReplay:  w.options.EnableLoggingInReplay,
		FailOnPanic:      w.options.WorkflowPanicPolicy == internal.FailWorkflow,
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
func (w *AggregatedWorker) interceptors() []internal.WorkerInterceptor {
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
		SDKName:           internal.SDKName,
		SDKVersion:        internal.SDKVersion,
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
		opts.Engine = internal.EngineOptions(w.registry, w.runOptions())
		// The runs that find the code behind a non-determinism error are
		// the worker's, quiet: they replay what the failed task did.
		quiet := w.runOptions()
		quiet.Logger, quiet.Metrics = logging.NewTextLogger(io.Discard, slog.LevelError), nil
		opts.LocateNondeterminism = internal.NondeterminismLocator(w.registry, quiet)
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
	opts, err = RuntimeOptions(w.options, opts, w.metricsHandler())
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

// RuntimeOptions completes rt, which says where and with what a worker
// runtime runs (its service, task queue, identity, converters, sticky
// cache, engine and activity executors), with what the worker's options
// decide: concurrency or the tuner, pollers, rate limits, the sticky
// schedule-to-start and stop timeouts, heartbeat throttling, the
// activities' background context, eager activities, and metrics, sent to
// metrics. The worker and the test environment both build
// their runtime's options with it, so that an option the one honours the
// other honours too.
func RuntimeOptions(o internal.WorkerOptions, rt workerrt.Options, metrics sdkmetrics.Handler) (workerrt.Options, error) {
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
func (w *AggregatedWorker) activityExecutor(taskQueue string) workerrt.ActivityExecutor {
	return internal.NewActivityExecutor(w.registry, internal.ActivityExecutorOptions{DataConverter: w.clientSettings.DataConverter,
		Logger: w.clientSettings.Logger, Metrics: w.metricsHandler(), Namespace: w.clientSettings.Namespace, TaskQueue: taskQueue,
		Client: w.client, Interceptors: w.interceptors(), Propagators: w.clientSettings.Propagators})
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
