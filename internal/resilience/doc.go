// Package resilience holds the tests that measure what the SDK promises
// under faults and load, against real Temporal dev servers: a worker
// behind a TCP proxy that cuts, stalls and slows its connection; a worker
// process killed with SIGKILL under load, and a dev server restarted on
// its SQLite file; thousands of workflows through a small sticky cache.
// The package has no code of its own: the tests use the SDK's public
// packages as an application does.
//
// Heavier versions of the load and crash tests run with DURABLE_HEAVY=1.
package resilience
