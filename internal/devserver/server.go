package devserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/durable-go/sdk/internal/rpc"
)

const (
	defaultStartTimeout = time.Minute
	defaultStopTimeout  = 10 * time.Second
	// portAttempts bounds retries when a port we found free is taken by
	// someone else before the server binds it.
	portAttempts = 3
)

// Server is a running dev server process.
type Server struct {
	hostPort  string
	namespace string
	cmd       *exec.Cmd
	stderr    *tailBuffer
	stopAfter time.Duration

	exited  chan struct{} // closed when the process has exited
	waitErr error         // the process's exit error, set before exited closes

	stopOnce sync.Once
	stopErr  error
}

// Start runs "temporal server start-dev" and returns once the frontend
// answers and the namespace exists. A missing binary gives an error that
// wraps ErrCLINotFound and says how to install it.
func Start(ctx context.Context, opts Options) (*Server, error) {
	path, err := FindCLI(opts.ExistingPath)
	if err != nil {
		return nil, err
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = defaultStartTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, opts.StartTimeout)
	defer cancel()

	for attempt := 1; ; attempt++ {
		hostPort := opts.HostPort
		if hostPort == "" {
			if hostPort, err = freeHostPort("127.0.0.1"); err != nil {
				return nil, err
			}
		}
		s, err := start(ctx, path, hostPort, opts)
		if err == nil {
			return s, nil
		}
		if opts.HostPort != "" || attempt == portAttempts || !errors.Is(err, errPortTaken) {
			return nil, err
		}
	}
}

// errPortTaken marks a start that failed because the port was in use.
var errPortTaken = errors.New("port already in use")

func start(ctx context.Context, path, hostPort string, opts Options) (*Server, error) {
	uiPort := opts.UIPort
	if opts.EnableUI && uiPort == "" {
		hp, err := freeHostPort("127.0.0.1")
		if err != nil {
			return nil, err
		}
		_, uiPort, _ = net.SplitHostPort(hp)
	}
	args, err := opts.args(hostPort, uiPort)
	if err != nil {
		return nil, fmt.Errorf("invalid dev server address %q: %w", hostPort, err)
	}
	namespace := opts.Namespace
	if namespace == "" {
		namespace = rpc.DefaultNamespace
	}
	s := &Server{
		hostPort:  hostPort,
		namespace: namespace,
		stderr:    &tailBuffer{max: 8 << 10},
		stopAfter: opts.StopTimeout,
		exited:    make(chan struct{}),
	}
	if s.stopAfter <= 0 {
		s.stopAfter = defaultStopTimeout
	}
	stderr := opts.Stderr
	if stderr == nil {
		stderr = os.Stderr
	}
	s.cmd = exec.Command(path, args...)
	s.cmd.Stdout = opts.Stdout
	s.cmd.Stderr = io.MultiWriter(stderr, s.stderr)
	s.cmd.SysProcAttr = childProcAttr()
	// Output is copied through a pipe; do not wait forever on it if some
	// grandchild holds it open.
	s.cmd.WaitDelay = 5 * time.Second
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", path, err)
	}
	go func() {
		s.waitErr = s.cmd.Wait()
		close(s.exited)
	}()
	if err := s.waitReady(ctx); err != nil {
		_ = s.Stop()
		return nil, err
	}
	return s, nil
}

// waitReady returns once the frontend accepts connections, answers
// GetSystemInfo and knows the namespace.
func (s *Server) waitReady(ctx context.Context) error {
	// Probe with plain TCP first: gRPC backs off between failed connection
	// attempts, which would delay noticing that the server is up.
	if err := s.poll(ctx, func(ctx context.Context) error {
		var d net.Dialer
		conn, err := d.DialContext(ctx, "tcp", s.hostPort)
		if err == nil {
			_ = conn.Close()
		}
		return err
	}); err != nil {
		return err
	}
	conn, err := rpc.NewConn(rpc.Options{HostPort: s.hostPort, Namespace: s.namespace})
	if err != nil {
		return err
	}
	defer conn.Close()
	return s.poll(ctx, func(ctx context.Context) error {
		if _, err := conn.SystemInfo(ctx); err != nil {
			return err
		}
		return conn.CheckNamespace(ctx, s.namespace)
	})
}

// poll calls check until it succeeds, the process exits, or ctx ends.
func (s *Server) poll(ctx context.Context, check func(context.Context) error) error {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		checkCtx, cancel := context.WithTimeout(ctx, 2*time.Second)
		err := check(checkCtx)
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-s.exited:
			return s.exitedEarly()
		case <-ctx.Done():
			return fmt.Errorf("dev server at %s was not ready in time: %w", s.hostPort, err)
		case <-tick.C:
		}
	}
}

func (s *Server) exitedEarly() error {
	out := strings.TrimSpace(s.stderr.String())
	err := fmt.Errorf("dev server at %s exited before it was ready (%v); its stderr:\n%s", s.hostPort, s.waitErr, out)
	if strings.Contains(out, "can't set frontend port") || strings.Contains(out, "address already in use") {
		err = fmt.Errorf("%w: %w", errPortTaken, err)
	}
	return err
}

// StderrTail returns the last 8 KiB the server wrote to stderr.
func (s *Server) StderrTail() string { return s.stderr.String() }

// HostPort returns the frontend's address.
func (s *Server) HostPort() string { return s.hostPort }

// Namespace returns the namespace created at start.
func (s *Server) Namespace() string { return s.namespace }

// Stop sends SIGTERM, kills the process if it has not exited within
// Options.StopTimeout, and returns once it has exited. Only the first call
// does anything; later calls return its result.
func (s *Server) Stop() error {
	s.stopOnce.Do(func() { s.stopErr = s.stop() })
	return s.stopErr
}

func (s *Server) stop() error {
	select {
	case <-s.exited:
		return fmt.Errorf("dev server at %s had already exited: %v", s.hostPort, s.waitErr)
	default:
	}
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		// No SIGTERM on this platform, or the process is already gone.
		_ = s.cmd.Process.Kill()
	}
	timer := time.NewTimer(s.stopAfter)
	defer timer.Stop()
	select {
	case <-s.exited:
		return nil
	case <-timer.C:
		_ = s.cmd.Process.Kill()
		<-s.exited
		return fmt.Errorf("dev server at %s did not exit within %v of SIGTERM and was killed", s.hostPort, s.stopAfter)
	}
}

// freeHostPort returns host with a port nothing listens on right now.
func freeHostPort(host string) (string, error) {
	lis, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return "", fmt.Errorf("finding a free port: %w", err)
	}
	defer lis.Close()
	return lis.Addr().String(), nil
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
