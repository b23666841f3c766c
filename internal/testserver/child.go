//lint:file-ignore SA1019 the deprecated namespace and control fields are what SDKs send and histories record.

package testserver

import (
	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"google.golang.org/protobuf/proto"
)

// parentLink ties a child's runs to the parent that started it: the
// parent hears of the child's start and of its end (the end of its last
// run, after any continue-as-new).
type parentLink struct {
	parent      *run
	initiatedID int64
	// startedEvent is the parent's ChildWorkflowExecutionStarted, whose
	// ID the child's close event names (known once it is written).
	startedEvent *historypb.HistoryEvent
	policy       enumspb.ParentClosePolicy
}

// startChild makes a StartChildWorkflowExecutionInitiated event; once
// written, the child starts (or cannot, when a run of its ID is open) and
// the parent hears of it after the task's command events.
func (s *Server) startChild(r *run, completedID int64, a *commandpb.StartChildWorkflowExecutionCommandAttributes) (*historypb.HistoryEvent, func(int64)) {
	taskQueue := a.GetTaskQueue()
	if taskQueue.GetName() == "" {
		taskQueue = r.started.GetTaskQueue()
	}
	namespace := a.GetNamespace()
	if namespace == "" {
		namespace = s.opts.Namespace
	}
	ev := newEvent(enumspb.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED, &historypb.HistoryEvent_StartChildWorkflowExecutionInitiatedEventAttributes{
		StartChildWorkflowExecutionInitiatedEventAttributes: &historypb.StartChildWorkflowExecutionInitiatedEventAttributes{
			Namespace: namespace, WorkflowId: a.GetWorkflowId(), WorkflowType: a.GetWorkflowType(), TaskQueue: taskQueue, Input: a.GetInput(),
			WorkflowExecutionTimeout: a.GetWorkflowExecutionTimeout(), WorkflowRunTimeout: a.GetWorkflowRunTimeout(), WorkflowTaskTimeout: a.GetWorkflowTaskTimeout(),
			ParentClosePolicy: a.GetParentClosePolicy(), Control: a.GetControl(), WorkflowTaskCompletedEventId: completedID,
			WorkflowIdReusePolicy: a.GetWorkflowIdReusePolicy(), RetryPolicy: a.GetRetryPolicy(), CronSchedule: a.GetCronSchedule(),
			Header: a.GetHeader(), Memo: a.GetMemo(), SearchAttributes: a.GetSearchAttributes(), InheritBuildId: a.GetInheritBuildId(), Priority: a.GetPriority(),
		}})
	return ev, func(initiatedID int64) {
		if prev := s.latest[a.GetWorkflowId()]; prev != nil && !prev.closed || s.refuseChild(a) {
			s.deliver(r, enumspb.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_FAILED, &historypb.HistoryEvent_StartChildWorkflowExecutionFailedEventAttributes{
				StartChildWorkflowExecutionFailedEventAttributes: &historypb.StartChildWorkflowExecutionFailedEventAttributes{
					Namespace: namespace, WorkflowId: a.GetWorkflowId(), WorkflowType: a.GetWorkflowType(), InitiatedEventId: initiatedID,
					Cause: enumspb.START_CHILD_WORKFLOW_EXECUTION_FAILED_CAUSE_WORKFLOW_ALREADY_EXISTS, Control: a.GetControl(), WorkflowTaskCompletedEventId: completedID,
				}}, true)
			return
		}
		root := r.started.GetRootWorkflowExecution()
		if root == nil {
			root = r.execution
		}
		// The child's started event carries the summary and details its
		// parent gave (the initiated event's user metadata), as a server's.
		child := s.startWithLocked(a.GetWorkflowId(), "", &historypb.WorkflowExecutionStartedEventAttributes{
			WorkflowType: a.GetWorkflowType(), TaskQueue: taskQueue, Input: a.GetInput(), Header: a.GetHeader(),
			WorkflowExecutionTimeout: a.GetWorkflowExecutionTimeout(), WorkflowRunTimeout: a.GetWorkflowRunTimeout(), WorkflowTaskTimeout: a.GetWorkflowTaskTimeout(),
			ParentWorkflowNamespace: s.opts.Namespace, ParentWorkflowExecution: proto.CloneOf(r.execution), ParentInitiatedEventId: initiatedID,
			RootWorkflowExecution: proto.CloneOf(root), RetryPolicy: a.GetRetryPolicy(), CronSchedule: a.GetCronSchedule(),
			Memo: a.GetMemo(), SearchAttributes: a.GetSearchAttributes(), Priority: a.GetPriority(), Identity: r.started.GetIdentity(),
		}, StartEvent{UserMetadata: clone(ev.GetUserMetadata())}, nil)
		link := &parentLink{parent: r, initiatedID: initiatedID, policy: a.GetParentClosePolicy()}
		child.parent = link
		r.children = append(r.children, child)
		s.deliverToParent(link, enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED, &historypb.HistoryEvent_ChildWorkflowExecutionStartedEventAttributes{
			ChildWorkflowExecutionStartedEventAttributes: &historypb.ChildWorkflowExecutionStartedEventAttributes{
				Namespace: namespace, InitiatedEventId: initiatedID, WorkflowExecution: proto.CloneOf(child.execution),
				WorkflowType: a.GetWorkflowType(), Header: a.GetHeader(),
			}})
	}
}

