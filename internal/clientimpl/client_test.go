package clientimpl

import (
	"context"
	"net"
	"strings"
	"sync"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/serviceerror"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/chk"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/propagation"
	"github.com/durable-go/sdk/internal/rpc"
)

// fakeClientFrontend is a gRPC workflow service on loopback with canned
// answers, for tests of the client's side of calls a dev server cannot
// produce without a worker (results, continue-as-new, heartbeats).
type fakeClientFrontend struct {
	workflowservice.UnimplementedWorkflowServiceServer

	addr string

	mu       sync.Mutex
	requests []proto.Message
	headers  []metadata.MD
	// history holds, per run ID, the answers to give to history reads in
	// order; the last one repeats.
	history map[string][]*workflowservice.GetWorkflowExecutionHistoryResponse
	// errs holds, per method name, errors to return once each.
	errs map[string][]error

	startResponse   *workflowservice.StartWorkflowExecutionResponse
	queryResponse   *workflowservice.QueryWorkflowResponse
	describeRunID   string
	cancelRequested bool

	// The answers to update calls, given in order; with none left, the
	// call waits for the caller to give up (update_test.go).
	updateResponses         []*workflowservice.UpdateWorkflowExecutionResponse
	pollUpdateResponses     []*workflowservice.PollWorkflowExecutionUpdateResponse
	multiOperationResponses []*workflowservice.ExecuteMultiOperationResponse
}

func startFakeClientFrontend(t *testing.T) *fakeClientFrontend {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	chk.NoErr(t, err)
	f := &fakeClientFrontend{
		addr:    lis.Addr().String(),
		history: map[string][]*workflowservice.GetWorkflowExecutionHistoryResponse{},
		errs:    map[string][]error{},
	}
	srv := grpc.NewServer(grpc.UnaryInterceptor(f.record))
	workflowservice.RegisterWorkflowServiceServer(srv, f)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	return f
}

// client returns a lazy client of the fake, closed with the test.
func (f *fakeClientFrontend) client(t *testing.T, options internal.ClientOptions) *workflowClient {
	t.Helper()
	options.HostPort = f.addr
	c, err := NewLazyClient(options)
	chk.NoErr(t, err)
	t.Cleanup(c.Close)
	return c.(*workflowClient)
}

// record keeps every request and its headers, and returns queued errors.
func (f *fakeClientFrontend) record(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	f.mu.Lock()
	f.requests = append(f.requests, req.(proto.Message))
	f.headers = append(f.headers, md)
	name := info.FullMethod[len("/temporal.api.workflowservice.v1.WorkflowService/"):]
	var err error
	if queued := f.errs[name]; len(queued) > 0 {
		err, f.errs[name] = queued[0], queued[1:]
	}
	f.mu.Unlock()
	if err == nil {
		var resp any
		resp, err = handler(ctx, req)
		if err == nil {
			return resp, nil
		}
	}
	// serviceerror types carry their gRPC status in a way gRPC servers do
	// not look for; convert, as the Temporal server does.
	return nil, serviceerror.ToStatus(err).Err()
}

func (f *fakeClientFrontend) failNext(method string, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errs[method] = append(f.errs[method], err)
}

// received returns the requests of type T, in order.
func receivedRequests[T proto.Message](f *fakeClientFrontend) []T {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []T
	for _, r := range f.requests {
		if t, ok := r.(T); ok {
			out = append(out, t)
		}
	}
	return out
}

func (f *fakeClientFrontend) GetSystemInfo(context.Context, *workflowservice.GetSystemInfoRequest) (*workflowservice.GetSystemInfoResponse, error) {
	return &workflowservice.GetSystemInfoResponse{}, nil
}

func (f *fakeClientFrontend) DescribeNamespace(_ context.Context, req *workflowservice.DescribeNamespaceRequest) (*workflowservice.DescribeNamespaceResponse, error) {
	if req.GetNamespace() == "missing" {
		return nil, serviceerror.NewNamespaceNotFound("missing")
	}
	return &workflowservice.DescribeNamespaceResponse{}, nil
}

