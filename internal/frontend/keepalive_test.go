package frontend

import (
	"context"
	"net"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/connectivity"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/keepalive"

	"github.com/durable-go/sdk/internal/chk"
)

// TestKeepalivePingsKeepTheConnection pings an idle connection every
// 11 s, a little more than a Temporal server's minimum of 10 s (gRPC's
// least for a client is 10 s; exactly 10 is on the edge):
// the server keeps the connection, where gRPC's default policy answers
// the third ping with a GoAway ("too_many_pings") and the connection
// goes idle.
func TestKeepalivePingsKeepTheConnection(t *testing.T) {
	if testing.Short() {
		t.Skip("waits 38 s for keepalive pings")
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	chk.NoErr(t, err)
	gs := grpc.NewServer(ServerOptions()...)
	workflowservice.RegisterWorkflowServiceServer(gs, newFrontend(t))
	go func() { _ = gs.Serve(lis) }()
	defer gs.Stop()

	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithKeepaliveParams(keepalive.ClientParameters{Time: 11 * time.Second, Timeout: 5 * time.Second, PermitWithoutStream: true}))
	chk.NoErr(t, err)
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err = workflowservice.NewWorkflowServiceClient(conn).GetSystemInfo(ctx, &workflowservice.GetSystemInfoRequest{})
	chk.NoErr(t, err)
	if s := conn.GetState(); s != connectivity.Ready {
		t.Fatalf("after a call the connection is %s, want READY", s)
	}
	// Three pings and a margin; any change of state (a GoAway makes the
	// connection idle) ends the wait early.
	waitCtx, waitCancel := context.WithTimeout(ctx, 38*time.Second)
	defer waitCancel()
	if conn.WaitForStateChange(waitCtx, connectivity.Ready) {
		t.Fatalf("the idle connection went from READY to %s: the server refused the client's keepalive pings", conn.GetState())
	}
}
