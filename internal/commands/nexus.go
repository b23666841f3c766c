//lint:file-ignore SA1019 the deprecated operation ID is the token servers before 1.27 write.

package commands

import (
	"fmt"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
)

// NexusOperation is the machine of one ScheduleNexusOperation command.
//
// Canceling before the command was sent takes the command back (nothing
// goes out, as with go.temporal.io/sdk); later, a
// RequestCancelNexusOperation (a NexusCancelRequest machine of its own)
// goes out. When the canceled operation resolves depends on its
// NexusCancelResolution: when the cancel request is recorded, when the
// handler received it, or only with the operation's own end. Its events
// find it by the ID of its NexusOperationScheduled event.
type NexusOperation struct {
	st      State
	book    *Book
	entry   *entry
	attrs   *commandpb.ScheduleNexusOperationCommandAttributes
	calls   NexusCallbacks
	resolve NexusCancelResolution

	seq         int64 // the predicted NexusOperationScheduled event ID
	token       string
	started     bool
	done        bool // the outcome was delivered (or abandoned)
	cancelAsked bool // canceled once sent, before it was recorded: cancel once it is
	cancelReq   *NexusCancelRequest
	groups      []*sdkpb.EventGroupMarker // the schedule command's, for its cancel request
}

// NexusCallbacks are told how a Nexus operation goes. Started runs at most
// once, when the handler started the operation asynchronously, with its
// token; Done runs once, with the outcome: the result, the failure the
// server recorded (a Nexus operation failure whose cause says why), or,
// when the cancellation resolves it first, a canceled failure (or the
// failure of the cancel request).
type NexusCallbacks struct {
	Started func(token string)
	Done    func(Outcome)
}

// NexusCancelResolution is when a canceled Nexus operation resolves.
type NexusCancelResolution uint8

const (
	// NexusResolveOnClose: with the operation's own end (WaitCompleted).
	NexusResolveOnClose NexusCancelResolution = iota
	// NexusResolveOnCancelRecorded: once history records the cancel
	// request (TryCancel).
	NexusResolveOnCancelRecorded
	// NexusResolveOnCancelDelivered: once the handler received the cancel
	// request, or it failed (WaitRequested).
	NexusResolveOnCancelDelivered
)

// nexusCancelRoute is the Key.Name of a cancel request's own events, which
// name the operation's scheduled event as the operation's events do.
const nexusCancelRoute = "nexus cancel request"

// The Nexus operation's commands and events, for the Book.
var (
	scheduleNexusKind = register(&Kind{
		Command:  enumspb.COMMAND_TYPE_SCHEDULE_NEXUS_OPERATION,
		Recorded: enumspb.EVENT_TYPE_NEXUS_OPERATION_SCHEDULED,
		// As go.temporal.io/sdk: the service and the operation, not the
		// endpoint, which deployments rename.
		Identity: []Field{
			{Name: "Nexus service",
				InCommand: func(c *commandpb.Command) string { return c.GetScheduleNexusOperationCommandAttributes().GetService() },
				InEvent: func(e *historypb.HistoryEvent) string {
					return e.GetNexusOperationScheduledEventAttributes().GetService()
				}},
			{Name: "Nexus operation",
				InCommand: func(c *commandpb.Command) string {
					return c.GetScheduleNexusOperationCommandAttributes().GetOperation()
				},
				InEvent: func(e *historypb.HistoryEvent) string {
					return e.GetNexusOperationScheduledEventAttributes().GetOperation()
				}},
		},
		Follow: []Follow{
			{enumspb.EVENT_TYPE_NEXUS_OPERATION_STARTED, InStarted, func(e *historypb.HistoryEvent) Key {
				return Key{ID: e.GetNexusOperationStartedEventAttributes().GetScheduledEventId()}
			}},
			{enumspb.EVENT_TYPE_NEXUS_OPERATION_COMPLETED, InCompleted, func(e *historypb.HistoryEvent) Key {
				return Key{ID: e.GetNexusOperationCompletedEventAttributes().GetScheduledEventId()}
			}},
			{enumspb.EVENT_TYPE_NEXUS_OPERATION_FAILED, InFailed, func(e *historypb.HistoryEvent) Key {
				return Key{ID: e.GetNexusOperationFailedEventAttributes().GetScheduledEventId()}
			}},
			{enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCELED, InCanceled, func(e *historypb.HistoryEvent) Key {
				return Key{ID: e.GetNexusOperationCanceledEventAttributes().GetScheduledEventId()}
			}},
			{enumspb.EVENT_TYPE_NEXUS_OPERATION_TIMED_OUT, InTimedOut, func(e *historypb.HistoryEvent) Key {
				return Key{ID: e.GetNexusOperationTimedOutEventAttributes().GetScheduledEventId()}
			}},
		},
		Describe: func(c *commandpb.Command) string {
			a := c.GetScheduleNexusOperationCommandAttributes()
			return describeNexus(a.GetEndpoint(), a.GetService(), a.GetOperation())
		},
		DescribeEvent: describeNexusEvent,
	})

	requestCancelNexusKind = register(&Kind{
		Command:  enumspb.COMMAND_TYPE_REQUEST_CANCEL_NEXUS_OPERATION,
		Recorded: enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCEL_REQUESTED,
		Identity: []Field{{Name: "scheduled event ID",
			InCommand: func(c *commandpb.Command) string {
				return seqID(c.GetRequestCancelNexusOperationCommandAttributes().GetScheduledEventId())
			},
			InEvent: func(e *historypb.HistoryEvent) string {
				return seqID(e.GetNexusOperationCancelRequestedEventAttributes().GetScheduledEventId())
			}}},
		Follow: []Follow{
			{enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCEL_REQUEST_COMPLETED, InCompleted, func(e *historypb.HistoryEvent) Key {
				return nexusCancelKey(e.GetNexusOperationCancelRequestCompletedEventAttributes().GetScheduledEventId())
			}},
			{enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCEL_REQUEST_FAILED, InFailed, func(e *historypb.HistoryEvent) Key {
				return nexusCancelKey(e.GetNexusOperationCancelRequestFailedEventAttributes().GetScheduledEventId())
			}},
		},
		Describe: func(c *commandpb.Command) string {
			return fmt.Sprintf("of the Nexus operation scheduled at event %d", c.GetRequestCancelNexusOperationCommandAttributes().GetScheduledEventId())
		},
		DescribeEvent: describeNexusEvent,
	})
)

