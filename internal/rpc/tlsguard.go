package rpc

import (
	"context"
	"net"
	"sync/atomic"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"
)

// tlsGuard keeps calls from going out without the TLS the options ask for.
// A grpc.WithTransportCredentials (or WithCredentialsBundle) in DialOptions
// replaces the connection's own transport credentials, and gRPC says
// nothing: the TLS configuration would be ignored, and an API key sent in
// plaintext. The guard tells the two apart by counting the handshakes of
// the connection's own credentials (countingCredentials): with them in
// use, every transport makes one before its first call.
type tlsGuard struct {
	ownHandshakes atomic.Int64
	// forAPIKey: TLS is on only because API key credentials turn it on,
	// so credentials from DialOptions may stand in for it if they are
	// secure; an explicit TLS configuration may not be replaced at all.
	forAPIKey bool
}

// guardRefused starts the guard's errors.
const guardRefused = "the call was not sent"

const (
	errTLSReplaced = guardRefused + ": the connection's TLS settings (ConnectionOptions.TLS, or mTLS credentials) are not in use, " +
		"because a grpc.WithTransportCredentials (or WithCredentialsBundle) in ConnectionOptions.DialOptions replaces them; " +
		"configure TLS in one place: remove that dial option, or ConnectionOptions.TLS"
	errAPIKeyWithoutTLS = guardRefused + ", so the API key did not go out in plaintext: API key credentials turn TLS on, " +
		"but the transport credentials given in ConnectionOptions.DialOptions (grpc.WithTransportCredentials) are not secure; " +
		"use TLS transport credentials, or remove that dial option, or set ConnectionOptions.TLSDisabled to send the key without TLS on purpose"
)

// interceptor checks each attempt until the connection's own credentials
// have shaken hands; from then on they are known to be in use, and
// attempts go out unchecked.
func (g *tlsGuard) interceptor(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	if g.ownHandshakes.Load() == 0 {
		opts = append(opts[:len(opts):len(opts)], grpc.PerRPCCredentials(g))
	}
	return invoker(ctx, method, req, reply, cc, opts...)
}

// GetRequestMetadata is asked by gRPC as the call's stream is set up, on
// the transport chosen, before anything is sent: an error stops the call.
func (g *tlsGuard) GetRequestMetadata(ctx context.Context, _ ...string) (map[string]string, error) {
	if g.ownHandshakes.Load() > 0 {
		return nil, nil
	}
	if g.forAPIKey {
		info, _ := credentials.RequestInfoFromContext(ctx)
		if credentials.CheckSecurityLevel(info.AuthInfo, credentials.PrivacyAndIntegrity) == nil {
			return nil, nil
		}
		return nil, status.Error(codes.Unauthenticated, errAPIKeyWithoutTLS)
	}
	return nil, status.Error(codes.Unauthenticated, errTLSReplaced)
}

// RequireTransportSecurity is false: GetRequestMetadata makes the checks,
// with errors that say what to change.
func (*tlsGuard) RequireTransportSecurity() bool { return false }

// countingCredentials are the connection's own transport credentials,
// counting their handshakes for the guard.
type countingCredentials struct {
	credentials.TransportCredentials
	guard *tlsGuard
}

func (c countingCredentials) ClientHandshake(ctx context.Context, authority string, conn net.Conn) (net.Conn, credentials.AuthInfo, error) {
	c.guard.ownHandshakes.Add(1)
	return c.TransportCredentials.ClientHandshake(ctx, authority, conn)
}

func (c countingCredentials) Clone() credentials.TransportCredentials {
	return countingCredentials{c.TransportCredentials.Clone(), c.guard}
}
