//lint:file-ignore SA1019 the deprecated namespace, control and inherit_build_id fields are what go.temporal.io/sdk sends and histories record.

package commands

import (
	"fmt"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
)

// ChildWorkflow is the machine of one StartChildWorkflowExecution command.
//
// Canceling asks the server to cancel the child with a
// RequestCancelExternalWorkflowExecution (child only), a CancelExternal
// machine of its own, once the child has started: a cancel asked earlier
// waits for ChildWorkflowExecutionStarted, as in go.temporal.io/sdk. The
// child's result arrives only with its close event, canceled or not.
type ChildWorkflow struct {
	st    State
	book  *Book
	attrs *commandpb.StartChildWorkflowExecutionCommandAttributes
	calls ChildCallbacks

	seq         int64 // the predicted StartChildWorkflowExecutionInitiated event ID
	startedID   int64
	runID       string
	cancelAsked bool // canceled before it started: cancel once it does
	cancelReq   *CancelExternal
	groups      []*sdkpb.EventGroupMarker // the start command's, for its cancel request
}

// ChildCallbacks are told how a child workflow goes. Started runs once,
// when the child started or could not; Done runs once, with the child's
// outcome (a failure is a child workflow failure whose cause says why).
type ChildCallbacks struct {
	Started func(runID string, startFailed enumspb.StartChildWorkflowExecutionFailedCause)
	Done    func(Outcome)
}

// The child workflow's command and events, for the Book. Its events find
// it by the ID of its initiated event.
var startChildKind = register(&Kind{
	Command:  enumspb.COMMAND_TYPE_START_CHILD_WORKFLOW_EXECUTION,
	Recorded: enumspb.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED,
	// Like go.temporal.io/sdk, only the type is compared: the workflow ID
	// may come from the run ID, which differs between runs of a test.
	Identity: []Field{{Name: "child workflow type", Same: sameTypeName,
		InCommand: func(c *commandpb.Command) string {
			return c.GetStartChildWorkflowExecutionCommandAttributes().GetWorkflowType().GetName()
		},
		InEvent: func(e *historypb.HistoryEvent) string {
			return e.GetStartChildWorkflowExecutionInitiatedEventAttributes().GetWorkflowType().GetName()
		}}},
	Follow: []Follow{
		{enumspb.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_FAILED, InInitiationFailed, func(e *historypb.HistoryEvent) Key {
			return Key{ID: e.GetStartChildWorkflowExecutionFailedEventAttributes().GetInitiatedEventId()}
		}},
		{enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED, InStarted, func(e *historypb.HistoryEvent) Key {
			return Key{ID: e.GetChildWorkflowExecutionStartedEventAttributes().GetInitiatedEventId()}
		}},
		{enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED, InCompleted, func(e *historypb.HistoryEvent) Key {
			return Key{ID: e.GetChildWorkflowExecutionCompletedEventAttributes().GetInitiatedEventId()}
		}},
		{enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_FAILED, InFailed, func(e *historypb.HistoryEvent) Key {
			return Key{ID: e.GetChildWorkflowExecutionFailedEventAttributes().GetInitiatedEventId()}
		}},
		{enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_TIMED_OUT, InTimedOut, func(e *historypb.HistoryEvent) Key {
			return Key{ID: e.GetChildWorkflowExecutionTimedOutEventAttributes().GetInitiatedEventId()}
		}},
		{enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_CANCELED, InCanceled, func(e *historypb.HistoryEvent) Key {
			return Key{ID: e.GetChildWorkflowExecutionCanceledEventAttributes().GetInitiatedEventId()}
		}},
		{enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_TERMINATED, InTerminated, func(e *historypb.HistoryEvent) Key {
			return Key{ID: e.GetChildWorkflowExecutionTerminatedEventAttributes().GetInitiatedEventId()}
		}},
	},
	Describe: func(c *commandpb.Command) string {
		a := c.GetStartChildWorkflowExecutionCommandAttributes()
		return fmt.Sprintf("workflow %q, type %q", a.GetWorkflowId(), a.GetWorkflowType().GetName())
	},
	DescribeEvent: func(e *historypb.HistoryEvent) string {
		if a := e.GetStartChildWorkflowExecutionInitiatedEventAttributes(); a != nil {
			return fmt.Sprintf("workflow %q, type %q", a.GetWorkflowId(), a.GetWorkflowType().GetName())
		}
		return fmt.Sprintf("of the child workflow initiated at event %d", childInitiatedID(e))
	},
})

