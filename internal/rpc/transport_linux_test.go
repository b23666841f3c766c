package rpc

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/keepalive"
)

// transport is one way the connection reads and writes its sockets. The
// fault and stress tests run over each: the raw path is the default on
// Linux, but off in race builds unless a test asks for it.
type transport struct {
	name  string
	apply func(*Options) *rawSocketProbe
}

var transports = []transport{
	{"plain", func(o *Options) *rawSocketProbe { o.DisableRawSocket = true; return nil }},
	{"raw", func(o *Options) *rawSocketProbe { p := &rawSocketProbe{}; o.rawSocketProbe = p; return p }},
}

// overEachTransport runs test over each transport with the options o, and
// checks that the raw one did use raw sockets, and gRPC their ReadOnReady
// unless TLS (whose own reader reads with Read) stands between them.
func overEachTransport(t *testing.T, o Options, test func(t *testing.T, o Options)) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			o := o
			probe := tr.apply(&o)
			test(t, o)
			if probe == nil {
				return
			}
			made := probe.made()
			if len(made) == 0 {
				t.Fatal("the connection made no raw socket")
			}
			if o.TLS == nil && readyReads(made) == 0 {
				t.Error("gRPC never called ReadOnReady on the raw sockets")
			}
		})
	}
}

func readyReads(sockets []net.Conn) int {
	n := 0
	for _, s := range sockets {
		n += int(rawIOOf(s).readyReads.Load())
	}
	return n
}

func getHistory(ctx context.Context, c *Conn) (int, error) {
	resp, err := c.WorkflowService().GetWorkflowExecutionHistory(ctx,
		&workflowservice.GetWorkflowExecutionHistoryRequest{Namespace: "default"})
	return len(resp.GetNextPageToken()), err
}

// gRPC reads a connection through ReadOnReady when it has one, which
// keeps buffers out of reads that wait. It is an unexported interface of
// gRPC's, found by method name: an upgrade can stop calling it silently,
// and this test says so.
func TestGRPCReadsTheRawSocketWithReadOnReady(t *testing.T) {
	f := startFakeServer(t)
	probe := &rawSocketProbe{}
	c := dialFake(t, f, Options{rawSocketProbe: probe})
	for range 20 {
		_, err := getHistory(context.Background(), c)
		must(t, err)
	}
	made := probe.made()
	if len(made) == 0 {
		t.Fatal("the connection made no raw socket")
	}
	if n := readyReads(made); n == 0 {
		t.Error("gRPC made 20 calls without calling ReadOnReady on the raw socket: " +
			"a gRPC upgrade no longer looks for it (internal/transport/readyreader); update rawIO to what it calls now")
	}
}

// The path of a production connection on Linux, in the builds that take
// it by default: scripts/test.sh runs this package once without the race
// detector for it. The connection is made with its default options (the
// probe only keeps the sockets in these builds), and the raw path needs
// three things of gRPC that an upgrade could stop doing without an error:
// dial every socket with the SDK's dialer (grpc.WithContextDialer), read
// it with ReadOnReady, and leave it unwrapped, so that the TCP user
// timeout the dialer sets is the one in force.
func TestProductionConnectionsTakeTheRawPath(t *testing.T) {
	if !rawSocketsByDefault {
		t.Skip("raw socket I/O is off by default in this build (race, msan, asan or not Linux); scripts/test.sh runs this test without -race")
	}
	f := startFakeServer(t)
	probe := &rawSocketProbe{}
	c := dialFake(t, f, Options{rawSocketProbe: probe})
	for range 20 {
		_, err := getHistory(context.Background(), c)
		must(t, err)
	}
	made := probe.made()
	if len(made) == 0 {
		t.Fatalf("20 calls made no raw socket (%s=%q): gRPC no longer dials with the dialer of grpc.WithContextDialer, or the build's default changed (rawsocket_builds.go)",
			RawSocketEnv, os.Getenv(RawSocketEnv))
	}
	if n := readyReads(made); n == 0 {
		t.Error("gRPC made 20 calls without calling ReadOnReady on the raw socket: " +
			"a gRPC upgrade no longer looks for it (internal/transport/readyreader); update rawIO to what it calls now")
	}
	for _, s := range made {
		if got, want := tcpUserTimeout(t, s), defaultKeepalive.Timeout; got != want {
			t.Errorf("a raw socket's TCP user timeout is %v, want the keepalive timeout, %v", got, want)
		}
	}
}

