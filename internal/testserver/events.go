package testserver

import (
	"reflect"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"google.golang.org/protobuf/types/known/durationpb"
)

// newEvent makes an event of type t; attrs is its attributes wrapper
// (historypb.HistoryEvent_XxxEventAttributes), or nil.
func newEvent(t enumspb.EventType, attrs any) *historypb.HistoryEvent {
	ev := &historypb.HistoryEvent{EventType: t}
	if attrs != nil {
		// Every wrapper fits the Attributes oneof; reflection spares a case
		// per event type.
		reflect.ValueOf(&ev.Attributes).Elem().Set(reflect.ValueOf(attrs))
	}
	return ev
}

func durationOf(d time.Duration) *durationpb.Duration { return durationpb.New(d) }
