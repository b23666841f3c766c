package internal

import (
	"context"
	"fmt"
	"io"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/internal/devserver"
	"github.com/durable-go/sdk/internal/searchattr"
)

// DevServerOptions configure StartDevServer (testsuite.DevServerOptions).
type DevServerOptions struct {
	// ExistingPath is the temporal CLI binary; by default it is looked up
	// on PATH and in Go's bin directory.
	ExistingPath string
	// ClientOptions configure the server's Client; HostPort is set.
	ClientOptions *ClientOptions
	// DBFilename keeps the server's state in this file across restarts.
	DBFilename string
	// EnableUI serves the web UI, on UIPort or a free port.
	EnableUI bool
	UIPort   string
	// LogFormat and LogLevel configure the server's logging.
	LogFormat string
	LogLevel  string
	// SearchAttributes registers custom search attributes (their keys'
	// names and types; values are ignored).
	SearchAttributes searchattr.SearchAttributes
	// ExtraArgs are appended to `temporal server start-dev`.
	ExtraArgs []string
	// Stdout and Stderr receive the server's output.
	Stdout io.Writer
	Stderr io.Writer
}

// DevServer is a running Temporal dev server (testsuite.DevServer).
type DevServer struct {
	server *devserver.Server
	client Client
}

// StartDevServer starts `temporal server start-dev` on a free port with an
// in-memory store (unless DBFilename is set), waits until it answers, and
// connects a client to it. Stop it when done. Without the CLI it returns
// an error that says how to install it.
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
	var clientOpts ClientOptions
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
	c, err := DialClient(ctx, clientOpts)
	if err != nil {
		_ = server.Stop()
		return nil, fmt.Errorf("the dev server started at %s, but connecting to it failed: %w", server.HostPort(), err)
	}
	return &DevServer{server: server, client: c}, nil
}

// Client returns a client connected to the server.
func (s *DevServer) Client() Client { return s.client }

// FrontendHostPort returns the server's host:port.
func (s *DevServer) FrontendHostPort() string { return s.server.HostPort() }

// Stop closes the client and stops the server.
func (s *DevServer) Stop() error {
	s.client.Close()
	return s.server.Stop()
}
