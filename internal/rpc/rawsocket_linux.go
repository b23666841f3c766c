package rpc

import (
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"unsafe"

	"google.golang.org/grpc/mem"
)

// rawSocket is a TCP or Unix connection whose reads and writes are made with
// raw system calls on its non-blocking socket, waiting for readiness through
// the Go network poller as net.Conn does.
//
// Why: a worker is idle most of the time between tasks, so the Go runtime's
// monitor thread (sysmon) goes to sleep, and the next ordinary system call
// (syscall.Read of the response that ends the wait) wakes it with a futex
// call first. In the side-by-side benchmark that wake-up was 8% of a
// worker's CPU. A read or write of a non-blocking socket never blocks, so it
// needs none of what the runtime's syscall entry does (hand the P to another
// thread if the call blocks, wake sysmon to watch for that).
//
// It implements gRPC's optional ReadOnReady method, which gRPC's transport
// uses (when present on the connection) to take a buffer from its pool only
// once data has arrived.
type rawSocket struct {
	net.Conn
	raw syscall.RawConn

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

// newRawSocket wraps conn if it is a TCP or Unix socket, or returns conn.
func newRawSocket(conn net.Conn) net.Conn {
	switch conn.(type) {
	case *net.TCPConn, *net.UnixConn:
	default:
		return conn
	}
	raw, err := conn.(syscall.Conn).SyscallConn()
	if err != nil {
		return conn
	}
	s := &rawSocket{Conn: conn, raw: raw}
	s.readFn = s.readReady
	s.writeFn = s.writeReady
	return s
}

// SyscallConn lets gRPC and channelz reach the socket's options.
func (s *rawSocket) SyscallConn() (syscall.RawConn, error) { return s.raw, nil }

func (s *rawSocket) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	done, err := s.readWhenReady(rawRead{into: p})
	return done.n, err
}

// ReadOnReady waits until the socket has data, then reads at most bufSize
// bytes of it into a buffer from pool, which the caller returns to pool.
func (s *rawSocket) ReadOnReady(bufSize int, pool mem.BufferPool) (*[]byte, int, error) {
	done, err := s.readWhenReady(rawRead{size: bufSize, pool: pool})
	if err != nil {
		if done.buf != nil {
			pool.Put(done.buf)
		}
		return nil, 0, err
	}
	return done.buf, done.n, nil
}

// readWhenReady makes the read r describes once the socket has data, and
// returns it done; a read of nothing is the end of the stream.
func (s *rawSocket) readWhenReady(r rawRead) (rawRead, error) {
	s.readMu.Lock()
	defer s.readMu.Unlock()
	s.read = r
	err := s.raw.Read(s.readFn)
	done := s.read
	s.read = rawRead{}
	if err == nil && done.err != nil {
		err = os.NewSyscallError("read", done.err)
	}
	switch {
	case err != nil:
		return done, s.opError("read", err)
	case done.n == 0:
		return done, io.EOF
	}
	return done, nil
}

// readReady is called by the poller with the socket's descriptor; false
// means "no data yet, wait and call again".
func (s *rawSocket) readReady(fd uintptr) bool {
	r := &s.read
	into := r.into
	if into == nil {
		r.buf = r.pool.Get(r.size)
		into = *r.buf
	}
	r.n, r.err = readSocket(fd, into)
	if r.err != nil && r.buf != nil {
		r.pool.Put(r.buf)
		r.buf = nil
	}
	return r.err != syscall.EAGAIN
}

func (s *rawSocket) Write(p []byte) (int, error) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	s.write = rawWrite{from: p}
	err := s.raw.Write(s.writeFn)
	written, writeErr := s.write.written, s.write.err
	s.write = rawWrite{}
	if err == nil && writeErr != nil {
		err = os.NewSyscallError("write", writeErr)
	}
	if err != nil {
		return written, s.opError("write", err)
	}
	return written, nil
}

// writeReady writes what is left of the buffer; false means "the socket's
// send buffer is full, wait and call again".
func (s *rawSocket) writeReady(fd uintptr) bool {
	w := &s.write
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
func (s *rawSocket) opError(op string, err error) error {
	if e, ok := err.(*net.OpError); ok {
		named := *e
		named.Op = op
		return &named
	}
	return &net.OpError{Op: op, Net: s.LocalAddr().Network(), Source: s.LocalAddr(), Addr: s.RemoteAddr(), Err: err}
}

// readSocket and writeSocket make the system call without telling the
// runtime, which is safe only because the socket is non-blocking: the call
// returns at once, with data or EAGAIN.
func readSocket(fd uintptr, p []byte) (int, error)  { return socketIO(syscall.SYS_READ, fd, p) }
func writeSocket(fd uintptr, p []byte) (int, error) { return socketIO(syscall.SYS_WRITE, fd, p) }

func socketIO(call, fd uintptr, p []byte) (int, error) {
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
