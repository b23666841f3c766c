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
