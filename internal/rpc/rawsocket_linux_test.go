package rpc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc/mem"
)

// made returns the raw sockets the probe kept.
func (p *rawSocketProbe) made() []net.Conn {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]net.Conn(nil), p.sockets...)
}

// rawIOOf returns the rawIO of a connection newRawSocket wrapped, or nil.
func rawIOOf(conn net.Conn) *rawIO {
	switch c := conn.(type) {
	case *rawTCPSocket:
		return c.io
	case *rawUnixSocket:
		return c.io
	}
	return nil
}

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
	if rawIOOf(raw) == nil {
		t.Fatalf("newRawSocket(%T) = %T, want a raw socket", dialled, raw)
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
	must(t, raw.(*rawTCPSocket).CloseWrite())
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
	if _, ok := conn.(*rawUnixSocket); !ok {
		t.Fatalf("newRawSocket(%T) = %T, want *rawUnixSocket", dialled, conn)
	}
	sent := pattern(1 << 20)
	go conn.Write(sent)
	got := make([]byte, len(sent))
	if _, err := io.ReadFull(conn, got); err != nil || !bytes.Equal(got, sent) {
		t.Fatalf("echo over a unix socket: %v, equal %v", err, bytes.Equal(got, sent))
	}
}

// The wrapper keeps what the connection offers beyond net.Conn: code that
// half-closes a socket or tunes it finds the methods it looks for.
func TestRawSocketKeepsTheConnectionsMethods(t *testing.T) {
	raw, peer := tcpPair(t)
	tcp, ok := raw.(interface {
		CloseWrite() error
		CloseRead() error
		SetNoDelay(bool) error
		SetKeepAlive(bool) error
		SetLinger(int) error
		SetReadBuffer(int) error
		SyscallConn() (syscall.RawConn, error)
		File() (*os.File, error)
	})
	if !ok {
		t.Fatalf("a raw TCP socket (%T) lacks methods of *net.TCPConn", raw)
	}
	must(t, tcp.SetNoDelay(true))
	must(t, tcp.SetKeepAlive(true))
	must(t, tcp.CloseWrite())
	if n, err := peer.Read(make([]byte, 1)); n != 0 || err != io.EOF {
		t.Errorf("the peer read %d, %v after CloseWrite, want 0, EOF", n, err)
	}

	a, b := unixPair(t)
	defer b.Close()
	unix, ok := newRawSocket(a).(interface{ CloseWrite() error })
	if !ok {
		t.Fatalf("a raw Unix socket lacks CloseWrite")
	}
	must(t, unix.CloseWrite())
	if n, err := b.Read(make([]byte, 1)); n != 0 || err != io.EOF {
		t.Errorf("the Unix peer read %d, %v after CloseWrite, want 0, EOF", n, err)
	}
}

// unixPair returns both ends of a connected Unix socket.
func unixPair(t *testing.T) (net.Conn, net.Conn) {
	t.Helper()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	must(t, err)
	conns := make([]net.Conn, 2)
	for i, fd := range fds {
		f := os.NewFile(uintptr(fd), "socketpair")
		conns[i], err = net.FileConn(f)
		f.Close()
		must(t, err)
	}
	t.Cleanup(func() { conns[0].Close(); conns[1].Close() })
	return conns[0], conns[1]
}

// makeBlocking does what an old pattern of setting socket options did:
// File().Fd() leaves the socket in blocking mode.
func makeBlocking(t *testing.T, conn interface{ File() (*os.File, error) }) {
	t.Helper()
	f, err := conn.File()
	must(t, err)
	f.Fd()
	f.Close()
}

// A raw read of a blocking socket would sit in the kernel, out of the
// runtime's reach: such a socket is left as it is.
func TestRawSocketIsNotMadeOfABlockingSocket(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	defer ln.Close()
	dialled, err := net.Dial("tcp", ln.Addr().String())
	must(t, err)
	defer dialled.Close()
	if rawIOOf(newRawSocket(dialled)) == nil {
		t.Fatal("a non-blocking socket was not wrapped; the test needs it to be")
	}
	makeBlocking(t, dialled.(*net.TCPConn))
	if got := newRawSocket(dialled); got != dialled {
		t.Errorf("newRawSocket of a blocking socket = %T, want the socket itself", got)
	}
}

// gcReturns runs a garbage collection (which stops the world) and reports
// whether it ended within a minute.
func gcReturns() bool {
	done := make(chan struct{})
	go func() {
		runtime.GC()
		close(done)
	}()
	select {
	case <-done:
		return true
	case <-time.After(time.Minute):
		return false
	}
}

// File hands out what can make the socket blocking; from then on the
// socket is read the runtime's way, so a read waiting for data does not
// stop a garbage collection.
func TestRawSocketFileTurnsRawIOOff(t *testing.T) {
	raw, peer := tcpPair(t)
	makeBlocking(t, raw.(*rawTCPSocket))
	got := make(chan string, 1)
	go func() {
		buf := make([]byte, 5)
		n, err := io.ReadFull(raw, buf)
		got <- fmt.Sprint(string(buf[:n]), err)
	}()
	time.Sleep(20 * time.Millisecond) // the read is waiting for data
	if !gcReturns() {
		t.Fatal("runtime.GC did not return while a read of the socket waited for data")
	}
	_, err := peer.Write([]byte("hello"))
	must(t, err)
	if g := <-got; g != "hello<nil>" {
		t.Errorf("read %q, want hello<nil>", g)
	}
	if _, err := raw.Write([]byte("back")); err != nil {
		t.Errorf("Write after File: %v", err)
	}
}

// emptyPool hands out empty buffers, whatever the size asked.
type emptyPool struct{ countingPool }

func (p *emptyPool) Get(int) *[]byte {
	p.out.Add(1)
	b := []byte{}
	return &b
}

func TestRawSocketToleratesEmptyBuffers(t *testing.T) {
	raw, peer := tcpPair(t)
	ready := raw.(interface {
		ReadOnReady(int, mem.BufferPool) (*[]byte, int, error)
	})
	pool := &countingPool{}
	if buf, n, err := ready.ReadOnReady(0, pool); buf != nil || n != 0 || err != nil {
		t.Errorf("ReadOnReady(0) = %v, %d, %v; want nil, 0, nil", buf, n, err)
	}
	if n, err := raw.Write(nil); n != 0 || err != nil {
		t.Errorf("Write(nil) = %d, %v; want 0, nil", n, err)
	}
	if n, err := socketIO(syscall.SYS_READ, 0, nil); n != 0 || err != nil {
		t.Errorf("socketIO of no buffer = %d, %v; want 0, nil", n, err)
	}
	_, err := peer.Write([]byte("x"))
	must(t, err)
	empty := &emptyPool{}
	if buf, n, err := ready.ReadOnReady(16, empty); buf != nil || n != 0 || !errors.Is(err, io.ErrShortBuffer) {
		t.Errorf("ReadOnReady from a pool of empty buffers = %v, %d, %v; want nil, 0, io.ErrShortBuffer", buf, n, err)
	}
	if out := empty.out.Load() + pool.out.Load(); out != 0 {
		t.Errorf("%d buffers not returned to the pool", out)
	}
}
