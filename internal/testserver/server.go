package testserver

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"

	commandpb "go.temporal.io/api/command/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// Options configure a Server.
type Options struct {
	Namespace string
	// Clock is the virtual clock; the server counts its work in flight on
	// it.
	Clock *Clock
	// ActivityQueue, when set, says which task queue receives an activity
	// task: the test environment runs activities on its one worker,
	// whatever task queue their command names.
	ActivityQueue func(activityType, taskQueue string) string
	// ActivityTimeoutGracePeriod is added to start-to-close timeouts, to
	// let activities react to their context's deadline first.
	ActivityTimeoutGracePeriod time.Duration
	// OnEvent, when set, sees every event written to a history, in order,
	// with the server's lock held: it must not call the server.
	OnEvent func(execution *commonpb.WorkflowExecution, ev *historypb.HistoryEvent)
	// WorkflowQueue, when set, says which task queue receives a run's
	// workflow tasks: the test environment runs every workflow, children
	// included, on its one worker.
	WorkflowQueue func(taskQueue string) string
	// StartChild, when set, decides whether a child may start: false makes
	// it fail to start, as if its workflow ID were taken (a mocked start
	// failure). It runs with the server's lock held.
	StartChild func(*commandpb.StartChildWorkflowExecutionCommandAttributes) bool
	// ActivityRetryDefaults, when set, fills in a copy of each scheduled
	// activity's retry policy before the server's defaults do (the test
	// environment caps attempts as go.temporal.io/sdk's does).
	ActivityRetryDefaults func(*commonpb.RetryPolicy)
	// CancelRunningActivitiesAtOnce makes a workflow's request to cancel
	// a running activity cancel it at once, without waiting for the
	// activity to stop, as go.temporal.io/sdk's test environment does
	// (whatever the activity's WaitForCancellation): the
	// ActivityTaskCanceled event follows the request's, the attempt's
	// next heartbeat is told of the request, and what the attempt reports
	// then is dropped. A Temporal server waits for the activity.
	CancelRunningActivitiesAtOnce bool
	// OnWorkflowTaskFailed, when set, is told of every failed workflow
	// task, with the server's lock held.
	OnWorkflowTaskFailed func(execution *commonpb.WorkflowExecution, attrs *historypb.WorkflowTaskFailedEventAttributes)
	// NexusQueue, when set, says which task queue receives the requests
	// of a Nexus endpoint (nexus.go); by default, the queue named as the
	// endpoint. The test environment sends all to its one worker.
	NexusQueue func(endpoint string) string
	// NexusEndpoint, when set, resolves the endpoint a
	// ScheduleNexusOperation command names to the namespace and task
	// queue of its handler, as a server's endpoint registry does: a
	// command naming an endpoint it does not know fails its workflow
	// task, as on a server. Without it, requests go to this server's
	// namespace, on the queue NexusQueue names.
	NexusEndpoint func(endpoint string) (NexusTarget, bool)
	// NexusRouter, when set, carries Nexus requests and callbacks between
	// this server and the other servers made with the same router (the
	// namespaces of the embedded server), so that a workflow in one
	// namespace calls a handler in another. Without it the server has a
	// router of its own.
	NexusRouter *NexusRouter
	// RetryNexusTasks sends a Nexus request that a handler failed with a
	// retryable handler error again after a backoff (1s, doubling, at
	// most an hour), until the operation times out, as a server does.
	// Without it the error ends the operation at once, as in
	// go.temporal.io/sdk's test environment.
	RetryNexusTasks bool
	// ChainTopLevelRuns makes a run without a parent go on as on a
	// Temporal server: its continue-as-new starts the next run, a failure
	// retries under its retry policy and its cron schedule runs it again.
	// Without it such a run runs once, as in go.temporal.io/sdk's test
	// environment (the embedded server sets it; the test environment
	// does not).
	ChainTopLevelRuns bool
	// WorkflowTaskTimeouts times out workflow tasks as a server does: a
	// started task whose worker does not answer within the run's workflow
	// task timeout, and a task that waits on a sticky queue longer than
	// its worker asked, are written off (WorkflowTaskTimedOut) and
	// scheduled again on the run's normal task queue, so that a worker that
	// died without saying so does not hold its runs. The test environment,
	// whose one worker never dies, leaves it off.
	WorkflowTaskTimeouts bool
	// CheckSearchAttributes refuses search attributes as a server does
	// (searchattr.go): a start, child, continue-as-new or upsert that
	// names an attribute the namespace has not registered, or gives one a
	// value of the wrong type. The test environment, which has no
	// registry, leaves it off; the embedded server turns it on.
	CheckSearchAttributes bool
	// StartScheduledWorkflow starts the workflows of schedules' actions
	// (schedule.go), as a frontend's StartWorkflowExecution does; without
	// it the server runs no schedules.
	StartScheduledWorkflow StartScheduledWorkflowFunc
}