// nexusCancelKey finds the cancel request of the operation scheduled at
// scheduledID. Servers of API 1.47.0 wrote the cancel request's outcome
// without it: go.temporal.io/sdk ignores such an event (the operation
// then resolves as WaitCompleted would), and so does this SDK.
func nexusCancelKey(scheduledID int64) Key {
	if scheduledID == 0 {
		return ignoreKey
	}
	return Key{ID: scheduledID, Name: nexusCancelRoute}
}

func describeNexus(endpoint, service, operation string) string {
	return fmt.Sprintf("Nexus operation %q of service %q at endpoint %q", operation, service, endpoint)
}

func describeNexusEvent(ev *historypb.HistoryEvent) string {
	if a := ev.GetNexusOperationScheduledEventAttributes(); a != nil {
		return describeNexus(a.GetEndpoint(), a.GetService(), a.GetOperation())
	}
	return fmt.Sprintf("of the Nexus operation scheduled at event %d", nexusScheduledID(ev))
}

// nexusScheduledID is the scheduled event ID a Nexus operation's later
// event names.
func nexusScheduledID(ev *historypb.HistoryEvent) int64 {
	switch a := ev.GetAttributes().(type) {
	case *historypb.HistoryEvent_NexusOperationStartedEventAttributes:
		return a.NexusOperationStartedEventAttributes.GetScheduledEventId()
	case *historypb.HistoryEvent_NexusOperationCompletedEventAttributes:
		return a.NexusOperationCompletedEventAttributes.GetScheduledEventId()
	case *historypb.HistoryEvent_NexusOperationFailedEventAttributes:
		return a.NexusOperationFailedEventAttributes.GetScheduledEventId()
	case *historypb.HistoryEvent_NexusOperationCanceledEventAttributes:
		return a.NexusOperationCanceledEventAttributes.GetScheduledEventId()
	case *historypb.HistoryEvent_NexusOperationTimedOutEventAttributes:
		return a.NexusOperationTimedOutEventAttributes.GetScheduledEventId()
	case *historypb.HistoryEvent_NexusOperationCancelRequestedEventAttributes:
		return a.NexusOperationCancelRequestedEventAttributes.GetScheduledEventId()
	case *historypb.HistoryEvent_NexusOperationCancelRequestCompletedEventAttributes:
		return a.NexusOperationCancelRequestCompletedEventAttributes.GetScheduledEventId()
	case *historypb.HistoryEvent_NexusOperationCancelRequestFailedEventAttributes:
		return a.NexusOperationCancelRequestFailedEventAttributes.GetScheduledEventId()
	}
	return 0
}

