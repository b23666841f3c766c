//lint:file-ignore SA1019 the tests check the deprecated control field go.temporal.io/sdk still sends.

package commands

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"
)

// event makes an event of type t with attrs, an attributes wrapper.
func event(t enumspb.EventType, id int64, attrs any) *historypb.HistoryEvent {
	ev := &historypb.HistoryEvent{EventId: id, EventType: t}
	reflect.ValueOf(&ev.Attributes).Elem().Set(reflect.ValueOf(attrs))
	return ev
}

func childInitiatedEvent(id int64, workflowID, typ string) *historypb.HistoryEvent {
	return event(enumspb.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED, id, &historypb.HistoryEvent_StartChildWorkflowExecutionInitiatedEventAttributes{
		StartChildWorkflowExecutionInitiatedEventAttributes: &historypb.StartChildWorkflowExecutionInitiatedEventAttributes{
			WorkflowId: workflowID, WorkflowType: &commonpb.WorkflowType{Name: typ}}})
}

// childEvent makes the later event of a child initiated at initiated.
func childEvent(in Input, id, initiated int64) *historypb.HistoryEvent {
	exec := &commonpb.WorkflowExecution{WorkflowId: "child-1", RunId: "run-9"}
	switch in {
	case InInitiationFailed:
		return event(enumspb.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_FAILED, id, &historypb.HistoryEvent_StartChildWorkflowExecutionFailedEventAttributes{
			StartChildWorkflowExecutionFailedEventAttributes: &historypb.StartChildWorkflowExecutionFailedEventAttributes{InitiatedEventId: initiated,
				Cause: enumspb.START_CHILD_WORKFLOW_EXECUTION_FAILED_CAUSE_WORKFLOW_ALREADY_EXISTS}})
	case InStarted:
		return event(enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED, id, &historypb.HistoryEvent_ChildWorkflowExecutionStartedEventAttributes{
			ChildWorkflowExecutionStartedEventAttributes: &historypb.ChildWorkflowExecutionStartedEventAttributes{InitiatedEventId: initiated, WorkflowExecution: exec}})
	case InCompleted:
		return event(enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED, id, &historypb.HistoryEvent_ChildWorkflowExecutionCompletedEventAttributes{
			ChildWorkflowExecutionCompletedEventAttributes: &historypb.ChildWorkflowExecutionCompletedEventAttributes{InitiatedEventId: initiated,
				Result: &commonpb.Payloads{Payloads: []*commonpb.Payload{{Data: []byte(`"done"`)}}}}})
	case InFailed:
		return event(enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_FAILED, id, &historypb.HistoryEvent_ChildWorkflowExecutionFailedEventAttributes{
			ChildWorkflowExecutionFailedEventAttributes: &historypb.ChildWorkflowExecutionFailedEventAttributes{InitiatedEventId: initiated,
				Failure: &failurepb.Failure{Message: "boom"}, RetryState: enumspb.RETRY_STATE_RETRY_POLICY_NOT_SET}})
	case InTimedOut:
		return event(enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_TIMED_OUT, id, &historypb.HistoryEvent_ChildWorkflowExecutionTimedOutEventAttributes{
			ChildWorkflowExecutionTimedOutEventAttributes: &historypb.ChildWorkflowExecutionTimedOutEventAttributes{InitiatedEventId: initiated}})
	case InCanceled:
		return event(enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_CANCELED, id, &historypb.HistoryEvent_ChildWorkflowExecutionCanceledEventAttributes{
			ChildWorkflowExecutionCanceledEventAttributes: &historypb.ChildWorkflowExecutionCanceledEventAttributes{InitiatedEventId: initiated}})
	case InTerminated:
		return event(enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_TERMINATED, id, &historypb.HistoryEvent_ChildWorkflowExecutionTerminatedEventAttributes{
			ChildWorkflowExecutionTerminatedEventAttributes: &historypb.ChildWorkflowExecutionTerminatedEventAttributes{InitiatedEventId: initiated}})
	}
	panic("no child event for " + in.String())
}

func cancelExternalInitiatedEvent(id int64, workflowID string) *historypb.HistoryEvent {
	return event(enumspb.EVENT_TYPE_REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED, id, &historypb.HistoryEvent_RequestCancelExternalWorkflowExecutionInitiatedEventAttributes{
		RequestCancelExternalWorkflowExecutionInitiatedEventAttributes: &historypb.RequestCancelExternalWorkflowExecutionInitiatedEventAttributes{
			WorkflowExecution: &commonpb.WorkflowExecution{WorkflowId: workflowID}, ChildWorkflowOnly: true}})
}

