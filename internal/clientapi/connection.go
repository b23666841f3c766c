package clientapi

import (
	"context"
	"crypto/tls"
	"errors"
	"time"

	"google.golang.org/grpc"

	"github.com/durable-go/sdk/internal/rpc"
)

const (
	// DefaultHostPort is the address a client connects to when its
	// options' HostPort is empty: a dev server on this machine.
	DefaultHostPort = rpc.DefaultHostPort
	// DefaultNamespace is the namespace a client uses when its options'
	// Namespace is empty.
	DefaultNamespace = rpc.DefaultNamespace
)

type (
	// ConnectionOptions control the gRPC connection to the server.
	ConnectionOptions struct {
		// TLS enables TLS with this configuration; plaintext when nil
		// (unless API key credentials turn TLS on).
		TLS *tls.Config
		// TLSDisabled keeps the connection in plaintext even with API key
		// credentials, which would otherwise enable TLS. It cannot be
		// combined with TLS.
		TLSDisabled bool
		// Authority overrides the :authority pseudo-header.
		Authority string
		// DisableKeepAliveCheck turns off keepalive pings.
		DisableKeepAliveCheck bool
		// KeepAliveTime is the idle time after which the client pings the
		// server; 30s when zero, and at least 10s.
		KeepAliveTime time.Duration
		// KeepAliveTimeout is how long the client waits for a ping's answer
		// before closing the connection; 15s when zero.
		KeepAliveTimeout time.Duration
		// GetSystemInfoTimeout bounds the GetSystemInfo call with which Dial
		// checks the server; 5s when zero.
		GetSystemInfoTimeout time.Duration
		// DisableKeepAlivePermitWithoutStream stops keepalive pings while no
		// call is in flight.
		DisableKeepAlivePermitWithoutStream bool
		// MaxPayloadSize bounds gRPC messages in both directions; 128 MiB
		// when zero.
		MaxPayloadSize int
		// GrpcCompression selects request compression. Unlike the official
		// SDK, which defaults to gzip, nil means no compression here; set
		// &GrpcCompressionGzip{} to compress.
		GrpcCompression GrpcCompression
		// DialOptions are applied after the client's own, so they can
		// override them; interceptors given with grpc.WithChainUnaryInterceptor
		// run inside the client's retry and header interceptors. Transport
		// credentials given here (grpc.WithTransportCredentials) cannot
		// replace the TLS that TLS or Credentials set up: calls fail, unsent,
		// with an error that says so (API key credentials accept secure
		// replacements). A dialer given here (grpc.WithContextDialer) gets
		// no raw socket I/O (see DisableRawSocketIO).
		DialOptions []grpc.DialOption
		// DisableRawSocketIO reads and writes the connection's sockets the
		// way any net.Conn does, through the Go runtime's system call
		// wrappers. By default, on Linux, the client dials its sockets
		// itself and reads and writes them with raw system calls, which
		// spares an idle worker the wake-ups of the runtime's monitor
		// thread (18-30% of a mostly idle worker's CPU, nothing on a busy
		// one). DURABLE_RAW_SOCKET=off in the environment does the same for
		// every client of the process. Raw socket I/O is never used in
		// race, msan or asan builds, behind an HTTPS_PROXY, or with a
		// dialer in DialOptions. (An addition to go.temporal.io/sdk's
		// options.)
		DisableRawSocketIO bool
	}

	// GrpcCompression selects gRPC request compression:
	// &GrpcCompressionGzip{} or &GrpcCompressionNone{}.
	GrpcCompression interface {
		grpcCompression()
	}

	// GrpcCompressionGzip compresses requests with gzip.
	GrpcCompressionGzip struct{}

	// GrpcCompressionNone sends requests uncompressed.
	GrpcCompressionNone struct{}

	// Credentials authenticate a client; make them with
	// NewAPIKeyStaticCredentials, NewAPIKeyDynamicCredentials or
	// NewMTLSCredentials.
	Credentials interface {
		applyTo(s *ConnectionSettings) error
	}
)

func (*GrpcCompressionGzip) grpcCompression() {}
func (*GrpcCompressionNone) grpcCompression() {}

// ConnectionSettings are what credentials may change of a connection:
// TLS and the API key source. The client's implementation
// (internal/clientimpl) applies a client's Credentials with Apply.
type ConnectionSettings struct {
	TLS         *tls.Config
	TLSDisabled bool
	APIKey      func(context.Context) (string, error)
}

// Apply applies credentials c.
func (s *ConnectionSettings) Apply(c Credentials) error { return c.applyTo(s) }

// apiKeyCredentials send "authorization: Bearer <key>" with every request.
type apiKeyCredentials func(context.Context) (string, error)

// NewAPIKeyStaticCredentials authenticates with a fixed API key. TLS is
// turned on unless ConnectionOptions.TLSDisabled is set.
func NewAPIKeyStaticCredentials(apiKey string) Credentials {
	return apiKeyCredentials(func(context.Context) (string, error) { return apiKey, nil })
}

// NewAPIKeyDynamicCredentials authenticates with the API key that
// getAPIKey returns, asked before every request attempt so that keys can
// rotate. TLS is turned on unless ConnectionOptions.TLSDisabled is set.
func NewAPIKeyDynamicCredentials(getAPIKey func(context.Context) (string, error)) Credentials {
	return apiKeyCredentials(getAPIKey)
}

func (k apiKeyCredentials) applyTo(s *ConnectionSettings) error {
	// API keys must not travel in plaintext unless the user insists.
	if s.TLS == nil && !s.TLSDisabled {
		s.TLS = &tls.Config{}
	}
	s.APIKey = k
	return nil
}

// mtlsCredentials present a client certificate.
type mtlsCredentials tls.Certificate

// NewMTLSCredentials authenticates with a client certificate, enabling TLS.
func NewMTLSCredentials(certificate tls.Certificate) Credentials {
	return mtlsCredentials(certificate)
}

func (m mtlsCredentials) applyTo(s *ConnectionSettings) error {
	switch {
	case s.TLS == nil:
		s.TLS = &tls.Config{}
	case len(s.TLS.Certificates) > 0:
		return errors.New("cannot use mTLS credentials: ConnectionOptions.TLS already has certificates")
	default:
		// Do not change the caller's config.
		s.TLS = s.TLS.Clone()
	}
	s.TLS.Certificates = []tls.Certificate{tls.Certificate(m)}
	return nil
}
