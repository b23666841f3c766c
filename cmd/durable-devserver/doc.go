// Command durable-devserver runs a whole Temporal server (frontend,
// history, matching and worker services) in one process on an in-memory
// SQLite store, for tests and local runs: the development server of the
// Temporal CLI, built from the server library at the version this SDK is
// tested against (go.temporal.io/server v1.32.1), because the CLI releases
// that carry server 1.32 cannot be built with go install.
//
// It takes the flags of "temporal server start-dev" that tests use, so
// that the SDK's test harness (internal/devserver) runs either binary the
// same way:
//
//	durable-devserver server start-dev --ip 127.0.0.1 --port 7233 \
//		--namespace default --search-attribute CustomKeywordField=Keyword \
//		--dynamic-config-value limit.blobSize.error=1000000 --log-level warn
//
// ("server start-dev" may be left out.) Unlike the CLI it has no web UI:
// --headless is accepted and changes nothing, --ui-port is refused. It
// turns on what the newest SDK features need (see defaultDynamicConfig),
// and prints one line when the frontend is serving. SIGINT or SIGTERM
// stops it.
//
// It is a module of its own so that the SDK does not depend on the
// server. Install it with scripts/install-devserver.sh, which builds it
// from this checkout, or with
//
//	go install github.com/durable-go/sdk/cmd/durable-devserver@latest
package main
