package client

import "github.com/durable-go/sdk/internal/sdkmetrics"

type (
	// MetricsHandler receives the SDK's own metrics and those that
	// workflows and activities record; set it in Options.MetricsHandler.
	MetricsHandler = sdkmetrics.Handler
	// MetricsCounter counts events.
	MetricsCounter = sdkmetrics.Counter
	// MetricsGauge records a current value.
	MetricsGauge = sdkmetrics.Gauge
	// MetricsTimer records durations.
	MetricsTimer = sdkmetrics.Timer
)

// MetricsNopHandler drops every metric; it is the default.
var MetricsNopHandler = sdkmetrics.NopHandler
