package testsuite_test

import (
	"context"
	"fmt"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/converter"
)

func Greet(ctx context.Context, name string) (string, error) { return "Hello, " + name + "!", nil }

func toString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case error:
		return x.Error()
	case nil:
		return "<nil>"
	}
	return fmt.Sprint(v)
}

// workflowPayload decodes one payload with the default converter.
func workflowPayload(p *commonpb.Payload, valuePtr any) error {
	return converter.GetDefaultDataConverter().FromPayload(p, valuePtr)
}

func eventsOf(events []*historypb.HistoryEvent, t enumspb.EventType) []*historypb.HistoryEvent {
	var out []*historypb.HistoryEvent
	for _, ev := range events {
		if ev.GetEventType() == t {
			out = append(out, ev)
		}
	}
	return out
}
