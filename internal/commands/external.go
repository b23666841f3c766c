//lint:file-ignore SA1019 the deprecated namespace, control and inherit_build_id fields are what go.temporal.io/sdk sends and histories record.

package commands

import (
	"fmt"

	commandpb "go.temporal.io/api/command/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
)

// ExternalOutcome is how a signal or a cancel request to another workflow
// ended: delivered, or refused for Cause.
type ExternalOutcome struct {
	Failed bool
	// NotFound: no such workflow (or it closed); NamespaceNotFound: no such
	// namespace; Cause is the server's cause in any case.
	NotFound, NamespaceNotFound bool
	Cause                       string
}

// SignalExternal is the machine of one SignalExternalWorkflowExecution
// command: a signal to another workflow, or to a child. It cannot be
// canceled, as in go.temporal.io/sdk.
type SignalExternal struct {
	st     State
	book   *Book
	attrs  *commandpb.SignalExternalWorkflowExecutionCommandAttributes
	seq    int64
	onDone func(ExternalOutcome)
}

// CancelExternal is the machine of one RequestCancelExternalWorkflowExecution
// command: a request to cancel another workflow, or a child (then target is
// the child's machine, told when history records the request, and the
// request is withdrawn if the child closes before it is sent).
type CancelExternal struct {
	st     State
	book   *Book
	attrs  *commandpb.RequestCancelExternalWorkflowExecutionCommandAttributes
	seq    int64
	target machine
	entry  *entry
	onDone func(ExternalOutcome)
}

// The commands and events of signals and cancel requests to other
// workflows, for the Book. Their later events find them by the ID of their
// initiated event.
var (
	signalExternalKind = register(&Kind{
		Command:  enumspb.COMMAND_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION,
		Recorded: enumspb.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED,
		Identity: []Field{
			{Name: "signal name",
				InCommand: func(c *commandpb.Command) string {
					return c.GetSignalExternalWorkflowExecutionCommandAttributes().GetSignalName()
				},
				InEvent: func(e *historypb.HistoryEvent) string {
					return e.GetSignalExternalWorkflowExecutionInitiatedEventAttributes().GetSignalName()
				}},
			{Name: "target workflow ID",
				InCommand: func(c *commandpb.Command) string {
					return c.GetSignalExternalWorkflowExecutionCommandAttributes().GetExecution().GetWorkflowId()
				},
				InEvent: func(e *historypb.HistoryEvent) string {
					return e.GetSignalExternalWorkflowExecutionInitiatedEventAttributes().GetWorkflowExecution().GetWorkflowId()
				}},
		},
		Follow: []Follow{
			{enumspb.EVENT_TYPE_EXTERNAL_WORKFLOW_EXECUTION_SIGNALED, InCompleted, func(e *historypb.HistoryEvent) Key {
				return Key{ID: e.GetExternalWorkflowExecutionSignaledEventAttributes().GetInitiatedEventId()}
			}},
			{enumspb.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_FAILED, InInitiationFailed, func(e *historypb.HistoryEvent) Key {
				return Key{ID: e.GetSignalExternalWorkflowExecutionFailedEventAttributes().GetInitiatedEventId()}
			}},
		},
		Describe: func(c *commandpb.Command) string {
			a := c.GetSignalExternalWorkflowExecutionCommandAttributes()
			return fmt.Sprintf("signal %q to workflow %q", a.GetSignalName(), a.GetExecution().GetWorkflowId())
		},
		DescribeEvent: func(e *historypb.HistoryEvent) string {
			if a := e.GetSignalExternalWorkflowExecutionInitiatedEventAttributes(); a != nil {
				return fmt.Sprintf("signal %q to workflow %q", a.GetSignalName(), a.GetWorkflowExecution().GetWorkflowId())
			}
			return fmt.Sprintf("of the signal initiated at event %d", externalInitiatedID(e))
		},
	})

	cancelExternalKind = register(&Kind{
		Command:  enumspb.COMMAND_TYPE_REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION,
		Recorded: enumspb.EVENT_TYPE_REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED,
		Identity: []Field{{Name: "target workflow ID",
			InCommand: func(c *commandpb.Command) string {
				return c.GetRequestCancelExternalWorkflowExecutionCommandAttributes().GetWorkflowId()
			},
			InEvent: func(e *historypb.HistoryEvent) string {
				return e.GetRequestCancelExternalWorkflowExecutionInitiatedEventAttributes().GetWorkflowExecution().GetWorkflowId()
			}}},
		Follow: []Follow{
			{enumspb.EVENT_TYPE_EXTERNAL_WORKFLOW_EXECUTION_CANCEL_REQUESTED, InCompleted, func(e *historypb.HistoryEvent) Key {
				return Key{ID: e.GetExternalWorkflowExecutionCancelRequestedEventAttributes().GetInitiatedEventId()}
			}},
			{enumspb.EVENT_TYPE_REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION_FAILED, InInitiationFailed, func(e *historypb.HistoryEvent) Key {
				return Key{ID: e.GetRequestCancelExternalWorkflowExecutionFailedEventAttributes().GetInitiatedEventId()}
			}},
		},
		Describe: func(c *commandpb.Command) string {
			return fmt.Sprintf("cancel workflow %q", c.GetRequestCancelExternalWorkflowExecutionCommandAttributes().GetWorkflowId())
		},
		DescribeEvent: func(e *historypb.HistoryEvent) string {
			if a := e.GetRequestCancelExternalWorkflowExecutionInitiatedEventAttributes(); a != nil {
				return fmt.Sprintf("cancel workflow %q", a.GetWorkflowExecution().GetWorkflowId())
			}
			return fmt.Sprintf("of the cancel request initiated at event %d", externalInitiatedID(e))
		},
	})
)

