// Package compat checks that github.com/durable-go/sdk and go.temporal.io/sdk
// write the same payloads, failures, search attributes and retry policies,
// and read each other's. It is a separate module so that the SDK itself does
// not depend on go.temporal.io/sdk; it holds tests and benchmarks only.
package compat
