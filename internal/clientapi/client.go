package clientapi

import (
	"context"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/converter"
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
	// CompleteActivityByActivityID is CompleteActivity for a standalone
	// activity, by its ID (and run ID; its latest run when empty).
	CompleteActivityByActivityID(ctx context.Context, namespace, activityID, activityRunID string, result any, err error) error
	// CompleteActivityByActivityIDWithOptions is
	// CompleteActivityByActivityID with the details the data converter is
	// told.
	CompleteActivityByActivityIDWithOptions(ctx context.Context, options CompleteActivityByActivityIDOptions) error
	// ExecuteActivity starts a standalone activity (activity_standalone.go):
	// activity is its function or registered name, args its arguments.
	ExecuteActivity(ctx context.Context, options StartActivityOptions, activity any, args ...any) (ActivityHandle, error)
	// GetActivityHandle returns a handle on a standalone activity started
	// earlier. Nothing is checked until it is used.
	GetActivityHandle(options GetActivityHandleOptions) ActivityHandle
	// ListActivities lists the standalone activities matching a
	// visibility query, page by page as its Results are iterated.
	ListActivities(ctx context.Context, options ListActivitiesOptions) (ListActivitiesResult, error)
	// CountActivities counts the standalone activities matching a
	// visibility query.
	CountActivities(ctx context.Context, options CountActivitiesOptions) (*CountActivitiesResult, error)
	// RecordActivityHeartbeat records a heartbeat, with details, for an
	// activity completed asynchronously. It returns a CanceledError when
	// the activity's cancellation has been requested, ErrActivityPaused or
	// ErrActivityReset when it has been paused or reset.
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
	// NewNexusClient returns a client of the standalone Nexus operations
	// of one endpoint's service; options.Endpoint and Service are
	// required.
	NewNexusClient(options NexusClientOptions) (NexusClient, error)
	// GetNexusOperationHandle returns a handle on a standalone Nexus
	// operation started earlier. Nothing is checked until it is used.
	GetNexusOperationHandle(options GetNexusOperationHandleOptions) NexusOperationHandle
	// ListNexusOperations lists the standalone Nexus operations matching a
	// visibility query, page by page as its Results are iterated.
	ListNexusOperations(ctx context.Context, options ListNexusOperationsOptions) (ListNexusOperationsResult, error)
	// CountNexusOperations counts the standalone Nexus operations matching
	// a visibility query.
	CountNexusOperations(ctx context.Context, options CountNexusOperationsOptions) (*CountNexusOperationsResult, error)
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
	// UpdateWorkerBuildIdCompatibility changes a task queue's version
	// sets (build-ID versioning, deprecated for Worker Deployment
	// Versioning; the server serves it only where it is enabled).
	UpdateWorkerBuildIdCompatibility(ctx context.Context, options *UpdateWorkerBuildIdCompatibilityOptions) error
	// GetWorkerBuildIdCompatibility returns a task queue's version sets
	// (deprecated as UpdateWorkerBuildIdCompatibility is).
	GetWorkerBuildIdCompatibility(ctx context.Context, options *GetWorkerBuildIdCompatibilityOptions) (*WorkerBuildIDVersionSets, error)
	// GetWorkerTaskReachability says which kinds of tasks may still reach
	// workers of the given build IDs (deprecated as
	// UpdateWorkerBuildIdCompatibility is).
	GetWorkerTaskReachability(ctx context.Context, options *GetWorkerTaskReachabilityOptions) (*WorkerTaskReachability, error)
	// UpdateWorkerVersioningRules changes a task queue's build-ID
	// assignment or redirect rules and returns them as they are after
	// the change (rule-based build-ID versioning, deprecated for Worker
	// Deployment Versioning; the server serves it only where it is
	// enabled). A stale conflict token gives a
	// *serviceerror.FailedPrecondition.
	UpdateWorkerVersioningRules(ctx context.Context, options UpdateWorkerVersioningRulesOptions) (*WorkerVersioningRules, error)
	// GetWorkerVersioningRules returns a task queue's build-ID assignment
	// and redirect rules, with the conflict token of the next update.
	GetWorkerVersioningRules(ctx context.Context, options GetWorkerVersioningOptions) (*WorkerVersioningRules, error)
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
	// DeploymentClient returns the client of the namespace's deployment
	// series, on this client's connection: the deprecated pre-release
	// API that WorkerDeploymentClient replaces, which servers from 1.28
	// on refuse.
	DeploymentClient() DeploymentClient
	// WorkerDeploymentClient returns the client of the namespace's
	// worker deployments, on this client's connection.
	WorkerDeploymentClient() WorkerDeploymentClient
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

// HistoryEventIterator iterates over the events of a workflow run's
// history, fetching pages as needed. It is not safe for concurrent use.
type HistoryEventIterator interface {
	// HasNext reports whether Next has an event or an error to return. It
	// may block to fetch the next page (and, for a long poll, until new
	// events arrive).
	HasNext() bool
	// Next returns the next event, or the error that ended the iteration.
	Next() (*historypb.HistoryEvent, error)
}

type (
	// WorkflowRun is a handle on a workflow run, from ExecuteWorkflow,
	// SignalWithStartWorkflow or GetWorkflow.
	WorkflowRun interface {
		// GetID returns the workflow ID.
		GetID() string
		// GetRunID returns the run ID. After Get has followed the workflow
		// to a later run (continue-as-new, retry, cron), it is that run's.
		GetRunID() string
		// GetFirstExecutionRunID returns the run ID of the first run in the
		// chain, when the start response told it; empty otherwise.
		GetFirstExecutionRunID() string
		// Get waits for the workflow to close, following it through
		// continue-as-new, retries and cron runs to its last run, and
		// decodes the result into valuePtr (nil discards it). A workflow
		// that did not complete gives a *temporal.WorkflowExecutionError
		// whose cause says why: the workflow's error, a CanceledError, a
		// TerminatedError or a TimeoutError.
		Get(ctx context.Context, valuePtr any) error
		// GetWithOptions is Get with options.
		GetWithOptions(ctx context.Context, valuePtr any, options WorkflowRunGetOptions) error
	}

	// WorkflowRunGetOptions are the options of WorkflowRun.GetWithOptions.
	WorkflowRunGetOptions struct {
		// DisableFollowingRuns makes Get report on this run only, even when
		// it continued as new or was retried.
		DisableFollowingRuns bool
	}
)

type (
	// CheckHealthRequest is the request of Client.CheckHealth; it has no
	// fields yet.
	CheckHealthRequest struct{}

	// CheckHealthResponse is the answer of a successful Client.CheckHealth;
	// it has no fields yet.
	CheckHealthResponse struct{}
)
