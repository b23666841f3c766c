package opentelemetry_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/contrib/opentelemetry"
	"github.com/durable-go/sdk/internal/testharness"
)

// collect reads every metric the reader has, by name.
func collect(t *testing.T, reader *sdkmetric.ManualReader) map[string]metricdata.Metrics {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	out := map[string]metricdata.Metrics{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			out[m.Name] = m
		}
	}
	return out
}

func TestMetricsHandlerRecordsWithTheMeter(t *testing.T) {
	for _, monotonic := range []bool{false, true} {
		reader := sdkmetric.NewManualReader()
		meter := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)).Meter("test")
		handler := opentelemetry.NewMetricsHandler(opentelemetry.MetricsHandlerOptions{
			Meter:                meter,
			InitialAttributes:    attribute.NewSet(attribute.String("service", "billing"), attribute.String("namespace", "old")),
			UseMonotonicCounters: monotonic,
		}).WithTags(map[string]string{"namespace": "default"})
		handler.Counter("temporal_request").Inc(3)
		handler.Gauge("temporal_num_pollers").Update(2)
		handler.Timer("temporal_request_latency").Record(1500 * time.Millisecond)

		metrics := collect(t, reader)
		want := attribute.NewSet(attribute.String("service", "billing"), attribute.String("namespace", "default"))
		counter, ok := metrics["temporal_request"].Data.(metricdata.Sum[int64])
		if !ok || len(counter.DataPoints) != 1 || counter.DataPoints[0].Value != 3 || !counter.DataPoints[0].Attributes.Equals(&want) {
			t.Errorf("counter: %+v", metrics["temporal_request"])
		}
		if counter.IsMonotonic != monotonic {
			t.Errorf("UseMonotonicCounters=%v gave a counter with IsMonotonic=%v", monotonic, counter.IsMonotonic)
		}
		gauge, ok := metrics["temporal_num_pollers"].Data.(metricdata.Gauge[float64])
		if !ok || len(gauge.DataPoints) != 1 || gauge.DataPoints[0].Value != 2 {
			t.Errorf("gauge: %+v", metrics["temporal_num_pollers"])
		}
		latency := metrics["temporal_request_latency"]
		histogram, ok := latency.Data.(metricdata.Histogram[float64])
		if !ok || latency.Unit != "s" || len(histogram.DataPoints) != 1 || histogram.DataPoints[0].Sum != 1.5 {
			t.Errorf("timer: %+v", latency)
		}
	}
}

// failingMeter cannot make instruments.
type failingMeter struct{ noop.Meter }

var errNoInstruments = errors.New("no instruments here")

func (failingMeter) Int64UpDownCounter(string, ...metric.Int64UpDownCounterOption) (metric.Int64UpDownCounter, error) {
	return nil, errNoInstruments
}

func (failingMeter) Float64Histogram(string, ...metric.Float64HistogramOption) (metric.Float64Histogram, error) {
	return nil, errNoInstruments
}

func TestMetricsHandlerReportsInstrumentErrors(t *testing.T) {
	var reported []error
	handler := opentelemetry.NewMetricsHandler(opentelemetry.MetricsHandlerOptions{
		Meter:   failingMeter{},
		OnError: func(err error) { reported = append(reported, err) },
	})
	handler.Counter("c").Inc(1) // dropped, not a crash
	handler.Timer("t").Record(time.Second)
	if len(reported) != 2 || !errors.Is(reported[0], errNoInstruments) {
		t.Errorf("OnError got %v, want the meter's two errors", reported)
	}
	defer func() {
		if recover() == nil {
			t.Error("without OnError, an instrument error must panic")
		}
	}()
	opentelemetry.NewMetricsHandler(opentelemetry.MetricsHandlerOptions{Meter: failingMeter{}}).Counter("c")
}

type wrapped struct{ client.MetricsHandler }

func (w wrapped) Unwrap() client.MetricsHandler { return w.MetricsHandler }

func TestExtractMetricsHandler(t *testing.T) {
	meter := noop.NewMeterProvider().Meter("x")
	handler := opentelemetry.NewMetricsHandler(opentelemetry.MetricsHandlerOptions{Meter: meter})
	if got := opentelemetry.ExtractMetricsHandler(wrapped{handler}); got == nil || got.GetMeter() != meter {
		t.Errorf("ExtractMetricsHandler of a wrapped handler: %v", got)
	}
	if got := opentelemetry.ExtractMetricsHandler(client.MetricsNopHandler); got != nil {
		t.Errorf("ExtractMetricsHandler of another handler: %v, want nil", got)
	}
}

// TestClientRequestMetricsThroughAMeter dials the dev server with the
// handler: the SDK's request metrics arrive with their official names and
// tags as attributes.
func TestClientRequestMetricsThroughAMeter(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	handler := opentelemetry.NewMetricsHandler(opentelemetry.MetricsHandlerOptions{
		Meter: sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)).Meter("test"),
	})
	c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), MetricsHandler: handler})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.CountWorkflow(context.Background(), &workflowservice.CountWorkflowExecutionsRequest{}); err != nil {
		t.Fatal(err)
	}
	requests, ok := collect(t, reader)["temporal_request"].Data.(metricdata.Sum[int64])
	if !ok {
		t.Fatal("no temporal_request")
	}
	for _, point := range requests.DataPoints {
		if op, _ := point.Attributes.Value("operation"); op.AsString() == "CountWorkflowExecutions" {
			ns, _ := point.Attributes.Value("namespace")
			clientName, _ := point.Attributes.Value("client_name")
			if point.Value != 1 || ns.AsString() != "default" || clientName.AsString() != "temporal_go" {
				t.Errorf("temporal_request of CountWorkflowExecutions: %d, %v", point.Value, point.Attributes.ToSlice())
			}
			return
		}
	}
	t.Errorf("no temporal_request of CountWorkflowExecutions among %+v", requests.DataPoints)
}
