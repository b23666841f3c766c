package client

import (
	"context"
	"crypto/tls"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/clientapi"
)

// Options configure a client (Dial, NewLazyClient). The zero Options
// connect to a dev server on this machine, in the default namespace.
//
//   - HostPort: the server's frontend, "host:port". Default:
//     DefaultHostPort ("localhost:7233").
//   - Namespace: the namespace every call of the client works in.
//     Default: DefaultNamespace ("default").
//   - Credentials: authenticate the connection: an API key
//     (NewAPIKeyStaticCredentials, NewAPIKeyDynamicCredentials), which
//     also turns TLS on, or a client certificate (NewMTLSCredentials).
//   - Logger: receives the SDK's log messages, the client's and its
//     workers'. Default: a text logger on stderr.
//   - MetricsHandler: receives the SDK's metrics (requests, polls, task
//     latencies, the sticky cache, task slots, ...) and those workflows
//     and activities record. Default: MetricsNopHandler, none.
//   - Identity: names this process in its requests and so in workflow
//     histories and the UI. Default: "pid@hostname@".
//   - DataConverter: converts arguments, results, signals, queries and
//     memos to payloads and back, here and in the client's workers.
//     Default: converter.GetDefaultDataConverter() (JSON, protobuf,
//     bytes).
//   - FailureConverter: converts errors to failures and back. Default:
//     temporal.GetDefaultFailureConverter().
//   - ContextPropagators: carry values of the Go context into the headers
//     of what the client starts, signals and queries, and out of headers
//     into the contexts of workflows and activities on the workers.
//   - Interceptors: wrap the client's calls, the first outermost; those
//     that are also worker interceptors wrap the workflows and activities
//     of the client's workers.
//   - ConnectionOptions: tune the gRPC connection: TLS, keepalive,
//     message size, compression, dial options.
//   - RPCTimeout: bounds each call the SDK makes, its retries included
//     (a shorter deadline on the call's context wins); long polls,
//     GetSystemInfo and direct WorkflowService calls keep their own.
//     Default: 10 s.
//   - HeadersProvider: adds gRPC headers to every request, such as a
//     rotating authorization token.
//   - TrafficController: asked before every request attempt whether it
//     may go out; for tests that inject failures.
//   - DisableErrorCodeMetricTags: leave the status_code tag off the
//     request failure metrics.
//   - Plugins: configure the client and wrap its creation, in order (see
//     Plugin); those that are also worker plugins apply to the client's
//     workers too.
//   - PayloadLimits: the sizes above which the client and its workers log
//     a warning before sending payloads or a memo (PayloadLimitOptions).
//   - WorkerHeartbeatInterval: how often the client sends its workers'
//     heartbeats (host, task queue, SDK, slots and tasks, polls, sticky
//     cache, plugins, runtime), which the server shows in `temporal
//     worker list` and the UI's Workers page. From 1 s to 60 s; default
//     (0): 60 s; negative: none. Only to a namespace that reports the
//     WorkerHeartbeats capability (server 1.29 and later). Experimental.
//   - SdkName, SdkVersion: the SDK name and version the heartbeats report
//     (default: this SDK's), for an SDK that embeds this one.
//     Experimental.
//   - DisableWorkerEnvironmentInfo: leave the Go runtime, the platform and
//     the hosting environments (container, Kubernetes, cloud services)
//     out of the heartbeats. Experimental.
//   - ExternalStorage: keep payloads above a size threshold (256 KiB by
//     default) outside the workflow history: the client and its workers
//     store them with a driver and send a reference instead, and
//     retrieve what they read (converter.ExternalStorage; the external
//     storage guide). Experimental, as in go.temporal.io/sdk.
//
// For Temporal Cloud with an API key:
//
//	c, err := client.Dial(client.Options{
//		HostPort:    "my-ns.a1b2c.tmprl.cloud:7233",
//		Namespace:   "my-ns.a1b2c",
//		Credentials: client.NewAPIKeyStaticCredentials(os.Getenv("TEMPORAL_API_KEY")),
//	})
type Options = internal.ClientOptions

