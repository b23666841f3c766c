package client

import (
	"context"
	"io"

	commonpb "go.temporal.io/api/common/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
)

const (
	// DefaultHostPort is the server address used when Options.HostPort is
	// empty: a dev server on this machine ("localhost:7233").
	DefaultHostPort = internal.DefaultHostPort

	// DefaultNamespace is the namespace used when Options.Namespace is
	// empty ("default").
	DefaultNamespace = internal.DefaultNamespace

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
//
// Workflows:
//
//   - ExecuteWorkflow(ctx, options, workflow, args...) starts a workflow
//     (a function or a type name) and returns its WorkflowRun, whose Get
//     waits for the result. If a workflow with the ID is already running,
//     the run returned is that one, unless
//     StartWorkflowOptions.WorkflowExecutionErrorWhenAlreadyStarted asks
//     for a *serviceerror.WorkflowExecutionAlreadyStarted error.
//   - GetWorkflow(ctx, workflowID, runID) returns a WorkflowRun of an
//     existing workflow (runID empty: its current run), checked only when
//     used.
//   - SignalWorkflow(ctx, workflowID, runID, signalName, arg) sends a
//     signal (runID empty: the current run).
//   - SignalWithStartWorkflow(ctx, workflowID, signalName, signalArg,
//     options, workflow, args...) signals the workflow if it is running,
//     and otherwise starts it and signals it, atomically.
//   - QueryWorkflow(ctx, workflowID, runID, queryType, args...) runs a
//     query handler of the workflow and returns its answer; a worker must
//     be running for it. QueryWorkflowWithOptions adds a reject condition
//     and a header, and reports a rejection in its response.
//   - UpdateWorkflow(ctx, options) sends an update and returns once it
//     reached options.WaitForStage, with a WorkflowUpdateHandle whose Get
//     returns the update's result or the error of its validator or
//     handler; a call that times out or is canceled gives a
//     *WorkflowUpdateServiceTimeoutOrCanceledError.
//   - UpdateWithStartWorkflow(ctx, options) sends an update, starting the
//     workflow first if it is not running, atomically; describe the start
//     with NewWithStartWorkflowOperation. GetWorkflowUpdateHandle returns
//     a handle on an update sent earlier.
//   - CancelWorkflow(ctx, workflowID, runID) asks a workflow to cancel: its
//     Context is canceled and its code decides how to end.
//     CancelWorkflowWithOptions adds a reason.
//   - TerminateWorkflow(ctx, workflowID, runID, reason, details...) ends a
//     workflow at once, without running its code;
//     TerminateWorkflowWithOptions takes the same as options.
//   - ResetWorkflowExecution(ctx, request) resets a workflow to an
//     earlier workflow task, terminating its current run.
//   - UpdateWorkflowExecutionOptions(ctx, request) changes the options of
//     a running workflow that may change (its versioning override).
//
// Reading workflows:
//
//   - DescribeWorkflow(ctx, workflowID, runID) returns a run's type,
//     status, times, memo and search attributes;
//     DescribeWorkflowExecution returns the server's raw description.
//   - GetWorkflowHistory(ctx, workflowID, runID, isLongPoll, filterType)
//     iterates over a run's history events; with isLongPoll it waits for
//     new events until the run closes.
//   - ListWorkflow(ctx, request) lists workflows matching a visibility
//     query ("WorkflowType = 'Order' AND ExecutionStatus = 'Running'"),
//     one page at a time; CountWorkflow counts them. ListOpenWorkflow,
//     ListClosedWorkflow, ListArchivedWorkflow and ScanWorkflow are the
//     older forms. GetSearchAttributes lists the namespace's search
//     attributes and their types.
//
// Activities completed asynchronously (activity.ErrResultPending):
//
//   - CompleteActivity(ctx, taskToken, result, err) reports the outcome:
//     a nil err completes the activity with result, a
//     *temporal.CanceledError cancels it, any other error fails it.
//     CompleteActivityByID addresses the activity by IDs instead of its
//     task token; CompleteActivityWithOptions and
//     CompleteActivityByIDWithOptions also name what the data converter's
//     serialization context needs.
//   - RecordActivityHeartbeat(ctx, taskToken, details...) heartbeats the
//     activity meanwhile, and returns a *temporal.CanceledError once the
//     activity is asked to cancel; RecordActivityHeartbeatByID,
//     RecordActivityHeartbeatWithOptions and
//     RecordActivityHeartbeatByIDWithOptions are its other forms, as
//     above.
//
// The rest:
//
//   - ScheduleClient returns the client of the namespace's schedules.
//   - DescribeTaskQueue and DescribeTaskQueueEnhanced describe a task
//     queue: its pollers, backlog and rates.
//   - CheckHealth asks the server whether it is serving.
//   - WorkflowService and OperatorService return the raw gRPC clients,
//     sharing the client's connection, headers and retries.
//   - Close releases the client; the connection closes with the last
//     client sharing it.
type Client = internal.Client

// NamespaceClient administers namespaces (NewNamespaceClient): Register
// creates one, Describe returns its information and configuration, Update
// changes them, and Close closes the connection.
type NamespaceClient = internal.NamespaceClient

// CheckHealthRequest is the request of Client.CheckHealth; it has no
// fields yet.
type CheckHealthRequest = internal.CheckHealthRequest

// CheckHealthResponse is the answer of a successful Client.CheckHealth;
// it has no fields yet.
type CheckHealthResponse = internal.CheckHealthResponse

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
	return internal.DialClient(context.Background(), options)
}

