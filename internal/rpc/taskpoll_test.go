package rpc

import (
	"context"
	"testing"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func pollWorkflowTask(c *Conn) error {
	_, err := c.WorkflowService().PollWorkflowTaskQueue(context.Background(), &workflowservice.PollWorkflowTaskQueueRequest{Namespace: "default"})
	return err
}

// A task queue poll that fails with anything but Unavailable goes back at
// once to the worker's poll loop, which logs it: retried here, an Unknown
// was retried in silence for about 70 s. Other calls still retry it, and
// polls still retry a lost connection, which the connection's watch logs.
func TestTaskPollsRetryOnlyALostConnection(t *testing.T) {
	for _, c := range []struct {
		err        error
		code       codes.Code
		pollCalls  int // attempts of the poll
		startCalls int // attempts of an ordinary call
	}{
		{status.Error(codes.Unknown, "unknown"), codes.Unknown, 1, 2},
		{serviceerror.NewInternal("internal"), codes.Internal, 1, 2},
		{serviceerror.NewResourceExhausted(0, "busy"), codes.ResourceExhausted, 1, 2},
		{serviceerror.NewUnavailable("down"), codes.OK, 2, 2},
	} {
		t.Run(c.code.String(), func(t *testing.T) {
			f := startFakeServer(t)
			conn := dialFake(t, f, Options{Retry: fastRetries})

			f.failNext("PollWorkflowTaskQueue", c.err)
			wantCode(t, pollWorkflowTask(conn), c.code)
			wantCalls(t, f, "PollWorkflowTaskQueue", c.pollCalls)

			f.failNext("StartWorkflowExecution", c.err)
			must(t, startWorkflow(conn, context.Background()))
			wantCalls(t, f, "StartWorkflowExecution", c.startCalls)
		})
	}
}
