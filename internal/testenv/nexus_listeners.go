package testenv

import (
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/failure"
)

// The Nexus listeners. The started listener hears each operation as its
// handler is asked to start it (mocked or not), with its input (see
// nexusTestHandler). The completed and canceled listeners follow the
// caller's history, on the listeners' goroutine: the completed listener
// hears an operation's end, with what the workflow gets (its result, or
// its error, a NexusOperationError), and the canceled listener hears
// that the handler answered a cancel request, as in go.temporal.io/sdk's
// test environment.

// SetOnNexusOperationStartedListener sets a function called as a Nexus
// operation's handler is asked to start it, with its input.
func (e *TestWorkflowEnvironment) SetOnNexusOperationStartedListener(listener func(service string, operation string, input converter.EncodedValue)) *TestWorkflowEnvironment {
	e.listeners.update(func(s *listenerSet) { s.nexusStarted = listener })
	return e
}

// SetOnNexusOperationCompletedListener sets a function called when a
// Nexus operation ends, with its result or its error.
func (e *TestWorkflowEnvironment) SetOnNexusOperationCompletedListener(listener func(service string, operation string, result converter.EncodedValue, err error)) *TestWorkflowEnvironment {
	e.listeners.update(func(s *listenerSet) { s.nexusCompleted = listener })
	return e
}

// SetOnNexusOperationCanceledListener sets a function called when a
// Nexus operation's handler answered the workflow's cancel request.
func (e *TestWorkflowEnvironment) SetOnNexusOperationCanceledListener(listener func(service string, operation string)) *TestWorkflowEnvironment {
	e.listeners.update(func(s *listenerSet) { s.nexusCanceled = listener })
	return e
}

// nexusEvent reports the events the Nexus listeners follow.
func nexusEvent(ev *historypb.HistoryEvent) bool {
	switch ev.GetEventType() {
	case enumspb.EVENT_TYPE_NEXUS_OPERATION_SCHEDULED,
		enumspb.EVENT_TYPE_NEXUS_OPERATION_COMPLETED, enumspb.EVENT_TYPE_NEXUS_OPERATION_FAILED,
		enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCELED, enumspb.EVENT_TYPE_NEXUS_OPERATION_TIMED_OUT,
		enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCEL_REQUEST_COMPLETED, enumspb.EVENT_TYPE_NEXUS_OPERATION_CANCEL_REQUEST_FAILED:
		return true
	}
	return false
}

// nexusOperationKey finds an operation's scheduled event.
type nexusOperationKey struct {
	runID       string
	scheduledID int64
}

// deliverNexusEvent runs on the listeners' goroutine, in event order.
func (l *testListeners) deliverNexusEvent(execution *commonpb.WorkflowExecution, ev *historypb.HistoryEvent, set listenerSet) {
	runID := execution.GetRunId()
	if a := ev.GetNexusOperationScheduledEventAttributes(); a != nil {
		l.mu.Lock()
		if l.nexusScheduled == nil {
			l.nexusScheduled = make(map[nexusOperationKey]*historypb.NexusOperationScheduledEventAttributes)
		}
		l.nexusScheduled[nexusOperationKey{runID, ev.GetEventId()}] = a
		l.mu.Unlock()
		return
	}
	l.mu.Lock()
	dc, fc := l.dc, l.fc
	l.mu.Unlock()
	switch a := ev.GetAttributes().(type) {
	case *historypb.HistoryEvent_NexusOperationCancelRequestCompletedEventAttributes:
		l.nexusCanceled(runID, a.NexusOperationCancelRequestCompletedEventAttributes.GetScheduledEventId(), set)
	case *historypb.HistoryEvent_NexusOperationCancelRequestFailedEventAttributes:
		l.nexusCanceled(runID, a.NexusOperationCancelRequestFailedEventAttributes.GetScheduledEventId(), set)
	case *historypb.HistoryEvent_NexusOperationCompletedEventAttributes:
		x := a.NexusOperationCompletedEventAttributes
		l.nexusEnded(runID, x.GetScheduledEventId(), x.GetResult(), nil, dc, fc, set)
	case *historypb.HistoryEvent_NexusOperationFailedEventAttributes:
		x := a.NexusOperationFailedEventAttributes
		l.nexusEnded(runID, x.GetScheduledEventId(), nil, x.GetFailure(), dc, fc, set)
	case *historypb.HistoryEvent_NexusOperationCanceledEventAttributes:
		x := a.NexusOperationCanceledEventAttributes
		l.nexusEnded(runID, x.GetScheduledEventId(), nil, x.GetFailure(), dc, fc, set)
	case *historypb.HistoryEvent_NexusOperationTimedOutEventAttributes:
		x := a.NexusOperationTimedOutEventAttributes
		l.nexusEnded(runID, x.GetScheduledEventId(), nil, x.GetFailure(), dc, fc, set)
	}
}

// scheduledNexus is an operation's scheduled event; done forgets it.
func (l *testListeners) scheduledNexus(runID string, scheduledID int64, done bool) *historypb.NexusOperationScheduledEventAttributes {
	l.mu.Lock()
	defer l.mu.Unlock()
	key := nexusOperationKey{runID, scheduledID}
	s := l.nexusScheduled[key]
	if done {
		delete(l.nexusScheduled, key)
	}
	return s
}

func (l *testListeners) nexusCanceled(runID string, scheduledID int64, set listenerSet) {
	if s := l.scheduledNexus(runID, scheduledID, false); s != nil && set.nexusCanceled != nil {
		set.nexusCanceled(s.GetService(), s.GetOperation())
	}
}

// nexusEnded tells the completed listener what the workflow gets: the
// result, or the failure as an error, both read with the operation's
// serialization context.
func (l *testListeners) nexusEnded(runID string, scheduledID int64, result *commonpb.Payload, f *failurepb.Failure,
	dc converter.DataConverter, fc converter.FailureConverter, set listenerSet) {
	s := l.scheduledNexus(runID, scheduledID, true)
	if s == nil || set.nexusCompleted == nil {
		return
	}
	sc := converter.NexusSerializationContext{Endpoint: s.GetEndpoint(), Service: s.GetService(), Operation: s.GetOperation()}
	var err error
	if f != nil {
		err = converter.WithFailureConverterSerializationContext(fc, sc).FailureToError(f)
	}
	value := failure.NewEncodedValue(&commonpb.Payloads{Payloads: []*commonpb.Payload{result}}, converter.WithDataConverterSerializationContext(dc, sc))
	set.nexusCompleted(s.GetService(), s.GetOperation(), value, err)
}
