package engine

import "testing"

// A flag set holds the flags that exist (under 64) and any a newer SDK may
// write, and nothing else.
func TestFlagSet(t *testing.T) {
	var s flagSet
	for _, f := range []uint32{1, 9, 63, 64, 1000} {
		if s.has(f) {
			t.Fatalf("flag %d before it was added", f)
		}
		s.add(f)
		if !s.has(f) {
			t.Fatalf("flag %d missing after it was added", f)
		}
	}
	for _, f := range []uint32{0, 2, 8, 10, 62, 65, 999} {
		if s.has(f) {
			t.Errorf("flag %d was never added", f)
		}
	}
}

// The SDK's name and version go out only when they differ from what the
// run's last completed task recorded, as go.temporal.io/sdk sends them.
func TestSDKIsReportedOnlyWhenItChanges(t *testing.T) {
	type sdk struct{ name, version string }
	// replayed: the history's first task recorded these, then the second
	// task is live.
	cases := []struct {
		name     string
		replayed *sdk // nil: the first task is live
		want     sdk
	}{
		{"a run's first task", nil, sdk{"durable-go", "1.2"}},
		{"after a task this SDK completed", &sdk{"durable-go", "1.2"}, sdk{}},
		{"after a task another version completed", &sdk{"durable-go", "1.1"}, sdk{"", "1.2"}},
		{"after a task another SDK completed", &sdk{"temporal-go", "1.50.0"}, sdk{"durable-go", "1.2"}},
		{"after a task that recorded none", &sdk{}, sdk{"durable-go", "1.2"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHistory("Greet")
			h.task()
			if c.replayed != nil {
				h.completed()
				md := h.events[len(h.events)-1].GetWorkflowTaskCompletedEventAttributes().GetSdkMetadata()
				md.SdkName, md.SdkVersion = c.replayed.name, c.replayed.version
				h.signal("go", "on")
				h.task()
			}
			x, _ := newRun(func(*scripted, int) {})
			process(t, x, h.events)
			var got sdk
			got.name, got.version = x.SDKToReport("durable-go", "1.2")
			if got != c.want {
				t.Fatalf("reported %+v, want %+v", got, c.want)
			}
			if again, v := x.SDKToReport("durable-go", "1.2"); again != "" || v != "" {
				t.Fatalf("the next task reported %q %q again, want nothing", again, v)
			}
		})
	}
}