// PayloadLimitOptions (Options.PayloadLimits) are the sizes above which
// the client and its workers log a warning before sending payloads: one
// request field's payloads (PayloadSizeWarning, 512 KiB by default) and a
// memo (MemoSizeWarning, 2 KiB). Larger than the server takes (its
// namespace's limits, 2 MiB by default), a worker's results fail their
// task instead; see worker.Options.DisablePayloadErrorLimit.
// Experimental, as in go.temporal.io/sdk.
type PayloadLimitOptions = internal.PayloadLimitOptions

// ConnectionOptions tune a client's gRPC connection (Options.ConnectionOptions).
//
//   - TLS: enables TLS with this configuration. Default (nil): plaintext,
//     unless API key credentials turn TLS on.
//   - TLSDisabled: keep plaintext even with API key credentials; not with
//     TLS.
//   - Authority: overrides the :authority header of requests.
//   - DisableKeepAliveCheck: send no keepalive pings.
//   - KeepAliveTime: the idle time after which the client pings the
//     server. Default: 30s; at least 10s.
//   - KeepAliveTimeout: how long the client waits for a ping's answer
//     before it closes the connection. Default: 15s.
//   - DisableKeepAlivePermitWithoutStream: no pings while no call is in
//     flight.
//   - GetSystemInfoTimeout: bounds the call with which Dial checks the
//     server. Default: 5s.
//   - MaxPayloadSize: the largest gRPC message, either way. Default:
//     128 MiB.
//   - GrpcCompression: compress requests (&GrpcCompressionGzip{}). Default
//     (nil): no compression, unlike go.temporal.io/sdk, which compresses
//     with gzip.
//   - DialOptions: more grpc.DialOption, applied after the client's own.
//     Interceptors given here run inside the client's retries and
//     headers; transport credentials here cannot replace the TLS that TLS
//     or Credentials set up.
//   - DisableRawSocketIO: read and write sockets through the Go runtime's
//     usual path. By default, on Linux, the client uses raw system calls,
//     which spares an idle worker the wake-ups of the runtime's monitor
//     thread; DURABLE_RAW_SOCKET=off does the same for the whole process.
//     An addition to go.temporal.io/sdk's options.
type ConnectionOptions = clientapi.ConnectionOptions

// Credentials authenticate a client (Options.Credentials); make them with
// NewAPIKeyStaticCredentials, NewAPIKeyDynamicCredentials or
// NewMTLSCredentials.
type Credentials = clientapi.Credentials

// NewAPIKeyStaticCredentials authenticates with a fixed API key, sent as
// "authorization: Bearer <key>". TLS is turned on unless
// ConnectionOptions.TLSDisabled is set.
func NewAPIKeyStaticCredentials(apiKey string) Credentials {
	return clientapi.NewAPIKeyStaticCredentials(apiKey)
}

// NewAPIKeyDynamicCredentials authenticates with the API key that
// getAPIKey returns before each request attempt, for keys that rotate. TLS
// is turned on unless ConnectionOptions.TLSDisabled is set.
func NewAPIKeyDynamicCredentials(getAPIKey func(context.Context) (string, error)) Credentials {
	return clientapi.NewAPIKeyDynamicCredentials(getAPIKey)
}

// NewMTLSCredentials authenticates with a client certificate over TLS
// (mutual TLS), as Temporal Cloud namespaces without API keys require:
//
//	cert, err := tls.LoadX509KeyPair("client.pem", "client.key")
//	...
//	c, err := client.Dial(client.Options{
//		HostPort:    "my-ns.a1b2c.tmprl.cloud:7233",
//		Namespace:   "my-ns.a1b2c",
//		Credentials: client.NewMTLSCredentials(cert),
//	})
func NewMTLSCredentials(certificate tls.Certificate) Credentials {
	return clientapi.NewMTLSCredentials(certificate)
}

// GrpcCompression selects the compression of a client's requests
// (ConnectionOptions.GrpcCompression): *GrpcCompressionGzip or
// *GrpcCompressionNone.
type GrpcCompression = clientapi.GrpcCompression

// GrpcCompressionGzip compresses requests with gzip.
type GrpcCompressionGzip = clientapi.GrpcCompressionGzip

// GrpcCompressionNone sends requests uncompressed, the default.
type GrpcCompressionNone = clientapi.GrpcCompressionNone