// gRPC gives the sockets it connects over a TCP user timeout from its
// keepalive settings, but only those it sees are *net.TCPConn: a raw
// socket gets the same from the SDK's dialer, with pings on and off.
func TestRawSocketsGetTheTCPUserTimeoutGRPCGivesItsOwn(t *testing.T) {
	f := startFakeServer(t)
	for _, k := range []struct {
		name      string
		keepalive *keepalive.ClientParameters
		want      time.Duration
	}{
		{"default", nil, defaultKeepalive.Timeout},
		{"set", &keepalive.ClientParameters{Time: time.Minute, Timeout: 5 * time.Second}, 5 * time.Second},
		{"pings without a timeout", &keepalive.ClientParameters{Time: time.Minute}, 20 * time.Second},
		{"no pings", &keepalive.ClientParameters{}, 0},
	} {
		t.Run(k.name, func(t *testing.T) {
			// gRPC's own: the dialer given keeps the plain sockets.
			var plain []net.Conn
			var mu sync.Mutex
			c := dialFake(t, f, Options{Keepalive: k.keepalive, DialOptions: []grpc.DialOption{
				grpc.WithContextDialer(func(ctx context.Context, addr string) (net.Conn, error) {
					conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
					if err == nil {
						mu.Lock()
						plain = append(plain, conn)
						mu.Unlock()
					}
					return conn, err
				}),
			}})
			_, err := getHistory(context.Background(), c)
			must(t, err)
			mu.Lock()
			defer mu.Unlock()
			if len(plain) == 0 {
				t.Fatal("the dialer given made no socket")
			}
			if got := tcpUserTimeout(t, plain[0]); got != k.want {
				t.Fatalf("gRPC gave its socket a TCP user timeout of %v, want %v: has gRPC changed what it sets? rawsocket_dial.go's tcpUserTimeout follows it", got, k.want)
			}

			probe := &rawSocketProbe{}
			c = dialFake(t, f, Options{Keepalive: k.keepalive, rawSocketProbe: probe})
			_, err = getHistory(context.Background(), c)
			must(t, err)
			made := probe.made()
			if len(made) == 0 {
				t.Fatal("the connection made no raw socket")
			}
			if got := tcpUserTimeout(t, made[0]); got != k.want {
				t.Errorf("a raw socket's TCP user timeout is %v, gRPC gives its own %v", got, k.want)
			}
		})
	}
}

// tcpUserTimeout reads a TCP socket's TCP_USER_TIMEOUT.
func tcpUserTimeout(t *testing.T, conn net.Conn) time.Duration {
	t.Helper()
	raw, err := conn.(syscall.Conn).SyscallConn()
	must(t, err)
	var ms int
	var getErr error
	must(t, raw.Control(func(fd uintptr) {
		ms, getErr = syscall.GetsockoptInt(int(fd), syscall.IPPROTO_TCP, tcpUserTimeoutOption)
	}))
	must(t, getErr)
	return time.Duration(ms) * time.Millisecond
}

// Many calls at once, small and large, over one connection.
func TestTransportUnderStress(t *testing.T) {
	f := startFakeServer(t)
	const large = 512 << 10
	f.set(func(f *fakeServer) { f.historyPayload = large })
	overEachTransport(t, Options{}, func(t *testing.T, o Options) {
		c := dialFake(t, f, o)
		var wg sync.WaitGroup
		var failures atomic.Int64
		var firstErr atomic.Value
		for range 8 {
			wg.Go(func() {
				for range 20 {
					n, err := getHistory(context.Background(), c)
					if err == nil && n != large {
						err = fmt.Errorf("history page token of %d bytes, want %d", n, large)
					}
					if err == nil {
						_, err = c.WorkflowService().GetSystemInfo(context.Background(), &workflowservice.GetSystemInfoRequest{})
					}
					if err != nil {
						failures.Add(1)
						firstErr.CompareAndSwap(nil, err)
					}
				}
			})
		}
		wg.Wait()
		if n := failures.Load(); n > 0 {
			t.Fatalf("%d of 160 pairs of calls failed, the first with %v", n, firstErr.Load())
		}
	})
}