// childFixture is a Book with one child, and what became of it.
type childFixture struct {
	t        *testing.T
	book     *Book
	child    *ChildWorkflow
	runIDs   []string
	causes   []enumspb.StartChildWorkflowExecutionFailedCause
	outcomes []Outcome
}

func newChildFixture(t *testing.T) *childFixture {
	f := &childFixture{t: t, book: NewBook()}
	f.book.BeginTask(taskStarted)
	f.child = f.book.StartChildWorkflow(&commandpb.StartChildWorkflowExecutionCommandAttributes{
		WorkflowId: "child-1", WorkflowType: &commonpb.WorkflowType{Name: "Child"}}, nil, ChildCallbacks{
		Started: func(runID string, cause enumspb.StartChildWorkflowExecutionFailedCause) {
			f.runIDs = append(f.runIDs, runID)
			f.causes = append(f.causes, cause)
		},
		Done: func(o Outcome) { f.outcomes = append(f.outcomes, o) },
	})
	return f
}

func (f *childFixture) apply(ev *historypb.HistoryEvent) {
	f.t.Helper()
	if _, err := f.book.Apply(ev); err != nil {
		f.t.Fatalf("apply %s: %v", DescribeEvent(ev), err)
	}
}

// driveTo brings the child to state s along its ordinary path.
func (f *childFixture) driveTo(s State) {
	f.t.Helper()
	switch s {
	case Created:
	case CommandSent:
		f.book.TakeCommands()
	case Initiated:
		f.driveTo(CommandSent)
		f.apply(childInitiatedEvent(5, "child-1", "Child"))
	case Started:
		f.driveTo(Initiated)
		f.apply(childEvent(InStarted, 6, 5))
	case CanceledAfterInitiated:
		f.driveTo(Started)
		f.child.Cancel()
	case CancelRequested:
		f.driveTo(CanceledAfterInitiated)
		f.book.BeginTask(9)
		f.book.TakeCommands()
		f.apply(cancelExternalInitiatedEvent(11, "child-1"))
	default:
		f.t.Fatalf("no path to %v", s)
	}
	if got := f.child.State(); got != s {
		f.t.Fatalf("driving to %v ended in %v", s, got)
	}
}

// TestChildTableRows takes every row of the child table from its start
// state and checks the end state and what the code was told.
func TestChildTableRows(t *testing.T) {
	for _, r := range ChildTable.Rows() {
		t.Run(r.From.String()+"/"+r.On.String(), func(t *testing.T) {
			f := newChildFixture(t)
			f.driveTo(r.From)
			outcomes := len(f.outcomes)
			switch r.On {
			case InSent:
				f.book.TakeCommands()
			case InInitiated:
				f.apply(childInitiatedEvent(5, "child-1", "Child"))
			case InCancel:
				f.child.Cancel()
				cmds := f.book.TakeCommands()
				if len(cmds) != 1 || !cmds[0].GetRequestCancelExternalWorkflowExecutionCommandAttributes().GetChildWorkflowOnly() {
					t.Fatalf("canceling a started child sends a child-only cancel request, got %v", cmds)
				}
			case InCancelRecorded:
				f.book.BeginTask(9)
				f.book.TakeCommands()
				f.apply(cancelExternalInitiatedEvent(11, "child-1"))
			default:
				f.apply(childEvent(r.On, 20, 5))
			}
			if got := f.child.State(); got != r.To {
				t.Fatalf("state %v, want %v", got, r.To)
			}
			switch r.On {
			case InStarted:
				if len(f.runIDs) != 1 || f.runIDs[0] != "run-9" || f.child.RunID() != "run-9" {
					t.Fatalf("the code must learn the child's run, got %v", f.runIDs)
				}
			case InInitiationFailed:
				if len(f.causes) != 1 || f.causes[0] != enumspb.START_CHILD_WORKFLOW_EXECUTION_FAILED_CAUSE_WORKFLOW_ALREADY_EXISTS || len(f.outcomes) != 1 {
					t.Fatalf("a start failure must reach both callbacks, got %v %v", f.causes, f.outcomes)
				}
			case InCompleted:
				if len(f.outcomes) != outcomes+1 || string(f.outcomes[0].Result.GetPayloads()[0].GetData()) != `"done"` {
					t.Fatalf("want the result, got %v", f.outcomes)
				}
			case InFailed, InTimedOut, InCanceled, InTerminated:
				if len(f.outcomes) != outcomes+1 {
					t.Fatalf("want one outcome, got %v", f.outcomes)
				}
				info := f.outcomes[0].Failure.GetChildWorkflowExecutionFailureInfo()
				if info == nil || info.GetWorkflowExecution().GetWorkflowId() != "child-1" || info.GetInitiatedEventId() != 5 || f.outcomes[0].Failure.GetCause() == nil {
					t.Fatalf("a child's failure names the child and has a cause, got %v", f.outcomes[0].Failure)
				}
			}
			if len(f.outcomes) > 1 {
				t.Fatalf("outcome delivered %d times", len(f.outcomes))
			}
		})
	}
}

