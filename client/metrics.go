package client

import "github.com/durable-go/sdk/internal"

type (
	// MetricsHandler receives the metrics that workflows and activities
	// record; set it in Options.MetricsHandler.
	MetricsHandler = internal.MetricsHandler
	// MetricsCounter counts events.
	MetricsCounter = internal.MetricsCounter
	// MetricsGauge records a current value.
	MetricsGauge = internal.MetricsGauge
	// MetricsTimer records durations.
	MetricsTimer = internal.MetricsTimer
)

// MetricsNopHandler drops every metric; it is the default.
var MetricsNopHandler = internal.MetricsNopHandler
