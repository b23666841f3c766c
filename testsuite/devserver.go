// Package testsuite helps test code that uses this SDK: StartDevServer
// runs a real Temporal dev server (from the temporal CLI) for integration
// tests and samples.
package testsuite

import (
	"context"

	"github.com/durable-go/sdk/internal"
)

type (
	// DevServerOptions configure StartDevServer.
	DevServerOptions = internal.DevServerOptions
	// DevServer is a running Temporal dev server.
	DevServer = internal.DevServer
)

// StartDevServer starts `temporal server start-dev` on a free port and
// connects a client to it. The temporal CLI must be installed
// (go install github.com/temporalio/cli/cmd/temporal@v1.5.1); without it
// the error says so.
func StartDevServer(ctx context.Context, options DevServerOptions) (*DevServer, error) {
	return internal.StartDevServer(ctx, options)
}
