package commands

import (
	"reflect"
	"strings"
	"testing"
	"time"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"google.golang.org/protobuf/types/known/durationpb"
)

func schedule(b *Book, typ string) *Activity {
	return b.ScheduleActivity(&commandpb.ScheduleActivityTaskCommandAttributes{ActivityId: seqID(b.NextSeq()), ActivityType: &commonpb.ActivityType{Name: typ}}, nil, false, func(Outcome) {})
}

func startTimer(b *Book) *Timer {
	return b.StartTimer(&commandpb.StartTimerCommandAttributes{TimerId: seqID(b.NextSeq()), StartToFireTimeout: durationpb.New(time.Minute)}, nil, func(Outcome) {})
}

func TestSequencePredictsEventIDs(t *testing.T) {
	// Task started at event 3; completed is 4; commands' events are 5, 6, 7.
	b := NewBook()
	b.BeginTask(3)
	a := schedule(b, "A")
	tm := startTimer(b)
	c := schedule(b, "C")
	if a.attrs.ActivityId != "5" || tm.attrs.TimerId != "6" || c.attrs.ActivityId != "7" {
		t.Fatalf("IDs %s %s %s, want 5 6 7", a.attrs.ActivityId, tm.attrs.TimerId, c.attrs.ActivityId)
	}
	if got := len(b.TakeCommands()); got != 3 {
		t.Fatalf("want 3 commands, got %d", got)
	}
}

func TestSequenceCountsCancelsAndSkipsKnownVersionMarkers(t *testing.T) {
	b := NewBook()
	b.BeginTask(3)
	tm := startTimer(b)            // 5
	tm.Cancel()                    // CancelTimer: 6
	b.ExpectVersionMarker(7, true) // marker at 7, search attribute upsert at 8
	a := schedule(b, "A")
	if a.attrs.ActivityId != "9" {
		t.Fatalf("ID %s, want 9", a.attrs.ActivityId)
	}
}

func TestBeginTaskCountsCommandsProducedBeforeTheTask(t *testing.T) {
	b := NewBook()
	b.BeginTask(3)
	schedule(b, "A")
	b.TakeCommands()
	if _, err := b.Apply(scheduledEvent(5, "5", "A")); err != nil {
		t.Fatal(err)
	}
	// An event callback cancels the activity before the next task starts:
	// its cancel request will be the first command after event 9+1.
	b.routes[Key{ID: 5}].(*Activity).Cancel()
	b.BeginTask(9)
	if got := b.NextSeq(); got != 12 {
		t.Fatalf("next seq %d, want 12 (11 is the pending cancel)", got)
	}
}

func TestMismatchMessages(t *testing.T) {
	cases := []struct {
		name    string
		produce func(b *Book)
		event   *historypb.HistoryEvent
		want    []string
	}{
		{"activity renamed", func(b *Book) { schedule(b, "Ship") }, scheduledEvent(5, "5", "Charge"),
			[]string{"event 5 ActivityTaskScheduled", `type "Charge"`, `ScheduleActivityTask (activity "5", type "Ship")`, "activity type differs"}},
		{"timer turned into activity", func(b *Book) { schedule(b, "Charge") }, timerEvent(enumspb.EVENT_TYPE_TIMER_STARTED, 5, "5"),
			[]string{"event 5 TimerStarted", `timer "5"`, `produced ScheduleActivityTask (activity "5", type "Charge")`}},
		{"activity removed", func(b *Book) {}, scheduledEvent(5, "5", "Charge"),
			[]string{"event 5 ActivityTaskScheduled", "produced no command"}},
		{"different activity ID", func(b *Book) {
			b.ScheduleActivity(&commandpb.ScheduleActivityTaskCommandAttributes{ActivityId: "custom", ActivityType: &commonpb.ActivityType{Name: "Charge"}}, nil, false, func(Outcome) {})
		}, scheduledEvent(5, "5", "Charge"), []string{"activity ID differs", `"5" in history, "custom" in code`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := NewBook()
			b.BeginTask(3)
			c.produce(b)
			b.TakeCommands()
			_, err := b.Apply(c.event)
			var nd *NondeterminismError
			if err == nil || !asNondeterminism(err, &nd) {
				t.Fatalf("want a NondeterminismError, got %v", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("message %q lacks %q", err, w)
				}
			}
		})
	}
}

func asNondeterminism(err error, target **NondeterminismError) bool {
	nd, ok := err.(*NondeterminismError)
	*target = nd
	return ok
}

func TestCheckAllMatchedReportsExtraCommand(t *testing.T) {
	b := NewBook()
	b.BeginTask(3)
	schedule(b, "A")
	schedule(b, "B")
	b.TakeCommands()
	if _, err := b.Apply(scheduledEvent(5, "5", "A")); err != nil {
		t.Fatal(err)
	}
	next := activityEvent(InStarted, 7, 5)
	err := b.CheckAllMatched(next)
	if err == nil || !strings.Contains(err.Error(), `ScheduleActivityTask (activity "6", type "B")`) || !strings.Contains(err.Error(), "history has no event for it") {
		t.Fatalf("an extra command must be reported by name, got %v", err)
	}
}

func TestCommandsMatchInOrder(t *testing.T) {
	// Two commands swapped: the first event must be reported against the
	// first command produced.
	b := NewBook()
	b.BeginTask(3)
	startTimer(b)
	schedule(b, "A")
	b.TakeCommands()
	_, err := b.Apply(scheduledEvent(5, "6", "A"))
	if err == nil || !strings.Contains(err.Error(), "StartTimer") {
		t.Fatalf("want the swapped order reported, got %v", err)
	}
}

func TestTableRejectsDuplicateRows(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a table with two rows for one (state, input) must panic")
		}
	}()
	NewTable("bad", Row[*Timer]{Created, InSent, CommandSent, nil}, Row[*Timer]{Created, InSent, Fired, nil})
}

// runActivity schedules an activity and applies its scheduled, started
// and completed events, as replay does; it returns the next task's
// WorkflowTaskStarted event ID.
func runActivity(t *testing.T, b *Book) int64 {
	t.Helper()
	seq := b.NextSeq()
	schedule(b, "Charge")
	b.TakeCommands()
	for _, ev := range []*historypb.HistoryEvent{
		scheduledEvent(seq, seqID(seq), "Charge"),
		activityEvent(InStarted, seq+1, seq),
		activityEvent(InCompleted, seq+2, seq),
	} {
		if _, err := b.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	return seq + 4
}

// Sequential activities, one open at a time, share one route map while
// the engine works; Trim drops it once no command is open, so that a run
// waiting in a cache keeps none.
func TestTheRouteMapLastsUntilTrim(t *testing.T) {
	b := NewBook()
	b.BeginTask(taskStarted)
	b.BeginTask(runActivity(t, b))
	if b.routes == nil {
		t.Fatal("the route map was dropped when its last route went")
	}
	first := reflect.ValueOf(b.routes).UnsafePointer()
	b.BeginTask(runActivity(t, b))
	if again := reflect.ValueOf(b.routes).UnsafePointer(); again != first {
		t.Fatal("the second activity made a new route map")
	}
	seq := b.NextSeq()
	schedule(b, "Charge")
	b.TakeCommands()
	b.Trim()
	if b.routes == nil {
		t.Fatal("Trim dropped the route map of an open activity")
	}
	for _, ev := range []*historypb.HistoryEvent{scheduledEvent(seq, seqID(seq), "Charge"), activityEvent(InCompleted, seq+1, seq)} {
		if _, err := b.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	b.Trim()
	if b.routes != nil {
		t.Fatal("Trim kept an empty route map")
	}
}
