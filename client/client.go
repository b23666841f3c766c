package client

import (
	"context"
	"crypto/tls"
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
	// answers with the stacks of its coroutines, as a string.
	QueryTypeStackTrace string = internal.QueryTypeStackTrace

	// QueryTypeOpenSessions is the built-in query that answers with the
	// workflow's open sessions.
	QueryTypeOpenSessions string = internal.QueryTypeOpenSessions
)

type (
	// Client starts, signals, queries, cancels, terminates and lists
	// workflow executions, and completes activities asynchronously. It is
	// safe for concurrent use; Close it when done.
	Client = internal.Client

	// NamespaceClient registers, describes and updates namespaces.
	NamespaceClient = internal.NamespaceClient

	// Options configure a client: server address, namespace, credentials,
	// identity, converters, context propagators and connection settings.
	Options = internal.ClientOptions

	// ConnectionOptions control the gRPC connection: TLS, authority,
	// keepalive, message size, compression and extra dial options.
	ConnectionOptions = internal.ConnectionOptions

	// Credentials authenticate a client; see NewAPIKeyStaticCredentials,
	// NewAPIKeyDynamicCredentials and NewMTLSCredentials.
	Credentials = internal.Credentials

	// GrpcCompression selects gRPC request compression.
	GrpcCompression = internal.GrpcCompression

	// GrpcCompressionGzip compresses requests with gzip.
	GrpcCompressionGzip = internal.GrpcCompressionGzip

	// GrpcCompressionNone sends requests uncompressed.
	GrpcCompressionNone = internal.GrpcCompressionNone

	// StartWorkflowOptions configure a workflow started by
	// Client.ExecuteWorkflow or Client.SignalWithStartWorkflow.
	StartWorkflowOptions = internal.StartWorkflowOptions

	// WorkflowRun is a handle on a workflow run: its IDs, and Get to wait
	// for its result.
	WorkflowRun = internal.WorkflowRun

	// WorkflowRunGetOptions are the options of WorkflowRun.GetWithOptions.
	WorkflowRunGetOptions = internal.WorkflowRunGetOptions

	// HistoryEventIterator iterates over the events of a workflow run's
	// history.
	HistoryEventIterator = internal.HistoryEventIterator

	// CancelWorkflowOptions are the arguments of
	// Client.CancelWorkflowWithOptions.
	CancelWorkflowOptions = internal.CancelWorkflowOptions

	// TerminateWorkflowOptions are the arguments of
	// Client.TerminateWorkflowWithOptions.
	TerminateWorkflowOptions = internal.TerminateWorkflowOptions

	// QueryWorkflowWithOptionsRequest is the request of
	// Client.QueryWorkflowWithOptions.
	QueryWorkflowWithOptionsRequest = internal.QueryWorkflowWithOptionsRequest

	// QueryWorkflowWithOptionsResponse is the answer of
	// Client.QueryWorkflowWithOptions: a result or a rejection.
	QueryWorkflowWithOptionsResponse = internal.QueryWorkflowWithOptionsResponse

	// CompleteActivityOptions are the arguments of
	// Client.CompleteActivityWithOptions.
	CompleteActivityOptions = internal.CompleteActivityOptions

	// CompleteActivityByIDOptions are the arguments of
	// Client.CompleteActivityByIDWithOptions.
	CompleteActivityByIDOptions = internal.CompleteActivityByIDOptions

	// RecordActivityHeartbeatOptions are the arguments of
	// Client.RecordActivityHeartbeatWithOptions.
	RecordActivityHeartbeatOptions = internal.RecordActivityHeartbeatOptions

	// RecordActivityHeartbeatByIDOptions are the arguments of
	// Client.RecordActivityHeartbeatByIDWithOptions.
	RecordActivityHeartbeatByIDOptions = internal.RecordActivityHeartbeatByIDOptions

	// WorkflowExecutionDescription is the answer of Client.DescribeWorkflow:
	// the run's metadata, with decoders for its memo and UI summary.
	WorkflowExecutionDescription = internal.WorkflowExecutionDescription

	// WorkflowExecutionMetadata is what the server knows about a workflow
	// run: IDs, type, task queue, status, times, memo, search attributes.
	WorkflowExecutionMetadata = internal.WorkflowExecutionMetadata

	// CheckHealthRequest is the request of Client.CheckHealth.
	CheckHealthRequest = internal.CheckHealthRequest

	// CheckHealthResponse is the answer of a successful Client.CheckHealth.
	CheckHealthResponse = internal.CheckHealthResponse
)

// Dial connects to the server and returns a client once the server has
// answered and confirmed that the namespace exists. An unreachable server
// or an unknown namespace gives an error that says what to do.
func Dial(options Options) (Client, error) {
	return internal.DialClient(context.Background(), options)
}

// DialContext is Dial with a context bounding the connection check.
func DialContext(ctx context.Context, options Options) (Client, error) {
	return internal.DialClient(ctx, options)
}

// NewLazyClient returns a client that does not contact the server until
// its first call.
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
// options. The connection closes when every client sharing it is closed.
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

// NewAPIKeyStaticCredentials authenticates with a fixed API key, sent as
// "authorization: Bearer <key>". TLS is turned on unless
// ConnectionOptions.TLSDisabled is set.
func NewAPIKeyStaticCredentials(apiKey string) Credentials {
	return internal.NewAPIKeyStaticCredentials(apiKey)
}

// NewAPIKeyDynamicCredentials authenticates with the API key that
// getAPIKey returns before each request attempt. TLS is turned on unless
// ConnectionOptions.TLSDisabled is set.
func NewAPIKeyDynamicCredentials(getAPIKey func(context.Context) (string, error)) Credentials {
	return internal.NewAPIKeyDynamicCredentials(getAPIKey)
}

// NewMTLSCredentials authenticates with a client certificate over TLS.
func NewMTLSCredentials(certificate tls.Certificate) Credentials {
	return internal.NewMTLSCredentials(certificate)
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
type HistoryJSONOptions = internal.HistoryJSONOptions

// HistoryFromJSON reads a workflow history in the JSON that `temporal
// workflow show --output json` writes, for the replayer.
func HistoryFromJSON(r io.Reader, options HistoryJSONOptions) (*historypb.History, error) {
	return internal.HistoryFromJSON(r, options)
}
