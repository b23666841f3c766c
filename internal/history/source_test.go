package history

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/internal/clientapi"
)

// events numbers the events of types from 1.
func events(types ...enumspb.EventType) []*historypb.HistoryEvent {
	evs := make([]*historypb.HistoryEvent, len(types))
	for i, t := range types {
		evs[i] = &historypb.HistoryEvent{EventId: int64(i + 1), EventType: t}
	}
	return evs
}

func typesOf(evs []*historypb.HistoryEvent) []enumspb.EventType {
	var types []enumspb.EventType
	for _, ev := range evs {
		types = append(types, ev.GetEventType())
	}
	return types
}

const (
	started   = enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED
	scheduled = enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED
	taskStart = enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED
	completed = enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED
	failed    = enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED
	timer     = enumspb.EVENT_TYPE_TIMER_STARTED
	closed    = enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED
)

// TestWithPendingTaskStartedStartsTheTaskHistoryLeftPending: a scheduled
// task gets its start; a failed one a new attempt, scheduled and started;
// a task already started, a completed one, or a closed run get nothing.
func TestWithPendingTaskStartedStartsTheTaskHistoryLeftPending(t *testing.T) {
	for _, c := range []struct {
		name string
		in   []enumspb.EventType
		want []enumspb.EventType
	}{
		{"scheduled", []enumspb.EventType{started, scheduled}, []enumspb.EventType{started, scheduled, taskStart}},
		{"failed", []enumspb.EventType{started, scheduled, taskStart, failed}, []enumspb.EventType{started, scheduled, taskStart, failed, scheduled, taskStart}},
		{"already started", []enumspb.EventType{started, scheduled, taskStart}, []enumspb.EventType{started, scheduled, taskStart}},
		{"completed", []enumspb.EventType{started, scheduled, taskStart, completed, timer}, []enumspb.EventType{started, scheduled, taskStart, completed, timer}},
		{"closed", []enumspb.EventType{started, scheduled, taskStart, completed, closed}, []enumspb.EventType{started, scheduled, taskStart, completed, closed}},
	} {
		in := events(c.in...)
		got := WithPendingTaskStarted(in)
		if !slices.Equal(typesOf(got), c.want) {
			t.Errorf("%s: %v, want %v", c.name, typesOf(got), c.want)
			continue
		}
		for i, ev := range got {
			if ev.GetEventId() != int64(i+1) {
				t.Errorf("%s: event %d has ID %d", c.name, i, ev.GetEventId())
			}
		}
		if len(got) > len(in) && got[len(got)-1].GetWorkflowTaskStartedEventAttributes().GetScheduledEventId() != got[len(got)-2].GetEventId() {
			t.Errorf("%s: the added start names scheduled event %d", c.name, got[len(got)-1].GetWorkflowTaskStartedEventAttributes().GetScheduledEventId())
		}
	}
}

// TestInMemoryCutsAndExtends: a source cut at an event keeps the events up
// to it, and with runPending starts the task left pending there.
func TestInMemoryCutsAndExtends(t *testing.T) {
	h := &historypb.History{Events: events(started, scheduled, taskStart, completed, timer)}
	if got := InMemory(h, 0, false, clientapi.WorkflowExecution{}).Events; len(got) != 5 {
		t.Fatalf("uncut: %d events, want 5", len(got))
	}
	src := InMemory(h, 2, true, clientapi.WorkflowExecution{ID: "wf"})
	if want := []enumspb.EventType{started, scheduled, taskStart}; !slices.Equal(typesOf(src.Events), want) {
		t.Fatalf("cut at 2 and extended: %v, want %v", typesOf(src.Events), want)
	}
	if _, run := src.Identity(); run.ID != "wf" {
		t.Fatalf("the source replays run %q, want the original's ID", run.ID)
	}
}

// TestAllEventsReadsEveryPage: the pages after the first are read in
// order to the last; a failed page fails the read.
func TestAllEventsReadsEveryPage(t *testing.T) {
	pages := map[string]*historypb.History{"2": {Events: events(started, scheduled)[1:]}, "3": {Events: events(started, scheduled, taskStart)[2:]}}
	next := map[string]string{"2": "3"}
	src := Source{Events: events(started), Token: []byte("2"), Fetch: func(_ context.Context, token []byte) (*historypb.History, []byte, error) {
		p, ok := pages[string(token)]
		if !ok {
			return nil, nil, errors.New("no such page")
		}
		return p, []byte(next[string(token)]), nil
	}}
	got, err := src.AllEvents(context.Background())
	if err != nil || !slices.Equal(typesOf(got), []enumspb.EventType{started, scheduled, taskStart}) {
		t.Fatalf("read %v, %v; want the three events", typesOf(got), err)
	}
	src.Token = []byte("missing")
	if _, err := src.AllEvents(context.Background()); err == nil || !strings.Contains(err.Error(), "no such page") {
		t.Fatalf("a failed page read as %v", err)
	}
}

// TestFromJSONCutsAfterLastEventID reads either enum spelling and drops
// the events after lastEventID.
func TestFromJSONCutsAfterLastEventID(t *testing.T) {
	const js = `{"events":[{"eventId":"1","eventType":"EVENT_TYPE_WORKFLOW_EXECUTION_STARTED"},{"eventId":"2","eventType":"WorkflowTaskScheduled"}]}`
	h, err := FromJSON(strings.NewReader(js), 0)
	if err != nil || !slices.Equal(typesOf(h.GetEvents()), []enumspb.EventType{started, scheduled}) {
		t.Fatalf("read %v, %v", typesOf(h.GetEvents()), err)
	}
	if h, err := FromJSON(strings.NewReader(js), 1); err != nil || len(h.GetEvents()) != 1 {
		t.Fatalf("cut at 1: %v, %v", typesOf(h.GetEvents()), err)
	}
}