// NexusTable is the Nexus operation machine's transition table. It is set
// in init because a transition's action (a deferred cancel, once the
// operation is scheduled) fires the machine again.
var NexusTable *Table[*NexusOperation]

func init() {
	NexusTable = NewTable("Nexus operation",
		Row[*NexusOperation]{Created, InSent, CommandSent, nil},
		// Canceled before it was sent: the command is taken back.
		Row[*NexusOperation]{Created, InCancel, Canceled, (*NexusOperation).takeBack},
		Row[*NexusOperation]{CommandSent, InInitiated, Initiated, (*NexusOperation).scheduled},

		// An operation the handler completes at once has no started event.
		Row[*NexusOperation]{Initiated, InStarted, Started, (*NexusOperation).startedAsync},
		Row[*NexusOperation]{Initiated, InCompleted, Completed, (*NexusOperation).closed},
		Row[*NexusOperation]{Initiated, InFailed, Failed, (*NexusOperation).closed},
		Row[*NexusOperation]{Initiated, InCanceled, Canceled, (*NexusOperation).closed},
		Row[*NexusOperation]{Initiated, InTimedOut, TimedOut, (*NexusOperation).closed},
		Row[*NexusOperation]{Initiated, InCancel, CanceledAfterInitiated, (*NexusOperation).requestCancel},

		Row[*NexusOperation]{Started, InCompleted, Completed, (*NexusOperation).closed},
		Row[*NexusOperation]{Started, InFailed, Failed, (*NexusOperation).closed},
		Row[*NexusOperation]{Started, InCanceled, Canceled, (*NexusOperation).closed},
		Row[*NexusOperation]{Started, InTimedOut, TimedOut, (*NexusOperation).closed},
		Row[*NexusOperation]{Started, InCancel, CanceledAfterInitiated, (*NexusOperation).requestCancel},

		// The cancel request is out; the operation may start or end before
		// history records it (then an unsent request is withdrawn).
		Row[*NexusOperation]{CanceledAfterInitiated, InStarted, CanceledAfterInitiated, (*NexusOperation).startedAsync},
		Row[*NexusOperation]{CanceledAfterInitiated, InCancelRecorded, CancelRequested, (*NexusOperation).cancelRecorded},
		Row[*NexusOperation]{CanceledAfterInitiated, InCompleted, Completed, (*NexusOperation).closed},
		Row[*NexusOperation]{CanceledAfterInitiated, InFailed, Failed, (*NexusOperation).closed},
		Row[*NexusOperation]{CanceledAfterInitiated, InCanceled, Canceled, (*NexusOperation).closed},
		Row[*NexusOperation]{CanceledAfterInitiated, InTimedOut, TimedOut, (*NexusOperation).closed},

		Row[*NexusOperation]{CancelRequested, InStarted, CancelRequested, (*NexusOperation).startedAsync},
		Row[*NexusOperation]{CancelRequested, InCompleted, Completed, (*NexusOperation).closed},
		Row[*NexusOperation]{CancelRequested, InFailed, Failed, (*NexusOperation).closed},
		Row[*NexusOperation]{CancelRequested, InCanceled, Canceled, (*NexusOperation).closed},
		Row[*NexusOperation]{CancelRequested, InTimedOut, TimedOut, (*NexusOperation).closed},
	)
}

// ScheduleNexusOperation adds a ScheduleNexusOperation command, with
// metadata (the operation's summary; may be nil). resolve says when a
// canceled operation resolves.
func (b *Book) ScheduleNexusOperation(attrs *commandpb.ScheduleNexusOperationCommandAttributes, metadata *sdkpb.UserMetadata, resolve NexusCancelResolution, calls NexusCallbacks) *NexusOperation {
	n := &NexusOperation{book: b, attrs: attrs, calls: calls, resolve: resolve, seq: b.nextEvent(), groups: b.groups}
	n.entry = b.add(&commandpb.Command{
		CommandType:       scheduleNexusKind.Command,
		Attributes:        &commandpb.Command_ScheduleNexusOperationCommandAttributes{ScheduleNexusOperationCommandAttributes: attrs},
		UserMetadata:      metadata,
		EventGroupMarkers: n.groups,
	}, n)
	b.route(n.key(), n)
	return n
}

