package engine

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	protocolpb "go.temporal.io/api/protocol/v1"

	"github.com/durable-go/sdk/internal/codecfail"
	"github.com/durable-go/sdk/internal/commands"
	"github.com/durable-go/sdk/internal/failure"
)

// Run is the state of one workflow run between workflow tasks: it is
// what the sticky cache keeps, so that a run's next task applies only new
// events.
type Run struct {
	opts *Options
	book *commands.Book
	wf   Workflow
	info Info
	// dc and fc convert the run's own payloads and failures (see
	// UseConverters); Options' until the workflow says otherwise.
	dc PayloadConverter
	fc FailureConverter

	lastEventID int64 // the last event applied
	// optional is the state of the features a run may never use (local
	// activities, updates, side effects and versions), made on first use
	// (see use): a cached run that waits on a signal keeps none of it.
	optional *optionalState
	// lastStartedEventID is the WorkflowTaskStarted of the last workflow
	// task whose code ran (attempts that failed or timed out are skipped,
	// see taskStarted); DiscardTask moves it back to the last task the
	// server kept. The worker reads it to tell whether a task follows on
	// from the run (workerrt's followsOn), under the run's lock, or for a
	// run no cache holds, which only its task's goroutine sees; GetInfo
	// reports it as the history length. Pollers no longer read it before
	// they lock the run, which is why it was made atomic.
	lastStartedEventID atomic.Int64
	// completedBuildID is the build ID the last WorkflowTaskCompleted
	// applied recorded; completedSeen: one was applied (see
	// TaskStarted.RecordedBuildID).
	completedBuildID string
	// replayedBuildID is what the last task replayed in the current
	// ProcessTask reported (replayedBuildIDSet: one did, with a
	// recorded build ID); a live task after it reports the same, as
	// go.temporal.io/sdk's GetCurrentBuildID does.
	replayedBuildID string

	now time.Time // the time of the current workflow task
	// nowLocal is the worker's clock when now was set, to tell the
	// workflow time a local activity ended.
	nowLocal time.Time

	flags sdkFlags
	sdk   sdkRecorded

	closing *Close // set by the code; turned into a command at task end

	// The run's flags, side by side so that they share a word.
	ranCode   bool // the workflow code has run for some task
	queryOnly bool // rebuilding state to answer a query
	// checkAtNextTask: commands were sent and their events must all be
	// matched before the next workflow task is scheduled.
	checkAtNextTask    bool
	completedSeen      bool
	replayedBuildIDSet bool
	replaying          bool // the code is re-running a task already in history
	closed             bool // the close command was produced
	// waiting: the live task waits for local activities (see
	// localactivity.go).
	waiting bool
	// afterVersionMarker: the previous event was a version marker (see
	// skipsMatching).
	afterVersionMarker bool
}

// optionalState is the state of the features a run may never use.
type optionalState struct {
	failure     error // set when the run cannot go on
	markers     markerState
	updates     updateRequests // update requests waiting for the next task
	outMessages []*protocolpb.Message
	las         localActivities
}

// use returns the run's optional state, made on first use.
func (x *Run) use() *optionalState {
	if x.optional == nil {
		x.optional = new(optionalState)
	}
	return x.optional
}

// NewRun returns the state of a run that has not seen any event.
func NewRun(opts *Options) *Run {
	x := &Run{opts: opts, book: commands.NewBook(), dc: opts.DataConverter, fc: opts.FailureConverter}
	if opts.LocateCode != nil {
		x.book.LocateCommands(opts.LocateCode)
	}
	return x
}

// UseConverters sets the converters of the run's own payloads and failures
// (markers, summaries, the workflow's failure, and the failures of
// commands given no converter of their own): the workflow calls it when it
// starts, with Options' converters told the run's serialization context.
func (x *Run) UseConverters(dc PayloadConverter, fc FailureConverter) {
	x.dc, x.fc = dc, fc
}

// FailureConverter is the converter of the run's own failures (see
// UseConverters): the worker converts a failed query's error with it.
func (x *Run) FailureConverter() FailureConverter { return x.fc }

