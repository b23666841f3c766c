package rpc

import (
	"context"
	"errors"
	"fmt"
	"net"
	"regexp"
	"strings"
	"testing"
	"time"

	namespacepb "go.temporal.io/api/namespace/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// closedPort returns a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	addr := lis.Addr().String()
	must(t, lis.Close())
	return addr
}

func wantMessage(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil || err.Error() != want {
		t.Errorf("error %v\nwant       %s", err, want)
	}
}

func wantUnreachable(t *testing.T, err error) *UnreachableError {
	t.Helper()
	var unreachable *UnreachableError
	if !errors.As(err, &unreachable) {
		t.Fatalf("got %T %v, want *UnreachableError", err, err)
	}
	return unreachable
}

func TestDialUnreachableServerSaysWhatToDo(t *testing.T) {
	addr := closedPort(t)

	start := time.Now()
	c, err := Dial(context.Background(), Options{HostPort: addr})

	if c != nil {
		t.Error("Dial returned a connection to nowhere")
	}
	wantMessage(t, err, fmt.Sprintf(
		"failed reaching Temporal server at %s: connection refused (is the server running? start one with 'temporal server start-dev')", addr))
	if got := wantUnreachable(t, err).HostPort; got != addr {
		t.Errorf("HostPort %s, want %s", got, addr)
	}
	wantCode(t, err, codes.Unavailable)
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("took %v: a refused connection must be reported at once, not retried", elapsed)
	}
}

func TestUnreachableErrorMessages(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{status.Error(codes.Unavailable, `dial tcp: lookup nohost.invalid: no such host`), "no such host (check the host name)"},
		{status.Error(codes.Unavailable, `connection error: desc = "tls: first record does not look like a TLS handshake"`),
			"TLS handshake failed: the server does not use TLS (connect without TLS)"},
		{status.Error(codes.Unavailable, `connection error: desc = "error reading server preface: EOF"`),
			"the server closed the connection during setup (does it require TLS?)"},
		{status.Error(codes.DeadlineExceeded, "context deadline exceeded"),
			"no answer before the deadline (check the address, and that the server is running and reachable)"},
		{status.Error(codes.Unavailable, "something new"), "something new"},
	} {
		err := &UnreachableError{HostPort: "h:1", Err: tc.err}
		wantMessage(t, err, "failed reaching Temporal server at h:1: "+tc.want)
		if !errors.Is(err, tc.err) {
			t.Errorf("%v does not wrap its cause", err)
		}
	}
}

// TestUnresolvableHostSaysNoSuchHost: gRPC's resolver reports a host
// that resolves to nothing as "no children to pick from"; the error says
// what it is, and names the host.
func TestUnresolvableHostSaysNoSuchHost(t *testing.T) {
	for _, msg := range []string{"no children to pick from", `name resolver error: produced zero addresses`} {
		err := &UnreachableError{HostPort: "no-such-host.invalid:7233", Err: status.Error(codes.Unavailable, msg)}
		got := err.Error()
		if !strings.Contains(got, `"no-such-host.invalid"`) || !strings.Contains(got, "check the host name") || strings.Contains(got, "children") {
			t.Errorf("%q became %q, want the host named and no gRPC wording", msg, got)
		}
	}
}

func TestDialChecksServerAndLoadsCapabilities(t *testing.T) {
	f := startFakeServer(t)
	f.set(func(f *fakeServer) { f.internalFinal = true })

	c, err := Dial(context.Background(), Options{HostPort: f.addr})
	must(t, err)
	t.Cleanup(func() { _ = c.Close() })

	if !c.internalIsFinal.Load() {
		t.Error("InternalErrorDifferentiation capability not applied")
	}
	info, err := c.SystemInfo(context.Background())
	must(t, err)
	if info.GetServerVersion() != "fake" {
		t.Errorf("server version %q", info.GetServerVersion())
	}
	// Fetched once per connection.
	wantCalls(t, f, "GetSystemInfo", 1)
}

