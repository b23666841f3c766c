package internal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/rpc"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/log"
)

// Client starts, signals, queries, cancels, terminates and lists workflow
// executions, and completes activities asynchronously. It is safe for
// concurrent use; create one per process and namespace and Close it when
// done.
type Client interface {
	// ExecuteWorkflow starts a workflow, given as a function or a type
	// name, and returns its run. If a workflow with the same ID is already
	// running, the run returned is that one, unless
	// options.WorkflowExecutionErrorWhenAlreadyStarted asks for a
	// *serviceerror.WorkflowExecutionAlreadyStarted error instead.
	ExecuteWorkflow(ctx context.Context, options StartWorkflowOptions, workflow any, args ...any) (WorkflowRun, error)
	// GetWorkflow returns a handle on a workflow run; an empty runID means
	// the workflow's current run. Nothing is checked until it is used.
	GetWorkflow(ctx context.Context, workflowID string, runID string) WorkflowRun
	// SignalWorkflow sends a signal to a workflow; an empty runID means its
	// current run.
	SignalWorkflow(ctx context.Context, workflowID string, runID string, signalName string, arg any) error
	// SignalWithStartWorkflow signals the workflow with this ID if it is
	// running, and otherwise starts it and signals it, atomically.
	SignalWithStartWorkflow(ctx context.Context, workflowID string, signalName string, signalArg any,
		options StartWorkflowOptions, workflow any, workflowArgs ...any) (WorkflowRun, error)
	// CancelWorkflow requests cancellation of a workflow; the workflow
	// decides what to do about it.
	CancelWorkflow(ctx context.Context, workflowID string, runID string) error
	// CancelWorkflowWithOptions is CancelWorkflow with a reason and a
	// first-execution run ID to target.
	CancelWorkflowWithOptions(ctx context.Context, options CancelWorkflowOptions) error
	// TerminateWorkflow ends a workflow at once, without running its code.
	TerminateWorkflow(ctx context.Context, workflowID string, runID string, reason string, details ...any) error
	// TerminateWorkflowWithOptions is TerminateWorkflow with a
	// first-execution run ID to target.
	TerminateWorkflowWithOptions(ctx context.Context, options TerminateWorkflowOptions) error
	// GetWorkflowHistory iterates over a run's history events. With
	// isLongPoll the iterator waits for events still to come, until the
	// run closes.
	GetWorkflowHistory(ctx context.Context, workflowID string, runID string, isLongPoll bool,
		filterType enumspb.HistoryEventFilterType) HistoryEventIterator
	// CompleteActivity reports the outcome of an activity that returned
	// activity.ErrResultPending, by its task token: a nil err completes
	// it with result, a CanceledError cancels it, any other error fails it.
	CompleteActivity(ctx context.Context, taskToken []byte, result any, err error) error
	// CompleteActivityWithOptions is CompleteActivity with the details
	// that the data converter's serialization context needs.
	CompleteActivityWithOptions(ctx context.Context, options CompleteActivityOptions) error
	// CompleteActivityByID is CompleteActivity addressing the activity by
	// namespace, workflow ID, run ID and activity ID.
	CompleteActivityByID(ctx context.Context, namespace, workflowID, runID, activityID string, result any, err error) error
	// CompleteActivityByIDWithOptions is CompleteActivityByID with the
	// details that the data converter's serialization context needs.
	CompleteActivityByIDWithOptions(ctx context.Context, options CompleteActivityByIDOptions) error
	// RecordActivityHeartbeat records a heartbeat, with details, for an
	// activity completed asynchronously. It returns a CanceledError when
	// the activity's cancellation has been requested.
	RecordActivityHeartbeat(ctx context.Context, taskToken []byte, details ...any) error
	// RecordActivityHeartbeatWithOptions is RecordActivityHeartbeat with
	// the details that the data converter's serialization context needs.
	RecordActivityHeartbeatWithOptions(ctx context.Context, options RecordActivityHeartbeatOptions) error
	// RecordActivityHeartbeatByID is RecordActivityHeartbeat addressing the
	// activity by namespace, workflow ID, run ID and activity ID.
	RecordActivityHeartbeatByID(ctx context.Context, namespace, workflowID, runID, activityID string, details ...any) error
	// RecordActivityHeartbeatByIDWithOptions is RecordActivityHeartbeatByID
	// with the details that the data converter's serialization context needs.
	RecordActivityHeartbeatByIDWithOptions(ctx context.Context, options RecordActivityHeartbeatByIDOptions) error
	// ListClosedWorkflow lists closed workflows by the filters of the
	// request; the namespace defaults to the client's.
	ListClosedWorkflow(ctx context.Context, request *workflowservice.ListClosedWorkflowExecutionsRequest) (*workflowservice.ListClosedWorkflowExecutionsResponse, error)
	// ListOpenWorkflow lists running workflows by the filters of the
	// request; the namespace defaults to the client's.
	ListOpenWorkflow(ctx context.Context, request *workflowservice.ListOpenWorkflowExecutionsRequest) (*workflowservice.ListOpenWorkflowExecutionsResponse, error)
	// ListWorkflow lists workflows matching a visibility query, one page
	// at a time; the namespace defaults to the client's.
	ListWorkflow(ctx context.Context, request *workflowservice.ListWorkflowExecutionsRequest) (*workflowservice.ListWorkflowExecutionsResponse, error)
	// ListArchivedWorkflow lists archived workflows matching a query.
	ListArchivedWorkflow(ctx context.Context, request *workflowservice.ListArchivedWorkflowExecutionsRequest) (*workflowservice.ListArchivedWorkflowExecutionsResponse, error)
	// ScanWorkflow lists workflows matching a query, in no particular
	// order. The server deprecates it in favour of ListWorkflow.
	//
	//lint:ignore SA1019 the official Client interface keeps ScanWorkflow.
	ScanWorkflow(ctx context.Context, request *workflowservice.ScanWorkflowExecutionsRequest) (*workflowservice.ScanWorkflowExecutionsResponse, error)
	// CountWorkflow counts workflows matching a visibility query.
	CountWorkflow(ctx context.Context, request *workflowservice.CountWorkflowExecutionsRequest) (*workflowservice.CountWorkflowExecutionsResponse, error)
	// GetSearchAttributes returns the search attributes the namespace knows
	// and their types.
	GetSearchAttributes(ctx context.Context) (*workflowservice.GetSearchAttributesResponse, error)
	// QueryWorkflow asks a workflow's query handler for queryType and
	// returns its answer. A worker must be running for the workflow.
	QueryWorkflow(ctx context.Context, workflowID string, runID string, queryType string, args ...any) (converter.EncodedValue, error)
	// QueryWorkflowWithOptions is QueryWorkflow with a reject condition and
	// a header; a rejected query is reported in the response, not as an
	// error.
	QueryWorkflowWithOptions(ctx context.Context, request *QueryWorkflowWithOptionsRequest) (*QueryWorkflowWithOptionsResponse, error)
	// UpdateWorkflow sends an update to a workflow and returns once it has
	// reached options.WaitForStage (accepted or completed), with a handle
	// whose Get returns the update's outcome: its result, or the error of
	// its validator or handler. Errors before that stage (a missing
	// workflow, bad options) are returned here; a call that times out or
	// is canceled gives a *WorkflowUpdateServiceTimeoutOrCanceledError.
	UpdateWorkflow(ctx context.Context, options UpdateWorkflowOptions) (WorkflowUpdateHandle, error)
	// UpdateWithStartWorkflow sends an update to a workflow, starting the
	// workflow first if it is not running, atomically. The start
	// operation's WorkflowIDConflictPolicy says what to do when it is
	// running: USE_EXISTING updates it, FAIL fails the call. The
	// operation's Get then returns the run updated.
	UpdateWithStartWorkflow(ctx context.Context, options UpdateWithStartWorkflowOptions) (WorkflowUpdateHandle, error)
	// NewWithStartWorkflowOperation describes the workflow that
	// UpdateWithStartWorkflow starts; options.WorkflowIDConflictPolicy is
	// required.
	NewWithStartWorkflowOperation(options StartWorkflowOptions, workflow any, args ...any) WithStartWorkflowOperation
	// GetWorkflowUpdateHandle returns a handle on an update sent earlier,
	// whose Get waits for its outcome. Nothing is checked until Get.
	GetWorkflowUpdateHandle(options GetWorkflowUpdateHandleOptions) WorkflowUpdateHandle
	// DescribeWorkflow describes a run: its type, status, times, memo
	// and search attributes.
	DescribeWorkflow(ctx context.Context, workflowID, runID string) (*WorkflowExecutionDescription, error)
	// DescribeWorkflowExecution returns the server's description of a run.
	DescribeWorkflowExecution(ctx context.Context, workflowID, runID string) (*workflowservice.DescribeWorkflowExecutionResponse, error)
	// DescribeTaskQueue returns the pollers a task queue has seen recently.
	DescribeTaskQueue(ctx context.Context, taskQueue string, taskQueueType enumspb.TaskQueueType) (*workflowservice.DescribeTaskQueueResponse, error)
	// DescribeTaskQueueEnhanced describes a task queue by build ID and
	// task type: pollers, backlog, rates and reachability, as asked.
	DescribeTaskQueueEnhanced(ctx context.Context, options DescribeTaskQueueEnhancedOptions) (TaskQueueDescription, error)
	// ResetWorkflowExecution resets a workflow to an earlier workflow task,
	// terminating its current run; a request ID is generated if missing.
	ResetWorkflowExecution(ctx context.Context, request *workflowservice.ResetWorkflowExecutionRequest) (*workflowservice.ResetWorkflowExecutionResponse, error)
	// UpdateWorkflowExecutionOptions changes the options of a workflow
	// execution that can change while it runs (its versioning override)
	// and returns them as they are after the change.
	UpdateWorkflowExecutionOptions(ctx context.Context, request UpdateWorkflowExecutionOptionsRequest) (WorkflowExecutionOptions, error)
	// CheckHealth asks the server's gRPC health service whether the
	// workflow service is serving.
	CheckHealth(ctx context.Context, request *CheckHealthRequest) (*CheckHealthResponse, error)
	// ScheduleClient returns the client of the namespace's schedules.
	ScheduleClient() ScheduleClient
	// WorkflowService returns the raw gRPC client of the workflow service,
	// sharing the client's connection, headers and retries.
	WorkflowService() workflowservice.WorkflowServiceClient
	// OperatorService returns the raw gRPC client of the operator service.
	OperatorService() operatorservice.OperatorServiceClient
	// Close releases the client. The connection closes when the last
	// client sharing it (see NewClientFromExisting) is closed.
	Close()
}

