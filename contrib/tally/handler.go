// Package tally adapts a tally scope (github.com/uber-go/tally/v4) to
// client.MetricsHandler, so that the SDK's metrics and those of workflows
// and activities reach any tally reporter: Prometheus, StatsD, M3.
//
//	scope, closer := tally.NewRootScope(tally.ScopeOptions{
//		CachedReporter:  prometheusReporter,
//		Separator:       prometheus.DefaultSeparator,
//		SanitizeOptions: &sdktally.PrometheusSanitizeOptions,
//	}, time.Second)
//	defer closer.Close()
//	c, err := client.Dial(client.Options{
//		MetricsHandler: sdktally.NewMetricsHandler(sdktally.NewPrometheusNamingScope(scope)),
//	})
//
// It mirrors go.temporal.io/sdk/contrib/tally.
package tally

import (
	"github.com/uber-go/tally/v4"

	"github.com/durable-go/sdk/client"
)

// metricsHandler records through a tally scope; tally's counters, gauges
// and timers already have the methods the SDK calls.
type metricsHandler struct{ scope tally.Scope }

// NewMetricsHandler returns a client.MetricsHandler that records through
// scope.
func NewMetricsHandler(scope tally.Scope) client.MetricsHandler {
	return metricsHandler{scope: scope}
}

// ScopeFromHandler returns the tally scope behind a handler made by
// NewMetricsHandler, looking through handlers that wrap another with an
// Unwrap method, or tally.NoopScope when there is none. Metrics recorded
// on it directly are not dropped during replay, as the handler's are.
func ScopeFromHandler(handler client.MetricsHandler) tally.Scope {
	for handler != nil {
		if h, ok := handler.(metricsHandler); ok {
			return h.scope
		}
		wrapper, ok := handler.(interface{ Unwrap() client.MetricsHandler })
		if !ok {
			break
		}
		handler = wrapper.Unwrap()
	}
	return tally.NoopScope
}

// WithTags returns a handler on the scope tagged with tags.
func (m metricsHandler) WithTags(tags map[string]string) client.MetricsHandler {
	return metricsHandler{scope: m.scope.Tagged(tags)}
}

// Counter returns the scope's counter of that name.
func (m metricsHandler) Counter(name string) client.MetricsCounter { return m.scope.Counter(name) }

// Gauge returns the scope's gauge of that name.
func (m metricsHandler) Gauge(name string) client.MetricsGauge { return m.scope.Gauge(name) }

// Timer returns the scope's timer of that name.
func (m metricsHandler) Timer(name string) client.MetricsTimer { return m.scope.Timer(name) }