func (f *fakeClientFrontend) GetWorkflowExecutionHistory(_ context.Context, req *workflowservice.GetWorkflowExecutionHistoryRequest) (*workflowservice.GetWorkflowExecutionHistoryResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	queue := f.history[req.GetExecution().GetRunId()]
	if len(queue) == 0 {
		return nil, serviceerror.NewNotFound("no such run")
	}
	resp := queue[0]
	if len(queue) > 1 {
		f.history[req.GetExecution().GetRunId()] = queue[1:]
	}
	return resp, nil
}

// set changes the fake's canned answers safely while it serves.
func (f *fakeClientFrontend) set(change func(f *fakeClientFrontend)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	change(f)
}

func (f *fakeClientFrontend) StartWorkflowExecution(context.Context, *workflowservice.StartWorkflowExecutionRequest) (*workflowservice.StartWorkflowExecutionResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.startResponse, nil
}

func (f *fakeClientFrontend) DescribeWorkflowExecution(_ context.Context, req *workflowservice.DescribeWorkflowExecutionRequest) (*workflowservice.DescribeWorkflowExecutionResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return &workflowservice.DescribeWorkflowExecutionResponse{WorkflowExecutionInfo: &workflowpb.WorkflowExecutionInfo{
		Execution: &commonpb.WorkflowExecution{WorkflowId: req.GetExecution().GetWorkflowId(), RunId: f.describeRunID},
	}}, nil
}

func (f *fakeClientFrontend) QueryWorkflow(context.Context, *workflowservice.QueryWorkflowRequest) (*workflowservice.QueryWorkflowResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.queryResponse, nil
}

func (f *fakeClientFrontend) RespondActivityTaskCompleted(context.Context, *workflowservice.RespondActivityTaskCompletedRequest) (*workflowservice.RespondActivityTaskCompletedResponse, error) {
	return &workflowservice.RespondActivityTaskCompletedResponse{}, nil
}

func (f *fakeClientFrontend) RespondActivityTaskCanceled(context.Context, *workflowservice.RespondActivityTaskCanceledRequest) (*workflowservice.RespondActivityTaskCanceledResponse, error) {
	return &workflowservice.RespondActivityTaskCanceledResponse{}, nil
}

func (f *fakeClientFrontend) RespondActivityTaskFailed(context.Context, *workflowservice.RespondActivityTaskFailedRequest) (*workflowservice.RespondActivityTaskFailedResponse, error) {
	return &workflowservice.RespondActivityTaskFailedResponse{}, nil
}

func (f *fakeClientFrontend) RespondActivityTaskCompletedById(context.Context, *workflowservice.RespondActivityTaskCompletedByIdRequest) (*workflowservice.RespondActivityTaskCompletedByIdResponse, error) {
	return &workflowservice.RespondActivityTaskCompletedByIdResponse{}, nil
}

func (f *fakeClientFrontend) RespondActivityTaskCanceledById(context.Context, *workflowservice.RespondActivityTaskCanceledByIdRequest) (*workflowservice.RespondActivityTaskCanceledByIdResponse, error) {
	return &workflowservice.RespondActivityTaskCanceledByIdResponse{}, nil
}

func (f *fakeClientFrontend) RespondActivityTaskFailedById(context.Context, *workflowservice.RespondActivityTaskFailedByIdRequest) (*workflowservice.RespondActivityTaskFailedByIdResponse, error) {
	return &workflowservice.RespondActivityTaskFailedByIdResponse{}, nil
}

func (f *fakeClientFrontend) RecordActivityTaskHeartbeat(context.Context, *workflowservice.RecordActivityTaskHeartbeatRequest) (*workflowservice.RecordActivityTaskHeartbeatResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return &workflowservice.RecordActivityTaskHeartbeatResponse{CancelRequested: f.cancelRequested}, nil
}

