package rpc

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
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
	case o.rawSocketProbe != nil:
		return true, nil // a test asks for it, in any build
	case !rawSocketsByDefault:
		return false, nil
	}
	// gRPC sends a connection through the proxy that HTTPS_PROXY names
	// only when it dials itself; such connections are left to it.
	return !proxied(o.HostPort, http.ProxyFromEnvironment), nil
}

// proxied reports whether proxyFor (as gRPC asks it) puts the connection
// to target behind a proxy.
func proxied(target string, proxyFor func(*http.Request) (*url.URL, error)) bool {
	endpoint := target
	if i := strings.Index(target, ":///"); i >= 0 {
		endpoint = target[i+len(":///"):] // "dns:///host:port" and the like
	}
	proxy, err := proxyFor(&http.Request{URL: &url.URL{Scheme: "https", Host: endpoint}})
	return err != nil || proxy != nil
}

// dialRawSocket dials addr as gRPC's own dialer does (TCP with keepalive
// probes at the system's settings, or a Unix socket) and wraps the socket
// for raw I/O.
func (c *Conn) dialRawSocket(ctx context.Context, addr string) (net.Conn, error) {
	network, address := dialTarget(addr)
	dialer := net.Dialer{KeepAliveConfig: net.KeepAliveConfig{Enable: true, Idle: -1, Interval: -1, Count: -1}}
	conn, err := dialer.DialContext(ctx, network, address)
	if err != nil {
		return nil, err
	}
	wrapped := newRawSocket(conn)
	if probe := c.opts.rawSocketProbe; probe != nil && wrapped != conn {
		probe.add(wrapped)
	}
	return wrapped, nil
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

// rawSocketProbe is set by tests in Options: it turns raw socket I/O on in
// any build (race included) and keeps the sockets it makes.
type rawSocketProbe struct {
	mu      sync.Mutex
	sockets []net.Conn
}

func (p *rawSocketProbe) add(conn net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sockets = append(p.sockets, conn)
}

func (p *rawSocketProbe) made() []net.Conn {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]net.Conn(nil), p.sockets...)
}
