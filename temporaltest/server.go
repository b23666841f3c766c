// Package temporaltest runs a Temporal server inside the process: an
// in-memory frontend that client.Dial and worker.New reach over gRPC as
// they reach a Temporal server, for development, tests and demos, with
// no server to install and a start in milliseconds. It keeps its state
// in memory only; it serves namespaces (created at the start or
// registered by clients), schedules, Nexus endpoints and operations,
// across namespaces too, search attributes and visibility queries (the
// common subset of the list filter language, immediately consistent), and
// answers the calls it does not serve (worker versioning, ...) with
// codes.Unimplemented and a message that says to use a Temporal dev
// server (`temporal server start-dev`) for them. See
// docs/guide/embedded-server.md.
//
// With ServerOptions.TimeSkipping, time skips ahead: while no task is in
// flight and every workflow waits on a timer, the server's clock jumps
// to the next one, so that a workflow that sleeps for 30 days completes
// in milliseconds. Without it, timers fire in wall time, as on a server.
package temporaltest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/frontend"
	"github.com/durable-go/sdk/internal/testserver"
)

// ServerOptions configure NewServer; every field may be left zero.
type ServerOptions struct {
	// HostPort is the address to listen on. Default: "127.0.0.1:0", a
	// free port on the loopback interface (HostPort reports which).
	HostPort string
	// InMemory serves on an in-memory listener instead of a port: only
	// clients made with ClientOptions or DialOptions reach the server.
	InMemory bool
	// Namespace is the namespace that exists from the start, the one
	// ClientOptions names. Default: "default".
	Namespace string
	// Namespaces are more namespaces to create at the start, as a dev
	// server's repeated --namespace flag does. Clients may register
	// more (client.NamespaceClient's Register).
	Namespaces []string
	// TimeSkipping makes the server's clock skip to the next timer while
	// no task is in flight. Default: timers fire in wall time.
	TimeSkipping bool
	// SearchAttributes registers custom search attributes, name to type,
	// in the namespaces created at the start, as `temporal server
	// start-dev --search-attribute` does; more can be registered with the
	// OperatorService's AddSearchAttributes. Starts and workflows that set
	// an attribute not registered are refused, as on a server.
	SearchAttributes map[string]enumspb.IndexedValueType
}

// inMemoryAddress is what clients of an in-memory server dial; the
// dialer DialOptions returns ignores it.
const inMemoryAddress = "passthrough:///temporaltest-in-memory"

// Server is an embedded Temporal server, as NewServer returns it.
type Server struct {
	front    *frontend.Frontend
	grpc     *grpc.Server
	listener net.Listener
	inMemory *bufconn.Listener
	served   chan struct{} // closed when Serve returns

	mu        sync.Mutex
	locks     int // LockTimeSkipping calls not yet undone
	stopped   bool
	namespace string
}

// NewServer starts a server and returns once it accepts connections.
func NewServer(options ServerOptions) (*Server, error) {
	clock := testserver.NewWallClock()
	if options.TimeSkipping {
		clock = testserver.NewClock(time.Now())
	}
	var lis net.Listener
	var mem *bufconn.Listener
	if options.InMemory {
		mem = bufconn.Listen(1 << 20)
		lis = mem
	} else {
		address := options.HostPort
		if address == "" {
			address = "127.0.0.1:0"
		}
		var err error
		if lis, err = net.Listen("tcp", address); err != nil {
			return nil, fmt.Errorf("temporaltest: listening on %s: %w", address, err)
		}
	}
	front := frontend.New(frontend.Options{Namespace: options.Namespace, Namespaces: options.Namespaces, Clock: clock})
	if len(options.SearchAttributes) > 0 {
		if err := front.AddSearchAttributes(options.SearchAttributes); err != nil {
			front.Stop()
			_ = lis.Close()
			return nil, fmt.Errorf("temporaltest: ServerOptions.SearchAttributes: %w", err)
		}
	}
	gs := grpc.NewServer(frontend.ServerOptions()...)
	front.Register(gs)
	s := &Server{front: front, grpc: gs, listener: lis, inMemory: mem, served: make(chan struct{}), namespace: front.Namespace()}
	go func() {
		defer close(s.served)
		_ = gs.Serve(lis) // ends with Stop
	}()
	return s, nil
}

