package testsuite

import (
	"context"
	"fmt"
	"io"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/clientimpl"
	"github.com/durable-go/sdk/internal/devserver"
	"github.com/durable-go/sdk/internal/searchattr"
)

// DevServerOptions configure StartDevServer; every field may be left
// zero.
type DevServerOptions struct {
	// ExistingPath is the temporal CLI binary. Default: looked up on PATH
	// and in Go's bin directory.
	ExistingPath string
	// ClientOptions are the options of the server's Client (HostPort is
	// set for you).
	ClientOptions *internal.ClientOptions
	// DBFilename keeps the server's state in this file across restarts.
	// Default: in memory.
	DBFilename string
	// EnableUI serves the web UI, on UIPort or a free port.
	EnableUI bool
	// UIPort is the web UI's port, with EnableUI. Default: a free port.
	UIPort string
	// LogFormat is the server's log format.
	LogFormat string
	// LogLevel is the server's log level.
	LogLevel string
	// SearchAttributes are custom search attributes to register (the
	// keys' names and types; values are ignored).
	SearchAttributes searchattr.SearchAttributes
	// ExtraArgs are more arguments for `temporal server start-dev`.
	ExtraArgs []string
	// Stdout receives the server's standard output.
	Stdout io.Writer
	// Stderr receives the server's standard error.
	Stderr io.Writer
}

// DevServer is a running Temporal dev server, as StartDevServer returns
// it: Client returns a client connected to it, FrontendHostPort its
// host:port for other clients and workers, and Stop closes the client and
// stops the server.
type DevServer struct {
	server *devserver.Server
	client client.Client
}

// StartDevServer starts `temporal server start-dev` on a free port and
// connects a client to it. The temporal CLI must be installed
// (go install github.com/temporalio/cli/cmd/temporal@v1.5.1); without it
// the error says so.
func StartDevServer(ctx context.Context, options DevServerOptions) (*DevServer, error) {
	types := map[enumspb.IndexedValueType]string{
		enumspb.INDEXED_VALUE_TYPE_TEXT: "Text", enumspb.INDEXED_VALUE_TYPE_KEYWORD: "Keyword",
		enumspb.INDEXED_VALUE_TYPE_INT: "Int", enumspb.INDEXED_VALUE_TYPE_DOUBLE: "Double",
		enumspb.INDEXED_VALUE_TYPE_BOOL: "Bool", enumspb.INDEXED_VALUE_TYPE_DATETIME: "Datetime",
		enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST: "KeywordList",
	}
	attrs := make(map[string]string)
	for key := range options.SearchAttributes.GetUntypedValues() {
		attrs[key.GetName()] = types[key.GetValueType()]
	}
	var clientOpts internal.ClientOptions
	if options.ClientOptions != nil {
		clientOpts = *options.ClientOptions
	}
	server, err := devserver.Start(ctx, devserver.Options{
		ExistingPath:     options.ExistingPath,
		Namespace:        clientOpts.Namespace,
		DBFilename:       options.DBFilename,
		EnableUI:         options.EnableUI,
		UIPort:           options.UIPort,
		LogFormat:        options.LogFormat,
		LogLevel:         options.LogLevel,
		SearchAttributes: attrs,
		ExtraArgs:        options.ExtraArgs,
		Stdout:           options.Stdout,
		Stderr:           options.Stderr,
	})
	if err != nil {
		return nil, err
	}
	clientOpts.HostPort = server.HostPort()
	c, err := clientimpl.DialClient(ctx, clientOpts)
	if err != nil {
		_ = server.Stop()
		return nil, fmt.Errorf("the dev server started at %s, but connecting to it failed: %w", server.HostPort(), err)
	}
	return &DevServer{server: server, client: c}, nil
}

// Client returns a client connected to the server.
func (s *DevServer) Client() client.Client { return s.client }

// FrontendHostPort returns the server's host:port.
func (s *DevServer) FrontendHostPort() string { return s.server.HostPort() }

// Stop closes the client and stops the server.
func (s *DevServer) Stop() error {
	s.client.Close()
	return s.server.Stop()
}
