//go:build !linux

package rpc

import (
	"net"
	"time"
)

// newRawSocket returns conn: raw socket I/O (rawsocket_linux.go) is made on
// Linux only, where its system calls are known.
func newRawSocket(conn net.Conn) net.Conn { return conn }

// setTCPUserTimeout does nothing: raw sockets are made on Linux only.
func setTCPUserTimeout(net.Conn, time.Duration) error { return nil }