// Cancel asks to cancel the operation. Before its command was sent, the
// command is taken back and the operation resolves as canceled; later, a
// cancel request goes out. Canceling an operation that ended, or is being
// canceled, does nothing.
func (n *NexusOperation) Cancel() {
	switch n.st {
	case Created:
		_, _ = n.fire(InCancel, nil) // taking back cannot fail
	case CommandSent:
		// Sent, not yet recorded (no code runs between the two but an
		// event callback): canceled once recorded.
		n.cancelAsked = true
		n.deliver(canceledOutcome(nil))
	case Initiated, Started:
		_, _ = n.fire(InCancel, nil) // canceling cannot fail
	}
}

// Abandon stops telling the workflow about the operation: its outcome was
// delivered already (the code gave up on it). The machine still follows
// its events.
func (n *NexusOperation) Abandon() { n.done = true }

// shiftEvent moves the unsent operation's predicted event (see
// Book.takeBack).
func (n *NexusOperation) shiftEvent(delta int64) {
	n.book.unroute(n.key())
	n.seq += delta
	n.book.route(n.key(), n)
}

// State is where the operation stands.
func (n *NexusOperation) State() State { return n.st }

// ScheduledEventID is the (predicted) ID of its NexusOperationScheduled event.
func (n *NexusOperation) ScheduledEventID() int64 { return n.seq }

// Token is the operation token its handler gave, once it started
// asynchronously.
func (n *NexusOperation) Token() string { return n.token }

func (n *NexusOperation) state() State { return n.st }

func (n *NexusOperation) fire(in Input, ev *historypb.HistoryEvent) (bool, error) {
	return NexusTable.fire(n, &n.st, in, ev)
}

func (n *NexusOperation) key() Key { return Key{ID: n.seq} }

func (n *NexusOperation) describe() string {
	return describeNexus(n.attrs.GetEndpoint(), n.attrs.GetService(), n.attrs.GetOperation())
}

// deliver runs Done once.
func (n *NexusOperation) deliver(o Outcome) {
	if n.done {
		return
	}
	n.done = true
	n.calls.Done(o)
}

func (n *NexusOperation) takeBack(*historypb.HistoryEvent) error {
	n.book.unroute(n.key()) // first: a later command moves up to its key
	n.book.takeBack(n.entry)
	n.deliver(canceledOutcome(nil))
	return nil
}

// scheduled checks that history put the operation where this SDK
// predicted: later events find it by that event ID.
func (n *NexusOperation) scheduled(ev *historypb.HistoryEvent) error {
	if id := ev.GetEventId(); id != n.seq {
		return &NondeterminismError{Event: ev, Reason: fmt.Sprintf(
			"%s was recorded at event %d, but the workflow code's commands place it at event %d: the code produced a different number of commands before it",
			n.describe(), id, n.seq)}
	}
	if n.cancelAsked {
		_, _ = n.fire(InCancel, nil)
	}
	return nil
}

func (n *NexusOperation) startedAsync(ev *historypb.HistoryEvent) error {
	a := ev.GetNexusOperationStartedEventAttributes()
	n.token = a.GetOperationToken()
	if n.token == "" {
		n.token = a.GetOperationId()
	}
	n.started = true
	if !n.done && n.calls.Started != nil {
		n.calls.Started(n.token)
	}
	return nil
}

func (n *NexusOperation) requestCancel(*historypb.HistoryEvent) error {
	n.cancelReq = n.book.addNexusCancelRequest(n)
	return nil
}

// cancelRecorded resolves a TryCancel operation as canceled.
func (n *NexusOperation) cancelRecorded(*historypb.HistoryEvent) error {
	if n.resolve == NexusResolveOnCancelRecorded {
		n.deliver(canceledOutcome(nil))
	}
	return nil
}

// cancelDelivered resolves a WaitRequested operation: as canceled, or
// with the failure of the cancel request.
func (n *NexusOperation) cancelDelivered(ev *historypb.HistoryEvent) {
	if n.resolve != NexusResolveOnCancelDelivered {
		return
	}
	if f := ev.GetNexusOperationCancelRequestFailedEventAttributes().GetFailure(); f != nil {
		n.deliver(Outcome{Failure: f})
		return
	}
	n.deliver(canceledOutcome(nil))
}

