package commands

import (
	"testing"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	historypb "go.temporal.io/api/history/v1"
)

// BenchmarkActivityLifecycle is one activity through the book: scheduled
// by code, sent, and its scheduled, started and completed events applied,
// as replay does for every activity of a history.
func BenchmarkActivityLifecycle(b *testing.B) {
	book := NewBook()
	book.BeginTask(3)
	typ := &commonpb.ActivityType{Name: "Charge"}
	done := func(Outcome) {}
	b.ReportAllocs()
	for b.Loop() {
		seq := book.NextSeq()
		book.ScheduleActivity(&commandpb.ScheduleActivityTaskCommandAttributes{ActivityId: seqID(seq), ActivityType: typ}, nil, false, done)
		book.TakeCommands()
		for _, ev := range []*historypb.HistoryEvent{
			scheduledEvent(seq, seqID(seq), "Charge"),
			activityEvent(InStarted, seq+1, seq),
			activityEvent(InCompleted, seq+2, seq),
		} {
			if _, err := book.Apply(ev); err != nil {
				b.Fatal(err)
			}
		}
		book.BeginTask(seq + 4) // scheduled and started the next task
	}
}
