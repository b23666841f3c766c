package internal

import (
	"time"

	"github.com/durable-go/sdk/internal/sdkmetrics"
)

// The metrics handler (client.MetricsHandler) is sdkmetrics.Handler,
// declared below every package that emits metrics (the client, the worker
// runtime) so that they all take the same type.

// replayAwareMetrics drops what workflow code records while it replays
// history: the first execution recorded it already.
type replayAwareMetrics struct {
	next        sdkmetrics.Handler
	isReplaying func() bool
}

func (m replayAwareMetrics) WithTags(tags map[string]string) sdkmetrics.Handler {
	return replayAwareMetrics{next: m.next.WithTags(tags), isReplaying: m.isReplaying}
}

func (m replayAwareMetrics) Counter(name string) sdkmetrics.Counter {
	return replayAwareCounter{m.next.Counter(name), m.isReplaying}
}

func (m replayAwareMetrics) Gauge(name string) sdkmetrics.Gauge {
	return replayAwareGauge{m.next.Gauge(name), m.isReplaying}
}

func (m replayAwareMetrics) Timer(name string) sdkmetrics.Timer {
	return replayAwareTimer{m.next.Timer(name), m.isReplaying}
}

type replayAwareCounter struct {
	next        sdkmetrics.Counter
	isReplaying func() bool
}

func (c replayAwareCounter) Inc(delta int64) {
	if !c.isReplaying() {
		c.next.Inc(delta)
	}
}

type replayAwareGauge struct {
	next        sdkmetrics.Gauge
	isReplaying func() bool
}

func (g replayAwareGauge) Update(v float64) {
	if !g.isReplaying() {
		g.next.Update(v)
	}
}

type replayAwareTimer struct {
	next        sdkmetrics.Timer
	isReplaying func() bool
}

func (t replayAwareTimer) Record(d time.Duration) {
	if !t.isReplaying() {
		t.next.Record(d)
	}
}
