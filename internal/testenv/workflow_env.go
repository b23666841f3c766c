package testenv

import (
	"fmt"
	"maps"
	"os"
	"reflect"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stretchr/testify/mock"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/clientimpl"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/memo"
	"github.com/durable-go/sdk/internal/policy"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/searchattr"
	"github.com/durable-go/sdk/internal/session"
	"github.com/durable-go/sdk/internal/testserver"
	"github.com/durable-go/sdk/internal/workerrt"
)

// TestWorkflowEnvironment runs one workflow, with its activities real or
// mocked, on the SDK's own worker runtime and engine against an in-memory
// server whose clock skips ahead whenever the workflow waits
// (testsuite.TestWorkflowEnvironment). Its history is a real one: GetHistory
// returns it, and worker.NewWorkflowReplayer replays it.
type TestWorkflowEnvironment struct {
	mu    sync.Mutex
	suite testSuiteDefaults
	registrations

	// activityMock and workflowMock hold the expectations set with
	// OnActivity and the OnXxx calls about workflow code.
	activityMock mock.Mock
	workflowMock mock.Mock
	nexusMock    mock.Mock // OnNexusOperation's (nexus.go)
	nexus        nexusState
	mockedNames  map[string]bool // activity types with expectations

	workerOptions internal.WorkerOptions
	startOptions  clientapi.StartWorkflowOptions
	dc            converter.DataConverter
	fc            converter.FailureConverter
	propagators   []internal.ContextPropagator
	header        *commonpb.Header
	identity      string
	testTimeout   time.Duration
	runTimeout    time.Duration
	gracePeriod   time.Duration
	workerStop    chan struct{}

	lastCompletionResult *commonpb.Payloads
	lastError            error
	memo                 map[string]any
	searchAttributes     map[string]any
	typedSearchAttrs     *searchattr.SearchAttributes
	continuedRunID       string
	taskStarted          historypb.WorkflowTaskStartedEventAttributes // suggestions for WorkflowTaskStarted
	// historyLengthOverride and historySizeOverride replace what the
	// workflow's info reports, when positive.
	historyLengthOverride int
	historySizeOverride   int
	// activityQueues binds activity types to the task queues they may run
	// on (SetActivityTaskQueue).
	activityQueues map[string]map[string]bool

	listeners testListeners
	updates   testUpdates
	children  childMocks
	external  externalCalls
	// noDetachedChildWait: ExecuteWorkflow does not wait for children left
	// running by the abandon or request-cancel parent close policies.
	noDetachedChildWait bool
	replayCheck         bool // replay the test's runs once it ended (replay.go)

	clock    *testserver.Clock
	server   *testserver.Server
	sessions *session.Host // with EnableSessionWorker, once a worker started

	// The run, once ExecuteWorkflow started it.
	execution    *commonpb.WorkflowExecution
	workflowType string
	executed     bool
	running      *workerrt.Worker      // while ExecuteWorkflow runs
	cache        *workerrt.StickyCache // the running worker's
	completed    bool
	result       *commonpb.Payloads
	err          error
	endEarly     chan error    // a failed workflow task or a stuck workflow ends the test
	ended        chan struct{} // closed with the first endEarly (endTest)
	endOnce      sync.Once
	// callbacks run on the test's goroutine while the run goes on;
	// progress is when an event was last written (Unix nanoseconds).
	callbacks *callbackQueue
	progress  atomic.Int64
	preStart  []func() // signals and cancels asked for before the start
}

func newTestWorkflowEnvironment(s *WorkflowTestSuite) *TestWorkflowEnvironment {
	d := s.defaults()
	e := &TestWorkflowEnvironment{
		suite:         d,
		registrations: registrations{registry: d.newRegistry()},
		mockedNames:   make(map[string]bool),
		dc:            converter.GetDefaultDataConverter(),
		propagators:   d.propagators,
		header:        d.header,
		identity:      testIdentity,
		testTimeout:   defaultTestTimeout,
		replayCheck:   d.replayCheck,
		clock:         testserver.NewClock(time.Now()),
		endEarly:      make(chan error, 1),
		ended:         make(chan struct{}),
	}
	e.callbacks = newCallbackQueue(e.clock.Busy)
	if os.Getenv("TEMPORAL_DEBUG") != "" {
		e.testTimeout = 24 * time.Hour // stepping through code in a debugger
	}
	return e
}

