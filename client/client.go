package client

import (
	"context"
	"io"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/clientimpl"
	"github.com/durable-go/sdk/internal/history"
)

const (
	// DefaultHostPort is the server address used when Options.HostPort is
	// empty: a dev server on this machine ("localhost:7233").
	DefaultHostPort = clientapi.DefaultHostPort

	// DefaultNamespace is the namespace used when Options.Namespace is
	// empty ("default").
	DefaultNamespace = clientapi.DefaultNamespace

	// QueryTypeStackTrace is the built-in query that every workflow
	// answers with the stacks of its coroutines, as a string: where a
	// stuck workflow waits.
	QueryTypeStackTrace string = internal.QueryTypeStackTrace

	// QueryTypeOpenSessions is the built-in query that answers with the
	// workflow's open sessions.
	QueryTypeOpenSessions string = internal.QueryTypeOpenSessions
)

// Client is a connection to a Temporal namespace: it starts, signals,
// queries, updates, cancels, terminates, describes and lists workflow
// executions, completes activities asynchronously, and manages schedules.
// Make one with Dial and share it: it is safe for concurrent use, and
// workers (worker.New) use its connection. Close it when done. Errors the
// server reports are go.temporal.io/api/serviceerror types (errors.As
// finds them), wrapped with what the client was doing.
type Client interface {
	// ExecuteWorkflow starts a workflow, given as a function or a type
	// name, with args, and returns its WorkflowRun, whose Get waits for
	// the result. If a workflow with options.ID is already running, the
	// run returned is that one, unless
	// options.WorkflowExecutionErrorWhenAlreadyStarted asks for a
	// *serviceerror.WorkflowExecutionAlreadyStarted error instead.
	ExecuteWorkflow(ctx context.Context, options StartWorkflowOptions, workflow any, args ...any) (WorkflowRun, error)

	// GetWorkflow returns a WorkflowRun of an existing workflow; an empty
	// runID means its current run. Nothing is asked of the server until
	// the run is used.
	GetWorkflow(ctx context.Context, workflowID string, runID string) WorkflowRun

	// SignalWorkflow sends a signal with one argument to a workflow; an
	// empty runID means its current run.
	SignalWorkflow(ctx context.Context, workflowID string, runID string, signalName string, arg any) error

	// SignalWithStartWorkflow signals the workflow with this ID if it is
	// running, and otherwise starts it with options, workflow and
	// workflowArgs and then signals it, in one atomic call.
	SignalWithStartWorkflow(ctx context.Context, workflowID string, signalName string, signalArg any,
		options StartWorkflowOptions, workflow any, workflowArgs ...any) (WorkflowRun, error)

	// CancelWorkflow asks a workflow to cancel: its Context is canceled
	// and its code decides how to end. An empty runID means its current
	// run.
	CancelWorkflow(ctx context.Context, workflowID string, runID string) error

	// CancelWorkflowWithOptions is CancelWorkflow with a reason and the
	// first run of the chain to target.
	CancelWorkflowWithOptions(ctx context.Context, options CancelWorkflowOptions) error

	// TerminateWorkflow ends a workflow at once, without running any more
	// of its code; reason and details are recorded in its history.
	TerminateWorkflow(ctx context.Context, workflowID string, runID string, reason string, details ...any) error

	// TerminateWorkflowWithOptions is TerminateWorkflow with its
	// arguments, and the first run of the chain to target, as options.
	TerminateWorkflowWithOptions(ctx context.Context, options TerminateWorkflowOptions) error

	// GetWorkflowHistory iterates over the history events of a run,
	// filtered by filterType. With isLongPoll the iterator waits for the
	// events still to come, until the run closes.
	GetWorkflowHistory(ctx context.Context, workflowID string, runID string, isLongPoll bool,
		filterType enumspb.HistoryEventFilterType) HistoryEventIterator

	// CompleteActivity reports the outcome of an activity that returned
	// activity.ErrResultPending, found by its task token: a nil err
	// completes it with result, a *temporal.CanceledError cancels it, and
	// any other error fails it.
	CompleteActivity(ctx context.Context, taskToken []byte, result any, err error) error

	// CompleteActivityWithOptions is CompleteActivity with what the data
	// converter's serialization context needs besides the task token.
	CompleteActivityWithOptions(ctx context.Context, options CompleteActivityOptions) error

	// CompleteActivityByID is CompleteActivity for an activity found by
	// namespace, workflow ID, run ID and activity ID instead of a token.
	CompleteActivityByID(ctx context.Context, namespace, workflowID, runID, activityID string, result any, err error) error

	// CompleteActivityByIDWithOptions is CompleteActivityByID with what
	// the data converter's serialization context needs.
	CompleteActivityByIDWithOptions(ctx context.Context, options CompleteActivityByIDOptions) error

	// CompleteActivityByActivityID is CompleteActivity for a standalone
	// activity (see ExecuteActivity), found by namespace, activity ID and
	// run ID (its latest run when empty).
	CompleteActivityByActivityID(ctx context.Context, namespace, activityID, activityRunID string, result any, err error) error

	// CompleteActivityByActivityIDWithOptions is
	// CompleteActivityByActivityID with what the data converter's
	// serialization context needs.
	CompleteActivityByActivityIDWithOptions(ctx context.Context, options CompleteActivityByActivityIDOptions) error

	// ExecuteActivity starts a standalone activity: one the client starts
	// by itself, outside any workflow, run by a worker polling
	// options.TaskQueue and scheduled, retried and timed out by the server.
	// activity is the activity function or its registered name, args its
	// arguments. The returned handle waits for its result (Get) and acts
	// on it. Needs a server with standalone activities (1.31 and later).
	ExecuteActivity(ctx context.Context, options StartActivityOptions, activity any, args ...any) (ActivityHandle, error)

	// GetActivityHandle returns a handle on a standalone activity started
	// earlier, by its ID (and run ID). Nothing is asked of the server until
	// the handle is used.
	GetActivityHandle(options GetActivityHandleOptions) ActivityHandle

	// ListActivities lists the standalone activities that match a
	// visibility query; the pages are fetched as Results is iterated.
	ListActivities(ctx context.Context, options ListActivitiesOptions) (ListActivitiesResult, error)

	// CountActivities counts the standalone activities that match a
	// visibility query, by group with GROUP BY.
	CountActivities(ctx context.Context, options CountActivitiesOptions) (*CountActivitiesResult, error)

	// RecordActivityHeartbeat records a heartbeat, with details, for an
	// activity completed asynchronously. Once the activity has been asked
	// to cancel, it returns a *temporal.CanceledError; once it has been
	// paused or reset, activity.ErrActivityPaused or ErrActivityReset.
	RecordActivityHeartbeat(ctx context.Context, taskToken []byte, details ...any) error

	// RecordActivityHeartbeatWithOptions is RecordActivityHeartbeat with
	// what the data converter's serialization context needs.
	RecordActivityHeartbeatWithOptions(ctx context.Context, options RecordActivityHeartbeatOptions) error

	// RecordActivityHeartbeatByID is RecordActivityHeartbeat for an
	// activity found by namespace, workflow ID, run ID and activity ID.
	RecordActivityHeartbeatByID(ctx context.Context, namespace, workflowID, runID, activityID string, details ...any) error

	// RecordActivityHeartbeatByIDWithOptions is RecordActivityHeartbeatByID
	// with what the data converter's serialization context needs.
	RecordActivityHeartbeatByIDWithOptions(ctx context.Context, options RecordActivityHeartbeatByIDOptions) error

	// ListClosedWorkflow lists closed workflows that match the request's
	// filters; an empty namespace in the request means the client's.
	ListClosedWorkflow(ctx context.Context, request *workflowservice.ListClosedWorkflowExecutionsRequest) (*workflowservice.ListClosedWorkflowExecutionsResponse, error)

	// ListOpenWorkflow lists running workflows that match the request's
	// filters; an empty namespace in the request means the client's.
	ListOpenWorkflow(ctx context.Context, request *workflowservice.ListOpenWorkflowExecutionsRequest) (*workflowservice.ListOpenWorkflowExecutionsResponse, error)

	// ListWorkflow lists, one page at a time, the workflows that match a
	// visibility query such as
	// "WorkflowType = 'Order' AND ExecutionStatus = 'Running'"; an empty
	// namespace in the request means the client's.
	ListWorkflow(ctx context.Context, request *workflowservice.ListWorkflowExecutionsRequest) (*workflowservice.ListWorkflowExecutionsResponse, error)

	// ListArchivedWorkflow lists the archived workflows that match a
	// query.
	ListArchivedWorkflow(ctx context.Context, request *workflowservice.ListArchivedWorkflowExecutionsRequest) (*workflowservice.ListArchivedWorkflowExecutionsResponse, error)

	// ScanWorkflow lists the workflows that match a query, in no
	// particular order; the server prefers ListWorkflow.
	//
	//lint:ignore SA1019 the official Client interface keeps ScanWorkflow.
	ScanWorkflow(ctx context.Context, request *workflowservice.ScanWorkflowExecutionsRequest) (*workflowservice.ScanWorkflowExecutionsResponse, error)

	// CountWorkflow counts the workflows that match a visibility query.
	CountWorkflow(ctx context.Context, request *workflowservice.CountWorkflowExecutionsRequest) (*workflowservice.CountWorkflowExecutionsResponse, error)

	// GetSearchAttributes returns the search attributes the namespace
	// knows, with their types.
	GetSearchAttributes(ctx context.Context) (*workflowservice.GetSearchAttributesResponse, error)

	// QueryWorkflow runs the workflow's handler for queryType with args
	// and returns its answer. A worker must be running for the workflow.
	QueryWorkflow(ctx context.Context, workflowID string, runID string, queryType string, args ...any) (converter.EncodedValue, error)

	// QueryWorkflowWithOptions is QueryWorkflow with a reject condition
	// and a header; a query rejected by the condition is reported in the
	// response, not as an error.
	QueryWorkflowWithOptions(ctx context.Context, request *QueryWorkflowWithOptionsRequest) (*QueryWorkflowWithOptionsResponse, error)

	// UpdateWorkflow sends an update to a workflow and returns once the
	// update has reached options.WaitForStage, with a handle whose Get
	// returns the update's result or the error of its validator or
	// handler. What fails before that stage (no such workflow, bad
	// options) is returned here; a call that times out or is canceled
	// returns a *WorkflowUpdateServiceTimeoutOrCanceledError.
	UpdateWorkflow(ctx context.Context, options UpdateWorkflowOptions) (WorkflowUpdateHandle, error)

	// UpdateWithStartWorkflow sends an update to a workflow, starting the
	// workflow first when it is not running, in one atomic call. The
	// start operation's WorkflowIDConflictPolicy says what happens when it
	// is running (USE_EXISTING updates it, FAIL fails the call); the
	// operation's Get then returns the run that was updated.
	UpdateWithStartWorkflow(ctx context.Context, options UpdateWithStartWorkflowOptions) (WorkflowUpdateHandle, error)

	// NewWithStartWorkflowOperation describes the workflow that
	// UpdateWithStartWorkflow starts when it is not running;
	// options.WorkflowIDConflictPolicy is required.
	NewWithStartWorkflowOperation(options StartWorkflowOptions, workflow any, args ...any) WithStartWorkflowOperation

	// GetWorkflowUpdateHandle returns a handle on an update sent earlier;
	// its Get waits for the update's outcome. Nothing is checked before
	// Get.
	GetWorkflowUpdateHandle(options GetWorkflowUpdateHandleOptions) WorkflowUpdateHandle

	// NewNexusClient returns a client that starts standalone Nexus
	// operations (operations of their own, outside any workflow) of one
	// endpoint's service; options.Endpoint and Service are required. The
	// server must allow standalone operations.
	NewNexusClient(options NexusClientOptions) (NexusClient, error)

	// GetNexusOperationHandle returns a handle on a standalone Nexus
	// operation started earlier, by its ID (and run ID). Nothing is asked
	// of the server until the handle is used.
	GetNexusOperationHandle(options GetNexusOperationHandleOptions) NexusOperationHandle

	// ListNexusOperations lists the standalone Nexus operations that match
	// a visibility query; the pages are fetched as Results is iterated.
	ListNexusOperations(ctx context.Context, options ListNexusOperationsOptions) (ListNexusOperationsResult, error)

	// CountNexusOperations counts the standalone Nexus operations that
	// match a visibility query, by group with GROUP BY.
	CountNexusOperations(ctx context.Context, options CountNexusOperationsOptions) (*CountNexusOperationsResult, error)

	// DescribeWorkflow returns a run's type, status, times, memo and
	// search attributes.
	DescribeWorkflow(ctx context.Context, workflowID, runID string) (*WorkflowExecutionDescription, error)

	// DescribeWorkflowExecution returns the server's own description of a
	// run, as the gRPC API gives it.
	DescribeWorkflowExecution(ctx context.Context, workflowID, runID string) (*workflowservice.DescribeWorkflowExecutionResponse, error)

	// DescribeTaskQueue returns the pollers that a task queue has seen
	// lately, for workflow or activity tasks.
	DescribeTaskQueue(ctx context.Context, taskQueue string, taskQueueType enumspb.TaskQueueType) (*workflowservice.DescribeTaskQueueResponse, error)

	// DescribeTaskQueueEnhanced describes a task queue by build ID and
	// task type: its pollers, backlog, rates and reachability, as options
	// ask.
	DescribeTaskQueueEnhanced(ctx context.Context, options DescribeTaskQueueEnhancedOptions) (TaskQueueDescription, error)

	// UpdateWorkerBuildIdCompatibility changes the version sets of a task
	// queue. Servers serve it only where frontend.workerVersioningDataAPIs
	// is on, and answer PermissionDenied elsewhere.
	//
	// Deprecated: build-ID versioning is deprecated; use Worker
	// Deployment Versioning (worker.DeploymentOptions,
	// WorkerDeploymentClient).
	UpdateWorkerBuildIdCompatibility(ctx context.Context, options *UpdateWorkerBuildIdCompatibilityOptions) error

	// GetWorkerBuildIdCompatibility returns the version sets of a task
	// queue.
	//
	// Deprecated: build-ID versioning is deprecated; use Worker
	// Deployment Versioning.
	GetWorkerBuildIdCompatibility(ctx context.Context, options *GetWorkerBuildIdCompatibilityOptions) (*WorkerBuildIDVersionSets, error)

	// GetWorkerTaskReachability says which kinds of tasks may still reach
	// the workers of some build IDs.
	//
	// Deprecated: build-ID versioning is deprecated; use Worker
	// Deployment Versioning.
	GetWorkerTaskReachability(ctx context.Context, options *GetWorkerTaskReachabilityOptions) (*WorkerTaskReachability, error)

	// UpdateWorkerVersioningRules changes the build-ID assignment or
	// redirect rules of a task queue and returns them as they are after
	// the change. Servers serve it only where
	// frontend.workerVersioningRuleAPIs is on. A conflict token that is
	// no longer current gives a *serviceerror.FailedPrecondition.
	//
	// Deprecated: build-ID versioning is deprecated; use Worker
	// Deployment Versioning.
	UpdateWorkerVersioningRules(ctx context.Context, options UpdateWorkerVersioningRulesOptions) (*WorkerVersioningRules, error)

	// GetWorkerVersioningRules returns the build-ID assignment and
	// redirect rules of a task queue, with the conflict token of its next
	// update.
	//
	// Deprecated: build-ID versioning is deprecated; use Worker
	// Deployment Versioning.
	GetWorkerVersioningRules(ctx context.Context, options GetWorkerVersioningOptions) (*WorkerVersioningRules, error)

	// ResetWorkflowExecution resets a workflow to an earlier workflow
	// task, terminating its current run; a missing request ID is
	// generated.
	ResetWorkflowExecution(ctx context.Context, request *workflowservice.ResetWorkflowExecutionRequest) (*workflowservice.ResetWorkflowExecutionResponse, error)

	// UpdateWorkflowExecutionOptions changes the options of a workflow
	// execution that may change while it runs (its versioning override),
	// and returns them as they are after the change.
	UpdateWorkflowExecutionOptions(ctx context.Context, request UpdateWorkflowExecutionOptionsRequest) (WorkflowExecutionOptions, error)

	// CheckHealth asks the server's gRPC health service whether the
	// workflow service is serving.
	CheckHealth(ctx context.Context, request *CheckHealthRequest) (*CheckHealthResponse, error)

	// ScheduleClient returns the client of the namespace's schedules.
	ScheduleClient() ScheduleClient

	// DeploymentClient returns the client of the namespace's deployment
	// series, on this client's connection.
	//
	// Deprecated: the pre-release deployment API, which servers from 1.28
	// on refuse (Unimplemented); use WorkerDeploymentClient.
	DeploymentClient() DeploymentClient

	// WorkerDeploymentClient returns the client of the namespace's worker
	// deployments (see WorkerDeploymentClient), on this client's
	// connection.
	WorkerDeploymentClient() WorkerDeploymentClient

	// WorkflowService returns the raw gRPC client of the workflow
	// service; it shares this client's connection, headers and retries.
	WorkflowService() workflowservice.WorkflowServiceClient

	// OperatorService returns the raw gRPC client of the operator
	// service, on this client's connection.
	OperatorService() operatorservice.OperatorServiceClient

	// Close releases the client. The connection closes with the last
	// client that shares it (see NewClientFromExisting).
	Close()
}