// refuseChild asks the StartChild hook whether a child must fail to
// start (a mocked start failure).
func (s *Server) refuseChild(a *commandpb.StartChildWorkflowExecutionCommandAttributes) bool {
	return s.opts.StartChild != nil && !s.opts.StartChild(a)
}

// deliverToParent adds a child's event to its parent's history; the
// parent's ChildWorkflowExecutionStarted ID is learned on the way.
func (s *Server) deliverToParent(link *parentLink, t enumspb.EventType, attrs any) {
	if link.parent.closed {
		return
	}
	s.deliver(link.parent, t, attrs, true)
	if t == enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED {
		if n := len(link.parent.buffer); n > 0 && link.parent.buffer[n-1].GetEventType() == t {
			link.startedEvent = link.parent.buffer[n-1]
		} else {
			link.startedEvent = link.parent.history[len(link.parent.history)-1]
		}
	}
}

// childClosed tells the parent how its child ended: the event of the
// run's close, turned into the parent's child event.
func (s *Server) childClosed(child *run, closeEvent *historypb.HistoryEvent) {
	link := child.parent
	if link == nil || !closesForGood(closeEvent) {
		return // the chain goes on in another run
	}
	link.parent.children = removeRun(link.parent.children, child)
	exec, typ := proto.CloneOf(child.execution), child.started.GetWorkflowType()
	startedID := link.startedEvent.GetEventId()
	switch a := closeEvent.GetAttributes().(type) {
	case *historypb.HistoryEvent_WorkflowExecutionCompletedEventAttributes:
		s.deliverToParent(link, enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED, &historypb.HistoryEvent_ChildWorkflowExecutionCompletedEventAttributes{
			ChildWorkflowExecutionCompletedEventAttributes: &historypb.ChildWorkflowExecutionCompletedEventAttributes{
				Result: a.WorkflowExecutionCompletedEventAttributes.GetResult(), Namespace: s.opts.Namespace, WorkflowExecution: exec,
				WorkflowType: typ, InitiatedEventId: link.initiatedID, StartedEventId: startedID}})
	case *historypb.HistoryEvent_WorkflowExecutionFailedEventAttributes:
		s.deliverToParent(link, enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_FAILED, &historypb.HistoryEvent_ChildWorkflowExecutionFailedEventAttributes{
			ChildWorkflowExecutionFailedEventAttributes: &historypb.ChildWorkflowExecutionFailedEventAttributes{
				Failure: a.WorkflowExecutionFailedEventAttributes.GetFailure(), Namespace: s.opts.Namespace, WorkflowExecution: exec,
				WorkflowType: typ, InitiatedEventId: link.initiatedID, StartedEventId: startedID,
				RetryState: a.WorkflowExecutionFailedEventAttributes.GetRetryState()}})
	case *historypb.HistoryEvent_WorkflowExecutionCanceledEventAttributes:
		s.deliverToParent(link, enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_CANCELED, &historypb.HistoryEvent_ChildWorkflowExecutionCanceledEventAttributes{
			ChildWorkflowExecutionCanceledEventAttributes: &historypb.ChildWorkflowExecutionCanceledEventAttributes{
				Details: a.WorkflowExecutionCanceledEventAttributes.GetDetails(), Namespace: s.opts.Namespace, WorkflowExecution: exec,
				WorkflowType: typ, InitiatedEventId: link.initiatedID, StartedEventId: startedID}})
	case *historypb.HistoryEvent_WorkflowExecutionTimedOutEventAttributes:
		s.deliverToParent(link, enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_TIMED_OUT, &historypb.HistoryEvent_ChildWorkflowExecutionTimedOutEventAttributes{
			ChildWorkflowExecutionTimedOutEventAttributes: &historypb.ChildWorkflowExecutionTimedOutEventAttributes{
				Namespace: s.opts.Namespace, WorkflowExecution: exec, WorkflowType: typ, InitiatedEventId: link.initiatedID,
				StartedEventId: startedID, RetryState: a.WorkflowExecutionTimedOutEventAttributes.GetRetryState()}})
	case *historypb.HistoryEvent_WorkflowExecutionTerminatedEventAttributes:
		s.deliverToParent(link, enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_TERMINATED, &historypb.HistoryEvent_ChildWorkflowExecutionTerminatedEventAttributes{
			ChildWorkflowExecutionTerminatedEventAttributes: &historypb.ChildWorkflowExecutionTerminatedEventAttributes{
				Namespace: s.opts.Namespace, WorkflowExecution: exec, WorkflowType: typ, InitiatedEventId: link.initiatedID, StartedEventId: startedID}})
	}
}

