package client

import "github.com/durable-go/sdk/internal/sdkmetrics"

// MetricsHandler receives the SDK's own metrics and those that workflows
// and activities record; set it in Options.MetricsHandler, with an adapter
// to your metrics library (contrib/opentelemetry, contrib/tally, ...).
//
//   - WithTags(tags) returns a handler that adds tags to every metric.
//   - Counter(name), Gauge(name) and Timer(name) return the metric of that
//     name (MetricsCounter, MetricsGauge, MetricsTimer).
//
// Implementations must be safe for concurrent use.
type MetricsHandler = sdkmetrics.Handler

// MetricsCounter counts events: Inc(delta) adds delta.
type MetricsCounter = sdkmetrics.Counter

// MetricsGauge records a current value: Update(value) sets it.
type MetricsGauge = sdkmetrics.Gauge

// MetricsTimer records durations: Record(d) adds one.
type MetricsTimer = sdkmetrics.Timer

// MetricsNopHandler drops every metric; it is the default
// Options.MetricsHandler.
var MetricsNopHandler = sdkmetrics.NopHandler