// Server is the in-memory history service. It is safe for concurrent use.
type Server struct {
	opts  Options
	clock *Clock

	mu     sync.Mutex
	runs   map[string]*run // by run ID
	latest map[string]*run // by workflow ID: the newest run
	// workflowQueues and activityQueues hold scheduled tasks by task
	// queue name.
	workflowQueues map[string]*taskQueue[*workflowTask]
	activityQueues map[string]*taskQueue[*activity]
	// nexus holds the Nexus requests to handlers, this server's and
	// those of the servers it shares the router with.
	nexus *NexusRouter
	// afterUnlock runs once the lock is released: calls into another
	// server, which must not nest within this server's lock (see
	// completeByCallback).
	afterUnlock []func()
	// tokens find the task a token was issued for.
	tokens    map[string]any
	nextToken int
	// served are the task queues a worker polls (nil: all). Only their
	// tasks count as work in flight: a task no worker will take must not
	// stop the clock from skipping ahead.
	served map[string]bool
	// settleWaiters wait for runs to settle (see Settled).
	settleWaiters []settleWaiter
	// customAttrs are the custom search attributes registered, by name.
	customAttrs map[string]enumspb.IndexedValueType
	// pollers are the workers that polled each task queue (pollers.go).
	pollers map[pollerKey]*pollerRecord

	schedules scheduleBook // its own lock, taken before mu (schedule.go)
}

// lock takes the server's lock, which counts as work in flight while
// held: a call that ends one piece of work and starts the next (an
// activity's result scheduling a workflow task) must not show the clock
// an idle moment in between, or it would skip ahead of the next step.
func (s *Server) lock() {
	s.mu.Lock()
	s.clock.Busy(1)
}

func (s *Server) unlock() {
	if len(s.settleWaiters) > 0 {
		s.wakeSettledLocked()
	}
	later := s.afterUnlock
	s.afterUnlock = nil
	s.mu.Unlock()
	for _, fn := range later {
		fn() // still counted as work in flight
	}
	s.clock.Busy(-1)
}

// ServeQueues says which task queues a worker polls; tasks scheduled on
// others from then on wait without counting as work in flight.
func (s *Server) ServeQueues(names ...string) {
	s.lock()
	defer s.unlock()
	s.served = make(map[string]bool)
	for _, n := range names {
		s.served[n] = true
	}
}

// inFlight counts a task scheduled on queue as work in flight, if a worker
// polls queue; it reports whether it did, for release.
func (s *Server) inFlight(queue string) bool {
	if s.served != nil && !s.served[queue] {
		return false
	}
	s.clock.Busy(1)
	return true
}

// release undoes inFlight.
func (s *Server) release(counted *bool) {
	if *counted {
		s.clock.Busy(-1)
		*counted = false
	}
}

// New returns an empty server.
func New(opts Options) *Server {
	if opts.Namespace == "" {
		opts.Namespace = "default"
	}
	router := opts.NexusRouter
	if router == nil {
		router = NewNexusRouter()
	}
	s := &Server{
		opts: opts, clock: opts.Clock,
		runs: make(map[string]*run), latest: make(map[string]*run),
		workflowQueues: make(map[string]*taskQueue[*workflowTask]),
		activityQueues: make(map[string]*taskQueue[*activity]),
		nexus:          router,
		tokens:         make(map[string]any),
	}
	router.add(s)
	return s
}