// NamespaceClient administers namespaces; NewNamespaceClient makes one.
type NamespaceClient interface {
	// Register creates a namespace.
	Register(ctx context.Context, request *workflowservice.RegisterNamespaceRequest) error

	// Describe returns the information and configuration of the namespace
	// called name.
	Describe(ctx context.Context, name string) (*workflowservice.DescribeNamespaceResponse, error)

	// Update changes a namespace's information or configuration.
	Update(ctx context.Context, request *workflowservice.UpdateNamespaceRequest) error

	// Close closes the client's connection.
	Close()
}

// Client and NamespaceClient have the method sets of clientapi.Client and
// clientapi.NamespaceClient, which the machinery uses: values pass between
// the two without a conversion. A method added to one side only fails
// here.
var (
	_ Client                    = clientapi.Client(nil)
	_ clientapi.Client          = Client(nil)
	_ NamespaceClient           = clientapi.NamespaceClient(nil)
	_ clientapi.NamespaceClient = NamespaceClient(nil)
)

// CheckHealthRequest is the request of Client.CheckHealth; it has no
// fields yet.
type CheckHealthRequest = clientapi.CheckHealthRequest

// CheckHealthResponse is the answer of a successful Client.CheckHealth;
// it has no fields yet.
type CheckHealthResponse = clientapi.CheckHealthResponse