// NamespaceClient registers, describes and updates namespaces.
type NamespaceClient interface {
	// Register creates a namespace.
	Register(ctx context.Context, request *workflowservice.RegisterNamespaceRequest) error
	// Describe returns a namespace's information and configuration.
	Describe(ctx context.Context, name string) (*workflowservice.DescribeNamespaceResponse, error)
	// Update changes a namespace's information or configuration.
	Update(ctx context.Context, request *workflowservice.UpdateNamespaceRequest) error
	// Close closes the connection.
	Close()
}

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
	propagators      []ContextPropagator
	logger           log.Logger
	metrics          sdkmetrics.Handler

	// interceptor is where the workflow calls go: the interceptors'
	// chain, which ends at the client's clientRoot.
	interceptor        ClientOutboundInterceptor
	workerInterceptors []WorkerInterceptor
	// workerPlugins are the client's plugins that are also worker
	// plugins: they configure the workers made from this client.
	workerPlugins []WorkerPlugin
	// eagerWorkers take the first task of workflows started with
	// EnableEagerStart (client_eager.go).
	eagerWorkers eagerWorkflowWorkers

	closeOnce sync.Once
	closed    atomic.Bool
}

// clientSharedConn counts the clients using a connection, which closes with the
// last of them.
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
func DialClient(ctx context.Context, options ClientOptions) (Client, error) {
	return newClientThroughPlugins(ctx, options, clientDial, nil)
}

