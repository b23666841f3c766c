package rpc

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"
)

// RawSocketEnv names the environment variable that turns raw socket I/O
// (rawsocket_linux.go) off for every connection of the process:
// DURABLE_RAW_SOCKET=off. "on", the default, leaves it to the build and
// Options.DisableRawSocket.
const RawSocketEnv = "DURABLE_RAW_SOCKET"

// usesRawSockets says whether the connection dials its sockets itself
// and reads and writes them with raw system calls. Only then does it
// install its own dialer (dialRawSocket), which a dialer in DialOptions
// replaces: a user's connections are never wrapped.
func (o Options) usesRawSockets() (bool, error) {
	env := os.Getenv(RawSocketEnv)
	switch strings.ToLower(env) {
	case "", "on", "off":
	default:
		return false, fmt.Errorf("invalid environment variable %s=%q: it takes off (or on, the default)", RawSocketEnv, env)
	}
	switch {
	case o.DisableRawSocket || strings.EqualFold(env, "off"):
		return false, nil
	case !rawSocketsByDefault:
		// A test's probe asks for it in the builds that have it off; in
		// the others, tests take the decision production takes.
		return o.rawSocketProbe != nil, nil
	}
	// gRPC sends a connection through the proxy that HTTPS_PROXY names
	// only when it dials itself; such connections are left to it.
	return !proxied(o.HostPort, http.ProxyFromEnvironment), nil
}

// proxied reports whether proxyFor (as gRPC asks it) puts the connection
// to target behind a proxy. gRPC asks only for network addresses: a Unix
// socket is never proxied.
func proxied(target string, proxyFor func(*http.Request) (*url.URL, error)) bool {
	if strings.HasPrefix(target, "unix:") || strings.HasPrefix(target, "unix-abstract:") {
		return false
	}
	endpoint := target
	if i := strings.Index(target, ":///"); i >= 0 {
		endpoint = target[i+len(":///"):] // "dns:///host:port" and the like
	}
	proxy, err := proxyFor(&http.Request{URL: &url.URL{Scheme: "https", Host: endpoint}})
	return err != nil || proxy != nil
}

// dialRawSocket dials addr as gRPC's own dialer does (TCP with keepalive
// probes at the system's settings, or a Unix socket), gives a TCP socket
// the user timeout gRPC would give it, and wraps the socket for raw I/O.
func (c *Conn) dialRawSocket(ctx context.Context, addr string) (net.Conn, error) {
	network, address := dialTarget(addr)
	dialer := net.Dialer{KeepAliveConfig: net.KeepAliveConfig{Enable: true, Idle: -1, Interval: -1, Count: -1}}
	conn, err := dialer.DialContext(ctx, network, address)
	if err != nil {
		return nil, err
	}
	if timeout := c.opts.tcpUserTimeout(); timeout > 0 {
		if err := setTCPUserTimeout(conn, timeout); err != nil {
			conn.Close()
			return nil, fmt.Errorf("setting TCP_USER_TIMEOUT on the connection to %s: %w", addr, err)
		}
	}
	wrapped := newRawSocket(conn)
	if probe := c.opts.rawSocketProbe; probe != nil && wrapped != conn {
		probe.add(wrapped)
	}
	return wrapped, nil
}

// tcpUserTimeout is the TCP user timeout gRPC gives a *net.TCPConn it
// connects over, which it cannot see in a wrapped one: with keepalive
// pings on, their Timeout (gRPC's 20 s when it is 0); without, none.
func (o Options) tcpUserTimeout() time.Duration {
	k := o.Keepalive
	if k == nil || k.Time <= 0 || k.Time == math.MaxInt64 {
		return 0
	}
	return cmp.Or(k.Timeout, 20*time.Second)
}

// dialTarget is the network and address of an address gRPC hands a
// custom dialer: "unix://path" or "unix:path" for Unix sockets, a name
// starting with a NUL byte for abstract ones, host:port for TCP.
func dialTarget(addr string) (network, address string) {
	switch {
	case strings.HasPrefix(addr, "unix://"):
		return "unix", strings.TrimPrefix(addr, "unix://")
	case strings.HasPrefix(addr, "unix:"):
		return "unix", strings.TrimPrefix(addr, "unix:")
	case strings.HasPrefix(addr, "\x00"):
		return "unix", addr
	}
	return "tcp", addr
}

// rawSocketProbe is set by tests in Options: it keeps the raw sockets the
// connection makes, and turns raw socket I/O on in the builds that have it
// off (race among them).
type rawSocketProbe struct {
	mu      sync.Mutex
	sockets []net.Conn
}

func (p *rawSocketProbe) add(conn net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sockets = append(p.sockets, conn)
}