// run is one workflow run: its history and what is in flight for it.
type run struct {
	execution *commonpb.WorkflowExecution
	started   *historypb.WorkflowExecutionStartedEventAttributes
	history   []*historypb.HistoryEvent
	closed    bool
	closedCh  chan struct{} // closed with the run

	wft *workflowTask // the scheduled or started workflow task
	// cancelRequested: its cancellation was asked for (once is enough).
	cancelRequested bool
	// buffer holds events that arrived while a workflow task ran; they are
	// written after the task's own events. wftNeeded: one of them, or a
	// request, calls for a new workflow task.
	buffer    []*historypb.HistoryEvent
	wftNeeded bool
	// heldQueries wait for the started workflow task to end, as on a
	// server: until then the run's history ends in that task's started
	// event, from which no worker can replay an answer.
	heldQueries []*workflowTask
	// lastStartedID is the WorkflowTaskStarted of the last completed task:
	// a sticky task carries only the events after it.
	lastStartedID int64
	stickyQueue   string
	// stickyTimeout is how long a task waits on the sticky queue for its
	// worker (Options.WorkflowTaskTimeouts).
	stickyTimeout time.Duration
	historyBytes  int64 // the size of history, for WorkflowTaskStarted
	// lastStarted is the last ActivityTaskStarted written: its outcome is
	// always the next activity event (see fillStartedID).
	lastStarted int64

	// updates are the run's updates by ID, updateOrder the same in the
	// order they arrived; admitted are those waiting for a workflow task.
	updates     map[string]*update
	updateOrder []*update
	admitted    []*update

	activities map[int64]*activity       // by scheduled event ID
	nexusOps   map[int64]*nexusOperation // open Nexus operations, by scheduled event ID
	timers     map[string]*runTimer
	runTimeout *Timer

	// parent links a child's run to its parent; children are the open
	// children this run started.
	parent   *parentLink
	children []*run
	// nexusStarted: a Nexus operation's handler started the run (with a
	// completion callback); like a child, the test waits for its end.
	nexusStarted bool

	// taskStarted fills in what the next WorkflowTaskStarted events say of
	// the run (continue-as-new suggestions, history size), when set.
	taskStarted func(*historypb.WorkflowTaskStartedEventAttributes)
}

type runTimer struct {
	startedID int64
	timer     *Timer
}

// taskQueue is a FIFO of scheduled tasks and of the polls waiting for
// one. As a server's matching service does, it hands the next task to the
// poll that has waited longest: the worker that polled first is served
// first (the integration tests rely on it, as on a dev server, when
// workers with different registrations poll one queue).
type taskQueue[T any] struct {
	items   []T
	waiters []chan struct{} // closed to wake a waiting poll, oldest first
}

func queueOf[K comparable, T any](m map[K]*taskQueue[T], name K) *taskQueue[T] {
	q := m[name]
	if q == nil {
		q = &taskQueue[T]{}
		m[name] = q
	}
	return q
}

func (q *taskQueue[T]) push(item T) {
	q.items = append(q.items, item)
	q.wakeOldest()
}

// wakeOldest wakes the poll that has waited longest, if one waits.
func (q *taskQueue[T]) wakeOldest() {
	if len(q.waiters) > 0 {
		close(q.waiters[0])
		q.waiters = q.waiters[1:]
	}
}

func (q *taskQueue[T]) remove(match func(T) bool) {
	for i, it := range q.items {
		if match(it) {
			q.items = append(q.items[:i], q.items[i+1:]...)
			return
		}
	}
}

// poll waits for an item of queue name, takes it with take (under the
// lock; take may refuse an item that went stale by returning false), or
// returns the zero value when ctx ends first, as an empty long poll does.
func poll[T any](ctx context.Context, s *Server, m map[string]*taskQueue[T], name string, take func(T) bool) T {
	return pollQueue(ctx, s.lock, s.unlock, func() *taskQueue[T] { return queueOf(m, name) }, take)
}