// Dial connects to the server and returns a client once the server has
// answered and confirmed that the namespace exists. An unreachable server
// or an unknown namespace gives an error that says what to do. The zero
// Options connect to a dev server on this machine (DefaultHostPort,
// DefaultNamespace).
//
//	c, err := client.Dial(client.Options{
//		HostPort:  "temporal.example.com:7233",
//		Namespace: "orders",
//	})
func Dial(options Options) (Client, error) {
	return clientimpl.DialClient(context.Background(), options)
}

// DialContext is Dial with a context bounding the connection check.
func DialContext(ctx context.Context, options Options) (Client, error) {
	return clientimpl.DialClient(ctx, options)
}

// NewLazyClient returns a client that does not contact the server until
// its first call, for programs that must start while the server is down;
// errors about the server or the namespace come with that first call.
func NewLazyClient(options Options) (Client, error) {
	return clientimpl.NewLazyClient(options)
}

// NewClient is Dial.
//
// Deprecated: use Dial or NewLazyClient.
func NewClient(options Options) (Client, error) {
	return clientimpl.DialClient(context.Background(), options)
}

// NewClientFromExisting returns a client that shares existingClient's
// connection, with the namespace, identity, converters and propagators of
// options (their connection settings are not used). The connection closes
// when every client sharing it is closed.
func NewClientFromExisting(existingClient Client, options Options) (Client, error) {
	return clientimpl.NewClientFromExisting(context.Background(), existingClient, options)
}

