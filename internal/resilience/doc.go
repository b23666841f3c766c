// Package resilience holds the tests that measure what the SDK promises
// under faults, load and hostile peers, against real Temporal dev servers:
// a worker behind a TCP proxy that cuts, stalls and slows its connection;
// a worker process killed with SIGKILL under load, and a dev server
// restarted on its SQLite file; thousands of workflows through a small
// sticky cache; TLS, mutual TLS and API keys through a TLS-terminating
// proxy that checks the authorization header; payloads and histories over
// the server's limits. The package has no code of its own: the tests use
// the SDK's public packages as an application does.
//
// docs/faults.md ("Faults and hostile input") lists each guarantee
// and the command that checks it. Heavier versions of the load, crash and
// restart tests run with DURABLE_HEAVY=1.
package resilience