func (f *fakeClientFrontend) RecordActivityTaskHeartbeatById(context.Context, *workflowservice.RecordActivityTaskHeartbeatByIdRequest) (*workflowservice.RecordActivityTaskHeartbeatByIdResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return &workflowservice.RecordActivityTaskHeartbeatByIdResponse{CancelRequested: f.cancelRequested}, nil
}

func (f *fakeClientFrontend) GetSearchAttributes(context.Context, *workflowservice.GetSearchAttributesRequest) (*workflowservice.GetSearchAttributesResponse, error) {
	return &workflowservice.GetSearchAttributesResponse{}, nil
}

func TestDialChecksTheNamespace(t *testing.T) {
	f := startFakeClientFrontend(t)
	c, err := DialClient(context.Background(), internal.ClientOptions{HostPort: f.addr, Namespace: "orders"})
	chk.NoErr(t, err)
	c.Close()

	_, err = DialClient(context.Background(), internal.ClientOptions{HostPort: f.addr, Namespace: "missing"})
	var notFound *rpc.NamespaceNotFoundError
	chk.ErrAs(t, err, &notFound)
	chk.Equal(t, "missing", notFound.Namespace)
}

func TestDialToleratesANamespaceItMayNotDescribe(t *testing.T) {
	f := startFakeClientFrontend(t)
	f.failNext("DescribeNamespace", serviceerror.NewPermissionDenied("scoped key", ""))
	c, err := DialClient(context.Background(), internal.ClientOptions{HostPort: f.addr})
	chk.NoErr(t, err)
	c.Close()
}

func TestDialReportsABadOptionBeforeConnecting(t *testing.T) {
	_, err := DialClient(context.Background(), internal.ClientOptions{HostPort: "no-port"})
	chk.ErrContains(t, err, "want host:port")
}

func TestClientsSharingAConnectionCloseItWithTheLast(t *testing.T) {
	f := startFakeClientFrontend(t)
	first, err := NewLazyClient(internal.ClientOptions{HostPort: f.addr})
	chk.NoErr(t, err)
	second, err := NewClientFromExisting(context.Background(), first, internal.ClientOptions{Namespace: "other", Identity: "second"})
	chk.NoErr(t, err)
	chk.Same(t, first.(*workflowClient).conn, second.(*workflowClient).conn)
	chk.Equal(t, "other", second.(*workflowClient).namespace)
	chk.Equal(t, "second", second.(*workflowClient).identity)

	first.Close()
	first.Close() // a second Close of the same client must not count
	_, err = second.GetSearchAttributes(context.Background())
	chk.NoErr(t, err, "the connection stays open for the second client")
	f.mu.Lock()
	md := f.headers[len(f.headers)-1]
	f.mu.Unlock()
	chk.Equal(t, []string{"other"}, md.Get(rpc.HeaderNamespace), "the namespace header is the client's own")

	second.Close()
	_, err = second.GetSearchAttributes(context.Background())
	chk.Err(t, err, "the last Close closes the connection")

	_, err = NewClientFromExisting(context.Background(), second, internal.ClientOptions{})
	chk.ErrContains(t, err, "existing client is closed")
}

func TestNewClientFromExistingChecksADifferentNamespace(t *testing.T) {
	f := startFakeClientFrontend(t)
	base := f.client(t, internal.ClientOptions{})
	_, err := NewClientFromExisting(context.Background(), base, internal.ClientOptions{Namespace: "missing"})
	var notFound *rpc.NamespaceNotFoundError
	chk.ErrAs(t, err, &notFound)

	_, err = NewClientFromExisting(context.Background(), nil, internal.ClientOptions{})
	chk.ErrContains(t, err, "existing client must come from")
}

