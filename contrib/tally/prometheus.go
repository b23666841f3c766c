package tally

import (
	"strings"

	"github.com/uber-go/tally/v4"
)

// PrometheusSanitizeOptions keep only the characters Prometheus accepts in
// metric names, tag names and tag values (letters, digits, underscore),
// replacing the others; set them as tally.ScopeOptions.SanitizeOptions of
// a scope that reports to Prometheus.
var PrometheusSanitizeOptions = tally.SanitizeOptions{
	NameCharacters:       tally.ValidCharacters{Ranges: tally.AlphanumericRange, Characters: []rune{'_'}},
	KeyCharacters:        tally.ValidCharacters{Ranges: tally.AlphanumericRange, Characters: []rune{'_'}},
	ValueCharacters:      tally.ValidCharacters{Ranges: tally.AlphanumericRange, Characters: []rune{'_'}},
	ReplacementCharacter: tally.DefaultReplacementCharacter,
}

// NewPrometheusNamingScope returns a scope that names metrics the way
// Prometheus expects and the official SDK's dashboards query them: counters
// end in _total and timers and histograms in _seconds
// (temporal_request_total, temporal_request_latency_seconds_bucket).
// Names that already end so are left alone.
func NewPrometheusNamingScope(scope tally.Scope) tally.Scope {
	return prometheusNamingScope{scope: scope}
}

type prometheusNamingScope struct{ scope tally.Scope }

func withSuffix(name, suffix string) string {
	if strings.HasSuffix(name, suffix) {
		return name
	}
	return name + suffix
}

func (p prometheusNamingScope) Counter(name string) tally.Counter {
	return p.scope.Counter(withSuffix(name, "_total"))
}

func (p prometheusNamingScope) Gauge(name string) tally.Gauge { return p.scope.Gauge(name) }

func (p prometheusNamingScope) Timer(name string) tally.Timer {
	return p.scope.Timer(withSuffix(name, "_seconds"))
}

func (p prometheusNamingScope) Histogram(name string, buckets tally.Buckets) tally.Histogram {
	return p.scope.Histogram(withSuffix(name, "_seconds"), buckets)
}

func (p prometheusNamingScope) Tagged(tags map[string]string) tally.Scope {
	return prometheusNamingScope{scope: p.scope.Tagged(tags)}
}

func (p prometheusNamingScope) SubScope(name string) tally.Scope {
	return prometheusNamingScope{scope: p.scope.SubScope(name)}
}

func (p prometheusNamingScope) Capabilities() tally.Capabilities { return p.scope.Capabilities() }
