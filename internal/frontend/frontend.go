// Package frontend puts a Temporal frontend's gRPC face on the in-memory
// server of internal/testserver: a workflowservice.WorkflowServiceServer
// that clients and workers, of this SDK or any other, reach over gRPC as
// they reach a Temporal server. Package temporaltest and the
// durable-server command serve it.
//
// It serves what a client and a worker need to run workflows (system
// info, namespaces, starts, signals, queries, updates, cancellation,
// termination, description, history with long polls and in reverse, the
// task queues' polls, answers and descriptions, heartbeats, Nexus tasks,
// schedules), search attributes (searchattributes.go) and visibility
// (visibility.go, over the list filters of listfilter.go), one file per
// group of calls, and the OperatorService's Nexus endpoints and search
// attributes. Each namespace is an in-memory server of its own, all on
// one clock (namespaces.go). Every
// other call, of the WorkflowService or of any other service, answers
// codes.Unimplemented with a message that names the call and says to
// use a Temporal dev server for it (see unimplemented.go).
package frontend

import (
	"sync"

	commonpb "go.temporal.io/api/common/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/durable-go/sdk/internal/testserver"
)

// Options configure a Frontend.
type Options struct {
	// Namespace is the namespace that exists from the start, whose name
	// Namespace reports; "default" when empty.
	Namespace string
	// Namespaces are more namespaces to create at the start, as a dev
	// server's repeated --namespace flag does; more may be registered
	// later (RegisterNamespace).
	Namespaces []string
	// Clock is the server's clock: testserver.NewClock for time skipping,
	// testserver.NewWallClock for time as on a Temporal server. The
	// frontend starts it and stops it with Stop.
	Clock *testserver.Clock
}

// Frontend is the WorkflowService over the in-memory servers of its
// namespaces.
type Frontend struct {
	workflowservice.UnimplementedWorkflowServiceServer

	clock     *testserver.Clock
	namespace string // the one that exists from the start
	// nexus carries Nexus requests between the namespaces' servers;
	// endpoints are the Nexus endpoints that route them (nexusendpoints.go).
	nexus     *testserver.NexusRouter
	endpoints nexusEndpoints

	mu sync.Mutex
	// changed is closed and replaced whenever an event is written to any
	// history: long polls on history wait for it.
	changed chan struct{}
	// namespaces by name, and in the order they were created.
	namespaces     map[string]*namespace
	namespaceOrder []*namespace
}

// New returns a frontend over new, empty servers, one per namespace, its
// clock running.
func New(opts Options) *Frontend {
	if opts.Namespace == "" {
		opts.Namespace = "default"
	}
	if opts.Clock == nil {
		opts.Clock = testserver.NewWallClock()
	}
	f := &Frontend{clock: opts.Clock, namespace: opts.Namespace, changed: make(chan struct{}),
		nexus: testserver.NewNexusRouter(), namespaces: make(map[string]*namespace)}
	for _, name := range append([]string{opts.Namespace}, opts.Namespaces...) {
		if _, exists := f.namespaces[name]; !exists && name != "" {
			f.namespaces[name] = f.newNamespace(name, startNamespace(name))
		}
	}
	opts.Clock.Start()
	return f
}

// newServer is the in-memory server of a new namespace, on the
// frontend's clock, sharing its Nexus router and endpoints.
func (f *Frontend) newServer(namespace string) *testserver.Server {
	return testserver.New(testserver.Options{
		Namespace:            namespace,
		Clock:                f.clock,
		ChainTopLevelRuns:    true,
		WorkflowTaskTimeouts: true,
		OnEvent:              func(*commonpb.WorkflowExecution, *historypb.HistoryEvent) { f.eventWritten() },
		NexusRouter:          f.nexus,
		NexusEndpoint:        f.endpoints.target,
		RetryNexusTasks:      true,
		// Search attributes are refused as a server refuses them
		// (searchattributes.go).
		CheckSearchAttributes: true,

		StartScheduledWorkflow: f.startScheduledWorkflow, // schedule.go
	})
}

// Clock is the server's clock.
func (f *Frontend) Clock() *testserver.Clock { return f.clock }

// Namespace is the namespace that exists from the start (Options.Namespace).
func (f *Frontend) Namespace() string { return f.namespace }

// Stop stops the server's clock: no timer fires after it.
func (f *Frontend) Stop() { f.clock.StopRunning() }

// Register adds the frontend's services to a gRPC server made with
// ServerOptions: the WorkflowService, the OperatorService, and the gRPC
// health service, which reports it serving (client.CheckHealth asks it).
func (f *Frontend) Register(s *grpc.Server) {
	workflowservice.RegisterWorkflowServiceServer(s, f)
	operatorservice.RegisterOperatorServiceServer(s, &Operator{f: f})
	h := health.NewServer()
	h.SetServingStatus(workflowservice.WorkflowService_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)
	healthpb.RegisterHealthServer(s, h)
}

func (f *Frontend) eventWritten() {
	f.mu.Lock()
	close(f.changed)
	f.changed = make(chan struct{})
	f.mu.Unlock()
}

// changes returns a channel closed at the next event written.
func (f *Frontend) changes() <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.changed
}
