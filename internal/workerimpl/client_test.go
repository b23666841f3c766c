package workerimpl

import (
	"context"
	"net"
	"sync"
	"testing"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/chk"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/logging"
	"github.com/durable-go/sdk/internal/rpc"
	"github.com/durable-go/sdk/internal/sdkmetrics"
)

// fakeClientFrontend is a gRPC workflow service on loopback that answers
// GetSystemInfo and DescribeNamespace and leaves every other call
// unimplemented: enough for a worker to start, poll and stop. The
// client's own tests have a fuller one (internal/clientimpl).
type fakeClientFrontend struct {
	workflowservice.UnimplementedWorkflowServiceServer

	addr string

	mu sync.Mutex
	// errs holds, per method name, errors to return once each.
	errs map[string][]error
}

func startFakeClientFrontend(t *testing.T) *fakeClientFrontend {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	chk.NoErr(t, err)
	f := &fakeClientFrontend{addr: lis.Addr().String(), errs: map[string][]error{}}
	srv := grpc.NewServer(grpc.UnaryInterceptor(f.failQueued))
	workflowservice.RegisterWorkflowServiceServer(srv, f)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	return f
}

// failQueued returns the error queued for the method, if any.
func (f *fakeClientFrontend) failQueued(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	name := info.FullMethod[len("/temporal.api.workflowservice.v1.WorkflowService/"):]
	f.mu.Lock()
	var err error
	if queued := f.errs[name]; len(queued) > 0 {
		err, f.errs[name] = queued[0], queued[1:]
	}
	f.mu.Unlock()
	if err != nil {
		// serviceerror types carry their gRPC status in a way gRPC servers
		// do not look for; convert, as the Temporal server does.
		return nil, serviceerror.ToStatus(err).Err()
	}
	return handler(ctx, req)
}

func (f *fakeClientFrontend) failNext(method string, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errs[method] = append(f.errs[method], err)
}

func (f *fakeClientFrontend) GetSystemInfo(context.Context, *workflowservice.GetSystemInfoRequest) (*workflowservice.GetSystemInfoResponse, error) {
	return &workflowservice.GetSystemInfoResponse{}, nil
}

func (f *fakeClientFrontend) DescribeNamespace(context.Context, *workflowservice.DescribeNamespaceRequest) (*workflowservice.DescribeNamespaceResponse, error) {
	return &workflowservice.DescribeNamespaceResponse{}, nil
}

// fakeWorkerClient is the WorkerClient of a worker's tests: a connection
// to the fake frontend and the settings given. The Client it embeds is
// nil: a worker starts, polls and stops without its other methods.
type fakeWorkerClient struct {
	internal.Client
	settings internal.ClientSettings
}

// client returns a fakeWorkerClient of f with settings, whose zero fields
// take a client's defaults; its connection closes with the test.
func (f *fakeClientFrontend) client(t *testing.T, settings internal.ClientSettings) *fakeWorkerClient {
	t.Helper()
	if settings.Namespace == "" {
		settings.Namespace = clientapi.DefaultNamespace
	}
	if settings.Logger == nil {
		settings.Logger = logging.NewDefaultLogger()
	}
	if settings.DataConverter == nil {
		settings.DataConverter = converter.GetDefaultDataConverter()
	}
	if settings.FailureConverter == nil {
		settings.FailureConverter = failure.GetDefaultFailureConverter()
	}
	if settings.Metrics == nil {
		settings.Metrics = sdkmetrics.NopHandler
	}
	conn, err := rpc.NewConn(rpc.Options{HostPort: f.addr, Namespace: settings.Namespace, Logger: settings.Logger})
	chk.NoErr(t, err)
	t.Cleanup(func() { _ = conn.Close() })
	settings.Conn = conn
	settings.Service = conn.BoundedWorkflowService(0, nil)
	return &fakeWorkerClient{settings: settings}
}

func (c *fakeWorkerClient) WorkerSettings() internal.ClientSettings { return c.settings }

func (c *fakeWorkerClient) WorkflowService() workflowservice.WorkflowServiceClient {
	return c.settings.Conn.WorkflowService()
}

func (c *fakeWorkerClient) CheckNamespace(ctx context.Context) error {
	return c.settings.Conn.CheckNamespace(ctx, c.settings.Namespace)
}

func (*fakeWorkerClient) AddEagerWorkflowWorker(string, internal.EagerWorkflowTaker)    {}
func (*fakeWorkerClient) RemoveEagerWorkflowWorker(string, internal.EagerWorkflowTaker) {}