// applyParentClosePolicy does to a closed parent's open children what
// their policy says: terminate (the default), request cancel, or nothing.
func (s *Server) applyParentClosePolicy(parent *run) {
	children := parent.children
	parent.children = nil
	for _, child := range children {
		if child.closed || child.parent == nil {
			continue
		}
		switch child.parent.policy {
		case enumspb.PARENT_CLOSE_POLICY_ABANDON:
		case enumspb.PARENT_CLOSE_POLICY_REQUEST_CANCEL:
			s.deliver(child, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCEL_REQUESTED, &historypb.HistoryEvent_WorkflowExecutionCancelRequestedEventAttributes{
				WorkflowExecutionCancelRequestedEventAttributes: &historypb.WorkflowExecutionCancelRequestedEventAttributes{
					Cause: "by parent close policy", ExternalWorkflowExecution: proto.CloneOf(parent.execution)}}, true)
		default:
			s.terminateLocked(child, "by parent close policy", nil, "")
		}
	}
}

func removeRun(runs []*run, r *run) []*run {
	for i, x := range runs {
		if x == r {
			return append(runs[:i], runs[i+1:]...)
		}
	}
	return runs
}

// findTarget finds the open run a signal or cancel request is for: the
// given run, or the newest run of the workflow; a child-only request must
// target a child of from.
func (s *Server) findTarget(from *run, execution *commonpb.WorkflowExecution, childOnly bool) *run {
	r, err := s.runLocked(execution)
	if err != nil || r.closed {
		return nil
	}
	if childOnly && (r.parent == nil || r.parent.parent != from) {
		return nil
	}
	return r
}

// signalExternal makes a SignalExternalWorkflowExecutionInitiated event;
// once written, the signal reaches its target, and the sender hears
// whether it did.
func (s *Server) signalExternal(r *run, completedID int64, a *commandpb.SignalExternalWorkflowExecutionCommandAttributes) (*historypb.HistoryEvent, func(int64)) {
	namespace := a.GetNamespace()
	if namespace == "" {
		namespace = s.opts.Namespace
	}
	ev := newEvent(enumspb.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED, &historypb.HistoryEvent_SignalExternalWorkflowExecutionInitiatedEventAttributes{
		SignalExternalWorkflowExecutionInitiatedEventAttributes: &historypb.SignalExternalWorkflowExecutionInitiatedEventAttributes{
			WorkflowTaskCompletedEventId: completedID, Namespace: namespace, WorkflowExecution: a.GetExecution(), SignalName: a.GetSignalName(),
			Input: a.GetInput(), Control: a.GetControl(), ChildWorkflowOnly: a.GetChildWorkflowOnly(), Header: a.GetHeader(),
		}})
	return ev, func(initiatedID int64) {
		target := s.findTarget(r, a.GetExecution(), a.GetChildWorkflowOnly())
		if target == nil {
			s.deliver(r, enumspb.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_FAILED, &historypb.HistoryEvent_SignalExternalWorkflowExecutionFailedEventAttributes{
				SignalExternalWorkflowExecutionFailedEventAttributes: &historypb.SignalExternalWorkflowExecutionFailedEventAttributes{
					Cause: enumspb.SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_FAILED_CAUSE_EXTERNAL_WORKFLOW_EXECUTION_NOT_FOUND, WorkflowTaskCompletedEventId: completedID,
					Namespace: namespace, WorkflowExecution: a.GetExecution(), InitiatedEventId: initiatedID, Control: a.GetControl()}}, true)
			return
		}
		s.deliver(target, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED, &historypb.HistoryEvent_WorkflowExecutionSignaledEventAttributes{
			WorkflowExecutionSignaledEventAttributes: &historypb.WorkflowExecutionSignaledEventAttributes{
				SignalName: a.GetSignalName(), Input: a.GetInput(), Header: a.GetHeader(), Identity: r.started.GetIdentity(),
				ExternalWorkflowExecution: proto.CloneOf(r.execution)}}, true)
		s.deliver(r, enumspb.EVENT_TYPE_EXTERNAL_WORKFLOW_EXECUTION_SIGNALED, &historypb.HistoryEvent_ExternalWorkflowExecutionSignaledEventAttributes{
			ExternalWorkflowExecutionSignaledEventAttributes: &historypb.ExternalWorkflowExecutionSignaledEventAttributes{
				InitiatedEventId: initiatedID, Namespace: namespace, WorkflowExecution: proto.CloneOf(target.execution), Control: a.GetControl()}}, true)
	}
}

