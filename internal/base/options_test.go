package base

import (
	"testing"
	"time"
)

func TestNegativeOptionsNamesEveryNegativeOne(t *testing.T) {
	err := NegativeOptions("client.Options",
		Duration("KeepAliveTime", -time.Second), Number("MaxPayloadSize", 5), Number("Rate", -1.5), Duration("Timeout", 0))
	want := "client.Options: KeepAliveTime is -1s, Rate is -1.5; options must not be negative (0 means the default)"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
	if err := NegativeOptions("client.Options", Duration("KeepAliveTime", 0), Number("Rate", 0)); err != nil {
		t.Fatalf("zero options refused: %v", err)
	}
}

func TestNegativeCallOptionsNamesTheCall(t *testing.T) {
	err := NegativeCallOptions("ExecuteActivity", "Charge", "workflow.ActivityOptions",
		Duration("StartToCloseTimeout", -5*time.Second), Duration("HeartbeatTimeout", time.Second))
	want := "ExecuteActivity(Charge): workflow.ActivityOptions: StartToCloseTimeout is -5s; options must not be negative (0 means the default)"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
}

// Workflow code checks the options of every activity it schedules: valid
// options must cost no allocation.
func TestNegativeCallOptionsAllocatesNothingForValidOptions(t *testing.T) {
	name := "Charge"
	allocs := testing.AllocsPerRun(100, func() {
		if err := NegativeCallOptions("ExecuteActivity", name, "workflow.ActivityOptions",
			Duration("ScheduleToCloseTimeout", time.Minute), Duration("StartToCloseTimeout", 10*time.Second),
			Duration("HeartbeatTimeout", 0), Number("Rate", 3)); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("valid options cost %v allocations per check, want 0", allocs)
	}
}