// DialContext is Dial with a context bounding the connection check.
func DialContext(ctx context.Context, options Options) (Client, error) {
	return internal.DialClient(ctx, options)
}

// NewLazyClient returns a client that does not contact the server until
// its first call, for programs that must start while the server is down;
// errors about the server or the namespace come with that first call.
func NewLazyClient(options Options) (Client, error) {
	return internal.NewLazyClient(options)
}

// NewClient is Dial.
//
// Deprecated: use Dial or NewLazyClient.
func NewClient(options Options) (Client, error) {
	return internal.DialClient(context.Background(), options)
}

// NewClientFromExisting returns a client that shares existingClient's
// connection, with the namespace, identity, converters and propagators of
// options (their connection settings are not used). The connection closes
// when every client sharing it is closed.
func NewClientFromExisting(existingClient Client, options Options) (Client, error) {
	return internal.NewClientFromExisting(context.Background(), existingClient, options)
}

// NewClientFromExistingWithContext is NewClientFromExisting with a context
// bounding the check of the new client's namespace.
func NewClientFromExistingWithContext(ctx context.Context, existingClient Client, options Options) (Client, error) {
	return internal.NewClientFromExisting(ctx, existingClient, options)
}

// NewNamespaceClient returns a client for namespace administration; it
// connects on its first call.
func NewNamespaceClient(options Options) (NamespaceClient, error) {
	return internal.NewNamespaceClient(options)
}

// NewValue wraps payloads returned by the server (a query result in a raw
// response, say) for decoding with the default data converter.
func NewValue(data *commonpb.Payloads) converter.EncodedValue {
	return internal.NewValue(data)
}

// NewValues wraps payloads returned by the server (heartbeat details in a
// workflow description, say) for decoding with the default data converter.
func NewValues(data *commonpb.Payloads) converter.EncodedValues {
	return internal.NewValues(data)
}

// HistoryJSONOptions configure HistoryFromJSON.
//
//   - LastEventID: when not 0, drop the events after this one.
type HistoryJSONOptions = internal.HistoryJSONOptions

// HistoryFromJSON reads a workflow history in the JSON that `temporal
// workflow show --output json` writes, for the replayer.
func HistoryFromJSON(r io.Reader, options HistoryJSONOptions) (*historypb.History, error) {
	return internal.HistoryFromJSON(r, options)
}
