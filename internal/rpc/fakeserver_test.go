package rpc

import (
	"context"
	"net"
	"slices"
	"sync"
	"testing"
	"time"

	namespacepb "go.temporal.io/api/namespace/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
)

// received is what the fake server saw of one call.
type received struct {
	method   string
	md       metadata.MD
	deadline time.Time // zero if the call had none
}

// fakeServer is a real gRPC server on loopback whose handlers return
// canned answers, so the tests exercise our client side over the wire.
type fakeServer struct {
	workflowservice.UnimplementedWorkflowServiceServer
	operatorservice.UnimplementedOperatorServiceServer

	addr   string
	health *health.Server

	mu     sync.Mutex
	calls  []received
	errors map[string][]error // method short name -> errors to return, in order
	delays map[string][]time.Duration
	// internalFinal is reported as the InternalErrorDifferentiation capability.
	internalFinal bool
	// historyPayload is the size of the payload GetWorkflowExecutionHistory returns.
	historyPayload int
	// namespaceCapabilities are the capabilities DescribeNamespace reports.
	namespaceCapabilities *namespacepb.NamespaceInfo_Capabilities
	// namespaceLimits are the limits DescribeNamespace reports.
	namespaceLimits *namespacepb.NamespaceInfo_Limits
}

func startFakeServer(t *testing.T, opts ...grpc.ServerOption) *fakeServer {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeServer{
		addr:   lis.Addr().String(),
		health: health.NewServer(),
		errors: map[string][]error{},
		delays: map[string][]time.Duration{},
	}
	srv := grpc.NewServer(append(opts, grpc.UnaryInterceptor(f.intercept))...)
	workflowservice.RegisterWorkflowServiceServer(srv, f)
	operatorservice.RegisterOperatorServiceServer(srv, f)
	healthpb.RegisterHealthServer(srv, f.health)
	f.health.SetServingStatus(healthService, healthpb.HealthCheckResponse_SERVING)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	return f
}

// set changes the fake's settings under its lock.
func (f *fakeServer) set(change func(f *fakeServer)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	change(f)
}

// failNext makes the next calls of method (short name) fail with errs.
func (f *fakeServer) failNext(method string, errs ...error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errors[method] = append(f.errors[method], errs...)
}

// delayNext makes the next calls of method take d each before answering.
func (f *fakeServer) delayNext(method string, d ...time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.delays[method] = append(f.delays[method], d...)
}

func (f *fakeServer) received() []received {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]received(nil), f.calls...)
}

func (f *fakeServer) count(method string) int {
	n := 0
	for _, c := range f.received() {
		if shortName(c.method) == method {
			n++
		}
	}
	return n
}

func shortName(fullMethod string) string {
	for i := len(fullMethod) - 1; i >= 0; i-- {
		if fullMethod[i] == '/' {
			return fullMethod[i+1:]
		}
	}
	return fullMethod
}

func (f *fakeServer) intercept(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	deadline, _ := ctx.Deadline()
	name := shortName(info.FullMethod)

	f.mu.Lock()
	f.calls = append(f.calls, received{method: info.FullMethod, md: md, deadline: deadline})
	var err error
	if q := f.errors[name]; len(q) > 0 {
		err, f.errors[name] = q[0], q[1:]
	}
	var delay time.Duration
	if q := f.delays[name]; len(q) > 0 {
		delay, f.delays[name] = q[0], q[1:]
	}
	f.mu.Unlock()

	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if err != nil {
		return nil, serviceerror.ToStatus(err).Err()
	}
	return handler(ctx, req)
}

func (f *fakeServer) GetSystemInfo(context.Context, *workflowservice.GetSystemInfoRequest) (*workflowservice.GetSystemInfoResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return &workflowservice.GetSystemInfoResponse{
		ServerVersion: "fake",
		Capabilities:  &workflowservice.GetSystemInfoResponse_Capabilities{InternalErrorDifferentiation: f.internalFinal},
	}, nil
}

func (f *fakeServer) StartWorkflowExecution(context.Context, *workflowservice.StartWorkflowExecutionRequest) (*workflowservice.StartWorkflowExecutionResponse, error) {
	return &workflowservice.StartWorkflowExecutionResponse{RunId: "run-1"}, nil
}

func (f *fakeServer) PollWorkflowTaskQueue(context.Context, *workflowservice.PollWorkflowTaskQueueRequest) (*workflowservice.PollWorkflowTaskQueueResponse, error) {
	return &workflowservice.PollWorkflowTaskQueueResponse{}, nil
}

func (f *fakeServer) DescribeNamespace(_ context.Context, req *workflowservice.DescribeNamespaceRequest) (*workflowservice.DescribeNamespaceResponse, error) {
	if req.GetNamespace() != "default" {
		return nil, serviceerror.ToStatus(serviceerror.NewNamespaceNotFound(req.GetNamespace())).Err()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return &workflowservice.DescribeNamespaceResponse{NamespaceInfo: &namespacepb.NamespaceInfo{Name: "default", Capabilities: f.namespaceCapabilities, Limits: f.namespaceLimits}}, nil
}

func (f *fakeServer) ListSearchAttributes(context.Context, *operatorservice.ListSearchAttributesRequest) (*operatorservice.ListSearchAttributesResponse, error) {
	return &operatorservice.ListSearchAttributesResponse{}, nil
}

func (f *fakeServer) GetWorkflowExecutionHistory(context.Context, *workflowservice.GetWorkflowExecutionHistoryRequest) (*workflowservice.GetWorkflowExecutionHistoryResponse, error) {
	f.mu.Lock()
	size := f.historyPayload
	f.mu.Unlock()
	return &workflowservice.GetWorkflowExecutionHistoryResponse{NextPageToken: make([]byte, size)}, nil
}

// fastRetries keeps retry tests quick while keeping the policy's shape.
var fastRetries = RetryPolicy{
	InitialInterval: time.Millisecond,
	MaximumInterval: 5 * time.Millisecond,
	MaximumElapsed:  2 * time.Second,
}

// dialFake returns a lazy connection to f with o's settings.
func dialFake(t *testing.T, f *fakeServer, o Options) *Conn {
	t.Helper()
	o.HostPort = f.addr
	c, err := NewConn(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// must fails t at once if err is not nil.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// wantCalls checks how many times the server received method.
func wantCalls(t *testing.T, f *fakeServer, method string, n int) {
	t.Helper()
	if got := f.count(method); got != n {
		t.Errorf("server received %d %s calls, want %d", got, method, n)
	}
}

// wantCode checks err's gRPC code, whatever its Go type.
func wantCode(t *testing.T, err error, code codes.Code) {
	t.Helper()
	if got := serviceerror.ToStatus(err).Code(); got != code {
		t.Errorf("error %v has code %v, want %v", err, got, code)
	}
}

// wantHeader checks the values of one metadata key.
func wantHeader(t *testing.T, md metadata.MD, key string, want ...string) {
	t.Helper()
	if got := md.Get(key); !slices.Equal(got, want) {
		t.Errorf("header %s = %q, want %q", key, got, want)
	}
}
