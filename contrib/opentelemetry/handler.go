// Package opentelemetry connects the SDK to OpenTelemetry: NewMetricsHandler
// records the SDK's metrics, and those of workflows and activities, with an
// OpenTelemetry meter, and NewTracingInterceptor traces clients, workflows
// and activities with an OpenTelemetry tracer, carrying the trace through
// Temporal headers in the format other Temporal SDKs use.
//
//	tracing, err := opentelemetry.NewTracingInterceptor(opentelemetry.TracerOptions{})
//	...
//	c, err := client.Dial(client.Options{
//		MetricsHandler: opentelemetry.NewMetricsHandler(opentelemetry.MetricsHandlerOptions{}),
//		Interceptors:   []interceptor.ClientInterceptor{tracing},
//	})
//
// Zero options use the global OpenTelemetry providers. To expose the
// metrics to Prometheus, give the meter provider OpenTelemetry's
// Prometheus exporter (go.opentelemetry.io/otel/exporters/prometheus). It
// mirrors go.temporal.io/sdk/contrib/opentelemetry.
package opentelemetry

import (
	"context"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/durable-go/sdk/client"
)

// instrumentationName names the meter and tracer taken from the global
// providers, as the official SDK names them.
const instrumentationName = "temporal-sdk-go"

var _ client.MetricsHandler = MetricsHandler{}

// MetricsHandler records metrics with an OpenTelemetry meter: counters as
// Int64UpDownCounters (Int64Counters with UseMonotonicCounters), gauges as
// Float64Gauges, timers as Float64Histograms in seconds.
type MetricsHandler struct {
	meter                metric.Meter
	attributes           attribute.Set
	onError              func(error)
	useMonotonicCounters bool
}

// MetricsHandlerOptions configure NewMetricsHandler.
type MetricsHandlerOptions struct {
	// Meter records the metrics; when nil, the global meter provider's
	// meter "temporal-sdk-go".
	Meter metric.Meter
	// InitialAttributes are set on every metric.
	InitialAttributes attribute.Set
	// OnError is called when the meter cannot make an instrument, and the
	// metric is then dropped; when nil, such an error panics.
	OnError func(error)
	// UseMonotonicCounters makes counters Int64Counters, which exporters
	// report as monotonic sums (Prometheus counters), rather than
	// Int64UpDownCounters. Counter increments must then be non-negative.
	UseMonotonicCounters bool
}

// NewMetricsHandler returns a client.MetricsHandler that records with an
// OpenTelemetry meter.
func NewMetricsHandler(options MetricsHandlerOptions) MetricsHandler {
	if options.Meter == nil {
		options.Meter = otel.GetMeterProvider().Meter(instrumentationName)
	}
	if options.OnError == nil {
		options.OnError = func(err error) { panic(err) }
	}
	return MetricsHandler{
		meter:                options.Meter,
		attributes:           options.InitialAttributes,
		onError:              options.OnError,
		useMonotonicCounters: options.UseMonotonicCounters,
	}
}

// ExtractMetricsHandler returns the MetricsHandler behind handler, looking
// through handlers that wrap another with an Unwrap method, or nil. Metrics
// recorded through its meter directly are not dropped during replay, as
// the handler's are: check workflow.IsReplaying first.
func ExtractMetricsHandler(handler client.MetricsHandler) *MetricsHandler {
	for handler != nil {
		if h, ok := handler.(MetricsHandler); ok {
			return &h
		}
		wrapper, ok := handler.(interface{ Unwrap() client.MetricsHandler })
		if !ok {
			return nil
		}
		handler = wrapper.Unwrap()
	}
	return nil
}

// GetMeter returns the handler's meter.
func (m MetricsHandler) GetMeter() metric.Meter { return m.meter }

// GetAttributes returns the attributes the handler sets on every metric.
func (m MetricsHandler) GetAttributes() attribute.Set { return m.attributes }

// WithTags returns a handler that adds tags, as string attributes, to
// every metric.
func (m MetricsHandler) WithTags(tags map[string]string) client.MetricsHandler {
	attributes := m.attributes.ToSlice()
	for k, v := range tags {
		attributes = append(attributes, attribute.String(k, v))
	}
	// NewSet keeps the last value of a repeated key: the new tags win.
	m.attributes = attribute.NewSet(attributes...)
	return m
}

// Counter returns the counter of that name.
func (m MetricsHandler) Counter(name string) client.MetricsCounter {
	options := metric.WithAttributeSet(m.attributes)
	if m.useMonotonicCounters {
		counter, err := m.meter.Int64Counter(name)
		if err != nil {
			m.onError(err)
			return client.MetricsNopHandler.Counter(name)
		}
		return counterFunc(func(delta int64) { counter.Add(context.Background(), delta, options) })
	}
	counter, err := m.meter.Int64UpDownCounter(name)
	if err != nil {
		m.onError(err)
		return client.MetricsNopHandler.Counter(name)
	}
	return counterFunc(func(delta int64) { counter.Add(context.Background(), delta, options) })
}

// Gauge returns the gauge of that name.
func (m MetricsHandler) Gauge(name string) client.MetricsGauge {
	gauge, err := m.meter.Float64Gauge(name)
	if err != nil {
		m.onError(err)
		return client.MetricsNopHandler.Gauge(name)
	}
	options := metric.WithAttributeSet(m.attributes)
	return gaugeFunc(func(v float64) { gauge.Record(context.Background(), v, options) })
}

// Timer returns the timer of that name, a histogram in seconds.
func (m MetricsHandler) Timer(name string) client.MetricsTimer {
	histogram, err := m.meter.Float64Histogram(name, metric.WithUnit("s"))
	if err != nil {
		m.onError(err)
		return client.MetricsNopHandler.Timer(name)
	}
	options := metric.WithAttributeSet(m.attributes)
	return timerFunc(func(d time.Duration) { histogram.Record(context.Background(), d.Seconds(), options) })
}

type counterFunc func(int64)

func (f counterFunc) Inc(delta int64) { f(delta) }

type gaugeFunc func(float64)

func (f gaugeFunc) Update(v float64) { f(v) }

type timerFunc func(time.Duration)

func (f timerFunc) Record(d time.Duration) { f(d) }