func TestChildCanceledBeforeItStartsIsCanceledWhenItStarts(t *testing.T) {
	f := newChildFixture(t)
	f.child.Cancel()
	if cmds := f.book.TakeCommands(); len(cmds) != 1 || cmds[0].GetStartChildWorkflowExecutionCommandAttributes() == nil {
		t.Fatalf("only the start goes out before the child starts, got %v", cmds)
	}
	f.apply(childInitiatedEvent(5, "child-1", "Child"))
	// The child starts while the next task is built: its cancel request is
	// made by the event, before the task's WorkflowTaskStarted at 8.
	f.apply(childEvent(InStarted, 6, 5))
	if f.child.State() != CanceledAfterInitiated {
		t.Fatalf("state %v", f.child.State())
	}
	f.book.BeginTask(8)
	cmds := f.book.TakeCommands()
	if len(cmds) != 1 || cmds[0].GetRequestCancelExternalWorkflowExecutionCommandAttributes().GetWorkflowId() != "child-1" {
		t.Fatalf("want the cancel request now, got %v", cmds)
	}
	// History records it at 10, where the server writes it; the request
	// is found by its initiated event from then on.
	f.apply(cancelExternalInitiatedEvent(10, "child-1"))
	f.apply(event(enumspb.EVENT_TYPE_EXTERNAL_WORKFLOW_EXECUTION_CANCEL_REQUESTED, 11, &historypb.HistoryEvent_ExternalWorkflowExecutionCancelRequestedEventAttributes{
		ExternalWorkflowExecutionCancelRequestedEventAttributes: &historypb.ExternalWorkflowExecutionCancelRequestedEventAttributes{InitiatedEventId: 10}}))
	f.apply(childEvent(InCanceled, 14, 5))
	if f.child.State() != Canceled || len(f.outcomes) != 1 || f.outcomes[0].Failure.GetCause().GetCanceledFailureInfo() == nil {
		t.Fatalf("state %v outcomes %v", f.child.State(), f.outcomes)
	}
}

func TestChildClosingWithdrawsAnUnsentCancelRequest(t *testing.T) {
	f := newChildFixture(t)
	f.driveTo(CanceledAfterInitiated)
	f.apply(childEvent(InCompleted, 9, 5))
	if cmds := f.book.TakeCommands(); len(cmds) != 0 {
		t.Fatalf("the cancel request of a closed child must not go out, got %v", cmds)
	}
}

// A child is open, for the purpose of refusing a second child of its
// workflow ID as go.temporal.io/sdk does, from its start until history
// says it closed or could not start.
func TestChildIsOpenUntilItClosesOrCannotStart(t *testing.T) {
	for _, end := range []Input{InCompleted, InFailed, InTimedOut, InCanceled, InTerminated, InInitiationFailed} {
		t.Run(end.String(), func(t *testing.T) {
			f := newChildFixture(t)
			if !f.book.ChildOpen("child-1") || f.book.ChildOpen("child-2") {
				t.Fatal("a child is open once started, and only it")
			}
			from := Started
			if end == InInitiationFailed {
				from = Initiated
			}
			f.driveTo(from)
			if !f.book.ChildOpen("child-1") {
				t.Fatalf("a child is open in state %v", from)
			}
			f.apply(childEvent(end, 20, 5))
			if f.book.ChildOpen("child-1") {
				t.Fatalf("a child is no longer open after %v", end)
			}
			// The workflow ID is free for a new child.
			f.book.BeginTask(23)
			again := f.book.StartChildWorkflow(&commandpb.StartChildWorkflowExecutionCommandAttributes{
				WorkflowId: "child-1", WorkflowType: &commonpb.WorkflowType{Name: "Child"}}, nil, ChildCallbacks{})
			if again.InitiatedEventID() != 25 || !f.book.ChildOpen("child-1") {
				t.Fatalf("a new child of a closed one's ID starts, got %v", again.InitiatedEventID())
			}
		})
	}
}

