package workerrt

import "testing"

// TestAttemptMeterCountsAttemptsPastTheFirstTask follows go.temporal.io/sdk's
// metering: attempts count only for a local activity that was running when
// the task began, whether it is still running or ended in the task.
func TestAttemptMeterCountsAttemptsPastTheFirstTask(t *testing.T) {
	var m attemptMeter
	m.attempted("1")
	m.attempted("1")
	if got := m.taskEnded(); got != 0 {
		t.Fatalf("first task: %d attempts metered; want 0, the activity started in it", got)
	}
	m.attempted("1") // in the second task, past its first
	m.attempted("2") // scheduled in the second task
	m.attempted("1")
	m.ended("1")
	if got := m.taskEnded(); got != 2 {
		t.Fatalf("second task: %d attempts metered; want 2, those of activity 1 (ended in it)", got)
	}
	m.attempted("2")
	if got := m.taskEnded(); got != 1 {
		t.Fatalf("third task: %d attempts metered; want 1, activity 2's", got)
	}
	m.ended("2")
	if got := m.taskEnded(); got != 0 {
		t.Fatalf("fourth task: %d attempts metered; want 0, no attempt made", got)
	}
}
