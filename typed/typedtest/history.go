package typedtest

import (
	"fmt"
	"slices"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// CompareHistories returns nil when two histories record the same run:
// the same events, in the same order, with the same attributes and
// payloads, apart from what differs between any two runs of one workflow:
// times (each event's time and every other timestamp in its attributes),
// request IDs (made up by the worker or client that sent each request),
// the names of sticky task queues (made up per worker), and the history's
// size in bytes that WorkflowTaskStarted reports, which counts the bytes
// of all of these (a suggestion to continue as new made for that size
// alone is ignored with it). Otherwise its error names the first event
// that differs and shows both.
//
// Use it to check that a workflow moved to the typed API writes what it
// wrote before: run the old and the new form in the test environment,
// registered under one name, and compare env.GetHistory() of each.
func CompareHistories(want, got *historypb.History) error {
	wantEvents, gotEvents := want.GetEvents(), got.GetEvents()
	for i := 0; i < len(wantEvents) && i < len(gotEvents); i++ {
		w, g := withoutRunDetails(wantEvents[i]), withoutRunDetails(gotEvents[i])
		if !proto.Equal(w, g) {
			return fmt.Errorf("event %d differs: want %s %s, got %s %s",
				w.GetEventId(), w.GetEventType(), protojson.Format(w), g.GetEventType(), protojson.Format(g))
		}
	}
	if len(wantEvents) != len(gotEvents) {
		return fmt.Errorf("want %d events, got %d (the first %d are the same)",
			len(wantEvents), len(gotEvents), min(len(wantEvents), len(gotEvents)))
	}
	return nil
}

// withoutRunDetails is a copy of the event without what differs between runs.
func withoutRunDetails(event *historypb.HistoryEvent) *historypb.HistoryEvent {
	event = proto.Clone(event).(*historypb.HistoryEvent)
	forgetRunDetails(event.ProtoReflect())
	if started := event.GetWorkflowTaskStartedEventAttributes(); started != nil {
		forgetHistorySize(started)
	}
	return event
}

var timestampName = (&timestamppb.Timestamp{}).ProtoReflect().Descriptor().FullName()

// forgetRunDetails blanks the times, request IDs and names of sticky task
// queues in m.
func forgetRunDetails(m protoreflect.Message) {
	if tq, ok := m.Interface().(*taskqueuepb.TaskQueue); ok {
		if tq.GetKind() == enumspb.TASK_QUEUE_KIND_STICKY {
			tq.Name, tq.NormalName = "", ""
		}
		return
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.Name() == "request_id":
			m.Clear(fd)
		case fd.Kind() == protoreflect.MessageKind && fd.Message().FullName() == timestampName && !fd.IsList() && !fd.IsMap():
			m.Clear(fd)
		case fd.IsMap():
			if fd.MapValue().Kind() == protoreflect.MessageKind {
				v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool {
					forgetRunDetails(mv.Message())
					return true
				})
			}
		case fd.IsList():
			if fd.Kind() == protoreflect.MessageKind {
				for i := 0; i < v.List().Len(); i++ {
					forgetRunDetails(v.List().Get(i).Message())
				}
			}
		case fd.Kind() == protoreflect.MessageKind:
			forgetRunDetails(v.Message())
		}
		return true
	})
}

// forgetHistorySize blanks the history's size, which counts the bytes of
// the times and made-up names forgetRunDetails blanks, and a suggestion to
// continue as new that the size alone gave.
func forgetHistorySize(started *historypb.WorkflowTaskStartedEventAttributes) {
	started.HistorySizeBytes = 0
	reasons := started.GetSuggestContinueAsNewReasons()
	if len(reasons) == 0 {
		return
	}
	started.SuggestContinueAsNewReasons = slices.DeleteFunc(reasons, func(r enumspb.SuggestContinueAsNewReason) bool {
		return r == enumspb.SUGGEST_CONTINUE_AS_NEW_REASON_HISTORY_SIZE_TOO_LARGE
	})
	if len(started.SuggestContinueAsNewReasons) == 0 {
		started.SuggestContinueAsNewReasons = nil
		started.SuggestContinueAsNew = false
	}
}