// resettingProxy is a loopback TCP proxy in front of target that can reset
// every connection it carries, as a crashed middlebox does.
type resettingProxy struct {
	addr     string
	mu       sync.Mutex
	conns    []*net.TCPConn
	accepted atomic.Int64
}

func startResettingProxy(t *testing.T, target string) *resettingProxy {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	p := &resettingProxy{addr: lis.Addr().String()}
	done := make(chan struct{})
	t.Cleanup(func() {
		lis.Close()
		<-done
		p.reset()
	})
	go func() {
		defer close(done)
		for {
			client, err := lis.Accept()
			if err != nil {
				return
			}
			server, err := net.Dial("tcp", target)
			if err != nil {
				client.Close()
				continue
			}
			p.accepted.Add(1)
			p.mu.Lock()
			p.conns = append(p.conns, client.(*net.TCPConn), server.(*net.TCPConn))
			p.mu.Unlock()
			go func() { _, _ = io.Copy(client, server) }()
			go func() { _, _ = io.Copy(server, client) }()
		}
	}()
	return p
}

// reset ends every connection with a TCP reset.
func (p *resettingProxy) reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		_ = c.SetLinger(0)
		_ = c.Close()
	}
	p.conns = nil
}

// Connections reset under calls in flight: every call still succeeds,
// through the connection's retries and gRPC's reconnection.
func TestTransportRecoversFromResetConnections(t *testing.T) {
	f := startFakeServer(t)
	f.set(func(f *fakeServer) { f.historyPayload = 64 << 10 })
	overEachTransport(t, Options{Retry: RetryPolicy{InitialInterval: time.Millisecond, MaximumInterval: 20 * time.Millisecond, MaximumElapsed: 30 * time.Second}},
		func(t *testing.T, o Options) {
			proxy := startResettingProxy(t, f.addr)
			o.HostPort = proxy.addr
			c, err := NewConn(o)
			must(t, err)
			defer c.Close()

			stop := make(chan struct{})
			var wg sync.WaitGroup
			var calls, failures atomic.Int64
			var firstErr atomic.Value
			for range 4 {
				wg.Go(func() {
					for {
						select {
						case <-stop:
							return
						default:
						}
						_, err := getHistory(context.Background(), c)
						calls.Add(1)
						if err != nil {
							failures.Add(1)
							firstErr.CompareAndSwap(nil, err)
						}
					}
				})
			}
			// Let calls flow on the connection before each cut, and after
			// the last one, so that every reset is followed by a reconnect.
			letCallsFlow := func() {
				for start := calls.Load(); calls.Load() < start+20; {
					time.Sleep(time.Millisecond)
				}
			}
			const resets = 5
			for i := 0; i < resets; i++ {
				letCallsFlow()
				proxy.reset()
			}
			letCallsFlow()
			close(stop)
			wg.Wait()
			if n := failures.Load(); n > 0 {
				t.Fatalf("%d of %d calls failed across %d resets, the first with %v", n, calls.Load(), resets, firstErr.Load())
			}
			if n := proxy.accepted.Load(); n <= resets {
				t.Errorf("the proxy accepted %d connections over %d resets, want a new one after each", n, resets)
			}
		})
}

