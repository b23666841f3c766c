//go:build !linux

package rpc

import "net"

// newRawSocket returns conn: raw socket I/O (rawsocket_linux.go) is made on
// Linux only, where its system calls are known.
func newRawSocket(conn net.Conn) net.Conn { return conn }