// childInitiatedID is the initiated event ID a child's later event names.
func childInitiatedID(e *historypb.HistoryEvent) int64 {
	switch a := e.GetAttributes().(type) {
	case *historypb.HistoryEvent_StartChildWorkflowExecutionFailedEventAttributes:
		return a.StartChildWorkflowExecutionFailedEventAttributes.GetInitiatedEventId()
	case *historypb.HistoryEvent_ChildWorkflowExecutionStartedEventAttributes:
		return a.ChildWorkflowExecutionStartedEventAttributes.GetInitiatedEventId()
	case *historypb.HistoryEvent_ChildWorkflowExecutionCompletedEventAttributes:
		return a.ChildWorkflowExecutionCompletedEventAttributes.GetInitiatedEventId()
	case *historypb.HistoryEvent_ChildWorkflowExecutionFailedEventAttributes:
		return a.ChildWorkflowExecutionFailedEventAttributes.GetInitiatedEventId()
	case *historypb.HistoryEvent_ChildWorkflowExecutionTimedOutEventAttributes:
		return a.ChildWorkflowExecutionTimedOutEventAttributes.GetInitiatedEventId()
	case *historypb.HistoryEvent_ChildWorkflowExecutionCanceledEventAttributes:
		return a.ChildWorkflowExecutionCanceledEventAttributes.GetInitiatedEventId()
	case *historypb.HistoryEvent_ChildWorkflowExecutionTerminatedEventAttributes:
		return a.ChildWorkflowExecutionTerminatedEventAttributes.GetInitiatedEventId()
	}
	return 0
}

// ChildTable is the child workflow machine's transition table. It is set
// in init because a transition's action (a deferred cancel, once the child
// starts) fires the machine again.
var ChildTable *Table[*ChildWorkflow]

func init() {
	ChildTable = NewTable("child workflow",
		Row[*ChildWorkflow]{Created, InSent, CommandSent, nil},
		Row[*ChildWorkflow]{CommandSent, InInitiated, Initiated, (*ChildWorkflow).initiated},
		Row[*ChildWorkflow]{Initiated, InInitiationFailed, Failed, (*ChildWorkflow).startFailed},
		Row[*ChildWorkflow]{Initiated, InStarted, Started, (*ChildWorkflow).started},

		Row[*ChildWorkflow]{Started, InCompleted, Completed, (*ChildWorkflow).closed},
		Row[*ChildWorkflow]{Started, InFailed, Failed, (*ChildWorkflow).closed},
		Row[*ChildWorkflow]{Started, InTimedOut, TimedOut, (*ChildWorkflow).closed},
		Row[*ChildWorkflow]{Started, InCanceled, Canceled, (*ChildWorkflow).closed},
		Row[*ChildWorkflow]{Started, InTerminated, Terminated, (*ChildWorkflow).closed},
		Row[*ChildWorkflow]{Started, InCancel, CanceledAfterInitiated, (*ChildWorkflow).requestCancel},

		// The cancel request is out; the child may close before history
		// records it (then an unsent request is withdrawn).
		Row[*ChildWorkflow]{CanceledAfterInitiated, InCancelRecorded, CancelRequested, nil},
		Row[*ChildWorkflow]{CanceledAfterInitiated, InCompleted, Completed, (*ChildWorkflow).closed},
		Row[*ChildWorkflow]{CanceledAfterInitiated, InFailed, Failed, (*ChildWorkflow).closed},
		Row[*ChildWorkflow]{CanceledAfterInitiated, InTimedOut, TimedOut, (*ChildWorkflow).closed},
		Row[*ChildWorkflow]{CanceledAfterInitiated, InCanceled, Canceled, (*ChildWorkflow).closed},
		Row[*ChildWorkflow]{CanceledAfterInitiated, InTerminated, Terminated, (*ChildWorkflow).closed},

		Row[*ChildWorkflow]{CancelRequested, InCompleted, Completed, (*ChildWorkflow).closed},
		Row[*ChildWorkflow]{CancelRequested, InFailed, Failed, (*ChildWorkflow).closed},
		Row[*ChildWorkflow]{CancelRequested, InTimedOut, TimedOut, (*ChildWorkflow).closed},
		Row[*ChildWorkflow]{CancelRequested, InCanceled, Canceled, (*ChildWorkflow).closed},
		Row[*ChildWorkflow]{CancelRequested, InTerminated, Terminated, (*ChildWorkflow).closed},
	)
}

