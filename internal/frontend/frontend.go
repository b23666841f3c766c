// Package frontend puts a Temporal frontend's gRPC face on the in-memory
// server of internal/testserver: a workflowservice.WorkflowServiceServer
// that clients and workers, of this SDK or any other, reach over gRPC as
// they reach a Temporal server. Package temporaltest and the
// durable-server command serve it.
//
// It serves what a client and a worker need to run workflows (system
// info, the namespace, starts, signals, queries, updates, cancellation,
// termination, description, history with long polls and in reverse, the
// task queues' polls, answers and descriptions, heartbeats, schedules),
// search attributes (searchattributes.go, with the OperatorService's
// calls for them) and visibility (visibility.go, over the list filters
// of listfilter.go), one file per group of calls. Every
// other call, of the WorkflowService or of any other service, answers
// codes.Unimplemented with a message that names the call and says to
// use a Temporal dev server for it (see unimplemented.go).
package frontend

import (
	"sync"

	commonpb "go.temporal.io/api/common/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/durable-go/sdk/internal/testserver"
)

// Options configure a Frontend.
type Options struct {
	// Namespace is the one namespace served; "default" when empty.
	Namespace string
	// Clock is the server's clock: testserver.NewClock for time skipping,
	// testserver.NewWallClock for time as on a Temporal server. The
	// frontend starts it and stops it with Stop.
	Clock *testserver.Clock
}

// Frontend is the WorkflowService over one in-memory server.
type Frontend struct {
	workflowservice.UnimplementedWorkflowServiceServer

	server    *testserver.Server
	clock     *testserver.Clock
	namespace string

	mu sync.Mutex
	// changed is closed and replaced whenever an event is written to any
	// history: long polls on history wait for it.
	changed chan struct{}
	// startRequests finds the run a start request ID started, so that a
	// client that retries a start gets the same run.
	startRequests map[string]*commonpb.WorkflowExecution
}

// New returns a frontend over a new, empty server, its clock running.
func New(opts Options) *Frontend {
	if opts.Namespace == "" {
		opts.Namespace = "default"
	}
	if opts.Clock == nil {
		opts.Clock = testserver.NewWallClock()
	}
	f := &Frontend{clock: opts.Clock, namespace: opts.Namespace, changed: make(chan struct{}), startRequests: make(map[string]*commonpb.WorkflowExecution)}
	f.server = testserver.New(testserver.Options{
		Namespace:             opts.Namespace,
		Clock:                 opts.Clock,
		ChainTopLevelRuns:     true,
		WorkflowTaskTimeouts:  true,
		CheckSearchAttributes: true,
		OnEvent:               func(*commonpb.WorkflowExecution, *historypb.HistoryEvent) { f.eventWritten() },

		StartScheduledWorkflow: f.startScheduledWorkflow, // schedule.go
	})
	opts.Clock.Start()
	return f
}

// Server is the in-memory server behind the frontend.
func (f *Frontend) Server() *testserver.Server { return f.server }

// Clock is the server's clock.
func (f *Frontend) Clock() *testserver.Clock { return f.clock }

// Namespace is the namespace served.
func (f *Frontend) Namespace() string { return f.namespace }

// Stop stops the server's clock: no timer fires after it.
func (f *Frontend) Stop() { f.clock.StopRunning() }

// Register adds the frontend's services to a gRPC server made with
// ServerOptions: the WorkflowService, and the gRPC health service, which
// reports it serving (client.CheckHealth asks it).
func (f *Frontend) Register(s *grpc.Server) {
	workflowservice.RegisterWorkflowServiceServer(s, f)
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

// checkNamespace refuses a request for a namespace other than the one
// served, as a server refuses an unknown namespace.
func (f *Frontend) checkNamespace(ns string) error {
	if ns != f.namespace {
		return serviceerror.NewNamespaceNotFound(ns)
	}
	return nil
}