// pollQueue is poll for a queue that lock guards.
func pollQueue[T any](ctx context.Context, lock, unlock func(), queue func() *taskQueue[T], take func(T) bool) T {
	var zero T
	for {
		lock()
		q := queue()
		if ctx.Err() != nil {
			// A poll its caller gave up on takes nothing (the task would be
			// lost until its timeout); one it was woken for goes to the
			// next poll.
			if len(q.items) > 0 {
				q.wakeOldest()
			}
			unlock()
			return zero
		}
		for len(q.items) > 0 {
			it := q.items[0]
			q.items[0] = zero
			q.items = q.items[1:]
			if take(it) {
				unlock()
				return it
			}
		}
		wake := make(chan struct{})
		q.waiters = append(q.waiters, wake)
		unlock()
		select {
		case <-ctx.Done():
			lock()
			if i := slices.Index(q.waiters, wake); i >= 0 {
				q.waiters = slices.Delete(q.waiters, i, i+1)
				unlock()
				return zero
			}
			unlock() // woken meanwhile: the loop passes the task on
		case <-wake:
		}
	}
}

// tokenPrefix begins every task token the server gives out.
const tokenPrefix = "task-"

func (s *Server) newToken(task any) []byte {
	s.nextToken++
	t := tokenPrefix + strconv.Itoa(s.nextToken)
	s.tokens[t] = task
	return []byte(t)
}

func tokenTask[T any](s *Server, token []byte) (T, error) {
	t, ok := s.tokens[string(token)].(T)
	if !ok {
		var zero T
		if !strings.HasPrefix(string(token), tokenPrefix) {
			// As a server answers a token it cannot decode.
			return zero, serviceerror.NewInvalidArgument("Error deserializing task token: it is not a token this server gave out")
		}
		return zero, serviceerror.NewNotFound("the task is no longer known to the server: it completed, failed, timed out or its workflow closed")
	}
	return t, nil
}

// now is the virtual time, as events carry it.
func (s *Server) now() *timestamppb.Timestamp { return timestamppb.New(s.clock.Now()) }

// write appends an event to a run's history now.
func (s *Server) write(r *run, t enumspb.EventType, attrs any) *historypb.HistoryEvent {
	ev := newEvent(t, attrs)
	s.writeEvent(r, ev)
	return ev
}

func (s *Server) writeEvent(r *run, ev *historypb.HistoryEvent) {
	ev.EventId = int64(len(r.history) + 1)
	if ev.EventTime == nil {
		ev.EventTime = s.now()
	}
	fillStartedID(r, ev)
	r.history = append(r.history, ev)
	r.historyBytes += int64(proto.Size(ev))
	if s.opts.OnEvent != nil {
		s.opts.OnEvent(r.execution, ev)
	}
}

// fillStartedID links an activity's outcome to its ActivityTaskStarted
// event when both waited in the buffer: the started event's ID is known
// only once it is written.
func fillStartedID(r *run, ev *historypb.HistoryEvent) {
	if a := ev.GetActivityTaskStartedEventAttributes(); a != nil {
		r.lastStarted = ev.GetEventId()
		return
	}
	switch a := ev.GetAttributes().(type) {
	case *historypb.HistoryEvent_ActivityTaskCompletedEventAttributes:
		if a.ActivityTaskCompletedEventAttributes.StartedEventId == startedIDPending {
			a.ActivityTaskCompletedEventAttributes.StartedEventId = r.lastStarted
		}
	case *historypb.HistoryEvent_ActivityTaskFailedEventAttributes:
		if a.ActivityTaskFailedEventAttributes.StartedEventId == startedIDPending {
			a.ActivityTaskFailedEventAttributes.StartedEventId = r.lastStarted
		}
	case *historypb.HistoryEvent_ActivityTaskTimedOutEventAttributes:
		if a.ActivityTaskTimedOutEventAttributes.StartedEventId == startedIDPending {
			a.ActivityTaskTimedOutEventAttributes.StartedEventId = r.lastStarted
		}
	case *historypb.HistoryEvent_ActivityTaskCanceledEventAttributes:
		if a.ActivityTaskCanceledEventAttributes.StartedEventId == startedIDPending {
			a.ActivityTaskCanceledEventAttributes.StartedEventId = r.lastStarted
		}
	}
}

