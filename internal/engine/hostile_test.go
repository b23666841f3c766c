package engine

import (
	"context"
	"strings"
	"testing"

	historypb "go.temporal.io/api/history/v1"
	"google.golang.org/protobuf/proto"
)

// Histories no server should send, which a worker must still survive:
// each ends in an error that says which event is wrong.

func processErr(t *testing.T, x *Run, src *EventSource) error {
	t.Helper()
	_, err := x.ProcessTask(Task{Events: src})
	if err == nil {
		t.Fatal("want an error")
	}
	return err
}

func wantInError(t *testing.T, err error, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error lacks %q:\n%v", w, err)
		}
	}
}

func TestHistoryWithoutStartEventIsAnError(t *testing.T) {
	h := newHistory("Greet")
	h.signal("add", "one")
	x, _ := newRun(oneActivityThenComplete)
	// Without its first event, the signal is the first event of history.
	events := h.events[1:]
	events[0].EventId = 1

	err := processErr(t, x, NewEventSource(context.Background(), events, nil, nil))

	wantInError(t, err, "event 1 WorkflowExecutionSignaled", "history does not begin with a WorkflowExecutionStarted event")
}

func TestStartEventWithoutAttributesNamesTheEvent(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	h.events[0].Attributes = nil
	x, _ := newRun(oneActivityThenComplete)

	err := processErr(t, x, NewEventSource(context.Background(), h.events, nil, nil))

	wantInError(t, err, "applying event 1 WorkflowExecutionStarted", `workflow type  is not registered`)
}

func TestPagesThatGoInCirclesEndTheTask(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	fetches := 0
	// Every token leads back to the first page.
	fetch := func(context.Context, []byte) (*historypb.History, []byte, error) {
		fetches++
		return &historypb.History{Events: h.events[:1]}, []byte("again"), nil
	}
	x, _ := newRun(oneActivityThenComplete)

	err := processErr(t, x, NewEventSource(context.Background(), h.events[:1], []byte("again"), fetch))

	wantInError(t, err, "pages of history in a row with no event after event 1", "goes in circles")
	if fetches > maxStalledPages {
		t.Errorf("%d pages fetched, want at most %d", fetches, maxStalledPages)
	}
}

func TestEmptyPagesBetweenFullOnesAreRead(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	pages := [][]*historypb.HistoryEvent{nil, nil, h.events[1:2], nil, h.events[2:]}
	fetch := func(_ context.Context, token []byte) (*historypb.History, []byte, error) {
		i := int(token[0])
		var next []byte
		if i+1 < len(pages) {
			next = []byte{byte(i + 1)}
		}
		return &historypb.History{Events: pages[i]}, next, nil
	}
	x, _ := newRun(oneActivityThenComplete)

	res, err := x.ProcessTask(Task{Events: NewEventSource(context.Background(), h.events[:1], []byte{0}, fetch)})

	if err != nil {
		t.Fatal(err)
	}
	if len(res.Commands) != 1 {
		t.Fatalf("commands %v, want the activity scheduled", res.Commands)
	}
}

func TestLostPageNamesTheLastEventRead(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	fetch := func(context.Context, []byte) (*historypb.History, []byte, error) {
		return nil, nil, context.DeadlineExceeded
	}
	x, _ := newRun(oneActivityThenComplete)

	err := processErr(t, x, NewEventSource(context.Background(), h.events[:2], []byte("next"), fetch))

	wantInError(t, err, "fetching the page of history after event 2", "deadline exceeded")
}

func TestCodeErrorNamesTheTaskItRanIn(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	x := NewRun(&Options{NewWorkflow: func(string) (Workflow, error) { return &failingRun{}, nil }})

	err := processErr(t, x, NewEventSource(context.Background(), h.events, nil, nil))

	wantInError(t, err, "in the workflow task that event 3 WorkflowTaskStarted started", "the code failed")
}

// failingRun is a Workflow whose code fails at once.
type failingRun struct{ scripted }

func (*failingRun) Run() error { return errString("the code failed") }

type errString string

func (e errString) Error() string { return string(e) }

func TestSecondStartEventIsAnError(t *testing.T) {
	h := newHistory("Greet")
	h.task()
	second := proto.Clone(h.events[0]).(*historypb.HistoryEvent)
	second.EventId = 4
	events := append(h.events, second)
	starts := 0
	x := NewRun(&Options{NewWorkflow: func(string) (Workflow, error) {
		starts++
		return &scripted{step: func(*scripted, int) {}}, nil
	}})

	err := processErr(t, x, NewEventSource(context.Background(), events, nil, nil))

	// A second run of the code would be started over the first, whose
	// coroutines nothing would close.
	wantInError(t, err, "applying event 4 WorkflowExecutionStarted", "a second WorkflowExecutionStarted event")
	if starts != 1 {
		t.Errorf("the workflow was made %d times, want once", starts)
	}
}