func externalInitiatedID(e *historypb.HistoryEvent) int64 {
	switch a := e.GetAttributes().(type) {
	case *historypb.HistoryEvent_ExternalWorkflowExecutionSignaledEventAttributes:
		return a.ExternalWorkflowExecutionSignaledEventAttributes.GetInitiatedEventId()
	case *historypb.HistoryEvent_SignalExternalWorkflowExecutionFailedEventAttributes:
		return a.SignalExternalWorkflowExecutionFailedEventAttributes.GetInitiatedEventId()
	case *historypb.HistoryEvent_ExternalWorkflowExecutionCancelRequestedEventAttributes:
		return a.ExternalWorkflowExecutionCancelRequestedEventAttributes.GetInitiatedEventId()
	case *historypb.HistoryEvent_RequestCancelExternalWorkflowExecutionFailedEventAttributes:
		return a.RequestCancelExternalWorkflowExecutionFailedEventAttributes.GetInitiatedEventId()
	}
	return 0
}

// SignalExternalTable is the signal machine's transition table.
var SignalExternalTable = NewTable("signal to another workflow",
	Row[*SignalExternal]{Created, InSent, CommandSent, nil},
	Row[*SignalExternal]{CommandSent, InInitiated, Initiated, (*SignalExternal).initiated},
	Row[*SignalExternal]{Initiated, InCompleted, Completed, (*SignalExternal).delivered},
	Row[*SignalExternal]{Initiated, InInitiationFailed, Failed, (*SignalExternal).failed},
)

// CancelExternalTable is the cancel request machine's transition table.
var CancelExternalTable = NewTable("cancel request to another workflow",
	Row[*CancelExternal]{Created, InSent, CommandSent, nil},
	Row[*CancelExternal]{Created, InTargetClosed, Withdrawn, (*CancelExternal).withdraw},
	Row[*CancelExternal]{CommandSent, InInitiated, Initiated, (*CancelExternal).initiated},
	Row[*CancelExternal]{Initiated, InCompleted, Completed, (*CancelExternal).delivered},
	Row[*CancelExternal]{Initiated, InInitiationFailed, Failed, (*CancelExternal).failed},
)

// SignalExternal adds a SignalExternalWorkflowExecution command; its
// Control is set to the command's sequence number, as go.temporal.io/sdk
// does. onDone runs once, when history says how it ended.
func (b *Book) SignalExternal(attrs *commandpb.SignalExternalWorkflowExecutionCommandAttributes, onDone func(ExternalOutcome)) *SignalExternal {
	s := &SignalExternal{book: b, attrs: attrs, seq: b.nextEvent(), onDone: onDone}
	attrs.Control = seqID(b.NextSeq())
	b.add(&commandpb.Command{
		CommandType:       signalExternalKind.Command,
		Attributes:        &commandpb.Command_SignalExternalWorkflowExecutionCommandAttributes{SignalExternalWorkflowExecutionCommandAttributes: attrs},
		EventGroupMarkers: b.groups,
	}, s)
	b.route(Key{ID: s.seq}, s)
	return s
}

// shiftEvent moves the unsent signal's predicted event (see Book.takeBack).
func (s *SignalExternal) shiftEvent(delta int64) {
	s.book.unroute(Key{ID: s.seq})
	s.seq += delta
	s.book.route(Key{ID: s.seq}, s)
}

// shiftEvent moves the unsent cancel request's predicted event, when it
// has one: a child's is known only once recorded (see Book.takeBack).
func (c *CancelExternal) shiftEvent(delta int64) {
	if c.seq != 0 {
		c.seq += delta
	}
}

// CancelExternal adds a RequestCancelExternalWorkflowExecution command for
// another workflow; its Control is the command's sequence number.
func (b *Book) CancelExternal(attrs *commandpb.RequestCancelExternalWorkflowExecutionCommandAttributes, onDone func(ExternalOutcome)) *CancelExternal {
	attrs.Control = seqID(b.NextSeq())
	return b.addCancelExternal(attrs, nil, b.groups, onDone)
}