// RegisterWorkflow registers a workflow function.
func (e *TestWorkflowEnvironment) RegisterWorkflow(w any) {
	e.registerWorkflow(w, internal.RegisterWorkflowOptions{})
}

// RegisterWorkflowWithOptions registers a workflow function with options.
func (e *TestWorkflowEnvironment) RegisterWorkflowWithOptions(w any, options internal.RegisterWorkflowOptions) {
	e.registerWorkflow(w, options)
}

// RegisterDynamicWorkflow registers the workflow that runs every workflow
// type not registered by name (children included).
func (e *TestWorkflowEnvironment) RegisterDynamicWorkflow(fn any, options internal.DynamicRegisterWorkflowOptions) {
	e.registerDynamicWorkflow(fn, options)
}

// SetStartTime sets the workflow's start time, on the virtual clock.
func (e *TestWorkflowEnvironment) SetStartTime(startTime time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.mustNotHaveStarted("SetStartTime")
	e.clock.Set(startTime)
}

// Now is the current time on the environment's virtual clock.
func (e *TestWorkflowEnvironment) Now() time.Time { return e.clock.Now() }

// SetWorkerOptions sets the options of the worker that runs the workflow.
// Their Plugins configure them here (ConfigureWorker, whose error is a
// panic) and see the environment's registrations; after that the options
// may not be set again.
func (e *TestWorkflowEnvironment) SetWorkerOptions(options internal.WorkerOptions) *TestWorkflowEnvironment {
	e.configurePlugins(&options)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.workerOptions = options
	return e
}

// SetStartWorkflowOptions sets the options the workflow starts with: its
// ID, task queue, timeouts, memo, search attributes, retry policy.
func (e *TestWorkflowEnvironment) SetStartWorkflowOptions(options clientapi.StartWorkflowOptions) *TestWorkflowEnvironment {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.startOptions = options
	return e
}

// SetDataConverter sets the data converter of workflows and activities.
func (e *TestWorkflowEnvironment) SetDataConverter(dataConverter converter.DataConverter) *TestWorkflowEnvironment {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.dc = dataConverter
	return e
}

// SetFailureConverter sets the failure converter.
func (e *TestWorkflowEnvironment) SetFailureConverter(failureConverter converter.FailureConverter) *TestWorkflowEnvironment {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.fc = failureConverter
	return e
}

// SetContextPropagators sets the context propagators.
func (e *TestWorkflowEnvironment) SetContextPropagators(propagators []internal.ContextPropagator) *TestWorkflowEnvironment {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.propagators = propagators
	return e
}

// SetHeader sets the header the workflow starts with.
func (e *TestWorkflowEnvironment) SetHeader(header *commonpb.Header) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.header = header
}

// SetIdentity sets the identity of the worker.
func (e *TestWorkflowEnvironment) SetIdentity(identity string) *TestWorkflowEnvironment {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.identity = identity
	return e
}

// SetWorkerStopChannel sets the channel activity.GetWorkerStopChannel
// returns to activities.
func (e *TestWorkflowEnvironment) SetWorkerStopChannel(c chan struct{}) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.workerStop = c
}

// SetTestTimeout sets how long, in wall time, the environment lets a test
// go on without any event being written to its histories before it ends
// the test with an error that shows where the workflow's coroutines are
// blocked (3s): the workflow is blocked with nothing scheduled to wake it
// (no timer, activity or delayed callback), or work keeps running without
// the workflow hearing of it (an activity that runs longer, or retries
// without end).
func (e *TestWorkflowEnvironment) SetTestTimeout(idleTimeout time.Duration) *TestWorkflowEnvironment {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.testTimeout = idleTimeout
	return e
}

// SetWorkflowRunTimeout sets the workflow's run timeout, on the virtual
// clock.
func (e *TestWorkflowEnvironment) SetWorkflowRunTimeout(runTimeout time.Duration) *TestWorkflowEnvironment {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.runTimeout = runTimeout
	return e
}

