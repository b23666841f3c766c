package rpc

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/mem"
)

// tcpPair returns both ends of a loopback TCP connection, the dialled one
// wrapped as a raw socket.
func tcpPair(t testing.TB) (raw net.Conn, peer net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			close(accepted)
			return
		}
		accepted <- c
	}()
	dialled, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	peer, ok := <-accepted
	if !ok {
		t.Fatal("accept failed")
	}
	raw = newRawSocket(dialled)
	if _, ok := raw.(*rawSocket); !ok {
		t.Fatalf("newRawSocket(%T) = %T, want *rawSocket", dialled, raw)
	}
	t.Cleanup(func() { raw.Close(); peer.Close() })
	return raw, peer
}

// pattern is n bytes that differ from one position to the next.
func pattern(n int) []byte {
	p := make([]byte, n)
	for i := range p {
		p[i] = byte(i * 7 / 3)
	}
	return p
}

func TestRawSocketCarriesMoreThanTheSocketBuffers(t *testing.T) {
	raw, peer := tcpPair(t)
	// 8 MiB is more than the kernel buffers of both ends together, so the
	// writer sees EAGAIN and must wait for the reader.
	sent := pattern(8 << 20)
	var got []byte
	var readErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		got, readErr = io.ReadAll(peer)
	}()
	n, err := raw.Write(sent)
	if err != nil || n != len(sent) {
		t.Fatalf("Write = %d, %v; want %d, nil", n, err, len(sent))
	}
	raw.(*rawSocket).Conn.(*net.TCPConn).CloseWrite()
	<-done
	if readErr != nil || !bytes.Equal(got, sent) {
		t.Fatalf("peer read %d bytes (%v), want the %d written", len(got), readErr, len(sent))
	}

	// And the other way, through Read.
	go func() {
		peer.Write(sent)
		peer.Close()
	}()
	got, err = io.ReadAll(raw)
	if err != nil || !bytes.Equal(got, sent) {
		t.Fatalf("ReadAll = %d bytes, %v; want the %d written and EOF", len(got), err, len(sent))
	}
}

// countingPool is a buffer pool that counts the buffers it has out.
type countingPool struct {
	out atomic.Int64
}

func (p *countingPool) Get(n int) *[]byte {
	p.out.Add(1)
	b := make([]byte, n)
	return &b
}

func (p *countingPool) Put(*[]byte) { p.out.Add(-1) }

var _ mem.BufferPool = (*countingPool)(nil)

func TestRawSocketReadOnReadyTakesABufferOnlyForData(t *testing.T) {
	raw, peer := tcpPair(t)
	ready := raw.(interface {
		ReadOnReady(int, mem.BufferPool) (*[]byte, int, error)
	})
	pool := &countingPool{}
	type result struct {
		buf *[]byte
		n   int
		err error
	}
	results := make(chan result, 1)
	go func() {
		buf, n, err := ready.ReadOnReady(16, pool)
		results <- result{buf, n, err}
	}()
	time.Sleep(20 * time.Millisecond) // the read is waiting for data
	if out := pool.out.Load(); out != 0 {
		t.Fatalf("a read waiting for data holds %d buffers, want 0", out)
	}
	peer.Write([]byte("hello"))
	r := <-results
	if r.err != nil || r.n != 5 || string((*r.buf)[:r.n]) != "hello" {
		t.Fatalf("ReadOnReady = %q, %d, %v; want hello, 5, nil", (*r.buf)[:r.n], r.n, r.err)
	}
	pool.Put(r.buf)

	peer.Close()
	buf, n, err := ready.ReadOnReady(16, pool)
	if buf != nil || n != 0 || err != io.EOF {
		t.Fatalf("ReadOnReady after the peer closed = %v, %d, %v; want nil, 0, EOF", buf, n, err)
	}
	if out := pool.out.Load(); out != 0 {
		t.Fatalf("%d buffers not returned to the pool", out)
	}
}