func TestSystemInfoToleratesServersWithoutIt(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{})
	f.failNext("GetSystemInfo", status.Error(codes.Unimplemented, "unknown method GetSystemInfo for service x"))

	info, err := c.SystemInfo(context.Background())

	must(t, err)
	if info.GetCapabilities().GetInternalErrorDifferentiation() {
		t.Error("capabilities invented for an old server")
	}
}

func TestSystemInfoIsNotRetried(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{Retry: fastRetries})
	f.failNext("GetSystemInfo", serviceerror.NewUnavailable("starting up"))

	_, err := c.SystemInfo(context.Background())

	wantUnreachable(t, err)
	wantCalls(t, f, "GetSystemInfo", 1)
}

func TestSystemInfoOtherErrorsNameTheServer(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{})
	f.failNext("GetSystemInfo", serviceerror.NewPermissionDenied("no access", ""))

	_, err := c.SystemInfo(context.Background())

	wantMessage(t, err, "GetSystemInfo on Temporal server at "+f.addr+": the server refused this client's credentials; check client.Options.Credentials (the API key, or the client certificate): no access")
	var denied *serviceerror.PermissionDenied
	if !errors.As(err, &denied) {
		t.Errorf("got %T, want it to wrap *serviceerror.PermissionDenied", err)
	}
}

func TestCheckNamespace(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{})

	must(t, c.CheckNamespace(context.Background(), "default"))

	err := c.CheckNamespace(context.Background(), "foo")
	wantMessage(t, err, fmt.Sprintf(
		`namespace "foo" not found on server %s: create it with 'temporal operator namespace create foo --address %s'`, f.addr, f.addr))
	var notFound *NamespaceNotFoundError
	var apiNotFound *serviceerror.NamespaceNotFound
	if !errors.As(err, &notFound) || !errors.As(err, &apiNotFound) {
		t.Errorf("got %T, want *NamespaceNotFoundError wrapping *serviceerror.NamespaceNotFound", err)
	}
}

// A worker learns what its namespace allows (as of server 1.32, that the
// server completes a stopping worker's polls) from the check it makes as
// it starts; each check replaces what the last one reported.
func TestCheckNamespaceKeepsItsCapabilities(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{})
	if caps := c.KnownNamespaceCapabilities("default"); caps != nil {
		t.Fatalf("capabilities %v before any check", caps)
	}

	f.mu.Lock()
	f.namespaceCapabilities = &namespacepb.NamespaceInfo_Capabilities{WorkerPollCompleteOnShutdown: true}
	f.namespaceLimits = &namespacepb.NamespaceInfo_Limits{BlobSizeLimitError: 2 << 20}
	f.mu.Unlock()
	if limits := c.KnownNamespaceLimits("default"); limits != nil {
		t.Fatalf("limits %v before any check", limits)
	}
	must(t, c.CheckNamespace(context.Background(), "default"))
	if got := c.KnownNamespaceLimits("default").GetBlobSizeLimitError(); got != 2<<20 {
		t.Errorf("after the check, BlobSizeLimitError %d, want %d", got, 2<<20)
	}
	if !c.KnownNamespaceCapabilities("default").GetWorkerPollCompleteOnShutdown() {
		t.Errorf("after the check, capabilities %v, want WorkerPollCompleteOnShutdown", c.KnownNamespaceCapabilities("default"))
	}
	if caps := c.KnownNamespaceCapabilities("foo"); caps != nil {
		t.Errorf("capabilities %v of a namespace never checked", caps)
	}

	f.mu.Lock()
	f.namespaceCapabilities = nil
	f.mu.Unlock()
	must(t, c.CheckNamespace(context.Background(), "default"))
	if c.KnownNamespaceCapabilities("default").GetWorkerPollCompleteOnShutdown() {
		t.Error("a later check that reports no capabilities left the earlier ones")
	}
}

