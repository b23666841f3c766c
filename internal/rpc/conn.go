package rpc

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
)

// Conn is a connection to a Temporal frontend with the workflow and
// operator service clients on top of it. It is safe for concurrent use.
type Conn struct {
	opts     Options
	cc       *grpc.ClientConn
	workflow workflowservice.WorkflowServiceClient
	operator operatorservice.OperatorServiceClient

	// internalIsFinal stops retries of Internal once the server says its
	// Internal errors are permanent.
	internalIsFinal atomic.Bool
	systemInfo      atomic.Pointer[workflowservice.GetSystemInfoResponse]
	// namespaceInfo holds, per namespace, what its last CheckNamespace
	// reported (*namespacepb.NamespaceInfo): capabilities and limits.
	namespaceInfo sync.Map

	stopWatching context.CancelFunc // ends watchConnection
	watching     sync.WaitGroup

	rawSockets bool      // the connection dials its sockets itself, for raw I/O
	tlsGuard   *tlsGuard // nil without TLS
}

// NewConn sets up a connection without contacting the server; the first
// call connects. Use Dial to fail fast when the server is unreachable.
func NewConn(opts Options) (*Conn, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	c := &Conn{opts: opts}
	if c.rawSockets, err = opts.usesRawSockets(); err != nil {
		return nil, err
	}
	if opts.TLS != nil {
		c.tlsGuard = &tlsGuard{forAPIKey: opts.TLSForAPIKey}
	}
	cc, err := grpc.NewClient(opts.HostPort, c.dialOptions()...)
	if err != nil {
		return nil, fmt.Errorf("connecting to Temporal server at %s: %w", opts.HostPort, err)
	}
	c.cc = cc
	c.workflow = workflowservice.NewWorkflowServiceClient(cc)
	c.operator = operatorservice.NewOperatorServiceClient(cc)
	var watchCtx context.Context
	watchCtx, c.stopWatching = context.WithCancel(context.Background())
	if opts.Logger != nil {
		c.watching.Add(1)
		go func() {
			defer c.watching.Done()
			c.watchConnection(watchCtx)
		}()
	}
	return c, nil
}

// The flow-control windows of every connection (see dialOptions).
const (
	streamWindow = 8 << 20
	connWindow   = 16 << 20
)

func (c *Conn) dialOptions() []grpc.DialOption {
	o := c.opts
	transport := insecure.NewCredentials()
	if o.TLS != nil {
		transport = countingCredentials{credentials.NewTLS(o.TLS), c.tlsGuard}
	}
	reconnect := backoff.DefaultConfig
	// gRPC's default 120 s reconnect ceiling would leave workers idle long
	// after a restarted server is back.
	reconnect.BaseDelay = 200 * time.Millisecond
	reconnect.MaxDelay = 10 * time.Second
	opts := []grpc.DialOption{
		grpc.WithTransportCredentials(transport),
		grpc.WithDefaultCallOptions(
			grpc.MaxCallRecvMsgSize(o.MaxMessageSize),
			grpc.MaxCallSendMsgSize(o.MaxMessageSize),
		),
		// Spread calls over every address the name resolves to.
		grpc.WithDefaultServiceConfig(`{"loadBalancingConfig": [{"round_robin":{}}]}`),
		grpc.WithConnectParams(grpc.ConnectParams{Backoff: reconnect, MinConnectTimeout: 20 * time.Second}),
		// Fixed flow-control windows. Left at gRPC's default, the window is
		// sized by probing: a PING goes out with nearly every response a
		// worker reads and its ACK comes back, two more frames and system
		// calls on each side per task, 10-25% of a worker's CPU in the
		// side-by-side benchmark. These windows are what the probing grows
		// to for a fast server, so large history pages are not slowed.
		grpc.WithInitialWindowSize(streamWindow),
		grpc.WithInitialConnWindowSize(connWindow),
	}
	if o.Keepalive.Time > 0 {
		// gRPC takes a zero Time for 10 s (its least), not for no pings.
		opts = append(opts, grpc.WithKeepaliveParams(*o.Keepalive))
	}
	// Outermost first: errors are converted once, after all retries (so
	// the call interceptors still see gRPC statuses); headers are computed
	// afresh for every attempt.
	chain := []grpc.UnaryClientInterceptor{convertErrorsInterceptor}
	chain = append(chain, o.CallInterceptors...)
	chain = append(chain, retryInterceptor(o.Retry, &c.internalIsFinal))
	chain = append(chain, o.AttemptInterceptors...)
	chain = append(chain, headersInterceptor(o))
	if c.tlsGuard != nil {
		chain = append(chain, c.tlsGuard.interceptor)
	}
	opts = append(opts, grpc.WithChainUnaryInterceptor(chain...))
	if c.rawSockets {
		// Before DialOptions, so that a dialer given there replaces it.
		opts = append(opts, grpc.WithContextDialer(c.dialRawSocket))
	}
	return append(opts, o.DialOptions...)
}

// WorkflowService returns the client for temporal.api.workflowservice.v1.
func (c *Conn) WorkflowService() workflowservice.WorkflowServiceClient { return c.workflow }

// OperatorService returns the client for temporal.api.operatorservice.v1.
func (c *Conn) OperatorService() operatorservice.OperatorServiceClient { return c.operator }

// GRPCConn returns the underlying gRPC connection.
func (c *Conn) GRPCConn() *grpc.ClientConn { return c.cc }

// HostPort returns the server address.
func (c *Conn) HostPort() string { return c.opts.HostPort }

// Namespace returns the default namespace of the connection.
func (c *Conn) Namespace() string { return c.opts.Namespace }

// Identity returns the identity to put in requests.
func (c *Conn) Identity() string { return c.opts.Identity }

// Close closes the connection; calls in flight fail with Canceled.
func (c *Conn) Close() error {
	c.stopWatching()
	c.watching.Wait()
	return c.cc.Close()
}
