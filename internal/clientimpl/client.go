// Package clientimpl implements the client: the Client and
// NamespaceClient that client.Dial, client.NewLazyClient,
// client.NewClientFromExisting and client.NewNamespaceClient return. The
// API it implements is declared below it: Client, the options and answers
// of its operations and the schedule types in package clientapi, and
// ClientOptions and the interceptor and plugin interfaces in package
// internal. The public packages alias both, and this package imports both;
// the worker sees a client through internal.WorkerClient alone.
//
// Each operation lives in one file, from the check of its arguments
// (workflowClient's method, before the interceptor chain) to the request
// sent at the chain's end (clientRoot's method) and the reading of the
// answer: start.go (ExecuteWorkflow, SignalWithStartWorkflow, and eager
// start in eager.go), workflow.go (signal, cancel, terminate, reset),
// query.go, update.go, update_start.go, run.go (a run's handle and its
// Get), history.go, activity.go (asynchronous completion and heartbeats),
// visibility.go (describe, list, count), taskqueue.go,
// execution_options.go, schedule.go (with schedule_wire.go),
// namespace.go, deployment.go (WorkerDeploymentClient, with
// deployment_wire.go), nexus.go and nexus_describe.go (standalone Nexus
// operations: NexusClient, their handles, list and count), and the
// deprecated build-ID versioning: buildid.go
// (version sets and task reachability), versioning_rules.go and
// deployment_series.go (DeploymentClient). The rest is the client's
// making: client.go (the client, its connection and its interceptor
// chain), options.go (connection options), plugin.go, metrics.go (request
// metrics), convert.go (the converters and headers of requests) and
// errors.go.
package clientimpl

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	workerpb "go.temporal.io/api/worker/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/extstore"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/payloadlimit"
	"github.com/durable-go/sdk/internal/rpc"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/internal/uuid"
	"github.com/durable-go/sdk/internal/workerheartbeat"
	"github.com/durable-go/sdk/log"
)

// workflowClient implements Client, and WorkerClient for the workers
// made from it.
type workflowClient struct {
	conn    *rpc.Conn
	service workflowservice.WorkflowServiceClient
	shared  *clientSharedConn

	namespace        string
	identity         string
	dataConverter    converter.DataConverter
	failureConverter converter.FailureConverter
	propagators      []internal.ContextPropagator
	logger           log.Logger
	metrics          sdkmetrics.Handler
	// payloadWarnings are Options.PayloadLimits' sizes, which the
	// client's requests and its workers' answers are warned of above.
	payloadWarnings payloadlimit.Sizes
	// storage is Options.ExternalStorage's (nil: none), which service
	// applies to every request and answer.
	storage *extstore.Storage
	// heartbeats sends the workers' heartbeats (nil when turned off), as
	// the SDK sdkName/sdkVersion, with environment (nil when turned off).
	heartbeats          *workerheartbeat.Sender
	sdkName, sdkVersion string
	environment         *workerpb.EnvironmentInfo

	// interceptor is where the workflow calls go: the interceptors'
	// chain, which ends at the client's clientRoot.
	interceptor        clientapi.ClientOutboundInterceptor
	workerInterceptors []internal.WorkerInterceptor
	// workerPlugins are the client's plugins that are also worker
	// plugins: they configure the workers made from this client.
	workerPlugins []internal.WorkerPlugin
	// eagerWorkers take the first task of workflows started with
	// EnableEagerStart (eager.go).
	eagerWorkers eagerWorkflowWorkers

	closeOnce sync.Once
	closed    atomic.Bool
}

// clientSharedConn counts the clients using a connection, which closes
// with the last of them.
type clientSharedConn struct {
	conn    *rpc.Conn
	clients atomic.Int32
}

func (s *clientSharedConn) release(logger log.Logger) {
	if s.clients.Add(-1) > 0 {
		return
	}
	if err := s.conn.Close(); err != nil {
		logger.Warn("closing the connection to the Temporal server failed", "Error", err)
	}
}

// DialClient connects to the server and returns a client once the server
// has answered GetSystemInfo and confirmed that the namespace exists.
// An unreachable server gives an *rpc.UnreachableError, an unknown
// namespace an *rpc.NamespaceNotFoundError, both saying what to do.
func DialClient(ctx context.Context, options internal.ClientOptions) (clientapi.Client, error) {
	return newClientThroughPlugins(ctx, options, clientDial, nil)
}