// addCancelExternal adds the cancel request of another workflow, or of
// target, a child; groups are the call's event group markers, or the
// child's.
func (b *Book) addCancelExternal(attrs *commandpb.RequestCancelExternalWorkflowExecutionCommandAttributes, target machine, groups []*sdkpb.EventGroupMarker, onDone func(ExternalOutcome)) *CancelExternal {
	// A child's cancel request may be made by an event (the child
	// started) before the workflow task that sends it: its event ID is
	// known only when history records it, and it is routed then.
	c := &CancelExternal{book: b, attrs: attrs, target: target, onDone: onDone}
	if target == nil {
		c.seq = b.nextEvent()
	}
	c.entry = b.add(&commandpb.Command{
		CommandType:       cancelExternalKind.Command,
		Attributes:        &commandpb.Command_RequestCancelExternalWorkflowExecutionCommandAttributes{RequestCancelExternalWorkflowExecutionCommandAttributes: attrs},
		EventGroupMarkers: groups,
	}, c)
	return c
}

// State is where the signal stands.
func (s *SignalExternal) State() State { return s.st }

func (s *SignalExternal) state() State { return s.st }

func (s *SignalExternal) fire(in Input, ev *historypb.HistoryEvent) (bool, error) {
	return SignalExternalTable.fire(s, &s.st, in, ev)
}

func (s *SignalExternal) describe() string {
	return fmt.Sprintf("signal %q to workflow %q", s.attrs.GetSignalName(), s.attrs.GetExecution().GetWorkflowId())
}

func (s *SignalExternal) initiated(ev *historypb.HistoryEvent) error {
	return checkRecordedAt(s, s.seq, ev)
}

func (s *SignalExternal) delivered(*historypb.HistoryEvent) error {
	s.book.unroute(Key{ID: s.seq})
	s.onDone(ExternalOutcome{})
	return nil
}

func (s *SignalExternal) failed(ev *historypb.HistoryEvent) error {
	s.book.unroute(Key{ID: s.seq})
	cause := ev.GetSignalExternalWorkflowExecutionFailedEventAttributes().GetCause()
	s.onDone(ExternalOutcome{Failed: true, Cause: cause.String(),
		NotFound:          cause == enumspb.SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_FAILED_CAUSE_EXTERNAL_WORKFLOW_EXECUTION_NOT_FOUND,
		NamespaceNotFound: cause == enumspb.SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_FAILED_CAUSE_NAMESPACE_NOT_FOUND})
	return nil
}

// State is where the cancel request stands.
func (c *CancelExternal) State() State { return c.st }

func (c *CancelExternal) state() State { return c.st }

func (c *CancelExternal) fire(in Input, ev *historypb.HistoryEvent) (bool, error) {
	return CancelExternalTable.fire(c, &c.st, in, ev)
}

func (c *CancelExternal) describe() string {
	return fmt.Sprintf("cancel request to workflow %q", c.attrs.GetWorkflowId())
}

// targetClosed withdraws a child's cancel request that was not sent.
func (c *CancelExternal) targetClosed() {
	if c != nil && CancelExternalTable.Allows(c.st, InTargetClosed) {
		_, _ = c.fire(InTargetClosed, nil) // withdrawing cannot fail
	}
}

func (c *CancelExternal) withdraw(*historypb.HistoryEvent) error {
	c.book.withdraw(c.entry)
	return nil
}

// initiated tells the child, if the request is a child's, that history
// recorded it; a child that closed meanwhile has nothing left to learn.
func (c *CancelExternal) initiated(ev *historypb.HistoryEvent) error {
	if c.target == nil {
		if err := checkRecordedAt(c, c.seq, ev); err != nil {
			return err
		}
	}
	c.seq = ev.GetEventId()
	c.book.route(Key{ID: c.seq}, c)
	if c.target != nil && c.target.state() == CanceledAfterInitiated {
		if _, err := c.target.fire(InCancelRecorded, ev); err != nil {
			return err
		}
	}
	return nil
}

func (c *CancelExternal) delivered(*historypb.HistoryEvent) error {
	c.book.unroute(Key{ID: c.seq})
	c.onDone(ExternalOutcome{})
	return nil
}

func (c *CancelExternal) failed(ev *historypb.HistoryEvent) error {
	c.book.unroute(Key{ID: c.seq})
	cause := ev.GetRequestCancelExternalWorkflowExecutionFailedEventAttributes().GetCause()
	c.onDone(ExternalOutcome{Failed: true, Cause: cause.String(),
		NotFound:          cause == enumspb.CANCEL_EXTERNAL_WORKFLOW_EXECUTION_FAILED_CAUSE_EXTERNAL_WORKFLOW_EXECUTION_NOT_FOUND,
		NamespaceNotFound: cause == enumspb.CANCEL_EXTERNAL_WORKFLOW_EXECUTION_FAILED_CAUSE_NAMESPACE_NOT_FOUND})
	return nil
}

// checkRecordedAt checks that history put a command's event where this SDK
// predicted it: later events find the machine by that ID.
func checkRecordedAt(m machine, seq int64, ev *historypb.HistoryEvent) error {
	if id := ev.GetEventId(); id != seq {
		return &NondeterminismError{Event: ev, Reason: fmt.Sprintf(
			"%s was recorded at event %d, but the workflow code's commands place it at event %d: the code produced a different number of commands before it",
			m.describe(), id, seq)}
	}
	return nil
}