// StartChildWorkflow adds a StartChildWorkflowExecution command; the
// caller sets attrs.WorkflowId (by default from the run ID and NextSeq).
// The caller checks ChildOpen first: a second open child of one workflow
// ID is a programming error here.
func (b *Book) StartChildWorkflow(attrs *commandpb.StartChildWorkflowExecutionCommandAttributes, metadata *sdkpb.UserMetadata, calls ChildCallbacks) *ChildWorkflow {
	if b.ChildOpen(attrs.GetWorkflowId()) {
		panic(fmt.Sprintf("commands: child workflow %q is already open in this run", attrs.GetWorkflowId()))
	}
	c := &ChildWorkflow{book: b, attrs: attrs, calls: calls, seq: b.nextEvent(), groups: b.groups}
	b.add(&commandpb.Command{
		CommandType:       startChildKind.Command,
		Attributes:        &commandpb.Command_StartChildWorkflowExecutionCommandAttributes{StartChildWorkflowExecutionCommandAttributes: attrs},
		UserMetadata:      metadata,
		EventGroupMarkers: c.groups,
	}, c)
	b.route(c.key(), c)
	put(&b.openChildren, attrs.GetWorkflowId(), c)
	return c
}

// ChildOpen reports whether this run started a child with workflowID that
// has not closed (or failed to start) as far as the history applied so far
// says. go.temporal.io/sdk starts no second child of that ID: it fails the
// start at once, without a command, so its histories have none.
func (b *Book) ChildOpen(workflowID string) bool {
	return b.openChildren[workflowID] != nil
}

// done forgets the child: no more events concern it.
func (c *ChildWorkflow) done() {
	c.book.unroute(c.key())
	delete(c.book.openChildren, c.attrs.GetWorkflowId())
}

// Cancel asks to cancel the child: at once if it started, else once it
// does. Canceling a child that closed, or is being canceled, does nothing.
func (c *ChildWorkflow) Cancel() {
	switch c.st {
	case Created, CommandSent, Initiated:
		c.cancelAsked = true
	case Started:
		_, _ = c.fire(InCancel, nil) // canceling cannot fail
	}
}

// shiftEvent moves the unsent child's predicted event (see Book.takeBack).
func (c *ChildWorkflow) shiftEvent(delta int64) {
	c.book.unroute(c.key())
	c.seq += delta
	c.book.route(c.key(), c)
}

// State is where the child stands.
func (c *ChildWorkflow) State() State { return c.st }

// WorkflowID is the child's workflow ID.
func (c *ChildWorkflow) WorkflowID() string { return c.attrs.GetWorkflowId() }

// InitiatedEventID is the (predicted) ID of the child's initiated event.
func (c *ChildWorkflow) InitiatedEventID() int64 { return c.seq }

// RunID is the child's run ID, once it started.
func (c *ChildWorkflow) RunID() string { return c.runID }

func (c *ChildWorkflow) state() State { return c.st }

func (c *ChildWorkflow) fire(in Input, ev *historypb.HistoryEvent) (bool, error) {
	return ChildTable.fire(c, &c.st, in, ev)
}

func (c *ChildWorkflow) key() Key { return Key{ID: c.seq} }

func (c *ChildWorkflow) describe() string {
	return fmt.Sprintf("child workflow %q (type %q)", c.attrs.GetWorkflowId(), c.attrs.GetWorkflowType().GetName())
}

func (c *ChildWorkflow) initiated(ev *historypb.HistoryEvent) error {
	if id := ev.GetEventId(); id != c.seq {
		return &NondeterminismError{Event: ev, Reason: fmt.Sprintf(
			"%s was recorded at event %d, but the workflow code's commands place it at event %d: the code produced a different number of commands before it",
			c.describe(), id, c.seq)}
	}
	if id := ev.GetStartChildWorkflowExecutionInitiatedEventAttributes().GetWorkflowId(); id != c.attrs.GetWorkflowId() {
		return &NondeterminismError{Event: ev, Reason: fmt.Sprintf(
			"history has %s, but the workflow code started child workflow %q there: the workflow ID differs", DescribeEvent(ev), c.attrs.GetWorkflowId())}
	}
	return nil
}

