package rpc

import (
	"context"
	"sync/atomic"
	"testing"

	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
)

// BenchmarkCallInterceptors is what this package adds to a call that
// succeeds at its first attempt: the retry and header interceptors,
// around an invoker that does nothing.
func BenchmarkCallInterceptors(b *testing.B) {
	o := Options{Namespace: "default", ClientName: DefaultClientName, ClientVersion: DefaultClientVersion}
	var final atomic.Bool
	retry := retryInterceptor(o.Retry.withDefaults(), &final)
	headers := headersInterceptor(o)
	invoke := func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, opts ...grpc.CallOption) error {
		return headers(ctx, method, req, reply, cc, func(context.Context, string, any, any, *grpc.ClientConn, ...grpc.CallOption) error { return nil }, opts...)
	}
	req := &workflowservice.RespondWorkflowTaskCompletedRequest{Namespace: "default", Identity: "worker"}
	poll := &workflowservice.PollActivityTaskQueueRequest{Namespace: "default", Identity: "worker"}
	ctx, cancel := context.WithTimeout(context.Background(), 10e9)
	defer cancel()
	b.ReportAllocs()
	for b.Loop() {
		if err := retry(ctx, workflowservice.WorkflowService_RespondWorkflowTaskCompleted_FullMethodName, req, nil, nil, invoke); err != nil {
			b.Fatal(err)
		}
		if err := retry(context.Background(), workflowservice.WorkflowService_PollActivityTaskQueue_FullMethodName, poll, nil, nil, invoke); err != nil {
			b.Fatal(err)
		}
	}
}
