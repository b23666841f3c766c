package internal

import (
	"context"

	deploymentpb "go.temporal.io/api/deployment/v1"
	workerpb "go.temporal.io/api/worker/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/extstore"
	"github.com/durable-go/sdk/internal/payloadlimit"
	"github.com/durable-go/sdk/internal/rpc"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/internal/workerheartbeat"
	"github.com/durable-go/sdk/log"
)

// WorkerClient is the client as the workers made from it see it. The
// clients that Dial, NewLazyClient and NewClientFromExisting make are
// one; NewWorker refuses any other Client (a mock, say), as
// go.temporal.io/sdk does.
type WorkerClient interface {
	Client
	// WorkerSettings are what the client's workers share with it.
	WorkerSettings() ClientSettings
	// CheckNamespace asks the server about the client's namespace, as
	// Dial does: credentials not allowed to describe it, and servers
	// without the call, let it pass.
	CheckNamespace(ctx context.Context) error
	// AddEagerWorkflowWorker makes w one of the workers that may take the
	// first task of a workflow the client starts on taskQueue with
	// StartWorkflowOptions.EnableEagerStart, until
	// RemoveEagerWorkflowWorker.
	AddEagerWorkflowWorker(taskQueue string, w EagerWorkflowTaker)
	RemoveEagerWorkflowWorker(taskQueue string, w EagerWorkflowTaker)
}

// ClientSettings are what a client's workers share with it.
type ClientSettings struct {
	// Conn is the client's connection: its workflow service, and the
	// capabilities the server reported.
	Conn *rpc.Conn
	// Service is the client's workflow service as its own calls use it:
	// each call bounded by the client's RPCTimeout.
	Service          workflowservice.WorkflowServiceClient
	Namespace        string
	Identity         string
	DataConverter    converter.DataConverter
	FailureConverter converter.FailureConverter
	Propagators      []ContextPropagator
	Logger           log.Logger
	Metrics          sdkmetrics.Handler
	// Interceptors are the client's interceptors that are also
	// WorkerInterceptors; they wrap the worker's own.
	Interceptors []WorkerInterceptor
	// Plugins are the client's plugins that are also WorkerPlugins; they
	// configure and wrap the worker before its own.
	Plugins []WorkerPlugin
	// PayloadWarnings are the sizes of ClientOptions.PayloadLimits,
	// above which the workers warn of their answers' payloads too.
	PayloadWarnings payloadlimit.Sizes
	// Storage is the client's external storage (nil: none), which its
	// workers' answers are stored with before their size is checked.
	Storage *extstore.Storage
	// Heartbeats sends the workers' heartbeats (nil: none are sent);
	// SDKName and SDKVersion are what they say the SDK is, Environment
	// what they tell of the process (nil with
	// DisableWorkerEnvironmentInfo).
	Heartbeats          *workerheartbeat.Sender
	SDKName, SDKVersion string
	Environment         *workerpb.EnvironmentInfo
}

// EagerWorkflowTaker is all a client knows of a worker: it can take the
// first task of a workflow the client starts. The worker runtime
// (workerrt.Worker) is one; the client holds no more of it, as an
// http.Client holds only a RoundTripper.
type EagerWorkflowTaker interface {
	// ReserveEagerWorkflowTask reserves a workflow task slot, or returns
	// nil when the worker has none free. The function it returns must be
	// called with the start's eager task, or with nil when the response
	// brought none, which gives the slot back.
	ReserveEagerWorkflowTask() func(*workflowservice.PollWorkflowTaskQueueResponse)
	// EagerDeploymentOptions are the worker's deployment options, which
	// a start it takes the first task of sends (nil: it names no
	// version), so that the server records that task as the version's.
	EagerDeploymentOptions() *deploymentpb.WorkerDeploymentOptions
}
