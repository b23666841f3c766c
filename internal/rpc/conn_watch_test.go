package rpc

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"
)

// linesLogger keeps log records as lines: level, message, key-values.
type linesLogger struct {
	mu    sync.Mutex
	lines []string
}

func (l *linesLogger) add(level, msg string, kv []any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, strings.TrimSpace(fmt.Sprintln(append([]any{level, msg}, kv...)...)))
}
func (l *linesLogger) Debug(msg string, kv ...any) { l.add("DEBUG", msg, kv) }
func (l *linesLogger) Info(msg string, kv ...any)  { l.add("INFO", msg, kv) }
func (l *linesLogger) Warn(msg string, kv ...any)  { l.add("WARN", msg, kv) }
func (l *linesLogger) Error(msg string, kv ...any) { l.add("ERROR", msg, kv) }

func (l *linesLogger) text() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// healthOnly serves the health service on addr until stopped, and
// returns its address.
func healthOnly(t *testing.T, addr string) (*grpc.Server, string) {
	t.Helper()
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	h := health.NewServer()
	h.SetServingStatus(healthService, healthpb.HealthCheckResponse_SERVING)
	healthpb.RegisterHealthServer(srv, h)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	return srv, lis.Addr().String()
}

func TestLostConnectionIsLoggedAndSoIsItsReturn(t *testing.T) {
	srv, addr := healthOnly(t, "127.0.0.1:0")
	logs := &linesLogger{}
	c, err := NewConn(Options{HostPort: addr, Logger: logs})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if err := c.CheckHealth(ctx); err != nil {
		t.Fatal(err)
	}

	srv.Stop()
	// A call in flight, as a worker's long polls always are, is retried
	// and makes the connection come back as soon as the server does.
	done := make(chan error, 1)
	go func() {
		_, err := c.WorkflowService().GetSystemInfo(ctx, &workflowservice.GetSystemInfoRequest{})
		done <- err
	}()
	waitForLog(t, logs, "WARN lost the connection to the Temporal server; reconnecting")
	healthOnly(t, addr)
	waitForLog(t, logs, "INFO reconnected to the Temporal server HostPort "+addr+" Outage")
	<-done // the server has no workflow service: Unimplemented, once it answers
	if n := strings.Count(logs.text(), "lost the connection"); n != 1 {
		t.Errorf("%d losses logged, want 1:\n%s", n, logs.text())
	}
}

func waitForLog(t *testing.T, logs *linesLogger, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(logs.text(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("no %q in the logs:\n%s", want, logs.text())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// The Temporal frontend closes every connection after five minutes
// (frontend.keepAliveMaxConnectionAge) with a GOAWAY; gRPC replaces it at
// once. That is not an outage: it is a debug line, not a warning.
func TestAConnectionTheServerRotatesIsNotLoggedAsLost(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer(grpc.KeepaliveParams(keepalive.ServerParameters{
		MaxConnectionAge:      100 * time.Millisecond,
		MaxConnectionAgeGrace: time.Second,
	}))
	h := health.NewServer()
	h.SetServingStatus(healthService, healthpb.HealthCheckResponse_SERVING)
	healthpb.RegisterHealthServer(srv, h)
	accepted := &countingListener{Listener: lis}
	go func() { _ = srv.Serve(accepted) }()
	t.Cleanup(srv.Stop)

	logs := &linesLogger{}
	c, err := NewConn(Options{HostPort: lis.Addr().String(), Logger: logs})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); {
		if err := c.CheckHealth(context.Background()); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n := accepted.count.Load(); n < 5 {
		t.Fatalf("the server accepted %d connections in 3 s at a 100 ms maximum age; the test needs rotations", n)
	}
	if strings.Contains(logs.text(), "lost the connection") || strings.Contains(logs.text(), "reconnected") {
		t.Errorf("connections rotated by the server were logged as an outage:\n%s", logs.text())
	}
	if !strings.Contains(logs.text(), "DEBUG the connection to the Temporal server closed and was replaced at once") {
		t.Errorf("no debug line for the rotations:\n%s", logs.text())
	}
}

// countingListener counts the connections it accepts.
type countingListener struct {
	net.Listener
	count atomic.Int32
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.count.Add(1)
	}
	return c, err
}
