package sdkmetrics

import (
	"testing"
	"time"
)

// recorded counts what reaches a handler, by metric name.
type recorded map[string]int

func (r recorded) WithTags(map[string]string) Handler { return r }
func (r recorded) Counter(name string) Counter        { return recordedMetric{r, name} }
func (r recorded) Gauge(name string) Gauge            { return recordedMetric{r, name} }
func (r recorded) Timer(name string) Timer            { return recordedMetric{r, name} }

type recordedMetric struct {
	r    recorded
	name string
}

func (m recordedMetric) Inc(int64)              { m.r[m.name]++ }
func (m recordedMetric) Update(float64)         { m.r[m.name]++ }
func (m recordedMetric) Record(d time.Duration) { m.r[m.name]++ }

// TestReplayAwareDropsWhatReplayRecords: while replaying, counters, gauges
// and timers (of the handler and of one WithTags made) record nothing;
// once live, they record, asked at each record.
func TestReplayAwareDropsWhatReplayRecords(t *testing.T) {
	got := recorded{}
	replaying := true
	h := ReplayAware(got, func() bool { return replaying })
	tagged := h.WithTags(map[string]string{"k": "v"})
	record := func() {
		for _, h := range []Handler{h, tagged} {
			h.Counter("c").Inc(1)
			h.Gauge("g").Update(1)
			h.Timer("t").Record(time.Second)
		}
	}
	record()
	if len(got) != 0 {
		t.Fatalf("recorded while replaying: %v", got)
	}
	replaying = false
	record()
	if len(got) != 3 || got["c"] != 2 || got["g"] != 2 || got["t"] != 2 {
		t.Fatalf("recorded %v live, want each of c, g and t twice", got)
	}
}