func TestStartingASecondOpenChildOfOneIDPanics(t *testing.T) {
	f := newChildFixture(t)
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), `child workflow "child-1" is already open`) {
			t.Fatalf("want a panic naming the child, got %v", r)
		}
	}()
	f.book.StartChildWorkflow(&commandpb.StartChildWorkflowExecutionCommandAttributes{
		WorkflowId: "child-1", WorkflowType: &commonpb.WorkflowType{Name: "Child"}}, nil, ChildCallbacks{})
}

func TestChildRenamedOrMovedIsNondeterminism(t *testing.T) {
	for name, ev := range map[string]*historypb.HistoryEvent{
		"renamed": childInitiatedEvent(5, "child-1", "OtherChild"),
		"moved":   childInitiatedEvent(6, "child-1", "Child"),
		"new ID":  childInitiatedEvent(5, "child-2", "Child"),
	} {
		t.Run(name, func(t *testing.T) {
			f := newChildFixture(t)
			f.book.TakeCommands()
			_, err := f.book.Apply(ev)
			var nd *NondeterminismError
			if !asNondeterminism(err, &nd) || !strings.Contains(err.Error(), "child") {
				t.Fatalf("want a non-determinism error about the child, got %v", err)
			}
			// The error names the command the code made there, whichever
			// check found the mismatch.
			if nd.Command.GetStartChildWorkflowExecutionCommandAttributes().GetWorkflowId() != "child-1" {
				t.Errorf("the error's Command is %v, want the code's StartChildWorkflowExecution of child-1", nd.Command)
			}
		})
	}
}

// externalFixture is a Book with one signal or cancel request to another
// workflow.
type externalFixture struct {
	book     *Book
	outcomes []ExternalOutcome
}

func signalExternalEvent(t enumspb.EventType, id, initiated int64) *historypb.HistoryEvent {
	switch t {
	case enumspb.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED:
		return event(t, id, &historypb.HistoryEvent_SignalExternalWorkflowExecutionInitiatedEventAttributes{
			SignalExternalWorkflowExecutionInitiatedEventAttributes: &historypb.SignalExternalWorkflowExecutionInitiatedEventAttributes{
				SignalName: "note", WorkflowExecution: &commonpb.WorkflowExecution{WorkflowId: "other"}}})
	case enumspb.EVENT_TYPE_EXTERNAL_WORKFLOW_EXECUTION_SIGNALED:
		return event(t, id, &historypb.HistoryEvent_ExternalWorkflowExecutionSignaledEventAttributes{
			ExternalWorkflowExecutionSignaledEventAttributes: &historypb.ExternalWorkflowExecutionSignaledEventAttributes{InitiatedEventId: initiated}})
	case enumspb.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_FAILED:
		return event(t, id, &historypb.HistoryEvent_SignalExternalWorkflowExecutionFailedEventAttributes{
			SignalExternalWorkflowExecutionFailedEventAttributes: &historypb.SignalExternalWorkflowExecutionFailedEventAttributes{InitiatedEventId: initiated,
				Cause: enumspb.SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_FAILED_CAUSE_EXTERNAL_WORKFLOW_EXECUTION_NOT_FOUND}})
	}
	panic("no signal event " + t.String())
}

