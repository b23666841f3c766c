package rpc

import (
	"context"
	"net"

	"google.golang.org/grpc/credentials"
)

// rawSocketCredentials hands the connection's handshake (TLS or none) a
// socket read and written with raw system calls (see newRawSocket). It is
// the one place gRPC lets a client wrap a connection it dialled itself.
type rawSocketCredentials struct {
	credentials.TransportCredentials
}

func (c rawSocketCredentials) ClientHandshake(ctx context.Context, authority string, conn net.Conn) (net.Conn, credentials.AuthInfo, error) {
	return c.TransportCredentials.ClientHandshake(ctx, authority, newRawSocket(conn))
}

func (c rawSocketCredentials) Clone() credentials.TransportCredentials {
	return rawSocketCredentials{c.TransportCredentials.Clone()}
}