// SetActivityTimeoutGracePeriod adds time to activities' start-to-close
// timeouts, so that an activity can react to its context's deadline
// before the server times it out.
func (e *TestWorkflowEnvironment) SetActivityTimeoutGracePeriod(gracePeriod time.Duration) *TestWorkflowEnvironment {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.gracePeriod = gracePeriod
	return e
}

// SetLastCompletionResult sets what workflow.GetLastCompletionResult
// returns, as for a cron run.
func (e *TestWorkflowEnvironment) SetLastCompletionResult(result any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	dc, _ := e.workflowConverters(e.testWorkflowID())
	p, err := dc.ToPayloads(result)
	if err != nil {
		panic(fmt.Sprintf("SetLastCompletionResult: %v cannot be encoded: %v", result, err))
	}
	e.lastCompletionResult = p
}

// SetLastError sets what workflow.GetLastError returns.
func (e *TestWorkflowEnvironment) SetLastError(err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.lastError = err
}

// SetMemoOnStart sets the memo the workflow starts with.
func (e *TestWorkflowEnvironment) SetMemoOnStart(fields map[string]any) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, err := memo.Encode(e.dc, fields); err != nil {
		return err
	}
	e.memo = fields
	return nil
}

// SetSearchAttributesOnStart sets the search attributes the workflow
// starts with.
func (e *TestWorkflowEnvironment) SetSearchAttributesOnStart(searchAttributes map[string]any) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, err := searchattr.EncodeForStart(searchAttributes, searchattr.SearchAttributes{}); err != nil {
		return err
	}
	e.searchAttributes = searchAttributes
	return nil
}

// SetTypedSearchAttributesOnStart sets the typed search attributes the
// workflow starts with.
func (e *TestWorkflowEnvironment) SetTypedSearchAttributesOnStart(searchAttributes searchattr.SearchAttributes) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, err := searchattr.EncodeForStart(nil, searchAttributes); err != nil {
		return err
	}
	e.typedSearchAttrs = &searchAttributes
	return nil
}

// SetContinuedExecutionRunID sets the run the workflow continues, as
// WorkflowInfo.ContinuedExecutionRunID reports it.
func (e *TestWorkflowEnvironment) SetContinuedExecutionRunID(runID string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.continuedRunID = runID
}

// SetContinueAsNewSuggested sets what the workflow's tasks report as the
// server's suggestion to continue as new.
func (e *TestWorkflowEnvironment) SetContinueAsNewSuggested(suggest bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.taskStarted.SuggestContinueAsNew = suggest
}

// SetContinueAsNewSuggestedReasons sets the reasons the workflow's tasks
// give for suggesting to continue as new.
func (e *TestWorkflowEnvironment) SetContinueAsNewSuggestedReasons(reasons []internal.ContinueAsNewSuggestedReason) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.taskStarted.SuggestContinueAsNewReasons = nil
	for _, r := range reasons {
		e.taskStarted.SuggestContinueAsNewReasons = append(e.taskStarted.SuggestContinueAsNewReasons, enumspb.SuggestContinueAsNewReason(r))
	}
}

// SetCurrentHistoryLength sets the history length the workflow's tasks
// report.
func (e *TestWorkflowEnvironment) SetCurrentHistoryLength(length int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.historyLengthOverride = length
}

// SetCurrentHistorySize sets the history size in bytes the workflow's
// tasks report.
func (e *TestWorkflowEnvironment) SetCurrentHistorySize(size int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.historySizeOverride = size
}

// SetTargetWorkerDeploymentVersionChanged sets what the workflow's tasks
// report of a change of target worker deployment version.
func (e *TestWorkflowEnvironment) SetTargetWorkerDeploymentVersionChanged(changed bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.taskStarted.TargetWorkerDeploymentVersionChanged = changed
}

func (e *TestWorkflowEnvironment) mustNotHaveStarted(what string) {
	if e.executed {
		panic(what + " must be called before ExecuteWorkflow")
	}
}