func TestExecuteWorkflowReturnsTheRunHoldingTheID(t *testing.T) {
	f := startFakeClientFrontend(t)
	c := f.client(t, internal.ClientOptions{})
	f.failNext("StartWorkflowExecution", serviceerror.NewWorkflowExecutionAlreadyStarted("started", "", "running-run"))
	run, err := c.ExecuteWorkflow(context.Background(), clientapi.StartWorkflowOptions{ID: "wf", TaskQueue: "q"}, "W")
	chk.NoErr(t, err)
	chk.Equal(t, "running-run", run.GetRunID())

	f.failNext("StartWorkflowExecution", serviceerror.NewWorkflowExecutionAlreadyStarted("started", "", "running-run"))
	_, err = c.ExecuteWorkflow(context.Background(), clientapi.StartWorkflowOptions{ID: "wf", TaskQueue: "q", WorkflowExecutionErrorWhenAlreadyStarted: true}, "W")
	_, isAlreadyStarted := err.(*serviceerror.WorkflowExecutionAlreadyStarted)
	chk.True(t, isAlreadyStarted)
}

func TestExecuteWorkflowGeneratesAnID(t *testing.T) {
	f := startFakeClientFrontend(t)
	f.set(func(f *fakeClientFrontend) {
		f.startResponse = &workflowservice.StartWorkflowExecutionResponse{RunId: "r1"}
	})
	c := f.client(t, internal.ClientOptions{})
	run, err := c.ExecuteWorkflow(context.Background(), clientapi.StartWorkflowOptions{TaskQueue: "q"}, "W")
	chk.NoErr(t, err)
	chk.NotEmpty(t, run.GetID())
	chk.Equal(t, "r1", run.GetRunID())
	reqs := receivedRequests[*workflowservice.StartWorkflowExecutionRequest](f)
	chk.Len(t, reqs, 1)
	chk.Equal(t, run.GetID(), reqs[0].GetWorkflowId())
}

type staticHeaders map[string]string

func (h staticHeaders) GetHeaders(context.Context) (map[string]string, error) { return h, nil }

// blockingController refuses every call to one method.
type blockingController struct{ method string }

func (b blockingController) CheckCallAllowed(_ context.Context, method string, _, _ any) error {
	if strings.HasSuffix(method, "/"+b.method) {
		return serviceerror.NewPermissionDenied("blocked by the test", "")
	}
	return nil
}

func TestHeadersProviderAndTrafficControllerApplyToCalls(t *testing.T) {
	f := startFakeClientFrontend(t)
	c := f.client(t, internal.ClientOptions{
		HeadersProvider:   staticHeaders{"x-tenant": "acme"},
		TrafficController: blockingController{method: "GetSearchAttributes"},
	})
	_, err := c.DescribeWorkflowExecution(context.Background(), "wf", "")
	chk.NoErr(t, err)
	f.mu.Lock()
	md := f.headers[len(f.headers)-1]
	f.mu.Unlock()
	chk.Equal(t, []string{"acme"}, md.Get("x-tenant"))

	_, err = c.GetSearchAttributes(context.Background())
	var denied *serviceerror.PermissionDenied
	chk.ErrAs(t, err, &denied)
	chk.Len(t, receivedRequests[*workflowservice.GetSearchAttributesRequest](f), 0, "the call never left")
}

// mapPropagator carries the "k" value of a Go context through header
// field "k" (package internal's tests have one too).
type mapPropagator struct{}

type mapPropagatorKey struct{}

func (mapPropagator) Inject(ctx context.Context, w propagation.HeaderWriter) error {
	if v, ok := ctx.Value(mapPropagatorKey{}).(string); ok {
		w.Set("k", &commonpb.Payload{Data: []byte(v)})
	}
	return nil
}

func (mapPropagator) Extract(ctx context.Context, r propagation.HeaderReader) (context.Context, error) {
	if p, ok := r.Get("k"); ok {
		return context.WithValue(ctx, mapPropagatorKey{}, string(p.GetData())), nil
	}
	return ctx, nil
}

func (mapPropagator) InjectFromWorkflow(internal.Context, propagation.HeaderWriter) error { return nil }

func (mapPropagator) ExtractToWorkflow(ctx internal.Context, _ propagation.HeaderReader) (internal.Context, error) {
	return ctx, nil
}