func TestSignalExternalTableRows(t *testing.T) {
	for _, r := range SignalExternalTable.Rows() {
		t.Run(r.From.String()+"/"+r.On.String(), func(t *testing.T) {
			f := &externalFixture{book: NewBook()}
			f.book.BeginTask(taskStarted)
			s := f.book.SignalExternal(&commandpb.SignalExternalWorkflowExecutionCommandAttributes{SignalName: "note",
				Execution: &commonpb.WorkflowExecution{WorkflowId: "other"}}, func(o ExternalOutcome) { f.outcomes = append(f.outcomes, o) })
			steps := []func() error{
				func() error { f.book.TakeCommands(); return nil },
				func() error {
					_, err := f.book.Apply(signalExternalEvent(enumspb.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED, 5, 0))
					return err
				},
			}
			for _, step := range steps[:int(r.From)] {
				if err := step(); err != nil {
					t.Fatal(err)
				}
			}
			var err error
			switch r.On {
			case InSent, InInitiated:
				err = steps[int(r.From)]()
			case InCompleted:
				_, err = f.book.Apply(signalExternalEvent(enumspb.EVENT_TYPE_EXTERNAL_WORKFLOW_EXECUTION_SIGNALED, 8, 5))
			case InInitiationFailed:
				_, err = f.book.Apply(signalExternalEvent(enumspb.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_FAILED, 8, 5))
			}
			if err != nil || s.State() != r.To {
				t.Fatalf("state %v (%v), want %v", s.State(), err, r.To)
			}
			if r.On == InInitiationFailed && (len(f.outcomes) != 1 || !f.outcomes[0].NotFound) {
				t.Fatalf("want a not-found outcome, got %v", f.outcomes)
			}
			if r.On == InCompleted && (len(f.outcomes) != 1 || f.outcomes[0].Failed) {
				t.Fatalf("want a delivered outcome, got %v", f.outcomes)
			}
			if r.On == InSent && s.attrs.GetControl() != "5" {
				t.Fatalf("the signal's control is its sequence number, got %q", s.attrs.GetControl())
			}
		})
	}
}

func TestCancelExternalTableRows(t *testing.T) {
	initiated := func(id int64) *historypb.HistoryEvent {
		return event(enumspb.EVENT_TYPE_REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED, id, &historypb.HistoryEvent_RequestCancelExternalWorkflowExecutionInitiatedEventAttributes{
			RequestCancelExternalWorkflowExecutionInitiatedEventAttributes: &historypb.RequestCancelExternalWorkflowExecutionInitiatedEventAttributes{
				WorkflowExecution: &commonpb.WorkflowExecution{WorkflowId: "other"}}})
	}
	requested := event(enumspb.EVENT_TYPE_EXTERNAL_WORKFLOW_EXECUTION_CANCEL_REQUESTED, 8, &historypb.HistoryEvent_ExternalWorkflowExecutionCancelRequestedEventAttributes{
		ExternalWorkflowExecutionCancelRequestedEventAttributes: &historypb.ExternalWorkflowExecutionCancelRequestedEventAttributes{InitiatedEventId: 5}})
	failed := event(enumspb.EVENT_TYPE_REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION_FAILED, 8, &historypb.HistoryEvent_RequestCancelExternalWorkflowExecutionFailedEventAttributes{
		RequestCancelExternalWorkflowExecutionFailedEventAttributes: &historypb.RequestCancelExternalWorkflowExecutionFailedEventAttributes{InitiatedEventId: 5,
			Cause: enumspb.CANCEL_EXTERNAL_WORKFLOW_EXECUTION_FAILED_CAUSE_NAMESPACE_NOT_FOUND}})
	for _, r := range CancelExternalTable.Rows() {
		t.Run(r.From.String()+"/"+r.On.String(), func(t *testing.T) {
			var outcomes []ExternalOutcome
			book := NewBook()
			book.BeginTask(taskStarted)
			c := book.CancelExternal(&commandpb.RequestCancelExternalWorkflowExecutionCommandAttributes{WorkflowId: "other"},
				func(o ExternalOutcome) { outcomes = append(outcomes, o) })
			if r.From >= CommandSent {
				book.TakeCommands()
			}
			if r.From >= Initiated {
				if _, err := book.Apply(initiated(5)); err != nil {
					t.Fatal(err)
				}
			}
			var err error
			switch r.On {
			case InSent:
				book.TakeCommands()
			case InTargetClosed:
				c.targetClosed()
				if cmds := book.TakeCommands(); len(cmds) != 0 {
					t.Fatalf("a withdrawn request is not sent, got %v", cmds)
				}
			case InInitiated:
				_, err = book.Apply(initiated(5))
			case InCompleted:
				_, err = book.Apply(requested)
			case InInitiationFailed:
				_, err = book.Apply(failed)
			}
			if err != nil || c.State() != r.To {
				t.Fatalf("state %v (%v), want %v", c.State(), err, r.To)
			}
			if r.On == InInitiationFailed && (len(outcomes) != 1 || !outcomes[0].NamespaceNotFound) {
				t.Fatalf("want a namespace-not-found outcome, got %v", outcomes)
			}
		})
	}
}