// RegisterDelayedCallback runs callback once delay has passed on the
// virtual clock, counted from the workflow's start (or from now, once it
// runs). Callbacks run one at a time on the test's goroutine (the one that
// called ExecuteWorkflow), the clock standing still meanwhile; they
// typically signal, query or cancel the workflow. Those not due when the
// workflow ends do not run.
func (e *TestWorkflowEnvironment) RegisterDelayedCallback(callback func(), delay time.Duration) {
	e.clock.AfterFunc(delay, func() { e.callbacks.call(callback, true) })
}

// ExecuteWorkflow runs the workflow to its end: it registers workflowFn if
// needed, starts it with args, and returns when it completes, fails, times
// out, continues as new, or can make no more progress. Use
// IsWorkflowCompleted, GetWorkflowResult and GetWorkflowError then. The
// worker plugins of SetWorkerOptions start before the run and stop after
// it; it panics with the error of a plugin that fails the start.
func (e *TestWorkflowEnvironment) ExecuteWorkflow(workflowFn any, args ...any) {
	e.mu.Lock()
	if e.executed {
		e.mu.Unlock()
		panic("ExecuteWorkflow may be called once per TestWorkflowEnvironment: make a new one for the next run")
	}
	e.executed = true
	e.mu.Unlock()
	stopPlugins, err := e.startPlugins()
	if err != nil {
		// As in go.temporal.io/sdk: a worker that cannot start is a
		// mistake in the test's setup, not an outcome of the workflow.
		panic(err)
	}
	defer stopPlugins()
	if err := e.start(workflowFn, args); err != nil {
		e.finish(nil, err)
		return
	}
	e.runUntilClosed()
	e.checkReplay()
}

// start registers the workflow, builds the server, and starts the run.
func (e *TestWorkflowEnvironment) start(workflowFn any, args []any) error {
	typeName, err := clientimpl.WorkflowTypeName(workflowFn)
	if err != nil {
		return err
	}
	if reflect.TypeOf(workflowFn).Kind() == reflect.Func {
		typeName = e.registry.WorkflowTypeOf(workflowFn) // by the name it was registered under, if any
		if !e.registry.IsRegistered("workflow", typeName) {
			if err := e.registry.RegisterWorkflow(workflowFn, "", false); err != nil {
				return err
			}
		}
		if err := registry.CheckArgs(workflowFn, args, "workflow"); err != nil {
			return err
		}
	}
	if e.fc == nil {
		e.fc = failure.NewDefaultFailureConverter(failure.DefaultFailureConverterOptions{DataConverter: e.dc})
	}
	attrs, err := e.startAttributes(typeName, args)
	if err != nil {
		return err
	}
	e.workflowType = typeName
	e.server = testserver.New(testserver.Options{
		Namespace: testNamespace, Clock: e.clock, ActivityQueue: e.activityQueue(attrs.GetTaskQueue().GetName()),
		WorkflowQueue:              func(string) string { return attrs.GetTaskQueue().GetName() },
		StartChild:                 e.askChildMock,
		ActivityTimeoutGracePeriod: e.gracePeriod,
		OnEvent:                    e.onEvent,
		ActivityRetryDefaults:      testActivityRetryDefaults,
		OnWorkflowTaskFailed:       e.workflowTaskFailed,
		NexusQueue:                 func(string) string { return attrs.GetTaskQueue().GetName() },
		// As go.temporal.io/sdk's test environment: a canceled activity
		// is canceled at once, even with WaitForCancellation.
		CancelRunningActivitiesAtOnce: true,
	})
	workflowID, runID := e.testWorkflowID(), testRunID
	e.execution = &commonpb.WorkflowExecution{WorkflowId: workflowID, RunId: runID}
	e.listeners.start(e.dc, e.fc, e.identity)
	if _, err := e.server.StartWorkflow(workflowID, runID, attrs); err != nil {
		return err
	}
	fill := e.taskStartedFill()
	if err := e.server.SetTaskStarted(e.execution, fill); err != nil {
		return err
	}
	e.mu.Lock()
	pre := e.preStart
	e.preStart = nil
	e.mu.Unlock()
	for _, f := range pre {
		f()
	}
	return nil
}