// Task is one workflow task as the engine sees it: its history events (the
// whole history, or the new events of a sticky task) and the protocol
// messages (update requests) the server delivered with it.
type Task struct {
	Events   *EventSource
	Messages []*protocolpb.Message
	// Replayed, when set, is called once: when the engine has re-applied
	// what earlier workflow tasks processed and is about to run the code
	// for this one, or at the end if the code does not run. The worker
	// times replay with it.
	Replayed func()
}

// TaskResult is what a workflow task produced.
type TaskResult struct {
	// Commands are the new commands, in order.
	Commands []*commandpb.Command
	// Messages are the protocol messages that answer the task's (update
	// acceptances, rejections and outcomes); a ProtocolMessage command
	// among Commands places each in command order.
	Messages []*protocolpb.Message
	// NewFlags are SDK flags used for the first time in this task.
	NewFlags []uint32
	// Closed: the commands close the workflow; the run can leave the cache.
	Closed bool

	// WaitingForLocalActivities: the task cannot end yet (Commands is
	// empty). The worker starts StartLocalActivities, cancels the running
	// ones in CancelLocalActivities, and hands each outcome to
	// ResolveLocalActivity, which says again; or, before the task would
	// time out, it reports HeartbeatTask's commands and goes on with the
	// next task.
	WaitingForLocalActivities bool
	StartLocalActivities      []*LocalActivityRequest
	CancelLocalActivities     []string
}

// TaskError is a workflow task that must be reported failed: the server
// will retry it. The Run must not be used again.
type TaskError struct {
	Cause enumspb.WorkflowTaskFailedCause
	Err   error
}

func (e *TaskError) Error() string { return e.Err.Error() }
func (e *TaskError) Unwrap() error { return e.Err }

// LastEventID is the ID of the last event applied.
func (x *Run) LastEventID() int64 { return x.lastEventID }

// LastStartedEventID is the ID of the WorkflowTaskStarted of the last
// workflow task whose code ran (see lastStartedEventID).
func (x *Run) LastStartedEventID() int64 { return x.lastStartedEventID.Load() }

// DiscardTask forgets the workflow task just run, which the server
// discarded (RespondWorkflowTaskCompletedResponse.ResetHistoryEventId): a
// speculative task, as an update starts, that recorded nothing because
// its updates were all rejected. Its WorkflowTaskScheduled and
// WorkflowTaskStarted events are in no history, and the run's next task
// brings events under their IDs; keptStartedID is the WorkflowTaskStarted
// of the last task the server kept. Like go.temporal.io/sdk, the run goes
// on from its state rather than being replayed: the task changed nothing
// a replay would rebuild.
func (x *Run) DiscardTask(keptStartedID int64) error {
	started := x.lastStartedEventID.Load()
	if x.lastEventID != started || keptStartedID <= 0 || keptStartedID > started-3 {
		return fmt.Errorf("engine: cannot discard the workflow task started at event %d (last event applied %d) back to the task started at event %d", started, x.lastEventID, keptStartedID)
	}
	x.lastEventID -= 2 // its WorkflowTaskScheduled and WorkflowTaskStarted
	x.lastStartedEventID.Store(keptStartedID)
	return nil
}

// ProcessTask applies the task's events, running the workflow code at each
// workflow task, and returns the commands of the last task. Events the
// Run already applied are skipped, so a sticky task's events and a
// full history both work.
func (x *Run) ProcessTask(t Task) (*TaskResult, error) {
	if err := x.unusable(); err != nil {
		return nil, err
	}
	if x.waiting {
		return nil, errors.New("engine: a new task arrived while the last one still waits for local activities")
	}
	if len(t.Messages) > 0 || x.optional != nil {
		o := x.use()
		o.outMessages = nil
		o.updates.inbox = t.Messages
	}
	t.Events.replayed = t.Replayed
	x.replayedBuildID, x.replayedBuildIDSet = "", false
	res, err := x.processEvents(t.Events)
	if err != nil {
		t.Events.replayed = nil
		x.use().failure = err
		return nil, x.classify(err)
	}
	t.Events.noteReplayed()
	x.book.Trim()
	return res, nil
}

// unusable is the error of a task given to a run that an earlier task
// left unusable.
func (x *Run) unusable() error {
	if x.optional == nil || x.optional.failure == nil {
		return nil
	}
	return fmt.Errorf("this workflow run's state is unusable after an earlier failure: %w", x.optional.failure)
}