// deliver adds an event that did not come from the run's own commands (a
// signal, an activity's outcome, a timer firing): while a workflow task
// runs, it waits in the buffer. needsTask asks for a workflow task.
func (s *Server) deliver(r *run, t enumspb.EventType, attrs any, needsTask bool) {
	if r.closed {
		return
	}
	ev := newEvent(t, attrs)
	ev.EventTime = s.now()
	if r.wft != nil && r.wft.startedID != 0 {
		r.buffer = append(r.buffer, ev)
		r.wftNeeded = r.wftNeeded || needsTask
		return
	}
	s.writeEvent(r, ev)
	if needsTask {
		s.scheduleWorkflowTask(r)
	}
}

// flushBuffer writes the events that waited for a workflow task to end,
// and schedules the next task if one is needed.
func (s *Server) flushBuffer(r *run, force bool) {
	buffered, needed := r.buffer, r.wftNeeded || force
	r.buffer, r.wftNeeded = nil, false
	if r.closed {
		return
	}
	for _, ev := range buffered {
		s.writeEvent(r, ev)
	}
	if needed {
		s.scheduleWorkflowTask(r)
	}
}

// StartEvent is what a run's WorkflowExecutionStarted event carries
// besides its attributes: the start's summary and details (user
// metadata) and its links, as a server keeps them.
type StartEvent struct {
	UserMetadata *sdkpb.UserMetadata
	Links        []*commonpb.Link
}

// StartWorkflow starts a run with the given start attributes (task queue,
// type, input, timeouts, ...). An empty runID gets a made-up one. It fails
// when a run of workflowID is still open.
func (s *Server) StartWorkflow(workflowID, runID string, attrs *historypb.WorkflowExecutionStartedEventAttributes) (*commonpb.WorkflowExecution, error) {
	return s.StartWorkflowWith(workflowID, runID, attrs, StartEvent{})
}

// StartWorkflowWith is StartWorkflow with what the run's started event
// carries besides its attributes, as a frontend's start gives them.
func (s *Server) StartWorkflowWith(workflowID, runID string, attrs *historypb.WorkflowExecutionStartedEventAttributes, event StartEvent) (*commonpb.WorkflowExecution, error) {
	s.lock()
	defer s.unlock()
	if prev := s.latest[workflowID]; prev != nil && !prev.closed {
		return nil, serviceerror.NewWorkflowExecutionAlreadyStarted(
			fmt.Sprintf("workflow %q is already running", workflowID), "", prev.execution.GetRunId())
	}
	if attrs.GetTaskQueue().GetName() == "" {
		return nil, serviceerror.NewInvalidArgument("a workflow needs a task queue to start")
	}
	return s.startWithLocked(workflowID, runID, clone(attrs), cloneStartEvent(event), nil).execution, nil
}

func (s *Server) startLocked(workflowID, runID string, attrs *historypb.WorkflowExecutionStartedEventAttributes) *run {
	return s.startWithLocked(workflowID, runID, attrs, StartEvent{}, nil)
}

func cloneStartEvent(e StartEvent) StartEvent {
	links := make([]*commonpb.Link, len(e.Links))
	for i, l := range e.Links {
		links[i] = clone(l)
	}
	if len(links) == 0 {
		links = nil
	}
	return StartEvent{UserMetadata: clone(e.UserMetadata), Links: links}
}

// SignalWithStart signals the workflow's open run, or starts a run with
// the signal as its second event, before its first workflow task is
// scheduled, as a server writes it. It reports whether it started a run.
func (s *Server) SignalWithStart(workflowID, runID string, attrs *historypb.WorkflowExecutionStartedEventAttributes, event StartEvent, signal *historypb.WorkflowExecutionSignaledEventAttributes) (*commonpb.WorkflowExecution, bool, error) {
	s.lock()
	defer s.unlock()
	signaled := &historypb.HistoryEvent_WorkflowExecutionSignaledEventAttributes{WorkflowExecutionSignaledEventAttributes: clone(signal)}
	if prev := s.latest[workflowID]; prev != nil && !prev.closed {
		s.deliver(prev, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED, signaled, true)
		return proto.CloneOf(prev.execution), false, nil
	}
	if attrs.GetTaskQueue().GetName() == "" {
		return nil, false, serviceerror.NewInvalidArgument("a workflow needs a task queue to start")
	}
	r := s.startWithLocked(workflowID, runID, clone(attrs), cloneStartEvent(event), func(r *run) {
		s.write(r, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED, signaled)
	})
	return proto.CloneOf(r.execution), true, nil
}

