package sdkmetrics

import (
	"context"
	"time"
)

// Handler receives metrics: the SDK's own and those workflows and
// activities record. It is client.MetricsHandler; it is declared here, below
// every package that emits metrics (the client, the worker runtime), so
// that they all take the same type.
type Handler interface {
	// WithTags returns a handler that adds tags to every metric.
	WithTags(tags map[string]string) Handler
	// Counter returns the counter of that name.
	Counter(name string) Counter
	// Gauge returns the gauge of that name.
	Gauge(name string) Gauge
	// Timer returns the timer of that name.
	Timer(name string) Timer
}

// Counter counts events.
type Counter interface{ Inc(delta int64) }

// Gauge records a current value.
type Gauge interface{ Update(value float64) }

// Timer records durations.
type Timer interface{ Record(d time.Duration) }

// NopHandler drops every metric; it is the default handler.
var NopHandler Handler = nopHandler{}

// IsNop reports whether h records nothing (nil or NopHandler), so that an
// emitter can skip its metrics code entirely.
func IsNop(h Handler) bool { return h == nil || h == NopHandler }

type nopHandler struct{}

func (nopHandler) WithTags(map[string]string) Handler { return nopHandler{} }
func (nopHandler) Counter(string) Counter             { return nopHandler{} }
func (nopHandler) Gauge(string) Gauge                 { return nopHandler{} }
func (nopHandler) Timer(string) Timer                 { return nopHandler{} }
func (nopHandler) Inc(int64)                          {}
func (nopHandler) Update(float64)                     {}
func (nopHandler) Record(time.Duration)               {}

type requestTagsKey struct{}

// WithRequestTags returns ctx carrying tags that the request metrics of
// the calls made with it add to their own: the worker tags its polls with
// the task queue and its reports with the workflow and activity types, as
// go.temporal.io/sdk does.
func WithRequestTags(ctx context.Context, tags map[string]string) context.Context {
	return context.WithValue(ctx, requestTagsKey{}, tags)
}

// RequestTags returns the tags WithRequestTags put in ctx, or nil.
func RequestTags(ctx context.Context) map[string]string {
	tags, _ := ctx.Value(requestTagsKey{}).(map[string]string)
	return tags
}
