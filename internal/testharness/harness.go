package testharness

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/internal/devserver"
	"github.com/durable-go/sdk/temporaltest"
)

// SkipEnv names the environment variable that, set to 1, skips
// integration tests instead of failing when there is no temporal CLI.
const SkipEnv = "DURABLE_SKIP_INTEGRATION"

// Option configures Main.
type Option func(*devserver.Options)

// WithServerOptions starts the dev server with opts. Unless opts.Stderr
// is set, the server's stderr is still shown only when tests fail.
func WithServerOptions(opts devserver.Options) Option {
	return func(o *devserver.Options) {
		if opts.Stderr == nil {
			opts.Stderr = o.Stderr
		}
		*o = opts
	}
}

// EmbeddedTarget is the value of devserver.TargetEnv that runs a
// package's integration tests against the embedded server (temporaltest)
// instead of a dev server: no binary, a start in microseconds, for the
// tests that need nothing it lacks (docs/guide/embedded-server.md).
const EmbeddedTarget = "embedded"

// harness is the state Main shares with the tests it runs.
type harness struct {
	server   *devserver.Server    // nil when skipped or embedded
	embedded *temporaltest.Server // with EmbeddedTarget
	skipped  bool
	// skipReason says why tests that need the server skip.
	skipReason string
}

var active atomic.Pointer[harness]

// runner is what Main needs of *testing.M.
type runner interface{ Run() int }

// Main starts one dev server, runs the tests, stops the server, and exits
// with the tests' status (or 1 if the server could not start or stop).
func Main(m *testing.M, opts ...Option) {
	os.Exit(run(m, os.Stderr, opts...))
}

func run(m runner, stderr io.Writer, opts ...Option) int {
	if skipRequested() {
		return runWith(m, &harness{skipped: true, skipReason: SkipEnv + "=1"})
	}
	if fuzzing() {
		// Fuzz targets need no server, and every fuzz worker process runs
		// Main: starting a server in each would only slow fuzzing down.
		return runWith(m, &harness{skipped: true, skipReason: "fuzzing (-fuzz); run integration tests without -fuzz"})
	}
	// The server's stderr is shown only when something failed: even at
	// level error it logs noise while shutting down.
	serverOpts := devserver.Options{Stderr: io.Discard}
	for _, opt := range opts {
		opt(&serverOpts)
	}
	if os.Getenv(devserver.TargetEnv) == EmbeddedTarget {
		return runEmbedded(m, stderr, serverOpts)
	}
	server, err := startServer(serverOpts)
	if err != nil {
		fmt.Fprintf(stderr, "testharness: %v\n", err)
		if errors.Is(err, devserver.ErrCLINotFound) || errors.Is(err, devserver.ErrDevServerNotFound) {
			fmt.Fprintf(stderr, "testharness: or set %s=1 to skip integration tests\n", SkipEnv)
		}
		return 1
	}
	code := runWith(m, &harness{server: server})
	if code != 0 {
		fmt.Fprintf(stderr, "testharness: dev server at %s, last stderr output:\n%s\n", server.HostPort(), server.StderrTail())
	}
	if err := server.Stop(); err != nil {
		fmt.Fprintf(stderr, "testharness: stopping dev server: %v\n", err)
		return max(code, 1)
	}
	return code
}

// runEmbedded runs the tests against an embedded server. As a dev
// server, it serves "default" and the options' namespace, which
// Namespace returns, with the options' search attributes; their dynamic
// config does not apply, and the tests that need it fail there.
func runEmbedded(m runner, stderr io.Writer, opts devserver.Options) int {
	attrs := make(map[string]enumspb.IndexedValueType, len(opts.SearchAttributes))
	for name, typeName := range opts.SearchAttributes {
		t, err := enumspb.IndexedValueTypeFromString(typeName)
		if err != nil {
			fmt.Fprintf(stderr, "testharness: search attribute %s: %v\n", name, err)
			return 1
		}
		attrs[name] = t
	}
	srv, err := temporaltest.NewServer(temporaltest.ServerOptions{Namespace: opts.Namespace, Namespaces: []string{"default"}, SearchAttributes: attrs})
	if err != nil {
		fmt.Fprintf(stderr, "testharness: %v\n", err)
		return 1
	}
	defer srv.Stop()
	return runWith(m, &harness{embedded: srv})
}

// startServer starts the server devserver.FindTestServer picks
// (durable-devserver, or the Temporal CLI's with DURABLE_TEST_SERVER=1.29),
// unless opts name a binary.
func startServer(opts devserver.Options) (*devserver.Server, error) {
	if opts.ExistingPath == "" {
		path, err := devserver.FindTestServer()
		if err != nil {
			return nil, err
		}
		opts.ExistingPath = path
	}
	return devserver.Start(context.Background(), opts)
}

// runWith makes h visible to the tests while m runs.
func runWith(m runner, h *harness) int {
	prev := active.Swap(h)
	defer active.Store(prev)
	return m.Run()
}

func skipRequested() bool { return os.Getenv(SkipEnv) == "1" }

// fuzzing reports that the test binary runs with -fuzz, as the fuzzing
// coordinator or one of its workers.
func fuzzing() bool {
	if !flag.Parsed() {
		flag.Parse()
	}
	for _, name := range []string{"test.fuzz", "test.fuzzworker"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() != "" && f.Value.String() != "false" {
			return true
		}
	}
	return false
}

// server returns the package's server, skipping t if integration tests
// are disabled and failing it if Main is not in use.
func server(t testing.TB) *harness {
	t.Helper()
	h := active.Load()
	switch {
	case h == nil:
		t.Fatal("testharness: no dev server; call testharness.Main(m) from TestMain")
	case h.skipped:
		t.Skipf("integration test skipped: %s", h.skipReason)
	}
	return h
}

// HostPort returns the dev server's frontend address (the embedded
// server's with DURABLE_TEST_SERVER=embedded).
func HostPort(t testing.TB) string {
	t.Helper()
	h := server(t)
	if h.embedded != nil {
		return h.embedded.HostPort()
	}
	return h.server.HostPort()
}

// Namespace returns the namespace the dev server was started with.
func Namespace(t testing.TB) string {
	t.Helper()
	h := server(t)
	if h.embedded != nil {
		return h.embedded.Namespace()
	}
	return h.server.Namespace()
}

// NeedsDevServer skips t when the tests run against the embedded server
// (DURABLE_TEST_SERVER=embedded) and t needs what it does not serve,
// named by what (a feature, as "worker deployments"): the test then runs
// on a dev server only, and the run says why it skipped.
func NeedsDevServer(t testing.TB, what string) {
	t.Helper()
	if h := server(t); h.embedded != nil {
		t.Skipf("needs %s, which the embedded server does not serve (docs/guide/embedded-server.md); it runs on a dev server, without %s=%s", what, devserver.TargetEnv, EmbeddedTarget)
	}
}

// RequireCLI returns the temporal binary's path for tests that start their
// own servers. Without it, t fails with install instructions, or skips if
// DURABLE_SKIP_INTEGRATION=1.
func RequireCLI(t testing.TB) string {
	t.Helper()
	if skipRequested() {
		t.Skipf("integration test skipped: %s=1", SkipEnv)
	}
	path, err := devserver.FindCLI("")
	if err != nil {
		t.Fatalf("%v (or set %s=1 to skip integration tests)", err, SkipEnv)
	}
	return path
}
