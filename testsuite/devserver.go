package testsuite

import (
	"context"
	"fmt"
	"io"
	"os"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/clientimpl"
	"github.com/durable-go/sdk/internal/devserver"
	"github.com/durable-go/sdk/internal/searchattr"
)

// CachedDownload says which Temporal CLI StartDevServer gets when it has
// none, and where it keeps it. Where go.temporal.io/sdk downloads a
// release archive, this SDK builds the release from the Go module proxy
// with `go install` (the go command must be on PATH), into a folder of
// its own that later starts reuse; the first build takes minutes.
type CachedDownload struct {
	// Version is the CLI release, such as "v1.5.1"; "default" or empty
	// for the release this SDK is tested with. "latest" is refused: the
	// CLI's releases after v1.5.1 cannot be built with go install.
	Version string
	// DestDir is where the build is kept. Default: the user's temp folder.
	DestDir string
}

// DevServerOptions configure StartDevServer; every field may be left
// zero.
type DevServerOptions struct {
	// ExistingPath is the server binary: a Temporal CLI, or
	// durable-devserver (server 1.32, which takes the same arguments).
	// Default: the temporal CLI on PATH or in Go's bin directory, else the
	// one CachedDownload gets.
	ExistingPath string
	// CachedDownload, when set, gets the CLI (see CachedDownload) instead
	// of looking for one on PATH; without ExistingPath and without a CLI
	// on PATH, its defaults apply.
	CachedDownload CachedDownload
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
	path, err := devServerBinary(ctx, options)
	if err != nil {
		return nil, err
	}
	server, err := devserver.Start(ctx, devserver.Options{
		ExistingPath:     path,
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

// devServerBinary picks the binary StartDevServer runs: ExistingPath, else
// a CLI on PATH unless CachedDownload is set, else the cached build.
func devServerBinary(ctx context.Context, options DevServerOptions) (string, error) {
	if options.ExistingPath != "" {
		return options.ExistingPath, nil
	}
	if options.CachedDownload == (CachedDownload{}) {
		if path, err := devserver.FindCLI(""); err == nil {
			return path, nil
		}
	}
	progress := options.Stderr
	if progress == nil || progress == io.Discard {
		progress = os.Stderr // a build of minutes says so
	}
	return devserver.CachedCLI(ctx, options.CachedDownload.Version, options.CachedDownload.DestDir, progress)
}
