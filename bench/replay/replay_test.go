package replay

import (
	"os"
	"testing"

	historypb "go.temporal.io/api/history/v1"
	officialclient "go.temporal.io/sdk/client"
	officiallog "go.temporal.io/sdk/log"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"

	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

func loadHistory(b testing.TB, name string) *historypb.History {
	b.Helper()
	f, err := os.Open("../../testdata/histories/" + name)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	h, err := officialclient.HistoryFromJSON(f, officialclient.HistoryJSONOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return h
}

// silent discards the official replayer's logging, as ours is silent in
// replay: both measure replay, not log output.
type silent struct{}

func (silent) Debug(string, ...any) {}
func (silent) Info(string, ...any)  {}
func (silent) Warn(string, ...any)  {}
func (silent) Error(string, ...any) {}

var _ officiallog.Logger = silent{}

func benchmarkReplay(b *testing.B, file, name string, oursWF, officialWF any) {
	h := loadHistory(b, file)
	b.Run("ours", func(b *testing.B) {
		r := worker.NewWorkflowReplayer()
		r.RegisterWorkflowWithOptions(oursWF, workflow.RegisterOptions{Name: name})
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
// (about 6,000 events).
func BenchmarkReplaySequential1000(b *testing.B) {
	benchmarkReplay(b, "sequential1000.json", "SequentialActivitiesWorkflow",
		SequentialActivitiesWorkflowOurs, SequentialActivitiesWorkflowOfficial)
}

// BenchmarkReplayPingPong20000 replays a workflow whose two coroutines
// exchange 20,000 values over unbuffered channels.
func BenchmarkReplayPingPong20000(b *testing.B) {
	benchmarkReplay(b, "pingpong20000.json", "PingPongWorkflow", PingPongWorkflowOurs, PingPongWorkflowOfficial)
}

// TestBothReplayersAgree guards the benchmark: both replay the histories.
func TestBothReplayersAgree(t *testing.T) {
	for _, c := range []struct {
		file, name         string
		oursWF, officialWF any
	}{
		{"sequential1000.json", "SequentialActivitiesWorkflow", SequentialActivitiesWorkflowOurs, SequentialActivitiesWorkflowOfficial},
		{"pingpong20000.json", "PingPongWorkflow", PingPongWorkflowOurs, PingPongWorkflowOfficial},
	} {
		h := loadHistory(t, c.file)
		r := worker.NewWorkflowReplayer()
		r.RegisterWorkflowWithOptions(c.oursWF, workflow.RegisterOptions{Name: c.name})
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