// closed delivers the outcome of the operation's close event. The server
// writes its failures as Nexus operation failures already.
func (n *NexusOperation) closed(ev *historypb.HistoryEvent) error {
	n.book.unroute(n.key())
	n.cancelReq.targetClosed()
	switch a := ev.GetAttributes().(type) {
	case *historypb.HistoryEvent_NexusOperationCompletedEventAttributes:
		var result *commonpb.Payloads
		if p := a.NexusOperationCompletedEventAttributes.GetResult(); p != nil {
			result = &commonpb.Payloads{Payloads: []*commonpb.Payload{p}}
		}
		n.deliver(Outcome{Result: result})
	case *historypb.HistoryEvent_NexusOperationFailedEventAttributes:
		n.deliver(Outcome{Failure: a.NexusOperationFailedEventAttributes.GetFailure()})
	case *historypb.HistoryEvent_NexusOperationCanceledEventAttributes:
		n.deliver(Outcome{Failure: a.NexusOperationCanceledEventAttributes.GetFailure()})
	case *historypb.HistoryEvent_NexusOperationTimedOutEventAttributes:
		n.deliver(Outcome{Failure: a.NexusOperationTimedOutEventAttributes.GetFailure()})
	}
	return nil
}

// NexusCancelRequest is the machine of a RequestCancelNexusOperation
// command. History records it (NexusOperationCancelRequested), then says
// whether the handler received it (NexusOperationCancelRequestCompleted or
// Failed). If the operation ends before history records it, it is
// withdrawn.
type NexusCancelRequest struct {
	st    State
	book  *Book
	op    *NexusOperation
	entry *entry
}

// NexusCancelRequestTable is the Nexus cancel request's transition table.
var NexusCancelRequestTable = NewTable("Nexus cancel request",
	Row[*NexusCancelRequest]{Created, InSent, CommandSent, nil},
	Row[*NexusCancelRequest]{Created, InTargetClosed, Withdrawn, (*NexusCancelRequest).withdraw},
	Row[*NexusCancelRequest]{CommandSent, InTargetClosed, Withdrawn, (*NexusCancelRequest).withdraw},
	Row[*NexusCancelRequest]{CommandSent, InInitiated, Initiated, (*NexusCancelRequest).recorded},
	// Recorded: the operation may end before the request reaches its
	// handler; the request's own outcome may still follow.
	Row[*NexusCancelRequest]{Initiated, InTargetClosed, Initiated, nil},
	Row[*NexusCancelRequest]{Initiated, InCompleted, Completed, (*NexusCancelRequest).delivered},
	Row[*NexusCancelRequest]{Initiated, InFailed, Failed, (*NexusCancelRequest).delivered},
)

func (b *Book) addNexusCancelRequest(op *NexusOperation) *NexusCancelRequest {
	c := &NexusCancelRequest{book: b, op: op}
	c.entry = b.add(&commandpb.Command{
		CommandType: requestCancelNexusKind.Command,
		Attributes: &commandpb.Command_RequestCancelNexusOperationCommandAttributes{
			RequestCancelNexusOperationCommandAttributes: &commandpb.RequestCancelNexusOperationCommandAttributes{ScheduledEventId: op.seq},
		},
		EventGroupMarkers: op.groups,
	}, c)
	b.route(c.key(), c)
	return c
}

// State is where the request stands.
func (c *NexusCancelRequest) State() State { return c.st }

func (c *NexusCancelRequest) state() State { return c.st }

func (c *NexusCancelRequest) fire(in Input, ev *historypb.HistoryEvent) (bool, error) {
	return NexusCancelRequestTable.fire(c, &c.st, in, ev)
}

func (c *NexusCancelRequest) key() Key { return nexusCancelKey(c.op.seq) }

func (c *NexusCancelRequest) describe() string { return DescribeCommand(c.entry.cmd) }

// targetClosed withdraws the request if history has not recorded it yet.
func (c *NexusCancelRequest) targetClosed() {
	if c != nil && NexusCancelRequestTable.Allows(c.st, InTargetClosed) {
		_, _ = c.fire(InTargetClosed, nil) // withdrawing cannot fail
	}
}

func (c *NexusCancelRequest) withdraw(*historypb.HistoryEvent) error {
	c.book.withdraw(c.entry)
	c.book.unroute(c.key())
	return nil
}

// recorded tells the operation, whose table decides whether it can take it.
func (c *NexusCancelRequest) recorded(ev *historypb.HistoryEvent) error {
	ok, err := c.op.fire(InCancelRecorded, ev)
	if !ok {
		return c.book.illegal(c.op, InCancelRecorded, ev)
	}
	return err
}

func (c *NexusCancelRequest) delivered(ev *historypb.HistoryEvent) error {
	c.book.unroute(c.key())
	c.op.cancelDelivered(ev)
	return nil
}
