package internal

import "time"

// MetricsHandler receives the metrics workflows and activities record
// (client.MetricsHandler); plug in an adapter for Prometheus, OpenTelemetry
// or similar through client.Options.MetricsHandler.
type MetricsHandler interface {
	// WithTags returns a handler that adds tags to every metric.
	WithTags(tags map[string]string) MetricsHandler
	// Counter returns the counter of that name.
	Counter(name string) MetricsCounter
	// Gauge returns the gauge of that name.
	Gauge(name string) MetricsGauge
	// Timer returns the timer of that name.
	Timer(name string) MetricsTimer
}

// MetricsCounter counts events.
type MetricsCounter interface{ Inc(delta int64) }

// MetricsGauge records a current value.
type MetricsGauge interface{ Update(value float64) }

// MetricsTimer records durations.
type MetricsTimer interface{ Record(d time.Duration) }

// MetricsNopHandler drops every metric; it is the default.
var MetricsNopHandler MetricsHandler = nopMetrics{}

type nopMetrics struct{}

func (nopMetrics) WithTags(map[string]string) MetricsHandler { return nopMetrics{} }
func (nopMetrics) Counter(string) MetricsCounter             { return nopMetrics{} }
func (nopMetrics) Gauge(string) MetricsGauge                 { return nopMetrics{} }
func (nopMetrics) Timer(string) MetricsTimer                 { return nopMetrics{} }
func (nopMetrics) Inc(int64)                                 {}
func (nopMetrics) Update(float64)                            {}
func (nopMetrics) Record(time.Duration)                      {}

// replayAwareMetrics drops what workflow code records while it replays
// history: the first execution recorded it already.
type replayAwareMetrics struct {
	next        MetricsHandler
	isReplaying func() bool
}

func (m replayAwareMetrics) WithTags(tags map[string]string) MetricsHandler {
	return replayAwareMetrics{next: m.next.WithTags(tags), isReplaying: m.isReplaying}
}

func (m replayAwareMetrics) Counter(name string) MetricsCounter {
	return replayAwareCounter{m.next.Counter(name), m.isReplaying}
}

func (m replayAwareMetrics) Gauge(name string) MetricsGauge {
	return replayAwareGauge{m.next.Gauge(name), m.isReplaying}
}

func (m replayAwareMetrics) Timer(name string) MetricsTimer {
	return replayAwareTimer{m.next.Timer(name), m.isReplaying}
}

type replayAwareCounter struct {
	next        MetricsCounter
	isReplaying func() bool
}

func (c replayAwareCounter) Inc(delta int64) {
	if !c.isReplaying() {
		c.next.Inc(delta)
	}
}

type replayAwareGauge struct {
	next        MetricsGauge
	isReplaying func() bool
}

func (g replayAwareGauge) Update(v float64) {
	if !g.isReplaying() {
		g.next.Update(v)
	}
}

type replayAwareTimer struct {
	next        MetricsTimer
	isReplaying func() bool
}

func (t replayAwareTimer) Record(d time.Duration) {
	if !t.isReplaying() {
		t.next.Record(d)
	}
}
