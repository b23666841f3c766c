package engine

import (
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/converter"
)

func enc(t *testing.T, v ...any) *commonpb.Payloads {
	t.Helper()
	p, err := converter.GetDefaultDataConverter().ToPayloads(v...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSideEffectRecordsOnceAndReplaysRecordedValue(t *testing.T) {
	calls := 0
	var got string
	step := func(s *scripted, run int) {
		if run != 1 {
			return
		}
		r, err := s.x.SideEffect(func() (*commonpb.Payloads, error) {
			calls++
			return payloads("fresh"), nil
		})
		if err != nil {
			t.Fatal(err)
		}
		got = string(r.GetPayloads()[0].GetData())
	}

	// First execution: f runs, a marker is recorded.
	h := newHistory("Greet")
	h.task()
	x, _ := newRun(step)
	res := process(t, x, h.events)
	if calls != 1 || got != `"fresh"` || len(res.Commands) != 1 || res.Commands[0].GetRecordMarkerCommandAttributes().GetMarkerName() != "SideEffect" {
		t.Fatalf("calls=%d got=%s commands=%v", calls, got, res.Commands)
	}

	// Replay: f does not run; the recorded value is returned.
	h.completed()
	h.marker("SideEffect", map[string]*commonpb.Payloads{"side-effect-id": enc(t, int64(1)), "data": payloads("recorded")})
	h.task()
	calls = 0
	y, _ := newRun(step)
	process(t, y, h.events)
	if calls != 0 || got != `"recorded"` {
		t.Fatalf("replay must return the recorded value without calling f: calls=%d got=%s", calls, got)
	}
}

func TestGetVersion(t *testing.T) {
	var version int
	step := func(s *scripted, run int) {
		if run == 1 {
			version = s.x.GetVersion("fix-1", DefaultVersion, 2)
			s.activity("Charge")
		}
	}
	// New run: the newest version, a marker and a search attribute upsert,
	// and the activity's ID skips past both.
	h := newHistory("Greet")
	h.task()
	x, _ := newRun(step)
	res := process(t, x, h.events)
	if version != 2 || len(res.Commands) != 3 {
		t.Fatalf("version %d commands %v", version, res.Commands)
	}
	if res.Commands[1].GetCommandType() != enumspb.COMMAND_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES ||
		string(res.Commands[1].GetUpsertWorkflowSearchAttributesCommandAttributes().GetSearchAttributes().GetIndexedFields()[ChangeVersionSearchAttribute].GetData()) != `["fix-1-2"]` {
		t.Fatalf("want the change version upsert, got %v", res.Commands[1])
	}
	if id := res.Commands[2].GetScheduleActivityTaskCommandAttributes().GetActivityId(); id != "7" {
		t.Fatalf("activity ID %s, want 7", id)
	}

	// Replay of a history with the marker (version 1 chosen back then):
	// the recorded version, and the activity keeps ID 7.
	h.completed()
	h.marker("Version", map[string]*commonpb.Payloads{"change-id": enc(t, "fix-1"), "version": enc(t, 1)})
	h.upsert(res.Commands[1].GetUpsertWorkflowSearchAttributesCommandAttributes().GetSearchAttributes())
	h.activityScheduled("7", "Charge")
	h.task()
	y, _ := newRun(step)
	process(t, y, h.events)
	if version != 1 {
		t.Fatalf("replay must return the recorded version, got %d", version)
	}

	// Replay of a history written before the change: DefaultVersion.
	old := newHistory("Greet")
	old.task()
	old.completed()
	old.activityScheduled("5", "Charge")
	old.task()
	z, _ := newRun(step)
	process(t, z, old.events)
	if version != DefaultVersion {
		t.Fatalf("code replaying a run from before the change must get DefaultVersion, got %d", version)
	}

	// A version the code no longer supports is reported.
	w, _ := newRun(func(s *scripted, run int) {
		if run == 1 {
			s.x.GetVersion("fix-1", 2, 3)
		}
	})
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = r.(error)
			}
		}()
		_, err = w.ProcessTask(Task{Events: NewEventSource(t.Context(), h.events, nil, nil)})
		return err
	}()
	if err == nil || !strings.Contains(err.Error(), `GetVersion("fix-1"): history recorded version 1, but the code supports only versions 2 to 3`) {
		t.Fatalf("want an unsupported version error, got %v", err)
	}
}

func TestMutableSideEffect(t *testing.T) {
	value := "a"
	var got []string
	step := func(s *scripted, run int) {
		r, err := s.x.MutableSideEffect("cfg", func() (*commonpb.Payloads, error) { return payloads(value), nil },
			func(old *commonpb.Payloads) bool { return string(old.GetPayloads()[0].GetData()) == `"`+value+`"` })
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(r.GetPayloads()[0].GetData()))
		if run == 1 {
			s.x.StartTimer(1, "", func(error) {})
		}
	}
	h := newHistory("Greet")
	h.task()
	x, _ := newRun(step)
	res := process(t, x, h.events)
	if len(res.Commands) != 2 || res.Commands[0].GetRecordMarkerCommandAttributes().GetMarkerName() != "MutableSideEffect" {
		t.Fatalf("want a MutableSideEffect marker then a timer, got %v", res.Commands)
	}
	// Same value on the next task: no new marker.
	h.completed()
	h.marker("MutableSideEffect", res.Commands[0].GetRecordMarkerCommandAttributes().GetDetails())
	h.timerStarted("6", 1)
	h.timerFired("6")
	first := len(h.events)
	h.task()
	res = process(t, x, h.events[first-4:])
	if len(res.Commands) != 0 || got[len(got)-1] != `"a"` {
		t.Fatalf("an unchanged value records nothing: %v %v", res.Commands, got)
	}
	// Full replay of that history returns the recorded value without f.
	value = "b"
	got = nil
	y, _ := newRun(step)
	process(t, y, h.events[:first])
	if got[0] != `"a"` {
		t.Fatalf("replay must return the recorded value, got %v", got)
	}
}