// dialClient is DialClient once plugins have had their say.
func dialClient(ctx context.Context, options ClientOptions) (*workflowClient, error) {
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
func NewLazyClient(options ClientOptions) (Client, error) {
	return newClientThroughPlugins(context.Background(), options, clientLazy, nil)
}

// NewClientFromExisting returns a client that shares existing's
// connection, with its own namespace, identity, converters and
// propagators from options (connection settings in options are ignored).
// The connection closes when every client sharing it is closed.
func NewClientFromExisting(ctx context.Context, existing Client, options ClientOptions) (Client, error) {
	return newClientThroughPlugins(ctx, options, clientFromExisting, existing)
}

// newClientFromExisting is NewClientFromExisting once plugins have had
// their say.
func newClientFromExisting(ctx context.Context, existing Client, options ClientOptions) (*workflowClient, error) {
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

// NewNamespaceClient returns a client for namespace administration. It
// connects on its first call.
func NewNamespaceClient(options ClientOptions) (NamespaceClient, error) {
	options.Logger = clientLogger(options) // one logger, so one report of its panics
	opts, err := rpcOptions(options)
	if err != nil {
		return nil, err
	}
	conn, err := rpc.NewConn(opts)
	if err != nil {
		return nil, err
	}
	return &namespaceClient{conn: conn, logger: options.Logger}, nil
}

// newWorkflowClient builds a client on shared, or on a new lazy
// connection when shared is nil.
func newWorkflowClient(options ClientOptions, shared *clientSharedConn) (*workflowClient, error) {
	if options.Namespace == "" {
		options.Namespace = DefaultNamespace
	}
	if options.Identity == "" {
		options.Identity = clientDefaultIdentity()
	}
	options.Logger = clientLogger(options) // one logger, so one report of its panics
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
		service:          shared.conn.WorkflowService(),
		shared:           shared,
		namespace:        options.Namespace,
		identity:         options.Identity,
		dataConverter:    options.DataConverter,
		failureConverter: options.FailureConverter,
		propagators:      options.ContextPropagators,
		logger:           options.Logger,
		metrics:          options.MetricsHandler,
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
func (c *workflowClient) WorkerSettings() ClientSettings {
	return ClientSettings{
		Conn:             c.conn,
		Namespace:        c.namespace,
		Identity:         c.identity,
		DataConverter:    c.dataConverter,
		FailureConverter: c.failureConverter,
		Propagators:      c.propagators,
		Logger:           c.logger,
		Metrics:          c.metrics,
		Interceptors:     c.workerInterceptors,
		Plugins:          c.workerPlugins,
	}
}

// CheckHealth implements Client.
func (c *workflowClient) CheckHealth(ctx context.Context, _ *CheckHealthRequest) (*CheckHealthResponse, error) {
	if err := c.conn.CheckHealth(ctx); err != nil {
		return nil, err
	}
	return &CheckHealthResponse{}, nil
}

// WorkflowService implements Client.
func (c *workflowClient) WorkflowService() workflowservice.WorkflowServiceClient { return c.service }

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

// namespaceClient implements NamespaceClient.
type namespaceClient struct {
	conn   *rpc.Conn
	logger log.Logger
}

// Register implements NamespaceClient.
func (n *namespaceClient) Register(ctx context.Context, request *workflowservice.RegisterNamespaceRequest) error {
	_, err := n.conn.WorkflowService().RegisterNamespace(ctx, request)
	return wrapCallError(err, "registering namespace %q", request.GetNamespace())
}

// Describe implements NamespaceClient.
func (n *namespaceClient) Describe(ctx context.Context, name string) (*workflowservice.DescribeNamespaceResponse, error) {
	resp, err := n.conn.WorkflowService().DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: name})
	if err != nil {
		return nil, wrapCallError(err, "describing namespace %q", name)
	}
	return resp, nil
}

// Update implements NamespaceClient.
func (n *namespaceClient) Update(ctx context.Context, request *workflowservice.UpdateNamespaceRequest) error {
	_, err := n.conn.WorkflowService().UpdateNamespace(ctx, request)
	return wrapCallError(err, "updating namespace %q", request.GetNamespace())
}

// Close implements NamespaceClient.
func (n *namespaceClient) Close() {
	if err := n.conn.Close(); err != nil {
		n.logger.Warn("closing the connection to the Temporal server failed", "Error", err)
	}
}

// clientDefaultIdentity is "pid@hostname@", the shape the official SDK uses and
// tools expect.
func clientDefaultIdentity() string {
	host, err := os.Hostname()
	if err != nil {
		host = "unknown"
	}
	return fmt.Sprintf("%d@%s@", os.Getpid(), host)
}
