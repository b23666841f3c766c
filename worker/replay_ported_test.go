package worker_test

import (
	"testing"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/internal/logging"
)

// Histories go.temporal.io/sdk wrote for calls it lets through (a negative
// timer, an activity given arguments that do not fit it) replay here, and
// show what that SDK does with them.

func TestReplayNegativeTimersRecordedByTheOfficialSDK(t *testing.T) {
	h := readHistory(t, "negativetimers.json")
	for _, ev := range h.GetEvents() {
		if ev.GetEventType() == enumspb.EVENT_TYPE_TIMER_STARTED {
			t.Fatalf("the fixture has a timer at event %d: go.temporal.io/sdk starts none for a negative duration", ev.GetEventId())
		}
	}
	if err := newReplayer().ReplayWorkflowHistory(logging.NewDefaultLogger(), h); err != nil {
		t.Fatal(err)
	}
}

func TestReplayMismatchedActivityArgumentsRecordedByTheOfficialSDK(t *testing.T) {
	h := readHistory(t, "mismatchedargs.json")
	var inputs []int
	failed := 0
	for _, ev := range h.GetEvents() {
		if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil {
			inputs = append(inputs, len(a.GetInput().GetPayloads()))
		}
		if ev.GetEventType() == enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED {
			failed++
		}
	}
	if len(inputs) != 3 || inputs[0] != 2 || inputs[1] != 0 || inputs[2] != 1 || failed != 1 {
		t.Fatalf("the fixture scheduled activities with %v arguments and %d failed; go.temporal.io/sdk schedules all three calls (2, 0 and 1 arguments), and the last fails", inputs, failed)
	}
	if err := newReplayer().ReplayWorkflowHistory(logging.NewDefaultLogger(), h); err != nil {
		t.Fatal(err)
	}
}