// startAttributes is the WorkflowExecutionStarted of the run.
func (e *TestWorkflowEnvironment) startAttributes(typeName string, args []any) (*historypb.WorkflowExecutionStartedEventAttributes, error) {
	o := e.startOptions
	dc, _ := e.workflowConverters(e.testWorkflowID())
	input, err := registry.EncodeArgs(dc, args)
	if err != nil {
		return nil, fmt.Errorf("workflow %q: %w", typeName, err)
	}
	startMemo := o.Memo
	if e.memo != nil {
		startMemo = e.memo
	}
	encodedMemo, err := memo.Encode(e.dc, startMemo)
	if err != nil {
		return nil, err
	}
	//lint:ignore SA1019 the deprecated untyped search attributes still start a workflow, as in go.temporal.io/sdk.
	sa, typed := o.SearchAttributes, o.TypedSearchAttributes
	if e.searchAttributes != nil {
		sa = e.searchAttributes
	}
	if e.typedSearchAttrs != nil {
		typed = *e.typedSearchAttrs
	}
	encodedSA, err := searchattr.EncodeForStart(sa, typed)
	if err != nil {
		return nil, err
	}
	taskQueue := o.TaskQueue
	if taskQueue == "" {
		taskQueue = testTaskQueue
	}
	runTimeout := o.WorkflowRunTimeout
	if e.runTimeout > 0 {
		runTimeout = e.runTimeout
	}
	taskTimeout := o.WorkflowTaskTimeout
	if taskTimeout <= 0 {
		taskTimeout = testWorkflowTaskTimeout
	}
	attrs := &historypb.WorkflowExecutionStartedEventAttributes{
		WorkflowType:             &commonpb.WorkflowType{Name: typeName},
		TaskQueue:                &taskqueuepb.TaskQueue{Name: taskQueue, Kind: enumspb.TASK_QUEUE_KIND_NORMAL},
		Input:                    input,
		WorkflowExecutionTimeout: durationOrNil(o.WorkflowExecutionTimeout),
		WorkflowRunTimeout:       durationOrNil(runTimeout),
		WorkflowTaskTimeout:      durationOrNil(taskTimeout),
		Identity:                 e.identity,
		Header:                   e.header,
		Memo:                     encodedMemo,
		SearchAttributes:         encodedSA,
		LastCompletionResult:     e.lastCompletionResult,
		ContinuedExecutionRunId:  e.continuedRunID,
		RetryPolicy:              policy.RetryPolicyToProto(o.RetryPolicy),
		CronSchedule:             o.CronSchedule,
		Priority:                 policy.PriorityToProto(o.Priority),
		Attempt:                  1,
	}
	if e.lastError != nil {
		attrs.ContinuedFailure = e.fc.ErrorToFailure(e.lastError)
	}
	return attrs, nil
}

// activityQueue routes every activity to the environment's worker, but
// for those bound to other task queues by SetActivityTaskQueue: those wait
// on the queue their command names, where no worker polls, as on a server.
func (e *TestWorkflowEnvironment) activityQueue(workerQueue string) func(activityType, taskQueue string) string {
	e.mu.Lock()
	bound := maps.Clone(e.activityQueues)
	e.mu.Unlock()
	return func(activityType, taskQueue string) string {
		if queues, ok := bound[activityType]; ok && !queues[taskQueue] {
			return taskQueue
		}
		return workerQueue
	}
}

// SetActivityTaskQueue binds activities (functions or names) to a task
// queue: from then on they run only when scheduled on it (or on another
// queue they are bound to). By default an activity runs whatever task
// queue it is scheduled on.
func (e *TestWorkflowEnvironment) SetActivityTaskQueue(taskQueue string, activityFns ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.mustNotHaveStarted("SetActivityTaskQueue")
	if e.activityQueues == nil {
		e.activityQueues = make(map[string]map[string]bool)
	}
	for _, fn := range activityFns {
		name := e.registry.ActivityTypeOf(fn)
		if e.activityQueues[name] == nil {
			e.activityQueues[name] = make(map[string]bool)
		}
		e.activityQueues[name][taskQueue] = true
	}
}