// HostPort is the host:port the server listens on; for an in-memory
// server, the address its ClientOptions dial.
func (s *Server) HostPort() string {
	if s.inMemory != nil {
		return inMemoryAddress
	}
	return s.listener.Addr().String()
}

// Namespace is the namespace that exists from the start
// (ServerOptions.Namespace), the one ClientOptions names.
func (s *Server) Namespace() string { return s.namespace }

// ClientOptions returns client options that reach the server: its
// address and namespace, and for an in-memory server its dialer.
func (s *Server) ClientOptions() client.Options {
	opts := client.Options{HostPort: s.HostPort(), Namespace: s.namespace}
	if s.inMemory != nil {
		opts.ConnectionOptions.DialOptions = []grpc.DialOption{s.dialer()}
	}
	return opts
}

// DialOptions returns the gRPC dial options that reach the server from
// any gRPC client (another SDK's, or grpc.NewClient(s.HostPort(), ...)):
// insecure transport, and for an in-memory server its dialer.
func (s *Server) DialOptions() []grpc.DialOption {
	opts := []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}
	if s.inMemory != nil {
		opts = append(opts, s.dialer())
	}
	return opts
}

func (s *Server) dialer() grpc.DialOption {
	return grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) {
		return s.inMemory.DialContext(ctx)
	})
}

// Stop stops the server: open connections are closed and calls in
// flight fail. It may be called more than once.
func (s *Server) Stop() {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return
	}
	s.stopped = true
	s.mu.Unlock()
	s.grpc.Stop()
	<-s.served
	s.front.Stop()
}

// Now is the server's time: the time events are written at, which runs
// ahead of the wall clock once it has skipped.
func (s *Server) Now() time.Time { return s.front.Clock().Now() }

// ErrNoTimeSkipping is the error of the calls that move the clock of a
// server made without ServerOptions.TimeSkipping.
var ErrNoTimeSkipping = errors.New("temporaltest: the server runs in wall time: set ServerOptions.TimeSkipping to control its clock")

// SkipTime moves the server's clock d ahead at once, firing the timers
// due by then (workflow timers, timeouts, retries), in order.
func (s *Server) SkipTime(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("temporaltest: SkipTime(%v): the clock cannot move back", d)
	}
	if !s.front.Clock().Advance(d) {
		return ErrNoTimeSkipping
	}
	return nil
}

// Sleep waits until the server's clock has moved d ahead, or ctx ends.
// With time skipping the clock skips over the wait while nothing is in
// flight; without it, Sleep waits d of wall time.
func (s *Server) Sleep(ctx context.Context, d time.Duration) error {
	clock := s.front.Clock()
	woke := make(chan struct{})
	t := clock.AfterFunc(d, func() { close(woke) })
	select {
	case <-woke:
		return nil
	case <-ctx.Done():
		clock.Stop(t)
		return ctx.Err()
	}
}

// LockTimeSkipping stops the clock from skipping, until as many
// UnlockTimeSkipping calls: timers fire in wall time meanwhile, as they
// do while a task is in flight.
func (s *Server) LockTimeSkipping() error {
	clock := s.front.Clock()
	if !clock.Skips() {
		return ErrNoTimeSkipping
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.locks++
	clock.Busy(1)
	return nil
}

// UnlockTimeSkipping undoes one LockTimeSkipping.
func (s *Server) UnlockTimeSkipping() error {
	clock := s.front.Clock()
	if !clock.Skips() {
		return ErrNoTimeSkipping
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.locks == 0 {
		return errors.New("temporaltest: UnlockTimeSkipping without a LockTimeSkipping to undo")
	}
	s.locks--
	clock.Busy(-1)
	return nil
}
