package rpc

import (
	"cmp"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"google.golang.org/grpc/mem"
)

// rawIO reads and writes a non-blocking TCP or Unix socket with raw system
// calls, waiting for readiness through the Go network poller as net.Conn
// does. rawTCPSocket and rawUnixSocket put it in front of a connection.
//
// Why: a worker is idle most of the time between tasks, so the Go runtime's
// monitor thread (sysmon) goes to sleep, and the next ordinary system call
// (syscall.Read of the response that ends the wait) wakes it with a futex
// call first. In the side-by-side benchmark that wake-up was 8% of a
// worker's CPU. A read or write of a non-blocking socket never blocks, so it
// needs none of what the runtime's syscall entry does (hand the P to another
// thread if the call blocks, wake sysmon to watch for that).
//
// That is only true of a non-blocking socket: on a blocking one the raw
// read would sit in the kernel where the runtime cannot preempt it, and a
// stop-the-world (runtime.GC) would wait for the peer. So only sockets the
// SDK dialed itself are wrapped (dialRawSocket), and newRawSocket checks
// O_NONBLOCK first. File, which hands out a descriptor whose Fd makes the
// socket blocking, turns the raw calls off for good.
//
// It implements gRPC's optional ReadOnReady method, which gRPC's transport
// uses (when present on the connection) to take a buffer from its pool only
// once data has arrived; TestGRPCReadsTheRawSocketWithReadOnReady fails if
// a gRPC upgrade stops calling it.
type rawIO struct {
	conn net.Conn // the connection, for errors and for plain I/O after File
	raw  syscall.RawConn

	// plain is set once File has been called: from then on the
	// connection's own Read and Write are used.
	plain atomic.Bool

	// readyReads counts ReadOnReady calls, for the test that gRPC still
	// makes them.
	readyReads atomic.Int64

	readMu  sync.Mutex
	read    rawRead // the read in progress; fields so the callback does not allocate
	readFn  func(fd uintptr) bool
	writeMu sync.Mutex
	write   rawWrite
	writeFn func(fd uintptr) bool
}

type rawRead struct {
	into []byte         // Read's buffer, or nil to take one from pool
	size int            // the size of the buffer to take from pool
	pool mem.BufferPool // ReadOnReady's pool
	buf  *[]byte        // the buffer taken from pool
	n    int
	err  error
}

type rawWrite struct {
	from    []byte
	written int
	err     error
}

// rawTCPSocket is a *net.TCPConn whose Read, Write and ReadOnReady are
// rawIO's; its other methods (CloseWrite, SetNoDelay, SetKeepAlive,
// SyscallConn, ...) are the TCPConn's own.
type rawTCPSocket struct {
	*net.TCPConn
	io *rawIO
}

// rawUnixSocket is the same for a *net.UnixConn.
type rawUnixSocket struct {
	*net.UnixConn
	io *rawIO
}

func (s *rawTCPSocket) Read(p []byte) (int, error)  { return s.io.Read(p) }
func (s *rawTCPSocket) Write(p []byte) (int, error) { return s.io.Write(p) }
func (s *rawTCPSocket) ReadOnReady(bufSize int, pool mem.BufferPool) (*[]byte, int, error) {
	return s.io.ReadOnReady(bufSize, pool)
}

// File returns a copy of the socket's descriptor, as TCPConn.File does,
// and turns the raw calls off first: the copy's Fd makes the socket
// blocking.
func (s *rawTCPSocket) File() (*os.File, error) {
	s.io.plain.Store(true)
	return s.TCPConn.File()
}

func (s *rawUnixSocket) Read(p []byte) (int, error)  { return s.io.Read(p) }
func (s *rawUnixSocket) Write(p []byte) (int, error) { return s.io.Write(p) }
func (s *rawUnixSocket) ReadOnReady(bufSize int, pool mem.BufferPool) (*[]byte, int, error) {
	return s.io.ReadOnReady(bufSize, pool)
}

// File is rawTCPSocket.File for a Unix socket.
func (s *rawUnixSocket) File() (*os.File, error) {
	s.io.plain.Store(true)
	return s.UnixConn.File()
}

// newRawSocket wraps conn if it is a non-blocking TCP or Unix socket, and
// returns conn itself otherwise.
func newRawSocket(conn net.Conn) net.Conn {
	var wrapped net.Conn
	var rio *rawIO
	switch c := conn.(type) {
	case *net.TCPConn:
		rio = newRawIO(c)
		wrapped = &rawTCPSocket{TCPConn: c, io: rio}
	case *net.UnixConn:
		rio = newRawIO(c)
		wrapped = &rawUnixSocket{UnixConn: c, io: rio}
	}
	if rio == nil || !rio.nonBlocking() {
		return conn
	}
	return wrapped
}

// tcpUserTimeoutOption is TCP_USER_TIMEOUT of <linux/tcp.h>, which package
// syscall does not name.
const tcpUserTimeoutOption = 0x12

// setTCPUserTimeout bounds how long data sent on a TCP socket may go
// unacknowledged before the kernel drops the connection. gRPC sets it from
// its keepalive settings on every *net.TCPConn it connects over, and skips
// any other net.Conn, a raw socket among them: dialRawSocket sets it
// itself, so that both transports detect a dead peer alike.
func setTCPUserTimeout(conn net.Conn, d time.Duration) error {
	tcp, ok := conn.(*net.TCPConn)
	if !ok {
		return nil
	}
	raw, err := tcp.SyscallConn()
	if err != nil {
		return err
	}
	var setErr error
	err = raw.Control(func(fd uintptr) {
		setErr = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, tcpUserTimeoutOption, int(d/time.Millisecond))
	})
	return cmp.Or(err, setErr)
}