// NewClientFromExistingWithContext is NewClientFromExisting with a context
// bounding the check of the new client's namespace.
func NewClientFromExistingWithContext(ctx context.Context, existingClient Client, options Options) (Client, error) {
	return clientimpl.NewClientFromExisting(ctx, existingClient, options)
}

// NewNamespaceClient returns a client for namespace administration; it
// connects on its first call.
func NewNamespaceClient(options Options) (NamespaceClient, error) {
	return clientimpl.NewNamespaceClient(options)
}

// NewValue wraps payloads returned by the server (a query result in a raw
// response, say) for decoding with the default data converter.
func NewValue(data *commonpb.Payloads) converter.EncodedValue {
	return clientimpl.NewValue(data)
}

// NewValues wraps payloads returned by the server (heartbeat details in a
// workflow description, say) for decoding with the default data converter.
func NewValues(data *commonpb.Payloads) converter.EncodedValues {
	return clientimpl.NewValues(data)
}

// HistoryJSONOptions configure HistoryFromJSON.
type HistoryJSONOptions struct {
	// LastEventID, when not 0, is the last event kept: the events after
	// it are dropped, as if the history ended there.
	LastEventID int64
}

// HistoryFromJSON reads a workflow history in the JSON that `temporal
// workflow show --output json` writes, for the replayer.
func HistoryFromJSON(r io.Reader, options HistoryJSONOptions) (*historypb.History, error) {
	return history.FromJSON(r, options.LastEventID)
}
