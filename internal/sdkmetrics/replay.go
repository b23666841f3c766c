package sdkmetrics

import "time"

// ReplayAware returns a handler that forwards to next except while
// isReplaying reports true, when it drops what is recorded: workflow code
// that replays history records nothing, as the first execution recorded
// it already. isReplaying is called on each record, so it must be cheap.
func ReplayAware(next Handler, isReplaying func() bool) Handler {
	return replayAwareMetrics{next: next, isReplaying: isReplaying}
}

// replayAwareMetrics is ReplayAware's handler.
type replayAwareMetrics struct {
	next        Handler
	isReplaying func() bool
}

func (m replayAwareMetrics) WithTags(tags map[string]string) Handler {
	return replayAwareMetrics{next: m.next.WithTags(tags), isReplaying: m.isReplaying}
}

func (m replayAwareMetrics) Counter(name string) Counter {
	return replayAwareCounter{m.next.Counter(name), m.isReplaying}
}

func (m replayAwareMetrics) Gauge(name string) Gauge {
	return replayAwareGauge{m.next.Gauge(name), m.isReplaying}
}

func (m replayAwareMetrics) Timer(name string) Timer {
	return replayAwareTimer{m.next.Timer(name), m.isReplaying}
}

type replayAwareCounter struct {
	next        Counter
	isReplaying func() bool
}

func (c replayAwareCounter) Inc(delta int64) {
	if !c.isReplaying() {
		c.next.Inc(delta)
	}
}

type replayAwareGauge struct {
	next        Gauge
	isReplaying func() bool
}

func (g replayAwareGauge) Update(v float64) {
	if !g.isReplaying() {
		g.next.Update(v)
	}
}

type replayAwareTimer struct {
	next        Timer
	isReplaying func() bool
}

func (t replayAwareTimer) Record(d time.Duration) {
	if !t.isReplaying() {
		t.next.Record(d)
	}
}