func TestRawSocketErrorsAreTheConnectionsErrors(t *testing.T) {
	raw, peer := tcpPair(t)
	_ = peer

	raw.SetReadDeadline(time.Now().Add(10 * time.Millisecond))
	_, err := raw.Read(make([]byte, 8))
	var netErr net.Error
	var opErr *net.OpError
	if !errors.As(err, &netErr) || !netErr.Timeout() || !errors.Is(err, os.ErrDeadlineExceeded) ||
		!errors.As(err, &opErr) || opErr.Op != "read" {
		t.Fatalf("Read past its deadline = %v, want a net.Error that is a timeout", err)
	}
	raw.SetReadDeadline(time.Time{})

	// A read waiting for data ends when the connection is closed.
	readErr := make(chan error, 1)
	go func() {
		_, err := raw.Read(make([]byte, 8))
		readErr <- err
	}()
	time.Sleep(20 * time.Millisecond)
	raw.Close()
	select {
	case err := <-readErr:
		if !errors.Is(err, net.ErrClosed) {
			t.Fatalf("Read interrupted by Close = %v, want net.ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Read still waiting 5s after Close")
	}
	if _, err := raw.Write([]byte("x")); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("Write after Close = %v, want net.ErrClosed", err)
	}
}

func TestRawSocketWriteToAResetPeerFails(t *testing.T) {
	raw, peer := tcpPair(t)
	// Closing with unread data makes the peer reset the connection.
	peer.(*net.TCPConn).SetLinger(0)
	peer.Close()
	var err error
	for i := 0; i < 100 && err == nil; i++ {
		_, err = raw.Write(make([]byte, 64<<10))
	}
	var opErr *net.OpError
	if !errors.As(err, &opErr) || opErr.Op != "write" {
		t.Fatalf("Write to a reset connection = %v, want a *net.OpError of the write", err)
	}
}

func TestNewRawSocketLeavesOtherConnectionsAlone(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if got := newRawSocket(a); got != a {
		t.Fatalf("newRawSocket(pipe) = %T, want the pipe itself", got)
	}
}

// recordingCredentials is transport credentials that remember the
// connection their handshake was given.
type recordingCredentials struct {
	credentials.TransportCredentials
	mu   sync.Mutex
	conn net.Conn
}

func (c *recordingCredentials) ClientHandshake(ctx context.Context, authority string, conn net.Conn) (net.Conn, credentials.AuthInfo, error) {
	c.mu.Lock()
	c.conn = conn
	c.mu.Unlock()
	return c.TransportCredentials.ClientHandshake(ctx, authority, conn)
}

func TestRawSocketCredentialsHandTheHandshakeARawSocket(t *testing.T) {
	raw, _ := tcpPair(t)
	tcp := raw.(*rawSocket).Conn
	inner := &recordingCredentials{TransportCredentials: insecure.NewCredentials()}
	conn, _, err := rawSocketCredentials{inner}.ClientHandshake(context.Background(), "localhost", tcp)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := inner.conn.(*rawSocket); !ok {
		t.Fatalf("the handshake was given a %T, want *rawSocket", inner.conn)
	}
	if _, ok := conn.(*rawSocket); !ok {
		t.Fatalf("insecure handshake returned a %T, want the *rawSocket", conn)
	}
	if _, ok := (rawSocketCredentials{inner}).Clone().(rawSocketCredentials); !ok {
		t.Fatal("Clone lost the raw-socket wrapping")
	}
}

func TestRawSocketOverAUnixSocket(t *testing.T) {
	path := t.TempDir() + "/s"
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		io.Copy(c, c) // echo until the client closes
	}()
	dialled, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	conn := newRawSocket(dialled)
	defer conn.Close()
	if _, ok := conn.(*rawSocket); !ok {
		t.Fatalf("newRawSocket(%T) = %T, want *rawSocket", dialled, conn)
	}
	sent := pattern(1 << 20)
	go conn.Write(sent)
	got := make([]byte, len(sent))
	if _, err := io.ReadFull(conn, got); err != nil || !bytes.Equal(got, sent) {
		t.Fatalf("echo over a unix socket: %v, equal %v", err, bytes.Equal(got, sent))
	}
}