// processEvents applies the events of src; a panic of user code it runs
// outside the coroutines is an error naming the event (see UserPanic).
func (x *Run) processEvents(src *EventSource) (_ *TaskResult, err error) {
	var ev *historypb.HistoryEvent // being applied, for a panic's error
	defer recoverAt(&err, &ev)
	ranLast := false // the last event applied ran the code
	for {
		next, err := src.Next()
		if err != nil {
			return nil, err
		}
		if next == nil {
			break
		}
		ev = next
		if ev.GetEventId() <= x.lastEventID {
			continue
		}
		if ev.GetEventId() != x.lastEventID+1 {
			return nil, fmt.Errorf("history skips from event %d to event %d", x.lastEventID, ev.GetEventId())
		}
		x.lastEventID = ev.GetEventId()
		ran, err := x.apply(ev, src)
		if err != nil {
			return nil, atEvent(ev, err)
		}
		ranLast = ran
	}
	if x.checkAtNextTask {
		if err := x.book.CheckAllMatched(nil); err != nil {
			return nil, err
		}
	}
	if x.queryOnly && !ranLast && x.wf != nil && !x.closed {
		// Events after the last task (signals, results) count for a query:
		// let the code take them, as a replay.
		if err := x.wf.Run(); err != nil {
			return nil, err
		}
	}
	if ranLast && !x.replaying {
		return x.endOfTask()
	}
	return &TaskResult{Closed: x.closed}, nil
}

// apply applies one event; ran reports that workflow code ran for it.
func (x *Run) apply(ev *historypb.HistoryEvent, src *EventSource) (ran bool, err error) {
	switch ev.GetEventType() {
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
		if err := x.start(ev); err != nil {
			return false, err
		}
		return false, x.lookForReplay(src)
	case enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED:
		return false, x.checkCommandsMatched(ev)
	case enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED:
		if err := x.checkCommandsMatched(ev); err != nil {
			return false, err
		}
		return x.taskStarted(ev, src)
	case enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
		x.checkAtNextTask = true
		x.completedBuildID, x.completedSeen = recordedBuildID(ev.GetWorkflowTaskCompletedEventAttributes()), true
		return false, x.lookForReplay(src)
	case enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED:
		// The failed task a reset leaves at its reset point names the run
		// the reset made.
		a := ev.GetWorkflowTaskFailedEventAttributes()
		if a.GetCause() == enumspb.WORKFLOW_TASK_FAILED_CAUSE_RESET_WORKFLOW && a.GetNewRunId() != "" {
			x.info.CurrentRunID = a.GetNewRunId()
		}
		return false, nil
	case enumspb.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT:
		return false, nil
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
		wf, err := x.workflow()
		if err != nil {
			return false, err
		}
		a := ev.GetWorkflowExecutionSignaledEventAttributes()
		return false, wf.Signal(a.GetSignalName(), a.GetInput(), a.GetHeader())
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCEL_REQUESTED:
		wf, err := x.workflow()
		if err != nil {
			return false, err
		}
		wf.Cancel()
		return false, nil
	case enumspb.EVENT_TYPE_MARKER_RECORDED:
		if x.skipsMatching(ev) {
			return false, nil
		}
	case enumspb.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES:
		if x.isChangeVersionUpsert(ev) {
			return false, nil
		}
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ADMITTED, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED,
		enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_REJECTED:
		x.afterVersionMarker = false
		return false, x.applyUpdateEvent(ev)
	}
	x.afterVersionMarker = false
	if !commands.Owns(ev.GetEventType()) {
		return false, checkInformational(ev)
	}
	_, err = x.book.Apply(ev)
	return false, err
}

// lookForReplay sets whether the events up to the next workflow task are
// replayed: they are when that task completed before (history goes on
// past it). As in go.temporal.io/sdk, code that they run (signal
// handlers, interceptors) sees IsReplaying so, not the previous task's
// flag: after a replay, the signals that arrived since the last task are
// live.
func (x *Run) lookForReplay(src *EventSource) error {
	if x.queryOnly {
		x.replaying = true
		return nil
	}
	for k := 0; ; k++ {
		ev, err := src.Peek(k)
		if err != nil {
			return err
		}
		if ev == nil {
			x.replaying = false // the task has not started: what comes is new
			return nil
		}
		if ev.GetEventType() != enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED {
			continue
		}
		next, err := src.Peek(k + 1)
		if err != nil {
			return err
		}
		if next == nil || next.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED {
			x.replaying = next != nil
			return nil
		}
		// A failed or timed-out attempt: the task that counts comes later.
	}
}