func TestNamespaceNotFoundMessageOnDefaultAddress(t *testing.T) {
	wantMessage(t, &NamespaceNotFoundError{Namespace: "foo", HostPort: "127.0.0.1:7233"},
		`namespace "foo" not found on server 127.0.0.1:7233: create it with 'temporal operator namespace create foo'`)
}

func TestCheckNamespaceUnreachable(t *testing.T) {
	c, err := NewConn(Options{HostPort: closedPort(t)})
	must(t, err)
	defer c.Close()

	wantUnreachable(t, c.CheckNamespace(context.Background(), "default"))
}

func TestCheckHealth(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{})

	must(t, c.CheckHealth(context.Background()))

	f.health.SetServingStatus(healthService, healthpb.HealthCheckResponse_NOT_SERVING)
	wantMessage(t, c.CheckHealth(context.Background()),
		"the Temporal server at "+f.addr+" is not serving: health status NOT_SERVING")
}

func TestCheckHealthUnreachable(t *testing.T) {
	c, err := NewConn(Options{HostPort: closedPort(t)})
	must(t, err)
	defer c.Close()

	err = c.CheckHealth(context.Background())

	wantUnreachable(t, err)
	if !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("message lacks the cause: %v", err)
	}
}

func TestLargeMessagesAreAccepted(t *testing.T) {
	f := startFakeServer(t)
	f.set(func(f *fakeServer) { f.historyPayload = 6 << 20 }) // past gRPC's 4 MiB default
	c := dialFake(t, f, Options{})

	resp, err := c.WorkflowService().GetWorkflowExecutionHistory(context.Background(),
		&workflowservice.GetWorkflowExecutionHistoryRequest{Namespace: "default"})

	must(t, err)
	if n := len(resp.GetNextPageToken()); n != 6<<20 {
		t.Errorf("received %d bytes", n)
	}
}

func TestTooLargeMessageFailsWithoutRetry(t *testing.T) {
	f := startFakeServer(t)
	f.set(func(f *fakeServer) { f.historyPayload = 2 << 20 })
	c := dialFake(t, f, Options{MaxMessageSize: 1 << 20, Retry: fastRetries})

	_, err := c.WorkflowService().GetWorkflowExecutionHistory(context.Background(),
		&workflowservice.GetWorkflowExecutionHistoryRequest{Namespace: "default"})

	if !IsMessageTooLarge(err) {
		t.Errorf("got %v, want a message-too-large error", err)
	}
	wantCalls(t, f, "GetWorkflowExecutionHistory", 1)
}

func TestInvalidHostPort(t *testing.T) {
	_, err := NewConn(Options{HostPort: "no-port"})
	if err == nil || !strings.Contains(err.Error(), `invalid Temporal server address "no-port", want host:port`) {
		t.Errorf("got %v", err)
	}
}

func TestDefaults(t *testing.T) {
	c, err := NewConn(Options{})
	must(t, err)
	defer c.Close()

	if c.HostPort() != "localhost:7233" || c.Namespace() != "default" {
		t.Errorf("defaults %s / %s, want localhost:7233 / default", c.HostPort(), c.Namespace())
	}
	if !regexp.MustCompile(`^\d+@.+@$`).MatchString(c.Identity()) {
		t.Errorf("identity %q, want pid@host@", c.Identity())
	}
	if c.GRPCConn() == nil || c.opts.MaxMessageSize != DefaultMaxMessageSize {
		t.Errorf("conn %v, max message size %d", c.GRPCConn(), c.opts.MaxMessageSize)
	}

	c2, err := NewConn(Options{Identity: "me"})
	must(t, err)
	defer c2.Close()
	if c2.Identity() != "me" {
		t.Errorf("identity %q, want me", c2.Identity())
	}
}

func TestClosedConnFailsCalls(t *testing.T) {
	f := startFakeServer(t)
	c := dialFake(t, f, Options{})
	must(t, c.Close())

	err := getSystemInfo(context.Background(), c)

	wantCode(t, err, codes.Canceled)
}
