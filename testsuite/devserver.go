// Package testsuite tests code written with this SDK.
//
// Unit tests use a WorkflowTestSuite's TestWorkflowEnvironment: it runs a
// workflow with its activities real or mocked (testify mocks), skips
// ahead in time whenever the workflow waits, delivers signals, queries and
// cancellations at chosen moments, and reports the result. Unlike
// go.temporal.io/sdk's test environment, it is not a second implementation
// of the engine: the workflow runs on the worker runtime and engine a
// production worker uses, against an in-memory server that writes real
// history events, so a workflow behaves in a test as it does on a server,
// and the test's history can be read back and replayed.
//
// Integration tests and samples use StartDevServer, which runs a real
// Temporal dev server (from the temporal CLI).
package testsuite

import (
	"context"

	"github.com/durable-go/sdk/internal"
)

// DevServerOptions configure StartDevServer.
//
//   - ExistingPath: the temporal CLI binary. Default: looked up on PATH
//     and in Go's bin directory.
//   - ClientOptions: the options of the server's Client (HostPort is set
//     for you).
//   - DBFilename: keep the server's state in this file across restarts.
//     Default: in memory.
//   - EnableUI: serve the web UI, on UIPort or a free port.
//   - LogFormat, LogLevel: the server's logging.
//   - SearchAttributes: custom search attributes to register (the keys'
//     names and types; values are ignored).
//   - ExtraArgs: more arguments for `temporal server start-dev`.
//   - Stdout, Stderr: receive the server's output.
type DevServerOptions = internal.DevServerOptions

// DevServer is a running Temporal dev server, as StartDevServer returns
// it: Client returns a client connected to it, FrontendHostPort its
// host:port for other clients and workers, and Stop closes the client and
// stops the server.
type DevServer = internal.DevServer

// StartDevServer starts `temporal server start-dev` on a free port and
// connects a client to it. The temporal CLI must be installed
// (go install github.com/temporalio/cli/cmd/temporal@v1.5.1); without it
// the error says so.
func StartDevServer(ctx context.Context, options DevServerOptions) (*DevServer, error) {
	return internal.StartDevServer(ctx, options)
}
