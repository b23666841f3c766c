package main

import (
	"testing"

	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"

	oursworker "github.com/durable-go/sdk/worker"
	oursworkflow "github.com/durable-go/sdk/workflow"
)

// benchmarkReplayBoth replays one recorded history with each SDK's
// replayer, the same workflow code compiled against each.
func benchmarkReplayBoth(b *testing.B, file, name string, oursWF, officialWF any) {
	h := readHistory(b, file)
	b.Run("ours", func(b *testing.B) {
		r := oursworker.NewWorkflowReplayer()
		r.RegisterWorkflowWithOptions(oursWF, oursworkflow.RegisterOptions{Name: name})
		b.ReportAllocs()
		for b.Loop() {
			if err := r.ReplayWorkflowHistory(nil, h); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("official", func(b *testing.B) {
		r := officialworker.NewWorkflowReplayer()
		r.RegisterWorkflowWithOptions(officialWF, officialworkflow.RegisterOptions{Name: name})
		b.ReportAllocs()
		for b.Loop() {
			if err := r.ReplayWorkflowHistory(silent{}, h); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkReplaySequential1000 replays 1,000 sequential activities
// (6,005 events) with each SDK.
func BenchmarkReplaySequential1000(b *testing.B) {
	benchmarkReplayBoth(b, "sequential1000.json", "SequentialActivitiesWorkflow", sequentialOurs, sequentialOfficial)
}

// BenchmarkReplayPingPong20000 replays two coroutines exchanging 20,000
// values over unbuffered channels, with each SDK.
func BenchmarkReplayPingPong20000(b *testing.B) {
	benchmarkReplayBoth(b, "pingpong20000.json", "PingPongWorkflow", pingPongOurs, pingPongOfficial)
}

// TestBothReplayersReplayTheBenchmarkHistories guards the benchmarks.
func TestBothReplayersReplayTheBenchmarkHistories(t *testing.T) {
	for _, c := range []struct {
		file, name         string
		oursWF, officialWF any
	}{
		{"sequential1000.json", "SequentialActivitiesWorkflow", sequentialOurs, sequentialOfficial},
		{"pingpong20000.json", "PingPongWorkflow", pingPongOurs, pingPongOfficial},
	} {
		h := readHistory(t, c.file)
		r := oursworker.NewWorkflowReplayer()
		r.RegisterWorkflowWithOptions(c.oursWF, oursworkflow.RegisterOptions{Name: c.name})
		if err := r.ReplayWorkflowHistory(nil, h); err != nil {
			t.Fatalf("ours, %s: %v", c.file, err)
		}
		o := officialworker.NewWorkflowReplayer()
		o.RegisterWorkflowWithOptions(c.officialWF, officialworkflow.RegisterOptions{Name: c.name})
		if err := o.ReplayWorkflowHistory(silent{}, h); err != nil {
			t.Fatalf("official, %s: %v", c.file, err)
		}
	}
}
