// Package tracingcompat checks that the tracing modules of this SDK and
// those of go.temporal.io/sdk continue each other's traces: a client of one
// SDK starts a workflow that a worker of the other runs, and the spans on
// both sides form one trace, parent by parent, with the caller's baggage
// reaching the activity. It is a separate module so that neither the SDK
// nor the compat module depends on the tracing libraries; it holds tests
// only.
package tracingcompat
