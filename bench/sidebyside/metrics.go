package main

import (
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	oursclient "github.com/durable-go/sdk/client"
	officialclient "go.temporal.io/sdk/client"
)

// With -metrics, both SDKs' workers get a metrics handler that records
// every counter, gauge and timer in memory, as a metrics library does:
// each series (a name and its tags) is looked up by a key built from the
// sorted tags under a lock, counters add, gauges keep the latest value,
// timers count and sum. The two handlers share this code and differ only in
// the interface types their methods return.

// registry holds the series of one process.
type registry struct {
	mu     sync.Mutex
	series map[string]*series
}

// series is one metric with one set of tags.
type series struct {
	count atomic.Int64  // counter total, timer samples
	sum   atomic.Int64  // timer nanoseconds
	value atomic.Uint64 // gauge, as float64 bits
}

func (s *series) Inc(delta int64)        { s.count.Add(delta) }
func (s *series) Update(v float64)       { s.value.Store(math.Float64bits(v)) }
func (s *series) Record(d time.Duration) { s.count.Add(1); s.sum.Add(int64(d)) }

// childMetrics is the registry of the child process's worker, when
// -metrics is on.
var childMetrics = &registry{series: map[string]*series{}}

func (r *registry) get(name string, tags map[string]string) *series {
	var b strings.Builder
	b.WriteString(name)
	for _, k := range slices.Sorted(maps.Keys(tags)) {
		b.WriteByte(',')
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(tags[k])
	}
	key := b.String()
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.series[key]
	if s == nil {
		s = &series{}
		r.series[key] = s
	}
	return s
}

// sdkSeries counts the series of the SDK's own metrics (temporal_...).
func (r *registry) sdkSeries() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for key := range r.series {
		if strings.HasPrefix(key, "temporal_") {
			n++
		}
	}
	return n
}

// scope is a registry and the tags its metrics carry.
type scope struct {
	reg  *registry
	tags map[string]string
}

func (s scope) with(tags map[string]string) scope {
	merged := make(map[string]string, len(s.tags)+len(tags))
	maps.Copy(merged, s.tags)
	maps.Copy(merged, tags)
	return scope{reg: s.reg, tags: merged}
}

// oursMetrics is the handler of github.com/durable-go/sdk.
type oursMetrics struct{ scope }

func (m oursMetrics) WithTags(tags map[string]string) oursclient.MetricsHandler {
	return oursMetrics{m.with(tags)}
}
func (m oursMetrics) Counter(name string) oursclient.MetricsCounter { return m.reg.get(name, m.tags) }
func (m oursMetrics) Gauge(name string) oursclient.MetricsGauge     { return m.reg.get(name, m.tags) }
func (m oursMetrics) Timer(name string) oursclient.MetricsTimer     { return m.reg.get(name, m.tags) }

// officialMetrics is the handler of go.temporal.io/sdk.
type officialMetrics struct{ scope }

func (m officialMetrics) WithTags(tags map[string]string) officialclient.MetricsHandler {
	return officialMetrics{m.with(tags)}
}
func (m officialMetrics) Counter(name string) officialclient.MetricsCounter {
	return m.reg.get(name, m.tags)
}
func (m officialMetrics) Gauge(name string) officialclient.MetricsGauge {
	return m.reg.get(name, m.tags)
}
func (m officialMetrics) Timer(name string) officialclient.MetricsTimer {
	return m.reg.get(name, m.tags)
}