// taskStartedFill fills what the run's WorkflowTaskStarted events report
// from the environment's Set calls.
func (e *TestWorkflowEnvironment) taskStartedFill() func(*historypb.WorkflowTaskStartedEventAttributes) {
	e.mu.Lock()
	want := historypb.WorkflowTaskStartedEventAttributes{
		SuggestContinueAsNew:                 e.taskStarted.SuggestContinueAsNew,
		SuggestContinueAsNewReasons:          e.taskStarted.SuggestContinueAsNewReasons,
		TargetWorkerDeploymentVersionChanged: e.taskStarted.TargetWorkerDeploymentVersionChanged,
	}
	size := e.historySizeOverride
	e.mu.Unlock()
	return func(a *historypb.WorkflowTaskStartedEventAttributes) {
		a.SuggestContinueAsNew = want.SuggestContinueAsNew
		a.SuggestContinueAsNewReasons = want.SuggestContinueAsNewReasons
		a.TargetWorkerDeploymentVersionChanged = want.TargetWorkerDeploymentVersionChanged
		if size > 0 {
			a.HistorySizeBytes = int64(size) // the server fills in the real size otherwise
		}
	}
}

// startWorker starts a worker runtime on the in-memory server.
func (e *TestWorkflowEnvironment) startWorker() (*workerrt.Worker, error) {
	if err := e.installActivityMocks(); err != nil {
		return nil, err
	}
	if err := e.installWorkflowMocks(); err != nil {
		return nil, err
	}
	wiring := e.wiring()
	wiring.Cache = workerrt.NewStickyCache(testStickyCacheSize)
	opts, err := wiring.runtimeOptions(e.registry, e.workerOptions)
	if err != nil {
		return nil, err
	}
	// A task waiting for local activities stays one task, however long
	// they take, as in go.temporal.io/sdk's test environment: the history
	// must not depend on the machine's speed.
	opts.NoWorkflowTaskHeartbeat = true
	opts.WorkflowTaskFailed = e.codecFailedWorkflowTask
	if opts.Nexus, err = e.nexusTaskHandler(wiring); err != nil {
		return nil, err
	}
	rt, err := workerrt.New(opts)
	if err != nil {
		return nil, err
	}
	e.server.ServeQueues(wiring.TaskQueue, rt.StickyQueue())
	rt.Start()
	e.mu.Lock()
	e.running, e.cache = rt, wiring.Cache
	e.mu.Unlock()
	return rt, nil
}

// wiring is what the environment's worker runs with, and its replay check
// replays with.
func (e *TestWorkflowEnvironment) wiring() wiring {
	return wiring{
		Service:   listenedService{Local: testserver.Local{S: e.server}, listeners: &e.listeners},
		Namespace: testNamespace,
		TaskQueue: e.workerTaskQueue(),
		// The worker runs activities of every queue (activityQueue
		// routes them to it); their info names the one they were
		// scheduled on.
		ScheduledTaskQueue: e.server.ScheduledTaskQueue,
		Identity:           e.identity,
		DataConverter:      e.dc,
		FailureConverter:   e.fc,
		Logger:             e.suite.logger,
		Metrics:            e.suite.metrics,
		Interceptors:       e.interceptors(),
		Propagators:        e.propagators,
		Now:                e.clock.Now,
		WallTime:           e.clock.ToWall,
		WithSessions:       e.withSessions,
	}
}

// testStickyCacheSize keeps every run of a test cached, as a worker would.
const testStickyCacheSize = 1000

func (e *TestWorkflowEnvironment) stopWorker(w *workerrt.Worker) {
	w.Stop()
	e.server.ForgetStickyQueue(w.StickyQueue())
	e.mu.Lock()
	cache := e.cache
	e.running, e.cache = nil, nil
	e.mu.Unlock()
	cache.Purge() // runs still open (a test that ended early) release their coroutines
	e.listeners.drain()
}

// interceptors are the environment's own (mocks of workflow calls,
// listeners), outermost, then the worker's.
func (e *TestWorkflowEnvironment) interceptors() []internal.WorkerInterceptor {
	own := &testInterceptor{env: e}
	return append([]internal.WorkerInterceptor{own}, e.workerOptions.Interceptors...)
}

func durationOrNil(d time.Duration) *durationpb.Duration {
	if d <= 0 {
		return nil
	}
	return durationpb.New(d)
}