// A server that stops with a call in flight and comes back on the same
// address: the call completes once it is back.
func TestTransportCallSurvivesAServerRestart(t *testing.T) {
	overEachTransport(t, Options{Retry: RetryPolicy{MaximumElapsed: 30 * time.Second}}, func(t *testing.T, o Options) {
		srv, addr := healthOnly(t, "127.0.0.1:0")
		o.HostPort = addr
		c, err := NewConn(o)
		must(t, err)
		defer c.Close()
		must(t, c.CheckHealth(context.Background()))

		srv.Stop()
		done := make(chan error, 1)
		go func() {
			_, err := c.WorkflowService().GetSystemInfo(context.Background(), &workflowservice.GetSystemInfoRequest{})
			done <- err
		}()
		time.Sleep(50 * time.Millisecond) // the call is retrying
		healthOnly(t, addr)
		// The server has no workflow service: once it answers, the call
		// ends with Unimplemented.
		var unimplemented *serviceerror.Unimplemented
		if err := <-done; !errors.As(err, &unimplemented) {
			t.Errorf("the call across the restart ended with %v, want the restarted server's Unimplemented", err)
		}
		must(t, c.CheckHealth(context.Background()))
	})
}

func TestTransportOverTLS(t *testing.T) {
	cert, pool := selfSigned(t)
	f := startFakeServer(t, grpc.Creds(credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{cert}})))
	f.set(func(f *fakeServer) { f.historyPayload = 256 << 10 })
	overEachTransport(t, Options{TLS: &tls.Config{RootCAs: pool}}, func(t *testing.T, o Options) {
		c := dialFake(t, f, o)
		for range 10 {
			n, err := getHistory(context.Background(), c)
			must(t, err)
			if n != 256<<10 {
				t.Fatalf("history page token of %d bytes over TLS, want %d", n, 256<<10)
			}
		}
	})
}

// A dialer the user gives dials every socket, and none is wrapped: the
// SDK cannot know what the user did to it.
func TestTheSocketsOfAUsersDialerAreNotWrapped(t *testing.T) {
	f := startFakeServer(t)
	probe := &rawSocketProbe{}
	var dialled atomic.Int64
	c := dialFake(t, f, Options{rawSocketProbe: probe, DialOptions: []grpc.DialOption{
		grpc.WithContextDialer(func(ctx context.Context, addr string) (net.Conn, error) {
			dialled.Add(1)
			return (&net.Dialer{}).DialContext(ctx, "tcp", addr)
		}),
	}})
	_, err := getHistory(context.Background(), c)
	must(t, err)
	if dialled.Load() == 0 {
		t.Fatal("the user's dialer was not used")
	}
	if made := probe.made(); len(made) != 0 {
		t.Errorf("%d sockets of the user's dialer were wrapped for raw I/O", len(made))
	}
}

// The case: a user's dialer that set a socket option through
// File().Fd() left the socket blocking. Wrapped, its raw read sat in the
// kernel, and runtime.GC waited for the peer, here in the same process:
// a deadlock.
func TestABlockingSocketFromAUsersDialerDoesNotStopTheRuntime(t *testing.T) {
	// gRPC's own reader of a blocking socket waits in read(2) until the
	// server sends or goes: the server must stop before the connection
	// closes, so its cleanup goes first.
	var c *Conn
	t.Cleanup(func() {
		if c != nil {
			_ = c.Close()
		}
	})
	f := startFakeServer(t)
	c, err := NewConn(Options{HostPort: f.addr, rawSocketProbe: &rawSocketProbe{}, DialOptions: []grpc.DialOption{
		grpc.WithContextDialer(func(ctx context.Context, addr string) (net.Conn, error) {
			conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
			if err != nil {
				return nil, err
			}
			file, err := conn.(*net.TCPConn).File()
			if err != nil {
				conn.Close()
				return nil, err
			}
			file.Fd() // the old way to reach setsockopt; makes the socket blocking
			file.Close()
			return conn, nil
		}),
	}})
	must(t, err)
	_, err = getHistory(context.Background(), c)
	must(t, err)
	// The connection is idle: its reader waits for the server.
	time.Sleep(20 * time.Millisecond)
	if !gcReturns() {
		t.Fatal("runtime.GC did not return while the connection waited for the server")
	}
	_, err = getHistory(context.Background(), c)
	must(t, err)
}