func (c *ChildWorkflow) startFailed(ev *historypb.HistoryEvent) error {
	c.done()
	cause := ev.GetStartChildWorkflowExecutionFailedEventAttributes().GetCause()
	c.calls.Started("", cause)
	c.calls.Done(Outcome{Failure: c.wrap(&failurepb.Failure{Message: "start failed: " + cause.String()}, enumspb.RETRY_STATE_NON_RETRYABLE_FAILURE)})
	return nil
}

func (c *ChildWorkflow) started(ev *historypb.HistoryEvent) error {
	c.startedID = ev.GetEventId()
	c.runID = ev.GetChildWorkflowExecutionStartedEventAttributes().GetWorkflowExecution().GetRunId()
	c.calls.Started(c.runID, 0)
	if c.cancelAsked {
		_, _ = c.fire(InCancel, nil)
	}
	return nil
}

func (c *ChildWorkflow) requestCancel(*historypb.HistoryEvent) error {
	c.cancelReq = c.book.addCancelExternal(&commandpb.RequestCancelExternalWorkflowExecutionCommandAttributes{
		Namespace:         c.attrs.GetNamespace(),
		WorkflowId:        c.attrs.GetWorkflowId(),
		ChildWorkflowOnly: true,
	}, c, c.groups, func(ExternalOutcome) {})
	return nil
}

// closed delivers the child's outcome from its close event.
func (c *ChildWorkflow) closed(ev *historypb.HistoryEvent) error {
	c.cancelReq.targetClosed()
	c.done()
	switch a := ev.GetAttributes().(type) {
	case *historypb.HistoryEvent_ChildWorkflowExecutionCompletedEventAttributes:
		c.calls.Done(Outcome{Result: a.ChildWorkflowExecutionCompletedEventAttributes.GetResult()})
	case *historypb.HistoryEvent_ChildWorkflowExecutionFailedEventAttributes:
		f := a.ChildWorkflowExecutionFailedEventAttributes
		c.calls.Done(Outcome{Failure: c.wrap(f.GetFailure(), f.GetRetryState())})
	case *historypb.HistoryEvent_ChildWorkflowExecutionTimedOutEventAttributes:
		cause := &failurepb.Failure{Message: "Child workflow timeout", FailureInfo: &failurepb.Failure_TimeoutFailureInfo{
			TimeoutFailureInfo: &failurepb.TimeoutFailureInfo{TimeoutType: enumspb.TIMEOUT_TYPE_START_TO_CLOSE}}}
		c.calls.Done(Outcome{Failure: c.wrap(cause, a.ChildWorkflowExecutionTimedOutEventAttributes.GetRetryState())})
	case *historypb.HistoryEvent_ChildWorkflowExecutionCanceledEventAttributes:
		cause := canceledOutcome(a.ChildWorkflowExecutionCanceledEventAttributes.GetDetails()).Failure
		c.calls.Done(Outcome{Failure: c.wrap(cause, enumspb.RETRY_STATE_NON_RETRYABLE_FAILURE)})
	case *historypb.HistoryEvent_ChildWorkflowExecutionTerminatedEventAttributes:
		cause := &failurepb.Failure{Message: "terminated", FailureInfo: &failurepb.Failure_TerminatedFailureInfo{TerminatedFailureInfo: &failurepb.TerminatedFailureInfo{}}}
		c.calls.Done(Outcome{Failure: c.wrap(cause, enumspb.RETRY_STATE_NON_RETRYABLE_FAILURE)})
	}
	return nil
}

// wrap makes the failure a child workflow failure about this child, which
// the failure converter turns into a *ChildWorkflowExecutionError with
// cause.
func (c *ChildWorkflow) wrap(cause *failurepb.Failure, retry enumspb.RetryState) *failurepb.Failure {
	return &failurepb.Failure{
		Message: "child workflow execution error",
		Cause:   cause,
		FailureInfo: &failurepb.Failure_ChildWorkflowExecutionFailureInfo{ChildWorkflowExecutionFailureInfo: &failurepb.ChildWorkflowExecutionFailureInfo{
			Namespace:         c.attrs.GetNamespace(),
			WorkflowExecution: &commonpb.WorkflowExecution{WorkflowId: c.attrs.GetWorkflowId(), RunId: c.runID},
			WorkflowType:      c.attrs.GetWorkflowType(),
			InitiatedEventId:  c.seq,
			StartedEventId:    c.startedID,
			RetryState:        retry,
		}},
	}
}
