package client_test

import (
	"context"
	"net"
	"sync"
	"testing"

	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
)

// staticHeaders is a HeadersProvider with fixed headers.
type staticHeaders map[string]string

func (h staticHeaders) GetHeaders(context.Context) (map[string]string, error) { return h, nil }

// TestWorkflowServiceProxy runs a client through a proxy server to the
// dev server: its calls work, and its headers go on unless forwarding is
// off.
func TestWorkflowServiceProxy(t *testing.T) {
	for _, forward := range []bool{true, false} {
		t.Run(map[bool]string{true: "forwarding headers", false: "not forwarding headers"}[forward], func(t *testing.T) {
			// The proxy's own client records the header it sends upstream.
			var mu sync.Mutex
			var upstream []string
			record := func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
				if method == workflowservice.WorkflowService_StartWorkflowExecution_FullMethodName {
					md, _ := metadata.FromOutgoingContext(ctx)
					mu.Lock()
					upstream = append(upstream, md.Get("x-proxy-test")...)
					mu.Unlock()
				}
				return invoker(ctx, method, req, reply, cc, opts...)
			}
			behind, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), ConnectionOptions: client.ConnectionOptions{
				DialOptions: []grpc.DialOption{grpc.WithChainUnaryInterceptor(record)},
			}})
			if err != nil {
				t.Fatal(err)
			}
			defer behind.Close()

			proxyServer, err := client.NewWorkflowServiceProxyServer(client.WorkflowServiceProxyOptions{
				Client: behind.WorkflowService(), DisableHeaderForwarding: !forward,
			})
			if err != nil {
				t.Fatal(err)
			}
			lis, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			srv := grpc.NewServer()
			workflowservice.RegisterWorkflowServiceServer(srv, proxyServer)
			go func() { _ = srv.Serve(lis) }()
			defer srv.Stop()

			// Dial checks the server and the namespace, through the proxy.
			front, err := client.Dial(client.Options{HostPort: lis.Addr().String(), HeadersProvider: staticHeaders{"x-proxy-test": "from-front"}})
			if err != nil {
				t.Fatal(err)
			}
			defer front.Close()
			run, err := front.ExecuteWorkflow(ctxFor(t), client.StartWorkflowOptions{ID: workflowID(t), TaskQueue: "client-tests"}, "ClientTestWorkflow")
			if err != nil {
				t.Fatal(err)
			}
			desc, err := behind.DescribeWorkflowExecution(ctxFor(t), run.GetID(), run.GetRunID())
			if err != nil {
				t.Fatal(err)
			}
			if desc.GetWorkflowExecutionInfo().GetType().GetName() != "ClientTestWorkflow" {
				t.Errorf("the server has %v", desc.GetWorkflowExecutionInfo())
			}

			mu.Lock()
			defer mu.Unlock()
			if forward && (len(upstream) != 1 || upstream[0] != "from-front") {
				t.Errorf("header sent upstream %q, want the client's", upstream)
			}
			if !forward && len(upstream) != 0 {
				t.Errorf("header sent upstream %q with forwarding off", upstream)
			}
		})
	}

	if _, err := client.NewWorkflowServiceProxyServer(client.WorkflowServiceProxyOptions{}); err == nil {
		t.Error("a proxy without a client was made")
	}
}
