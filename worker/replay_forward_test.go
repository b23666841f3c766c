package worker_test

import (
	"strings"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/internal/logging"
)

// withEventOfANewerServer returns a recorded history with an event of a
// type this SDK does not know inserted before its last event (the
// workflow's completion, renumbered after it), as a newer server may write.
func withEventOfANewerServer(t *testing.T, file string, workerMayIgnore bool) *historypb.History {
	t.Helper()
	h := readHistory(t, file)
	last := h.Events[len(h.Events)-1]
	unknown := &historypb.HistoryEvent{EventId: last.GetEventId(), EventTime: last.GetEventTime(),
		EventType: enumspb.EventType(9999), WorkerMayIgnore: workerMayIgnore}
	last.EventId++
	h.Events = append(h.Events[:len(h.Events)-1], unknown, last)
	return h
}

// TestReplaySkipsUnknownEventsThatWorkersMayIgnore replays a history the
// official SDK recorded, with an event a newer server wrote: marked
// worker_may_ignore, it is skipped, as go.temporal.io/sdk skips it;
// unmarked, the replay fails and says why.
func TestReplaySkipsUnknownEventsThatWorkersMayIgnore(t *testing.T) {
	r := newReplayer()
	if err := r.ReplayWorkflowHistory(logging.NewDefaultLogger(), withEventOfANewerServer(t, "activities.json", true)); err != nil {
		t.Fatalf("an unknown event marked worker_may_ignore must be skipped: %v", err)
	}
	err := r.ReplayWorkflowHistory(logging.NewDefaultLogger(), withEventOfANewerServer(t, "activities.json", false))
	if err == nil || !strings.Contains(err.Error(), "an event type this SDK does not know") {
		t.Fatalf("an unknown event without worker_may_ignore must fail the replay, saying why; got %v", err)
	}
}
