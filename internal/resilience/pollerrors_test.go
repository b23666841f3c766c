package resilience

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
)

// TestAPollAnsweredUnknownIsLoggedAtOnce: a workflow poll the server (or
// a proxy) answers with gRPC code Unknown was retried in silence for
// about 70 s, inside the connection's retries. It goes back at once to
// the worker's poll loop, which logs it and polls again after a backoff;
// once the polls are answered again, the worker runs workflows.
func TestAPollAnsweredUnknownIsLoggedAtOnce(t *testing.T) {
	var failing atomic.Bool
	failing.Store(true)
	const failure = "the proxy in front of the server broke"
	failPolls := func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if method == workflowservice.WorkflowService_PollWorkflowTaskQueue_FullMethodName && failing.Load() {
			return status.Error(codes.Unknown, failure)
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
	logs := &lineLogger{}
	c, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), Logger: logs,
		ConnectionOptions: client.ConnectionOptions{DialOptions: []grpc.DialOption{grpc.WithChainUnaryInterceptor(failPolls)}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tq := unique(t, "tq")
	w := worker.New(c, tq, worker.Options{})
	w.RegisterWorkflow(LogsAndRunsAnActivity)
	w.RegisterActivity(HeartbeatsAndLogs)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	// At once, not after a minute: the bound is generous.
	waitUntil(t, 20*time.Second, "the failed poll logged", func() bool {
		for _, line := range logs.all() {
			if strings.Contains(line, "WARN polling failed; retrying TaskKind=workflow") && strings.Contains(line, failure) {
				return true
			}
		}
		return false
	})
	failing.Store(false)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: tq}, LogsAndRunsAnActivity)
	if err != nil {
		t.Fatal(err)
	}
	var out string
	if err := run.Get(ctx, &out); err != nil || out != "done" {
		t.Errorf("the workflow returned %q, %v; want it done once polls are answered", out, err)
	}
}
