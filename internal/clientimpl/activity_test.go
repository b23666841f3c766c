package clientimpl

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/chk"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/failure"
)

func TestClassifyAsyncActivityError(t *testing.T) {
	chk.Equal(t, asyncActivityCompleted, classifyAsyncActivityError(nil))
	chk.Equal(t, asyncActivityCanceled, classifyAsyncActivityError(failure.NewCanceledError("d")))
	chk.Equal(t, asyncActivityCanceled, classifyAsyncActivityError(fmt.Errorf("wrapped: %w", failure.NewCanceledError())))
	chk.Equal(t, asyncActivityCanceled, classifyAsyncActivityError(context.Canceled))
	chk.Equal(t, asyncActivityFailed, classifyAsyncActivityError(errors.New("boom")))
	chk.Equal(t, asyncActivityFailed, classifyAsyncActivityError(context.DeadlineExceeded))
}

func TestCompleteActivitySendsTheRightResponse(t *testing.T) {
	f := startFakeClientFrontend(t)
	c := f.client(t, internal.ClientOptions{Identity: "async", Namespace: "ns1"})
	ctx := context.Background()
	token := []byte("token")

	chk.NoErr(t, c.CompleteActivity(ctx, token, "result", nil))
	completed := receivedRequests[*workflowservice.RespondActivityTaskCompletedRequest](f)
	chk.Len(t, completed, 1)
	chk.Equal(t, token, completed[0].GetTaskToken())
	chk.Equal(t, "async", completed[0].GetIdentity())
	chk.Equal(t, "ns1", completed[0].GetNamespace())
	var result string
	chk.NoErr(t, converter.GetDefaultDataConverter().FromPayloads(completed[0].GetResult(), &result))
	chk.Equal(t, "result", result)

	chk.NoErr(t, c.CompleteActivity(ctx, token, nil, failure.NewCanceledError("why")))
	canceled := receivedRequests[*workflowservice.RespondActivityTaskCanceledRequest](f)
	chk.Len(t, canceled, 1)
	var why string
	chk.NoErr(t, converter.GetDefaultDataConverter().FromPayloads(canceled[0].GetDetails(), &why))
	chk.Equal(t, "why", why, "the cancellation's details are sent")

	chk.NoErr(t, c.CompleteActivityWithOptions(ctx, clientapi.CompleteActivityOptions{
		TaskToken: token, Err: failure.NewApplicationError("bad input", "Validation"), Namespace: "ns2",
	}))
	failed := receivedRequests[*workflowservice.RespondActivityTaskFailedRequest](f)
	chk.Len(t, failed, 1)
	chk.Equal(t, "ns2", failed[0].GetNamespace())
	chk.Equal(t, "Validation", failed[0].GetFailure().GetApplicationFailureInfo().GetType())
	chk.Equal(t, "bad input", failed[0].GetFailure().GetMessage())

	chk.ErrContains(t, c.CompleteActivity(ctx, nil, nil, nil), "task token is missing")
	chk.ErrContains(t, c.CompleteActivity(ctx, token, make(chan int), nil), "cannot be encoded")
}

func TestCompleteActivityByIDSendsTheRightResponse(t *testing.T) {
	f := startFakeClientFrontend(t)
	c := f.client(t, internal.ClientOptions{})
	ctx := context.Background()

	chk.NoErr(t, c.CompleteActivityByID(ctx, "ns", "wf", "run", "act", 5, nil))
	completed := receivedRequests[*workflowservice.RespondActivityTaskCompletedByIdRequest](f)
	chk.Len(t, completed, 1)
	chk.Equal(t, "ns", completed[0].GetNamespace())
	chk.Equal(t, "wf", completed[0].GetWorkflowId())
	chk.Equal(t, "run", completed[0].GetRunId())
	chk.Equal(t, "act", completed[0].GetActivityId())

	chk.NoErr(t, c.CompleteActivityByID(ctx, "ns", "wf", "", "act", nil, context.Canceled))
	chk.Len(t, receivedRequests[*workflowservice.RespondActivityTaskCanceledByIdRequest](f), 1)

	chk.NoErr(t, c.CompleteActivityByID(ctx, "ns", "wf", "", "act", nil, errors.New("boom")))
	failed := receivedRequests[*workflowservice.RespondActivityTaskFailedByIdRequest](f)
	chk.Len(t, failed, 1)
	chk.Equal(t, "boom", failed[0].GetFailure().GetMessage())

	chk.ErrContains(t, c.CompleteActivityByID(ctx, "", "wf", "", "act", nil, nil), "are all required")
}

func TestHeartbeatReportsCancellation(t *testing.T) {
	f := startFakeClientFrontend(t)
	c := f.client(t, internal.ClientOptions{})
	ctx := context.Background()

	chk.NoErr(t, c.RecordActivityHeartbeat(ctx, []byte("t"), "progress", 3))
	hb := receivedRequests[*workflowservice.RecordActivityTaskHeartbeatRequest](f)
	chk.Len(t, hb, 1)
	var progress string
	var n int
	chk.NoErr(t, converter.GetDefaultDataConverter().FromPayloads(hb[0].GetDetails(), &progress, &n))
	chk.Equal(t, "progress", progress)
	chk.Equal(t, 3, n)

	chk.NoErr(t, c.RecordActivityHeartbeatByID(ctx, "", "wf", "", "act"))
	byID := receivedRequests[*workflowservice.RecordActivityTaskHeartbeatByIdRequest](f)
	chk.Len(t, byID, 1)
	chk.Equal(t, clientapi.DefaultNamespace, byID[0].GetNamespace(), "the client's namespace by default")

	f.set(func(f *fakeClientFrontend) { f.cancelRequested = true })
	err := c.RecordActivityHeartbeat(ctx, []byte("t"))
	chk.True(t, failure.IsCanceledError(err), fmt.Sprintf("got %v", err))
	err = c.RecordActivityHeartbeatByID(ctx, "ns", "wf", "", "act")
	chk.True(t, failure.IsCanceledError(err), fmt.Sprintf("got %v", err))

	chk.ErrContains(t, c.RecordActivityHeartbeat(ctx, []byte("t"), func() {}), "argument 1")
}
