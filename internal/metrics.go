package internal

import (
	"time"

	"github.com/durable-go/sdk/internal/sdkmetrics"
)

// MetricsHandler receives the metrics workflows and activities record, and
// the SDK's own (client.MetricsHandler); plug in an adapter for Prometheus,
// OpenTelemetry or similar through client.Options.MetricsHandler. It is
// declared in package sdkmetrics, which the worker runtime shares.
type MetricsHandler = sdkmetrics.Handler

// MetricsCounter counts events.
type MetricsCounter = sdkmetrics.Counter

// MetricsGauge records a current value.
type MetricsGauge = sdkmetrics.Gauge

// MetricsTimer records durations.
type MetricsTimer = sdkmetrics.Timer

// MetricsNopHandler drops every metric; it is the default.
var MetricsNopHandler = sdkmetrics.NopHandler

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