// dialClient is DialClient once plugins have had their say.
func dialClient(ctx context.Context, options internal.ClientOptions) (*workflowClient, error) {
	c, err := newWorkflowClient(options, nil)
	if err != nil {
		return nil, err
	}
	if err := c.checkServer(ctx, options.ConnectionOptions.GetSystemInfoTimeout); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// NewLazyClient returns a client that connects on its first call.
func NewLazyClient(options internal.ClientOptions) (clientapi.Client, error) {
	return newClientThroughPlugins(context.Background(), options, clientLazy, nil)
}

// NewClientFromExisting returns a client that shares existing's
// connection, with its own namespace, identity, converters and
// propagators from options (connection settings in options are ignored).
// The connection closes when every client sharing it is closed.
func NewClientFromExisting(ctx context.Context, existing clientapi.Client, options internal.ClientOptions) (clientapi.Client, error) {
	return newClientThroughPlugins(ctx, options, clientFromExisting, existing)
}

// newClientFromExisting is NewClientFromExisting once plugins have had
// their say.
func newClientFromExisting(ctx context.Context, existing clientapi.Client, options internal.ClientOptions) (*workflowClient, error) {
	base, ok := existing.(*workflowClient)
	if !ok || base == nil {
		return nil, fmt.Errorf("NewClientFromExisting: the existing client must come from this package's Dial, NewLazyClient or NewClientFromExisting, not %T", existing)
	}
	if base.closed.Load() {
		return nil, errors.New("NewClientFromExisting: the existing client is closed, and so may be its connection")
	}
	c, err := newWorkflowClient(options, base.shared)
	if err != nil {
		return nil, err
	}
	if options.Namespace != "" && options.Namespace != base.namespace {
		if err := c.CheckNamespace(ctx); err != nil {
			c.Close()
			return nil, err
		}
	}
	return c, nil
}

// newWorkflowClient builds a client on shared, or on a new lazy
// connection when shared is nil.
func newWorkflowClient(options internal.ClientOptions, shared *clientSharedConn) (*workflowClient, error) {
	if options.Namespace == "" {
		options.Namespace = clientapi.DefaultNamespace
	}
	if options.Identity == "" {
		options.Identity = clientDefaultIdentity()
	}
	options.Logger = clientLogger(options) // one logger, so one report of its panics
	if err := checkRPCTimeout(options); err != nil {
		return nil, err
	}
	warnings, err := payloadlimit.Warnings(options.PayloadLimits.PayloadSizeWarning, options.PayloadLimits.MemoSizeWarning)
	if err != nil {
		return nil, err
	}
	heartbeatInterval, err := workerHeartbeatInterval(options.WorkerHeartbeatInterval)
	if err != nil {
		return nil, err
	}
	storage, err := extstore.New(options.ExternalStorage)
	if err != nil {
		return nil, fmt.Errorf("invalid client options: %w", err)
	}
	if shared == nil {
		opts, err := rpcOptions(options)
		if err != nil {
			return nil, err
		}
		conn, err := rpc.NewConn(opts)
		if err != nil {
			return nil, err
		}
		shared = &clientSharedConn{conn: conn}
	}
	shared.clients.Add(1)
	c := &workflowClient{
		conn:             shared.conn,
		service:          shared.conn.StoringWorkflowService(options.RPCTimeout, payloadlimit.New(warnings, options.Logger), storage),
		storage:          storage,
		shared:           shared,
		namespace:        options.Namespace,
		identity:         options.Identity,
		dataConverter:    options.DataConverter,
		failureConverter: options.FailureConverter,
		propagators:      options.ContextPropagators,
		logger:           options.Logger,
		metrics:          options.MetricsHandler,
		payloadWarnings:  warnings,
		sdkName:          cmp.Or(options.SdkName, internal.SDKName),
		sdkVersion:       cmp.Or(options.SdkVersion, internal.SDKVersion),
	}
	if heartbeatInterval > 0 {
		c.heartbeats = &workerheartbeat.Sender{Service: c.service, Namespace: c.namespace, Identity: c.identity,
			GroupingKey: uuid.New(), Interval: heartbeatInterval, Logger: c.logger}
		if !options.DisableWorkerEnvironmentInfo {
			c.environment = workerheartbeat.Environment()
		}
	}
	if c.dataConverter == nil {
		c.dataConverter = converter.GetDefaultDataConverter()
	}
	if c.failureConverter == nil {
		c.failureConverter = failure.GetDefaultFailureConverter()
	}
	if c.metrics == nil {
		c.metrics = sdkmetrics.NopHandler
	}
	c.interceptClient(options.Interceptors)
	c.workerPlugins = workerPluginsOf(options.Plugins)
	return c, nil
}

// workerHeartbeatInterval is Options.WorkerHeartbeatInterval checked:
// zero is the default, a negative value turns heartbeats off (0), and
// any other must be from 1 s to 60 s (go.temporal.io/sdk panics).
func workerHeartbeatInterval(d time.Duration) (time.Duration, error) {
	switch {
	case d < 0:
		return 0, nil
	case d == 0:
		return workerheartbeat.DefaultInterval, nil
	case d < time.Second || d > time.Minute:
		return 0, fmt.Errorf("invalid client options: WorkerHeartbeatInterval %v is not between 1s and 60s (0 is 60s, a negative value sends no heartbeats)", d)
	}
	return d, nil
}

// checkServer is Dial's connection check: the server answers, and knows
// the namespace.
func (c *workflowClient) checkServer(ctx context.Context, timeout time.Duration) error {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	if _, err := c.conn.SystemInfo(ctx); err != nil {
		return err
	}
	return c.CheckNamespace(ctx)
}

// CheckNamespace implements WorkerClient.
func (c *workflowClient) CheckNamespace(ctx context.Context) error {
	if err := c.conn.CheckNamespace(ctx, c.namespace); err != nil && !tolerableNamespaceCheckError(err) {
		return err
	}
	return nil
}

// tolerableNamespaceCheckError reports a DescribeNamespace failure that
// says nothing about the namespace: credentials scoped to a namespace may
// not be allowed to describe it, and some servers do not implement it.
func tolerableNamespaceCheckError(err error) bool {
	var denied *serviceerror.PermissionDenied
	var unimplemented *serviceerror.Unimplemented
	return errors.As(err, &denied) || errors.As(err, &unimplemented)
}

// ensureInitialized learns the server's capabilities before the first call
// of a lazy client; afterwards it costs nothing.
func (c *workflowClient) ensureInitialized(ctx context.Context) error {
	_, err := c.conn.SystemInfo(ctx)
	return err
}

// WorkerSettings implements WorkerClient.
func (c *workflowClient) WorkerSettings() internal.ClientSettings {
	return internal.ClientSettings{
		Conn:             c.conn,
		Service:          c.service,
		Namespace:        c.namespace,
		Identity:         c.identity,
		DataConverter:    c.dataConverter,
		FailureConverter: c.failureConverter,
		Propagators:      c.propagators,
		Logger:           c.logger,
		Metrics:          c.metrics,
		Interceptors:     c.workerInterceptors,
		Plugins:          c.workerPlugins,
		PayloadWarnings:  c.payloadWarnings,
		Storage:          c.storage,
		Heartbeats:       c.heartbeats,
		SDKName:          c.sdkName,
		SDKVersion:       c.sdkVersion,
		Environment:      c.environment,
	}
}

// CheckHealth implements Client.
func (c *workflowClient) CheckHealth(ctx context.Context, _ *clientapi.CheckHealthRequest) (*clientapi.CheckHealthResponse, error) {
	if err := c.conn.CheckHealth(ctx); err != nil {
		return nil, err
	}
	return &clientapi.CheckHealthResponse{}, nil
}

// WorkflowService implements Client.
func (c *workflowClient) WorkflowService() workflowservice.WorkflowServiceClient {
	return c.conn.WorkflowService()
}

// OperatorService implements Client.
func (c *workflowClient) OperatorService() operatorservice.OperatorServiceClient {
	return c.conn.OperatorService()
}

// Close implements Client. Only the first call of each client counts.
func (c *workflowClient) Close() {
	c.closeOnce.Do(func() {
		c.closed.Store(true)
		c.shared.release(c.logger)
	})
}

// clientDefaultIdentity is "pid@hostname@", the shape the official SDK
// uses and tools expect.
func clientDefaultIdentity() string {
	host, err := os.Hostname()
	if err != nil {
		host = "unknown"
	}
	return fmt.Sprintf("%d@%s@", os.Getpid(), host)
}

// clientRoot is the end of a client's interceptor chain: it sends the
// requests, each in its operation's file. Headers come from Header(ctx),
// which the client's methods set up before the chain, plus what the
// context propagators inject.
type clientRoot struct {
	clientapi.ClientRootSeal
	c *workflowClient
}

var (
	_ clientapi.ClientOutboundInterceptor = (*clientRoot)(nil)
	_ internal.WorkerClient               = (*workflowClient)(nil)
)

// interceptClient builds the client's chain, the first interceptor
// outermost, and keeps the interceptors that also intercept workers, for
// the workers made from this client.
func (c *workflowClient) interceptClient(interceptors []internal.ClientInterceptor) {
	c.interceptor = &clientRoot{c: c}
	for i := len(interceptors) - 1; i >= 0; i-- {
		c.interceptor = interceptors[i].InterceptClient(c.interceptor)
	}
	for _, i := range interceptors {
		if wi, ok := i.(internal.WorkerInterceptor); ok {
			c.workerInterceptors = append(c.workerInterceptors, wi)
		}
	}
}