// workflow is the run's code, which the start event created: a history
// that does not begin with it is corrupt.
func (x *Run) workflow() (Workflow, error) {
	if x.wf == nil {
		return nil, errors.New("history does not begin with a WorkflowExecutionStarted event")
	}
	return x.wf, nil
}

func (x *Run) checkCommandsMatched(ev *historypb.HistoryEvent) error {
	if !x.checkAtNextTask {
		return nil
	}
	x.checkAtNextTask = false
	return x.book.CheckAllMatched(ev)
}

func (x *Run) start(ev *historypb.HistoryEvent) error {
	if x.wf != nil {
		return errors.New("history has a second WorkflowExecutionStarted event")
	}
	a := ev.GetWorkflowExecutionStartedEventAttributes()
	x.info.Namespace = x.opts.Namespace
	x.info.TaskQueue = x.opts.Names.Intern(a.GetTaskQueue().GetName())
	x.info.WorkflowType = x.opts.Names.Intern(a.GetWorkflowType().GetName())
	x.info.OriginalRunID = sameString(a.GetOriginalExecutionRunId(), x.info.RunID)
	x.info.CurrentRunID = x.info.OriginalRunID
	x.info.WorkflowTaskTimeout = a.GetWorkflowTaskTimeout().AsDuration()
	x.info.LastCompletionResult = a.GetLastCompletionResult()
	x.info.ContinuedFailure = a.GetContinuedFailure()
	x.info.StartedTime = ev.GetEventTime().AsTime()
	x.now = x.info.StartedTime
	wf, err := x.opts.NewWorkflow(x.info.WorkflowType)
	if err != nil {
		return err
	}
	x.wf = wf
	return wf.Start(x, a)
}

// taskStarted runs the workflow code for the task that ev starts, unless
// that attempt failed or timed out (its effects were never recorded).
func (x *Run) taskStarted(ev *historypb.HistoryEvent, src *EventSource) (bool, error) {
	next, err := src.Peek(0)
	if err != nil {
		return false, err
	}
	if next != nil && next.GetEventType() != enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED {
		return false, nil // failed or timed out: the next attempt runs the code
	}
	x.lastStartedEventID.Store(ev.GetEventId())
	ts := ev.GetWorkflowTaskStartedEventAttributes()
	x.info.TaskStarted = TaskStarted{
		HistorySizeBytes:                     ts.GetHistorySizeBytes(),
		SuggestContinueAsNew:                 ts.GetSuggestContinueAsNew(),
		SuggestContinueAsNewReasons:          ts.GetSuggestContinueAsNewReasons(),
		TargetWorkerDeploymentVersionChanged: ts.GetTargetWorkerDeploymentVersionChanged(),
		//lint:ignore SA1019 histories still record the deprecated binary checksum.
		RecordedBinaryChecksum: next.GetWorkflowTaskCompletedEventAttributes().GetBinaryChecksum(),
	}
	x.replaying = next != nil || x.queryOnly
	if x.replaying && x.completedSeen {
		x.replayedBuildID, x.replayedBuildIDSet = x.completedBuildID, true
	}
	x.info.TaskStarted.RecordedBuildID, x.info.TaskStarted.BuildIDRecorded = x.replayedBuildID, x.replayedBuildIDSet
	if next != nil {
		if err := x.lookAhead(src); err != nil {
			return false, err
		}
	}
	if t := ev.GetEventTime().AsTime(); t.After(x.now) {
		x.now = t // workflow time never goes back
	}
	if !x.replaying {
		// Only a live task reads it, for its local activities (a replayed
		// one takes their times from its markers); a clock reading per
		// replayed task shows in a replay's profile.
		x.nowLocal = x.opts.clock()
	}
	if !x.replaying && !x.ranCode {
		// Like go.temporal.io/sdk, a new run announces that update
		// acceptance and completion are sent as protocol message commands.
		x.TryUseFlag(FlagProtocolMessageCommand)
	}
	if !x.replaying {
		src.noteReplayed()
	}
	x.ranCode = true
	x.book.BeginTask(ev.GetEventId())
	if x.closed {
		return false, fmt.Errorf("history has workflow task %d after the workflow closed", ev.GetEventId())
	}
	if err := x.deliverUpdates(); err != nil {
		return false, err
	}
	if err := x.runCode(); err != nil {
		return false, err
	}
	if x.replaying {
		// The task's commands are in history: they go in flight, to be
		// matched. A live task ends in endOfTask, once no local activity
		// keeps it open.
		x.finishTask()
		x.book.SendRecorded()
	}
	return true, nil
}