func newRawIO(conn interface {
	net.Conn
	syscall.Conn
}) *rawIO {
	raw, err := conn.SyscallConn()
	if err != nil {
		return nil
	}
	r := &rawIO{conn: conn, raw: raw}
	r.readFn = r.readReady
	r.writeFn = r.writeReady
	return r
}

// nonBlocking reports whether the socket is in non-blocking mode, which
// the raw calls need (see rawIO).
func (r *rawIO) nonBlocking() bool {
	nonBlocking := false
	err := r.raw.Control(func(fd uintptr) {
		flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
		nonBlocking = errno == 0 && flags&syscall.O_NONBLOCK != 0
	})
	return err == nil && nonBlocking
}

func (r *rawIO) Read(p []byte) (int, error) {
	if r.plain.Load() {
		return r.conn.Read(p)
	}
	if len(p) == 0 {
		return 0, nil
	}
	done, err := r.readWhenReady(rawRead{into: p})
	return done.n, err
}

// ReadOnReady waits until the socket has data, then reads at most bufSize
// bytes of it into a buffer from pool, which the caller returns to pool.
func (r *rawIO) ReadOnReady(bufSize int, pool mem.BufferPool) (*[]byte, int, error) {
	r.readyReads.Add(1)
	if bufSize <= 0 {
		// Nothing fits: like a Read of an empty buffer.
		return nil, 0, nil
	}
	if r.plain.Load() {
		buf := pool.Get(bufSize)
		n, err := r.conn.Read(*buf)
		if n == 0 {
			pool.Put(buf)
			return nil, 0, err
		}
		return buf, n, err
	}
	done, err := r.readWhenReady(rawRead{size: bufSize, pool: pool})
	if err != nil {
		if done.buf != nil {
			pool.Put(done.buf)
		}
		return nil, 0, err
	}
	return done.buf, done.n, nil
}

// readWhenReady makes the read described once the socket has data, and
// returns it done; a read of nothing is the end of the stream.
func (r *rawIO) readWhenReady(want rawRead) (rawRead, error) {
	r.readMu.Lock()
	defer r.readMu.Unlock()
	r.read = want
	err := r.raw.Read(r.readFn)
	done := r.read
	r.read = rawRead{}
	if err == nil && done.err != nil {
		err = os.NewSyscallError("read", done.err)
	}
	switch {
	case err != nil:
		return done, r.opError("read", err)
	case done.n == 0:
		return done, io.EOF
	}
	return done, nil
}

// readReady is called by the poller with the socket's descriptor; false
// means "no data yet, wait and call again".
func (r *rawIO) readReady(fd uintptr) bool {
	read := &r.read
	into := read.into
	if into == nil {
		read.buf = read.pool.Get(read.size)
		into = *read.buf
		if len(into) == 0 {
			// A pool that hands out less than asked; a read of nothing
			// would look like the end of the stream.
			read.pool.Put(read.buf)
			read.buf = nil
			read.err = io.ErrShortBuffer
			return true
		}
	}
	read.n, read.err = readSocket(fd, into)
	if read.err != nil && read.buf != nil {
		read.pool.Put(read.buf)
		read.buf = nil
	}
	return read.err != syscall.EAGAIN
}

func (r *rawIO) Write(p []byte) (int, error) {
	if r.plain.Load() {
		return r.conn.Write(p)
	}
	r.writeMu.Lock()
	defer r.writeMu.Unlock()
	r.write = rawWrite{from: p}
	err := r.raw.Write(r.writeFn)
	written, writeErr := r.write.written, r.write.err
	r.write = rawWrite{}
	if err == nil && writeErr != nil {
		err = os.NewSyscallError("write", writeErr)
	}
	if err != nil {
		return written, r.opError("write", err)
	}
	return written, nil
}

// writeReady writes what is left of the buffer; false means "the socket's
// send buffer is full, wait and call again".
func (r *rawIO) writeReady(fd uintptr) bool {
	w := &r.write
	for w.written < len(w.from) {
		n, err := writeSocket(fd, w.from[w.written:])
		if err == syscall.EAGAIN {
			return false
		}
		if err != nil {
			w.err = err
			return true
		}
		w.written += n
	}
	return true
}

// opError is err as net.Conn would have it: a *net.OpError of op (the raw
// connection's own errors name "raw-read" or "raw-write").
func (r *rawIO) opError(op string, err error) error {
	if e, ok := err.(*net.OpError); ok {
		named := *e
		named.Op = op
		return &named
	}
	return &net.OpError{Op: op, Net: r.conn.LocalAddr().Network(), Source: r.conn.LocalAddr(), Addr: r.conn.RemoteAddr(), Err: err}
}

// readSocket and writeSocket make the system call without telling the
// runtime, which is safe only because the socket is non-blocking: the call
// returns at once, with data or EAGAIN.
func readSocket(fd uintptr, p []byte) (int, error)  { return socketIO(syscall.SYS_READ, fd, p) }
func writeSocket(fd uintptr, p []byte) (int, error) { return socketIO(syscall.SYS_WRITE, fd, p) }

func socketIO(call, fd uintptr, p []byte) (int, error) {
	if len(p) == 0 {
		// No buffer to point the kernel at (and &p[0] would panic).
		return 0, nil
	}
	for {
		n, _, errno := syscall.RawSyscall(call, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
		switch errno {
		case 0:
			return int(n), nil
		case syscall.EINTR:
			continue
		default:
			return 0, errno
		}
	}
}