// startWithLocked starts a run; first, when set, writes the events that
// follow its WorkflowExecutionStarted, before its first workflow task.
func (s *Server) startWithLocked(workflowID, runID string, attrs *historypb.WorkflowExecutionStartedEventAttributes, event StartEvent, first func(*run)) *run {
	if runID == "" {
		runID = fmt.Sprintf("%s-run-%d", workflowID, len(s.runs)+1)
	}
	if attrs.OriginalExecutionRunId == "" {
		attrs.OriginalExecutionRunId = runID
	}
	if attrs.FirstExecutionRunId == "" {
		attrs.FirstExecutionRunId = runID
	}
	if attrs.Attempt == 0 {
		attrs.Attempt = 1
	}
	if attrs.WorkflowTaskTimeout == nil {
		attrs.WorkflowTaskTimeout = durationOf(10 * time.Second)
	}
	r := &run{
		execution:  &commonpb.WorkflowExecution{WorkflowId: workflowID, RunId: runID},
		started:    attrs,
		closedCh:   make(chan struct{}),
		activities: make(map[int64]*activity),
		timers:     make(map[string]*runTimer),
		// A run with completion callbacks completes Nexus operations.
		nexusStarted: len(attrs.GetCompletionCallbacks()) > 0,
	}
	s.runs[runID] = r
	s.latest[workflowID] = r
	attrs.SearchAttributes = withoutNulls(attrs.GetSearchAttributes())
	started := newEvent(enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED, &historypb.HistoryEvent_WorkflowExecutionStartedEventAttributes{WorkflowExecutionStartedEventAttributes: attrs})
	started.UserMetadata, started.Links = event.UserMetadata, event.Links
	s.writeEvent(r, started)
	if first != nil {
		first(r)
	}
	timeout := attrs.GetWorkflowRunTimeout().AsDuration()
	if et := attrs.GetWorkflowExecutionTimeout().AsDuration(); et > 0 && (timeout == 0 || et < timeout) {
		timeout = et
	}
	if timeout > 0 {
		r.runTimeout = s.clock.AfterFunc(timeout, func() { s.timeOutRun(r) })
	}
	if backoff := attrs.GetFirstWorkflowTaskBackoff().AsDuration(); backoff > 0 {
		s.clock.AfterFunc(backoff, func() {
			s.lock()
			defer s.unlock()
			s.scheduleWorkflowTask(r)
		})
		return r
	}
	s.scheduleWorkflowTask(r)
	return r
}

// SetTaskStarted sets what the workflow tasks of a run report in their
// WorkflowTaskStarted events beyond the server's own fields (the test
// environment's SetContinueAsNewSuggested and friends).
func (s *Server) SetTaskStarted(execution *commonpb.WorkflowExecution, fill func(*historypb.WorkflowTaskStartedEventAttributes)) error {
	s.lock()
	defer s.unlock()
	r, err := s.runLocked(execution)
	if err != nil {
		return err
	}
	r.taskStarted = fill
	return nil
}

func (s *Server) timeOutRun(r *run) {
	s.lock()
	defer s.unlock()
	if r.closed {
		return
	}
	attrs := &historypb.WorkflowExecutionTimedOutEventAttributes{RetryState: enumspb.RETRY_STATE_TIMEOUT}
	next, rerun := s.rerunOf(r, nil)
	if rerun {
		attrs.NewExecutionRunId = next.runID
	}
	s.write(r, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT, &historypb.HistoryEvent_WorkflowExecutionTimedOutEventAttributes{WorkflowExecutionTimedOutEventAttributes: attrs})
	s.closeRun(r)
	if rerun {
		s.startRerun(r, next, nil, nil)
	}
}