// runCode runs the workflow code until it blocks; in replay it then
// delivers the local activity outcomes the task recorded, in order,
// running the code again after each.
func (x *Run) runCode() error {
	if err := x.runWorkflow(); err != nil {
		return err
	}
	for x.replaying && x.optional != nil && len(x.optional.las.markers) > 0 {
		las := &x.optional.las
		ev := las.markers[0]
		las.markers = las.markers[1:]
		if err := x.resolveFromMarker(ev); err != nil {
			return err
		}
		if err := x.runWorkflow(); err != nil {
			return err
		}
	}
	return nil
}

// runWorkflow runs the code once, applying the workflow panic policy.
func (x *Run) runWorkflow() error {
	wf, err := x.workflow()
	if err != nil {
		return err
	}
	if err := wf.Run(); err != nil {
		var p Panicked
		// A codec's request to fail the task is no panic of the code.
		if !errors.As(err, &p) || !x.opts.FailWorkflowOnPanic || codecfail.Has(err) {
			return err
		}
		x.closing = &Close{Err: failure.NewApplicationErrorWithCause(
			"Workflow failed on panic due to FailWorkflow workflow panic policy", "", PanicFailure(err))}
	}
	return nil
}

// endOfTask decides how a live task goes on: it waits for local
// activities (those canceled before they started are recorded at once,
// and the code runs again), or it ends with its commands.
func (x *Run) endOfTask() (*TaskResult, error) {
	var start []*LocalActivityRequest
	for {
		x.waiting = x.waitingForLocalActivities()
		if !x.waiting {
			break
		}
		more, canceled, err := x.localActivitiesToStart()
		if err != nil {
			return nil, err
		}
		start = append(start, more...)
		if len(canceled) == 0 {
			las := &x.use().las
			cancels := las.cancels
			las.cancels = nil
			return &TaskResult{WaitingForLocalActivities: true, StartLocalActivities: start, CancelLocalActivities: cancels}, nil
		}
		if err := x.resolveCanceledBeforeStart(canceled); err != nil {
			return nil, err
		}
		if err := x.runCode(); err != nil {
			return nil, err
		}
	}
	x.finishTask()
	if x.optional != nil {
		x.optional.las.cancels = nil
	}
	return &TaskResult{Commands: x.book.TakeCommands(), Messages: x.takeMessages(), NewFlags: x.flags.takeNew(), Closed: x.closed}, nil
}

// takeMessages returns the protocol messages made since the last call.
func (x *Run) takeMessages() []*protocolpb.Message {
	if x.optional == nil {
		return nil
	}
	m := x.optional.outMessages
	x.optional.outMessages = nil
	return m
}

// noteReplayed calls the task's Replayed hook, once.
func (src *EventSource) noteReplayed() {
	if f := src.replayed; f != nil {
		src.replayed = nil
		f()
	}
}

// lookAhead reads the commands that the task being replayed recorded, for
// what the code must know before it runs: SDK flags, and the markers of side
// effects, versions and mutable side effects; and which SDK completed it.
func (x *Run) lookAhead(src *EventSource) error {
	completed, err := src.Peek(0)
	if err != nil {
		return err
	}
	metadata := completed.GetWorkflowTaskCompletedEventAttributes().GetSdkMetadata()
	x.flags.setFromHistory(metadata.GetLangUsedFlags())
	x.sdk = sdkRecorded{name: metadata.GetSdkName(), version: metadata.GetSdkVersion()}
	for k := 1; ; k++ {
		ev, err := src.Peek(k)
		if err != nil {
			return err
		}
		if ev == nil || ev.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED ||
			ev.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED {
			return nil
		}
		switch ev.GetEventType() {
		case enumspb.EVENT_TYPE_MARKER_RECORDED:
			if ev.GetMarkerRecordedEventAttributes().GetMarkerName() == MarkerLocalActivity {
				las := &x.use().las
				las.markers = append(las.markers, ev)
				continue
			}
			if err := x.use().markers.preload(x, ev); err != nil {
				return err
			}
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED:
			x.use().updates.noteAccepted(ev)
		}
	}
}

