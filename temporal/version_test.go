package temporal_test

import (
	"context"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporal"
)

// A client announces this SDK to the server by its own name and version,
// not as go.temporal.io/sdk, whose API version SDKVersion is.
func TestClientSendsThisSDKsNameAndVersion(t *testing.T) {
	if temporal.SDKVersion != "1.50.0" {
		t.Errorf("SDKVersion %q: this SDK implements the API of go.temporal.io/sdk v1.50.0", temporal.SDKVersion)
	}
	sent := make(chan metadata.MD, 1)
	record := func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		md, _ := metadata.FromOutgoingContext(ctx)
		select {
		case sent <- md:
		default:
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
	// A lazy client sends its first request, which fails for want of a
	// server: the headers are recorded before it leaves.
	c, err := client.NewLazyClient(client.Options{
		HostPort:          "127.0.0.1:1",
		ConnectionOptions: client.ConnectionOptions{DialOptions: []grpc.DialOption{grpc.WithChainUnaryInterceptor(record)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, _ = c.WorkflowService().GetSystemInfo(ctx, &workflowservice.GetSystemInfoRequest{})
	md := <-sent
	if got := md.Get("client-version"); len(got) != 1 || got[0] == temporal.SDKVersion || got[0] == "" {
		t.Errorf("client-version header %v, want this SDK's own version", got)
	}
	if got := md.Get("client-name"); len(got) != 1 || got[0] != "durable-go" {
		t.Errorf("client-name header %v, want [durable-go]", got)
	}
}