// closeRun ends everything in flight for a run whose close event was just
// written, tells its parent, and applies its children's parent close
// policies.
func (s *Server) closeRun(r *run) {
	closeEvent := r.history[len(r.history)-1]
	r.closed = true
	r.buffer, r.wftNeeded = nil, false
	if r.wft != nil {
		s.dropWorkflowTask(r.wft)
	}
	for _, a := range r.activities {
		s.dropActivity(a)
	}
	for _, t := range r.timers {
		s.clock.Stop(t.timer)
	}
	r.timers = nil
	s.dropNexusOperations(r)
	s.clock.Stop(r.runTimeout)
	s.closeUpdates(r)
	close(r.closedCh)
	s.childClosed(r, closeEvent)
	s.completeByCallback(r, closeEvent)
	s.applyParentClosePolicy(r)
	s.noteClosedRun(r, closeEvent)
}

// runLocked finds a run; an empty run ID means the workflow's newest run.
func (s *Server) runLocked(execution *commonpb.WorkflowExecution) (*run, error) {
	var r *run
	if id := execution.GetRunId(); id != "" {
		r = s.runs[id]
	} else {
		r = s.latest[execution.GetWorkflowId()]
	}
	if r == nil || r.execution.GetWorkflowId() != execution.GetWorkflowId() {
		return nil, serviceerror.NewNotFound(fmt.Sprintf("workflow %q (run %q) not found", execution.GetWorkflowId(), execution.GetRunId()))
	}
	return r, nil
}

func (s *Server) openRunLocked(execution *commonpb.WorkflowExecution) (*run, error) {
	r, err := s.runLocked(execution)
	if err != nil {
		return nil, err
	}
	if r.closed {
		return nil, serviceerror.NewNotFound(fmt.Sprintf("workflow %q (run %s) has already completed", r.execution.GetWorkflowId(), r.execution.GetRunId()))
	}
	return r, nil
}

// Signal delivers a signal. With skipTask it is written without asking for
// a workflow task: the workflow sees it with the next task something else
// causes.
func (s *Server) Signal(execution *commonpb.WorkflowExecution, name string, input *commonpb.Payloads, header *commonpb.Header, identity string, skipTask bool) error {
	s.lock()
	defer s.unlock()
	r, err := s.openRunLocked(execution)
	if err != nil {
		return err
	}
	s.deliver(r, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED, &historypb.HistoryEvent_WorkflowExecutionSignaledEventAttributes{
		WorkflowExecutionSignaledEventAttributes: &historypb.WorkflowExecutionSignaledEventAttributes{
			SignalName: name, Input: input, Header: header, Identity: identity}}, !skipTask)
	return nil
}

// RequestCancel asks the workflow to cancel itself, for the reason
// given (its WorkflowExecutionCancelRequested's cause). As on a server,
// the request is made once: asking again writes nothing.
func (s *Server) RequestCancel(execution *commonpb.WorkflowExecution, identity, reason string) error {
	s.lock()
	defer s.unlock()
	r, err := s.openRunLocked(execution)
	if err != nil {
		return err
	}
	s.requestCancelLocked(r, &historypb.WorkflowExecutionCancelRequestedEventAttributes{Identity: identity, Cause: reason})
	return nil
}

func (s *Server) requestCancelLocked(r *run, attrs *historypb.WorkflowExecutionCancelRequestedEventAttributes) {
	if r.cancelRequested {
		return
	}
	r.cancelRequested = true
	s.deliver(r, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCEL_REQUESTED, &historypb.HistoryEvent_WorkflowExecutionCancelRequestedEventAttributes{
		WorkflowExecutionCancelRequestedEventAttributes: attrs}, true)
}

// Terminate closes the run at once.
func (s *Server) Terminate(execution *commonpb.WorkflowExecution, reason string, details *commonpb.Payloads, identity string) error {
	s.lock()
	defer s.unlock()
	r, err := s.openRunLocked(execution)
	if err != nil {
		return err
	}
	s.terminateLocked(r, reason, details, identity)
	return nil
}