// finishTask turns the code's ending into the command that closes the
// workflow, after every other command of the task.
func (x *Run) finishTask() {
	c := x.closing
	if c == nil || x.closed {
		return
	}
	x.closed = true
	switch {
	case c.ContinueAsNew != nil:
		x.book.ContinueAsNew(c.ContinueAsNew, c.ContinueAsNewGroups)
	case c.Canceled:
		x.book.CancelWorkflow(&commandpb.CancelWorkflowExecutionCommandAttributes{Details: c.Details})
	case c.Err != nil && c.FailureConverter != nil:
		x.book.FailWorkflow(&commandpb.FailWorkflowExecutionCommandAttributes{Failure: failure.ErrorToFailureInTask(c.FailureConverter, c.Err)})
	case c.Err != nil:
		x.book.FailWorkflow(&commandpb.FailWorkflowExecutionCommandAttributes{Failure: x.failureInTask(c.Err)})
	default:
		x.book.CompleteWorkflow(&commandpb.CompleteWorkflowExecutionCommandAttributes{Result: c.Result})
	}
}

// PanicFailure is the error to report for a failed task or workflow: for a
// panic in workflow code, a workflow panic error that carries the panic's
// message and stack (sent as a PanicError failure); else err itself.
func PanicFailure(err error) error {
	var p Panicked
	if errors.As(err, &p) {
		return failure.NewWorkflowPanicError(p.PanicValue(), p.PanicStack())
	}
	return err
}

// classify says why a task failed, in the terms the server records.
func (x *Run) classify(err error) error {
	if te := x.codecTaskError(err); te != nil {
		return te
	}
	var nd *commands.NondeterminismError
	var it *commands.IllegalTransitionError
	// An UnsupportedEventError is an unhandled failure: the code may be
	// right, and a worker of another SDK may replay it.
	cause := enumspb.WORKFLOW_TASK_FAILED_CAUSE_WORKFLOW_WORKER_UNHANDLED_FAILURE
	if errors.As(err, &nd) || errors.As(err, &it) {
		cause = enumspb.WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR
	}
	return &TaskError{Cause: cause, Err: fmt.Errorf("workflow %q (run %s, type %q): %w",
		x.info.WorkflowID, x.info.RunID, x.info.WorkflowType, err)}
}

// located adds the workflow code's location to a mismatch that the code's
// own call reveals (a side effect or version history does not have), when
// the Run locates code (Options.LocateCode).
func (x *Run) located(err *commands.NondeterminismError) *commands.NondeterminismError {
	if x.opts.LocateCode != nil {
		err.CodeLocation = x.opts.LocateCode()
	}
	return err
}

// QueryOnly makes the Run rebuild state only to answer queries:
// every task runs as a replay, so nothing new is executed or logged.
func (x *Run) QueryOnly() { x.queryOnly = true }

// SetRun records the run's identity, which the start event does not carry.
func (x *Run) SetRun(workflowID, runID string) {
	x.info.WorkflowID, x.info.RunID = workflowID, runID
}

// Close releases the workflow code's coroutines.
func (x *Run) Close() {
	if x.wf != nil {
		x.wf.Close()
	}
}

// Query answers a query against the run's current state. A panic of the
// code it runs (a handler, a converter, an interceptor) fails the query
// only: queries change nothing.
func (x *Run) Query(name string, args *commonpb.Payloads, header *commonpb.Header) (_ *commonpb.Payloads, err error) {
	defer recoverAt(&err, nil)
	if x.wf == nil {
		return nil, fmt.Errorf("query %q arrived before the workflow started", name)
	}
	return x.wf.Query(name, args, header)
}