func TestRawSocketsCanBeTurnedOff(t *testing.T) {
	f := startFakeServer(t)
	call := func(o Options) []net.Conn {
		t.Helper()
		probe := &rawSocketProbe{}
		o.rawSocketProbe = probe
		c := dialFake(t, f, o)
		_, err := getHistory(context.Background(), c)
		must(t, err)
		return probe.made()
	}
	if made := call(Options{}); len(made) == 0 {
		t.Fatal("raw sockets asked for, none made; the test needs them")
	}
	if made := call(Options{DisableRawSocket: true}); len(made) != 0 {
		t.Errorf("DisableRawSocket: %d raw sockets made", len(made))
	}
	t.Setenv(RawSocketEnv, "off")
	if made := call(Options{}); len(made) != 0 {
		t.Errorf("%s=off: %d raw sockets made", RawSocketEnv, len(made))
	}
	t.Setenv(RawSocketEnv, "no thanks")
	_, err := NewConn(Options{HostPort: f.addr})
	if err == nil || !strings.Contains(err.Error(), `invalid environment variable DURABLE_RAW_SOCKET="no thanks": it takes off (or on, the default)`) {
		t.Errorf("NewConn with %s=%q gave %v, want an error naming the variable", RawSocketEnv, os.Getenv(RawSocketEnv), err)
	}
}

// A target behind an HTTPS proxy is dialed by gRPC, which knows how to
// reach the proxy; the others by the SDK.
func TestProxiedTargetsAreLeftToGRPC(t *testing.T) {
	proxyFor := func(r *http.Request) (*url.URL, error) {
		switch {
		case strings.Contains(r.URL.Host, "far"):
			return url.Parse("http://proxy:3128")
		case r.URL.Host == "broken:7233":
			return nil, errors.New("bad proxy setting")
		}
		return nil, nil
	}
	for target, want := range map[string]bool{
		"far:7233":         true,
		"dns:///far:7233":  true,
		"broken:7233":      true,
		"near:7233":        false,
		"dns:///near:7233": false,
		// A Unix socket reaches no proxy, whatever its name.
		"unix:///tmp/far:7233": false,
		"unix:far:7233":        false,
		"unix-abstract:far":    false,
	} {
		if got := proxied(target, proxyFor); got != want {
			t.Errorf("proxied(%q) = %v, want %v", target, got, want)
		}
	}
}

func TestDialTarget(t *testing.T) {
	for addr, want := range map[string][2]string{
		"127.0.0.1:7233":     {"tcp", "127.0.0.1:7233"},
		"[::1]:7233":         {"tcp", "[::1]:7233"},
		"unix:///tmp/t.sock": {"unix", "/tmp/t.sock"},
		"unix:t.sock":        {"unix", "t.sock"},
		"\x00abstract":       {"unix", "\x00abstract"},
	} {
		if network, address := dialTarget(addr); network != want[0] || address != want[1] {
			t.Errorf("dialTarget(%q) = %s %q, want %s %q", addr, network, address, want[0], want[1])
		}
	}
}

// The SDK's dialer reaches a server on a Unix socket, as gRPC's does.
func TestRawSocketsOverAUnixSocketTarget(t *testing.T) {
	path := t.TempDir() + "/frontend.sock"
	lis, err := net.Listen("unix", path)
	must(t, err)
	srv := grpc.NewServer()
	f := &fakeServer{errors: map[string][]error{}, delays: map[string][]time.Duration{}}
	workflowservice.RegisterWorkflowServiceServer(srv, f)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)

	probe := &rawSocketProbe{}
	c, err := NewConn(Options{HostPort: "unix://" + path, rawSocketProbe: probe})
	must(t, err)
	defer c.Close()
	_, err = c.WorkflowService().GetSystemInfo(context.Background(), &workflowservice.GetSystemInfoRequest{})
	must(t, err)
	if made := probe.made(); len(made) != 1 || made[0].LocalAddr().Network() != "unix" {
		t.Errorf("raw sockets made: %v, want one Unix socket", made)
	}
}
