// Package metricstest has an in-memory client.MetricsHandler that records
// every counter, gauge and timer with its tags, for tests that assert which
// metrics the SDK emits.
package metricstest

import (
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/durable-go/sdk/internal/sdkmetrics"
)

// Handler records metrics in memory; the handlers WithTags returns share
// its records. Its zero value is not usable: call NewHandler.
type Handler struct {
	tags    map[string]string
	records *records
}

type records struct {
	mu       sync.Mutex
	counters map[string]*Counter
	gauges   map[string]*Gauge
	timers   map[string]*Timer
}

var _ sdkmetrics.Handler = (*Handler)(nil)

// NewHandler returns an empty recording handler.
func NewHandler() *Handler {
	return &Handler{records: &records{
		counters: map[string]*Counter{},
		gauges:   map[string]*Gauge{},
		timers:   map[string]*Timer{},
	}}
}

// WithTags returns a handler that adds tags to every metric, those given
// here winning over the ones already set.
func (h *Handler) WithTags(tags map[string]string) sdkmetrics.Handler {
	merged := maps.Clone(h.tags)
	if merged == nil {
		merged = make(map[string]string, len(tags))
	}
	maps.Copy(merged, tags)
	return &Handler{tags: merged, records: h.records}
}

// Counter returns the counter of that name and this handler's tags.
func (h *Handler) Counter(name string) sdkmetrics.Counter {
	r := h.records
	r.mu.Lock()
	defer r.mu.Unlock()
	key := seriesKey(name, h.tags)
	c := r.counters[key]
	if c == nil {
		c = &Counter{Series: Series{Name: name, Tags: maps.Clone(h.tags)}, mu: &r.mu}
		r.counters[key] = c
	}
	return c
}

// Gauge returns the gauge of that name and this handler's tags.
func (h *Handler) Gauge(name string) sdkmetrics.Gauge {
	r := h.records
	r.mu.Lock()
	defer r.mu.Unlock()
	key := seriesKey(name, h.tags)
	g := r.gauges[key]
	if g == nil {
		g = &Gauge{Series: Series{Name: name, Tags: maps.Clone(h.tags)}, mu: &r.mu}
		r.gauges[key] = g
	}
	return g
}

// Timer returns the timer of that name and this handler's tags.
func (h *Handler) Timer(name string) sdkmetrics.Timer {
	r := h.records
	r.mu.Lock()
	defer r.mu.Unlock()
	key := seriesKey(name, h.tags)
	t := r.timers[key]
	if t == nil {
		t = &Timer{Series: Series{Name: name, Tags: maps.Clone(h.tags)}, mu: &r.mu}
		r.timers[key] = t
	}
	return t
}

// Series names one metric and its tags.
type Series struct {
	Name string
	Tags map[string]string
}

// matches reports whether the series has the name and every tag given.
func (s Series) matches(name string, tags map[string]string) bool {
	if s.Name != name {
		return false
	}
	for k, v := range tags {
		if got, ok := s.Tags[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// Counter is a recorded counter.
type Counter struct {
	Series
	mu    *sync.Mutex
	value int64
}

// Inc adds delta.
func (c *Counter) Inc(delta int64) {
	c.mu.Lock()
	c.value += delta
	c.mu.Unlock()
}

// Gauge is a recorded gauge.
type Gauge struct {
	Series
	mu    *sync.Mutex
	value float64
}

// Update sets the value.
func (g *Gauge) Update(v float64) {
	g.mu.Lock()
	g.value = v
	g.mu.Unlock()
}

// Timer is a recorded timer.
type Timer struct {
	Series
	mu        *sync.Mutex
	durations []time.Duration
}

// Record adds a duration.
func (t *Timer) Record(d time.Duration) {
	t.mu.Lock()
	t.durations = append(t.durations, d)
	t.mu.Unlock()
}

// CounterValue sums the counters of that name whose tags include tags.
func (h *Handler) CounterValue(name string, tags map[string]string) int64 {
	r := h.records
	r.mu.Lock()
	defer r.mu.Unlock()
	var sum int64
	for _, c := range r.counters {
		if c.matches(name, tags) {
			sum += c.value
		}
	}
	return sum
}

// GaugeValue returns the value of the gauge of that name whose tags
// include tags, and whether there is one.
func (h *Handler) GaugeValue(name string, tags map[string]string) (float64, bool) {
	r := h.records
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, g := range r.gauges {
		if g.matches(name, tags) {
			return g.value, true
		}
	}
	return 0, false
}

// TimerDurations returns what the timers of that name whose tags include
// tags recorded.
func (h *Handler) TimerDurations(name string, tags map[string]string) []time.Duration {
	r := h.records
	r.mu.Lock()
	defer r.mu.Unlock()
	var all []time.Duration
	for _, t := range r.timers {
		if t.matches(name, tags) {
			all = append(all, t.durations...)
		}
	}
	return all
}

// CounterSeries returns the name and tags of every counter of that name,
// sorted, for assertions on exact tag sets and for failure messages.
func (h *Handler) CounterSeries(name string) []Series {
	r := h.records
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Series
	for _, c := range r.counters {
		if c.Name == name {
			out = append(out, Series{Name: c.Name, Tags: maps.Clone(c.Tags)})
		}
	}
	sortSeries(out)
	return out
}

// GaugeSeries is CounterSeries for gauges.
func (h *Handler) GaugeSeries(name string) []Series {
	r := h.records
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Series
	for _, g := range r.gauges {
		if g.Name == name {
			out = append(out, Series{Name: g.Name, Tags: maps.Clone(g.Tags)})
		}
	}
	sortSeries(out)
	return out
}

// TimerSeries is CounterSeries for timers.
func (h *Handler) TimerSeries(name string) []Series {
	r := h.records
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Series
	for _, t := range r.timers {
		if t.Name == name {
			out = append(out, Series{Name: t.Name, Tags: maps.Clone(t.Tags)})
		}
	}
	sortSeries(out)
	return out
}

func sortSeries(s []Series) {
	sort.Slice(s, func(i, j int) bool { return seriesKey(s[i].Name, s[i].Tags) < seriesKey(s[j].Name, s[j].Tags) })
}

// seriesKey is name{k=v,...} with the tags sorted.
func seriesKey(name string, tags map[string]string) string {
	var b strings.Builder
	b.WriteString(name)
	b.WriteByte('{')
	for i, k := range slices.Sorted(maps.Keys(tags)) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k + "=" + tags[k])
	}
	b.WriteByte('}')
	return b.String()
}