// cancelExternal makes a RequestCancelExternalWorkflowExecutionInitiated
// event; once written, the request reaches its target, and the sender
// hears whether it did.
func (s *Server) cancelExternal(r *run, completedID int64, a *commandpb.RequestCancelExternalWorkflowExecutionCommandAttributes) (*historypb.HistoryEvent, func(int64)) {
	namespace := a.GetNamespace()
	if namespace == "" {
		namespace = s.opts.Namespace
	}
	execution := &commonpb.WorkflowExecution{WorkflowId: a.GetWorkflowId(), RunId: a.GetRunId()}
	ev := newEvent(enumspb.EVENT_TYPE_REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED, &historypb.HistoryEvent_RequestCancelExternalWorkflowExecutionInitiatedEventAttributes{
		RequestCancelExternalWorkflowExecutionInitiatedEventAttributes: &historypb.RequestCancelExternalWorkflowExecutionInitiatedEventAttributes{
			WorkflowTaskCompletedEventId: completedID, Namespace: namespace, WorkflowExecution: execution, Control: a.GetControl(),
			ChildWorkflowOnly: a.GetChildWorkflowOnly(), Reason: a.GetReason(),
		}})
	return ev, func(initiatedID int64) {
		target := s.findTarget(r, execution, a.GetChildWorkflowOnly())
		if target == nil {
			s.deliver(r, enumspb.EVENT_TYPE_REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION_FAILED, &historypb.HistoryEvent_RequestCancelExternalWorkflowExecutionFailedEventAttributes{
				RequestCancelExternalWorkflowExecutionFailedEventAttributes: &historypb.RequestCancelExternalWorkflowExecutionFailedEventAttributes{
					Cause: enumspb.CANCEL_EXTERNAL_WORKFLOW_EXECUTION_FAILED_CAUSE_EXTERNAL_WORKFLOW_EXECUTION_NOT_FOUND, WorkflowTaskCompletedEventId: completedID,
					Namespace: namespace, WorkflowExecution: execution, InitiatedEventId: initiatedID, Control: a.GetControl()}}, true)
			return
		}
		s.requestCancelLocked(target, &historypb.WorkflowExecutionCancelRequestedEventAttributes{Cause: a.GetReason(),
			ExternalInitiatedEventId: initiatedID, ExternalWorkflowExecution: proto.CloneOf(r.execution), Identity: r.started.GetIdentity()})
		s.deliver(r, enumspb.EVENT_TYPE_EXTERNAL_WORKFLOW_EXECUTION_CANCEL_REQUESTED, &historypb.HistoryEvent_ExternalWorkflowExecutionCancelRequestedEventAttributes{
			ExternalWorkflowExecutionCancelRequestedEventAttributes: &historypb.ExternalWorkflowExecutionCancelRequestedEventAttributes{
				InitiatedEventId: initiatedID, Namespace: namespace, WorkflowExecution: proto.CloneOf(target.execution)}}, true)
	}
}
