package rpc

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"os"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/keepalive"

	"github.com/durable-go/sdk/log"
)

// Metadata keys the Temporal server reads.
const (
	HeaderClientName              = "client-name"
	HeaderClientVersion           = "client-version"
	HeaderSupportedServerVersions = "supported-server-versions"
	HeaderNamespace               = "temporal-namespace"
	HeaderAuthorization           = "authorization"
)

const (
	// DefaultClientName and DefaultClientVersion identify this SDK to the
	// server (and in workflow task completions), so that the server's SDK
	// statistics count it as itself, not as go.temporal.io/sdk. Nothing a
	// server does depends on a name it does not know: the server's version
	// checker checks only the SDKs it lists ("temporal-go" < 2.0.0 among
	// them) and lets others through, and the one behaviour keyed on a name,
	// turning off eager activities for old clients, is for TypeScript
	// (server 1.29: common/headers/version_checker.go,
	// service/frontend/overrides.go). TestServerTakesThisSDKsName checks it
	// on the dev server.
	DefaultClientName    = "durable-go"
	DefaultClientVersion = "0.2.0-dev"
	// SupportedServerVersions is the server version range this SDK accepts,
	// sent so the server can reject a client it is too old or new for.
	SupportedServerVersions = ">=1.0.0 <2.0.0"

	// DefaultHostPort is the frontend address of a local dev server.
	DefaultHostPort = "localhost:7233"
	// DefaultNamespace is the namespace every dev server has.
	DefaultNamespace = "default"
	// DefaultMaxMessageSize bounds gRPC messages in both directions. It is
	// far above gRPC's 4 MiB default because workflow histories and
	// payloads can be large.
	DefaultMaxMessageSize = 128 << 20
)

// defaultKeepalive is how a connection detects that it died without being
// closed, which would otherwise hang long polls until their deadline: a
// ping after 30 s without a frame, answered within 15 s, with or without
// calls in flight (go.temporal.io/sdk's defaults).
var defaultKeepalive = keepalive.ClientParameters{
	Time:                30 * time.Second,
	Timeout:             15 * time.Second,
	PermitWithoutStream: true,
}

// HeadersProvider supplies extra metadata for every call, such as a token
// that rotates. Its method set matches client.HeadersProvider.
type HeadersProvider interface {
	GetHeaders(ctx context.Context) (map[string]string, error)
}

// Options configure a connection. The zero value connects in plaintext to
// DefaultHostPort and namespace DefaultNamespace.
type Options struct {
	// HostPort is the frontend's "host:port".
	HostPort string
	// Namespace is sent as the temporal-namespace header on calls whose
	// request does not name a namespace itself.
	Namespace string
	// Identity names this process in requests that carry an identity. It
	// defaults to "pid@hostname@". The connection only stores it.
	Identity string
	// TLS enables TLS with this configuration; nil means plaintext. Calls
	// fail, unsent, if transport credentials in DialOptions replace it.
	TLS *tls.Config
	// TLSForAPIKey says that TLS is set only because API key credentials
	// turn it on: transport credentials in DialOptions may then replace
	// it if they are secure (TLS of their own).
	TLSForAPIKey bool
	// APIKey, if set, is called before each attempt and its non-empty
	// result sent as "authorization: Bearer <key>", unless the call's
	// context or HeadersProvider already set authorization.
	APIKey func(ctx context.Context) (string, error)
	// HeadersProvider, if set, adds its headers to every attempt. Headers
	// already in the call's outgoing context take precedence.
	HeadersProvider HeadersProvider
	// DialOptions are appended after the connection's own options, so they
	// can override them; interceptors given here run inside ours, once per
	// attempt. A dialer given here (grpc.WithContextDialer) dials every
	// socket, which then gets no raw I/O.
	DialOptions []grpc.DialOption
	// DisableRawSocket reads and writes the connection's sockets through
	// the Go runtime's system call wrappers, as any net.Conn, instead of
	// raw system calls (rawsocket_linux.go). Raw I/O is also off with
	// DURABLE_RAW_SOCKET=off in the environment (RawSocketEnv), off Linux,
	// in race, msan and asan builds, behind an HTTPS_PROXY, and for the
	// sockets of a dialer given in DialOptions.
	DisableRawSocket bool
	// CallInterceptors run once per call, outside the retries: they see
	// the call's outcome after every attempt, as the caller does (the
	// SDK's request metrics).
	CallInterceptors []grpc.UnaryClientInterceptor
	// AttemptInterceptors run once per attempt, inside the retries.
	AttemptInterceptors []grpc.UnaryClientInterceptor
	// ClientName and ClientVersion override the identification headers.
	ClientName    string
	ClientVersion string
	// MaxMessageSize bounds sent and received messages; 0 means
	// DefaultMaxMessageSize.
	MaxMessageSize int
	// Retry tunes retries and attempt timeouts; zero fields take the values
	// of DefaultRetryPolicy.
	Retry RetryPolicy
	// Logger, if set, hears when the connection is lost and when it is
	// back.
	Logger log.Logger
	// Keepalive sets the connection's keepalive pings: nil means
	// defaultKeepalive, a zero Time no pings. Set them here rather
	// than with grpc.WithKeepaliveParams in DialOptions: gRPC gives the
	// sockets it recognizes as TCP a TCP user timeout of the pings'
	// Timeout, and the sockets of the SDK's own dialer (raw socket I/O),
	// which it does not recognize, get theirs from this.
	Keepalive *keepalive.ClientParameters

	// rawSocketProbe, set by tests, keeps the raw sockets made, and turns
	// raw socket I/O on in the builds that have it off. Production code
	// holds it because those builds (race) are where the path's tests
	// run; nil, it costs a comparison per dial.
	rawSocketProbe *rawSocketProbe
}

// withDefaults returns a copy with every unset field filled in.
func (o Options) withDefaults() (Options, error) {
	if o.HostPort == "" {
		o.HostPort = DefaultHostPort
	}
	if _, _, err := net.SplitHostPort(o.HostPort); err != nil {
		return o, fmt.Errorf("invalid Temporal server address %q, want host:port: %w", o.HostPort, err)
	}
	if o.Namespace == "" {
		o.Namespace = DefaultNamespace
	}
	if o.Identity == "" {
		o.Identity = defaultIdentity()
	}
	if o.ClientName == "" {
		o.ClientName = DefaultClientName
	}
	if o.ClientVersion == "" {
		o.ClientVersion = DefaultClientVersion
	}
	if o.MaxMessageSize == 0 {
		o.MaxMessageSize = DefaultMaxMessageSize
	}
	if o.Keepalive == nil {
		k := defaultKeepalive
		o.Keepalive = &k
	}
	o.Retry = o.Retry.withDefaults()
	return o, nil
}

// defaultIdentity follows the official SDK's "pid@host@" so that tools that
// parse identities see the familiar shape.
func defaultIdentity() string {
	host, err := os.Hostname()
	if err != nil {
		host = "unknown"
	}
	return fmt.Sprintf("%d@%s@", os.Getpid(), host)
}