func (s *Server) terminateLocked(r *run, reason string, details *commonpb.Payloads, identity string) {
	if r.wft != nil && r.wft.startedID != 0 {
		s.failWorkflowTaskLocked(r, enumspb.WORKFLOW_TASK_FAILED_CAUSE_FORCE_CLOSE_COMMAND, nil, identity)
	}
	s.write(r, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED, &historypb.HistoryEvent_WorkflowExecutionTerminatedEventAttributes{
		WorkflowExecutionTerminatedEventAttributes: &historypb.WorkflowExecutionTerminatedEventAttributes{Reason: reason, Details: clone(details), Identity: identity}})
	s.closeRun(r)
}

// History returns a copy of a run's history.
func (s *Server) History(execution *commonpb.WorkflowExecution) (*historypb.History, error) {
	s.lock()
	defer s.unlock()
	r, err := s.runLocked(execution)
	if err != nil {
		return nil, err
	}
	return &historypb.History{Events: cloneEvents(r.history)}, nil
}

// Closed returns a channel closed when the run closes, and the run's
// resolved identity.
func (s *Server) Closed(execution *commonpb.WorkflowExecution) (<-chan struct{}, *commonpb.WorkflowExecution, error) {
	s.lock()
	defer s.unlock()
	r, err := s.runLocked(execution)
	if err != nil {
		return nil, nil, err
	}
	return r.closedCh, proto.CloneOf(r.execution), nil
}

// OpenChildren returns the closed channels of the child runs still open:
// those a closed parent left running, and those Nexus operations started.
func (s *Server) OpenChildren() []<-chan struct{} {
	s.lock()
	defer s.unlock()
	var open []<-chan struct{}
	for _, r := range s.runs {
		if !r.closed && (r.parent != nil || r.nexusStarted) {
			open = append(open, r.closedCh)
		}
	}
	return open
}

// ForgetStickyQueue sends the runs that were sticky to queue back to
// their normal task queue, with full histories: its worker is gone.
func (s *Server) ForgetStickyQueue(queue string) {
	s.lock()
	defer s.unlock()
	for _, r := range s.runs {
		if r.stickyQueue != queue {
			continue
		}
		r.stickyQueue = ""
		if wft := r.wft; wft != nil && wft.startedID == 0 && wft.queue == queue {
			queueOf(s.workflowQueues, queue).remove(func(t *workflowTask) bool { return t == wft })
			wft.queue, wft.sticky = s.workflowQueue(r), false
			s.clock.Stop(wft.timeout) // its sticky schedule-to-start no longer applies
			queueOf(s.workflowQueues, wft.queue).push(wft)
		}
	}
	queueOf(s.workflowQueues, queue).items = nil
}

// GetWorkflowExecutionHistory returns a run's whole history in one page,
// as the worker reads it to rebuild a run.
func (s *Server) GetWorkflowExecutionHistory(_ context.Context, req *workflowservice.GetWorkflowExecutionHistoryRequest) (*workflowservice.GetWorkflowExecutionHistoryResponse, error) {
	h, err := s.History(req.GetExecution())
	if err != nil {
		return nil, err
	}
	if req.GetHistoryEventFilterType() == enumspb.HISTORY_EVENT_FILTER_TYPE_CLOSE_EVENT {
		n := len(h.Events)
		if n == 0 || !isCloseEvent(h.Events[n-1].GetEventType()) {
			h.Events = nil
		} else {
			h.Events = h.Events[n-1:]
		}
	}
	return &workflowservice.GetWorkflowExecutionHistoryResponse{History: h}, nil
}

func isCloseEvent(t enumspb.EventType) bool {
	switch t {
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED,
		enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED,
		enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW:
		return true
	}
	return false
}

func cloneEvents(events []*historypb.HistoryEvent) []*historypb.HistoryEvent {
	out := make([]*historypb.HistoryEvent, len(events))
	for i, ev := range events {
		out[i] = clone(ev)
	}
	return out
}
