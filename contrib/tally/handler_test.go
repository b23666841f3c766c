package tally

import (
	"testing"
	"time"

	"github.com/uber-go/tally/v4"

	"github.com/durable-go/sdk/client"
)

func TestHandlerRecordsThroughTheScope(t *testing.T) {
	scope := tally.NewTestScope("", map[string]string{"root": "r"})
	handler := NewMetricsHandler(scope).WithTags(map[string]string{"operation": "StartWorkflowExecution"})
	handler.Counter("temporal_request").Inc(2)
	handler.Gauge("temporal_sticky_cache_size").Update(7)
	handler.Timer("temporal_request_latency").Record(3 * time.Millisecond)

	snapshot := scope.Snapshot()
	const tags = "+operation=StartWorkflowExecution,root=r"
	if c, ok := snapshot.Counters()["temporal_request"+tags]; !ok || c.Value() != 2 {
		t.Errorf("counter: %v (all: %v)", c, keys(snapshot.Counters()))
	}
	if g, ok := snapshot.Gauges()["temporal_sticky_cache_size"+tags]; !ok || g.Value() != 7 {
		t.Errorf("gauge: %v (all: %v)", g, keys(snapshot.Gauges()))
	}
	if tm, ok := snapshot.Timers()["temporal_request_latency"+tags]; !ok || len(tm.Values()) != 1 || tm.Values()[0] != 3*time.Millisecond {
		t.Errorf("timer: %v (all: %v)", tm, keys(snapshot.Timers()))
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// wrapper stands for a handler that wraps another, as middleware does.
type wrapper struct{ client.MetricsHandler }

func (w wrapper) Unwrap() client.MetricsHandler { return w.MetricsHandler }

func TestScopeFromHandlerUnwraps(t *testing.T) {
	scope := tally.NewTestScope("", nil)
	if got := ScopeFromHandler(wrapper{wrapper{NewMetricsHandler(scope)}}); got != scope {
		t.Errorf("ScopeFromHandler of a wrapped handler = %v, want the scope", got)
	}
	if got := ScopeFromHandler(client.MetricsNopHandler); got != tally.NoopScope {
		t.Errorf("ScopeFromHandler of another handler = %v, want tally.NoopScope", got)
	}
	if got := ScopeFromHandler(nil); got != tally.NoopScope {
		t.Errorf("ScopeFromHandler(nil) = %v, want tally.NoopScope", got)
	}
}

func TestPrometheusNamingScope(t *testing.T) {
	scope := tally.NewTestScope("", nil)
	named := NewPrometheusNamingScope(scope).Tagged(map[string]string{"namespace": "default"})
	named.Counter("temporal_request").Inc(1)
	named.Counter("already_total").Inc(1)
	named.Timer("temporal_request_latency").Record(time.Millisecond)
	named.Timer("already_seconds").Record(time.Millisecond)
	named.Histogram("temporal_workflow_endtoend_latency", tally.DefaultBuckets).RecordDuration(time.Second)
	named.Gauge("temporal_num_pollers").Update(2)
	named.SubScope("sub").Counter("calls").Inc(1)

	snapshot := scope.Snapshot()
	const tags = "+namespace=default"
	for _, name := range []string{"temporal_request_total", "already_total", "sub.calls_total"} {
		if _, ok := snapshot.Counters()[name+tags]; !ok {
			t.Errorf("no counter %s; have %v", name, keys(snapshot.Counters()))
		}
	}
	for _, name := range []string{"temporal_request_latency_seconds", "already_seconds"} {
		if _, ok := snapshot.Timers()[name+tags]; !ok {
			t.Errorf("no timer %s; have %v", name, keys(snapshot.Timers()))
		}
	}
	if _, ok := snapshot.Histograms()["temporal_workflow_endtoend_latency_seconds"+tags]; !ok {
		t.Errorf("no histogram with _seconds; have %v", keys(snapshot.Histograms()))
	}
	if _, ok := snapshot.Gauges()["temporal_num_pollers"+tags]; !ok {
		t.Errorf("gauges keep their names; have %v", keys(snapshot.Gauges()))
	}
}
