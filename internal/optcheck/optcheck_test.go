package optcheck

import (
	"errors"
	"math"
	"testing"
	"time"
)

func TestNegativeOptionsNamesEveryNegativeOne(t *testing.T) {
	err := Negative("client.Options",
		Duration("KeepAliveTime", -time.Second), Number("MaxPayloadSize", 5), Number("Rate", -1.5), Duration("Timeout", 0))
	want := "client.Options: KeepAliveTime is -1s, Rate is -1.5; options must not be negative (0 means the default)"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
	if err := Negative("client.Options", Duration("KeepAliveTime", 0), Number("Rate", 0)); err != nil {
		t.Fatalf("zero options refused: %v", err)
	}
}

// NaN (a division by zero) is never a setting either; nor is -Inf.
func TestNegativeOptionsRefusesNaN(t *testing.T) {
	err := Negative("RetryPolicy", Number("BackoffCoefficient", math.NaN()), Number("MaximumAttempts", math.Inf(-1)), Number("Rate", math.Inf(1)))
	want := "RetryPolicy: BackoffCoefficient is NaN, MaximumAttempts is -Inf; options must be numbers, not NaN, and not negative (0 means the default)"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
}

func TestCallOptionsErrorNamesTheCall(t *testing.T) {
	cause := errors.New("RetryPolicy: BackoffCoefficient is 0.5")
	err := CallError("ExecuteActivity", "Charge", "workflow.ActivityOptions", cause)
	if want := "ExecuteActivity(Charge): workflow.ActivityOptions: RetryPolicy: BackoffCoefficient is 0.5"; err == nil || err.Error() != want || !errors.Is(err, cause) {
		t.Fatalf("got %v, want %q wrapping the cause", err, want)
	}
	if err := CallError("ExecuteActivity", "Charge", "workflow.ActivityOptions", nil); err != nil {
		t.Fatalf("no cause gave %v", err)
	}
}

func TestNegativeCallOptionsNamesTheCall(t *testing.T) {
	err := NegativeInCall("ExecuteActivity", "Charge", "workflow.ActivityOptions",
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
		if err := NegativeInCall("ExecuteActivity", name, "workflow.ActivityOptions",
			Duration("ScheduleToCloseTimeout", time.Minute), Duration("StartToCloseTimeout", 10*time.Second),
			Duration("HeartbeatTimeout", 0), Number("Rate", 3)); err != nil {
			t.Fatal(err)
		}
		if err := CallError("ExecuteActivity", name, "workflow.ActivityOptions", nil); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("valid options cost %v allocations per check, want 0", allocs)
	}
}
