package internal

import (
	"context"
	"time"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/propagation"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/log"
)

// Client is the client's interface, declared with the client's other API
// types in internal/clientapi. The root names it here, one level deep,
// for the activity API, the interceptors and the plugins that hand a client
// out: their signatures say internal.Client, as go.temporal.io/sdk's do.
type Client = clientapi.Client

type (
	// ClientOptions configure a client (client.Options).
	ClientOptions struct {
		// HostPort is the frontend's "host:port"; DefaultHostPort when empty.
		HostPort string
		// Namespace is the namespace every call of the client works in;
		// DefaultNamespace when empty.
		Namespace string
		// Credentials authenticate the connection: an API key
		// (NewAPIKeyStaticCredentials, NewAPIKeyDynamicCredentials) or a
		// client certificate (NewMTLSCredentials).
		Credentials clientapi.Credentials
		// Logger receives the client's log messages; a text logger on stderr
		// when nil.
		Logger log.Logger
		// MetricsHandler receives the SDK's own metrics (the request
		// metrics of every call to the server: temporal_request,
		// temporal_long_request, ...; and the metrics of the client's
		// workers: polls, task latencies, workflow closes, the sticky
		// cache, task slots) and those that workflows and activities
		// record (workflow.GetMetricsHandler, activity.GetMetricsHandler);
		// MetricsNopHandler when nil.
		MetricsHandler sdkmetrics.Handler
		// Identity names this process in the requests it sends and so in
		// workflow histories; "pid@hostname@" when empty.
		Identity string
		// DataConverter converts arguments, results, signals, queries and
		// memos; converter.GetDefaultDataConverter() when nil.
		DataConverter converter.DataConverter
		// FailureConverter converts errors to failures and back; the default
		// failure converter when nil.
		FailureConverter converter.FailureConverter
		// ContextPropagators copy values from the Go context into the header
		// of the workflows this client starts, signals and queries, and on
		// the worker side out of headers into the contexts of workflows and
		// activities.
		ContextPropagators []ContextPropagator
		// Interceptors wrap the client's workflow calls, the first
		// outermost. Those that are also WorkerInterceptors wrap the
		// workflows and activities of the workers made from this client.
		Interceptors []ClientInterceptor
		// ConnectionOptions tune the gRPC connection (TLS, keepalive,
		// message size, dial options).
		ConnectionOptions clientapi.ConnectionOptions
		// RPCTimeout bounds each call the SDK makes to the server, its
		// retries included: a client method's, a worker's task completions
		// and heartbeats. A shorter deadline on the call's context wins.
		// Long polls (a workflow's result, an update's outcome, task
		// polls), GetSystemInfo and calls made directly on WorkflowService
		// or OperatorService keep their own. Zero means 10 s; negative is
		// refused.
		RPCTimeout time.Duration
		// HeadersProvider adds gRPC headers to every request, such as an
		// authorization token that rotates.
		HeadersProvider HeadersProvider
		// TrafficController is asked before every request attempt whether it
		// may go out; meant for tests that inject failures.
		TrafficController TrafficController
		// DisableErrorCodeMetricTags leaves the status_code tag off the
		// request failure metrics (temporal_request_failure, ...).
		DisableErrorCodeMetricTags bool
		// Plugins configure the client and wrap its creation, in order
		// (see ClientPlugin). Those that are also WorkerPlugins configure
		// and wrap the workers made from this client as well, before the
		// worker's own plugins.
		Plugins []ClientPlugin
		// PayloadLimits are the sizes above which the client and its
		// workers log a warning before sending payloads or a memo.
		// (Experimental.)
		PayloadLimits PayloadLimitOptions
		// WorkerHeartbeatInterval is how often the client sends its
		// workers' heartbeats to the server (from 1 s to 60 s; 0 is 60 s, a
		// negative value sends none). (Experimental.)
		WorkerHeartbeatInterval time.Duration
		// SdkName and SdkVersion replace the SDK's name and version in the
		// workers' heartbeats, for an SDK that embeds this one.
		// (Experimental.)
		SdkName    string
		SdkVersion string
		// DisableWorkerEnvironmentInfo leaves the runtime, platform and
		// hosting environments out of the workers' heartbeats.
		// (Experimental.)
		DisableWorkerEnvironmentInfo bool
		// ExternalStorage keeps the payloads the client and its workers
		// send that reach its threshold outside the workflow history,
		// and retrieves those they read (see converter.ExternalStorage).
		// (Experimental.)
		ExternalStorage converter.ExternalStorage
	}

	// PayloadLimitOptions are the sizes, in bytes, above which a warning
	// is logged before payloads or a memo are sent (see
	// WorkerOptions.DisablePayloadErrorLimit for the sizes the server
	// refuses). (Experimental.)
	PayloadLimitOptions struct {
		// PayloadSizeWarning is the size of one request field's payloads
		// (a result, the arguments of a call); 512 KiB when zero.
		PayloadSizeWarning int
		// MemoSizeWarning is the size of a memo; 2 KiB when zero.
		MemoSizeWarning int
	}

	// HeadersProvider returns gRPC headers to add to every request.
	HeadersProvider interface {
		GetHeaders(ctx context.Context) (map[string]string, error)
	}

	// TrafficController decides, before each request attempt, whether it
	// may be sent. A non-nil error stops the attempt and is returned as
	// the call's error (retryable errors are retried as usual).
	TrafficController interface {
		CheckCallAllowed(ctx context.Context, method string, req, reply any) error
	}

	// ContextPropagator carries values (a tracing span, a tenant ID) from
	// a context into the header of outgoing requests and back out of the
	// header on the receiving side, for Go contexts and workflow contexts.
	ContextPropagator interface {
		// Inject writes values from a Go context into a header.
		Inject(ctx context.Context, writer propagation.HeaderWriter) error
		// Extract returns a Go context with values read from a header.
		Extract(ctx context.Context, reader propagation.HeaderReader) (context.Context, error)
		// InjectFromWorkflow writes values from a workflow context into a
		// header.
		InjectFromWorkflow(ctx Context, writer propagation.HeaderWriter) error
		// ExtractToWorkflow returns a workflow context with values read from
		// a header.
		ExtractToWorkflow(ctx Context, reader propagation.HeaderReader) (Context, error)
	}

	// CodecContextPropagator is a ContextPropagator that may ask for its
	// header fields to go through the payload codec of the client's data
	// converter (converter.PayloadCodecProvider), as payloads do: encoded
	// after Inject and InjectFromWorkflow, decoded for Extract and
	// ExtractToWorkflow. Fields other code wrote are left as they are. A
	// propagator without the method, or whose EncodeHeaders returns false,
	// reads and writes its fields as they are on the wire. The receiving
	// workers must use the same codec and propagator.
	CodecContextPropagator interface {
		ContextPropagator
		// EncodeHeaders reports whether the propagator's fields go
		// through the codec.
		EncodeHeaders() bool
	}
)
