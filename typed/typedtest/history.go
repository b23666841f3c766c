package typedtest

import (
	"fmt"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// CompareHistories returns nil when two histories record the same run:
// the same events, in the same order, with the same attributes and
// payloads, apart from what differs between any two runs of one workflow:
// event times, request IDs (made up by the worker or client that sent
// each request) and the names of sticky task queues (made up per
// worker). Otherwise its error names the first event that differs and
// shows both.
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
	event.EventTime = nil
	forgetMadeUpNames(event.ProtoReflect())
	return event
}

// forgetMadeUpNames blanks the request IDs and the names of sticky task
// queues in m.
func forgetMadeUpNames(m protoreflect.Message) {
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
		case fd.IsMap():
			if fd.MapValue().Kind() == protoreflect.MessageKind {
				v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool {
					forgetMadeUpNames(mv.Message())
					return true
				})
			}
		case fd.IsList():
			if fd.Kind() == protoreflect.MessageKind {
				for i := 0; i < v.List().Len(); i++ {
					forgetMadeUpNames(v.List().Get(i).Message())
				}
			}
		case fd.Kind() == protoreflect.MessageKind:
			forgetMadeUpNames(v.Message())
		}
		return true
	})
}
