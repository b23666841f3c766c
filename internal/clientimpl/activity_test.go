package clientimpl

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/failure"
)

func TestClassifyAsyncActivityError(t *testing.T) {
	chkEqual(t, asyncActivityCompleted, classifyAsyncActivityError(nil))
	chkEqual(t, asyncActivityCanceled, classifyAsyncActivityError(failure.NewCanceledError("d")))
	chkEqual(t, asyncActivityCanceled, classifyAsyncActivityError(fmt.Errorf("wrapped: %w", failure.NewCanceledError())))
	chkEqual(t, asyncActivityCanceled, classifyAsyncActivityError(context.Canceled))
	chkEqual(t, asyncActivityFailed, classifyAsyncActivityError(errors.New("boom")))
	chkEqual(t, asyncActivityFailed, classifyAsyncActivityError(context.DeadlineExceeded))
}

func TestCompleteActivitySendsTheRightResponse(t *testing.T) {
	f := startFakeClientFrontend(t)
	c := f.client(t, internal.ClientOptions{Identity: "async", Namespace: "ns1"})
	ctx := context.Background()
	token := []byte("token")

	chkNoErr(t, c.CompleteActivity(ctx, token, "result", nil))
	completed := receivedRequests[*workflowservice.RespondActivityTaskCompletedRequest](f)
	chkLen(t, completed, 1)
	chkEqual(t, token, completed[0].GetTaskToken())
	chkEqual(t, "async", completed[0].GetIdentity())
	chkEqual(t, "ns1", completed[0].GetNamespace())
	var result string
	chkNoErr(t, converter.GetDefaultDataConverter().FromPayloads(completed[0].GetResult(), &result))
	chkEqual(t, "result", result)

	chkNoErr(t, c.CompleteActivity(ctx, token, nil, failure.NewCanceledError("why")))
	canceled := receivedRequests[*workflowservice.RespondActivityTaskCanceledRequest](f)
	chkLen(t, canceled, 1)
	var why string
	chkNoErr(t, converter.GetDefaultDataConverter().FromPayloads(canceled[0].GetDetails(), &why))
	chkEqual(t, "why", why, "the cancellation's details are sent")

	chkNoErr(t, c.CompleteActivityWithOptions(ctx, clientapi.CompleteActivityOptions{
		TaskToken: token, Err: failure.NewApplicationError("bad input", "Validation"), Namespace: "ns2",
	}))
	failed := receivedRequests[*workflowservice.RespondActivityTaskFailedRequest](f)
	chkLen(t, failed, 1)
	chkEqual(t, "ns2", failed[0].GetNamespace())
	chkEqual(t, "Validation", failed[0].GetFailure().GetApplicationFailureInfo().GetType())
	chkEqual(t, "bad input", failed[0].GetFailure().GetMessage())

	chkErrContains(t, c.CompleteActivity(ctx, nil, nil, nil), "task token is missing")
	chkErrContains(t, c.CompleteActivity(ctx, token, make(chan int), nil), "cannot be encoded")
}

func TestCompleteActivityByIDSendsTheRightResponse(t *testing.T) {
	f := startFakeClientFrontend(t)
	c := f.client(t, internal.ClientOptions{})
	ctx := context.Background()

	chkNoErr(t, c.CompleteActivityByID(ctx, "ns", "wf", "run", "act", 5, nil))
	completed := receivedRequests[*workflowservice.RespondActivityTaskCompletedByIdRequest](f)
	chkLen(t, completed, 1)
	chkEqual(t, "ns", completed[0].GetNamespace())
	chkEqual(t, "wf", completed[0].GetWorkflowId())
	chkEqual(t, "run", completed[0].GetRunId())
	chkEqual(t, "act", completed[0].GetActivityId())

	chkNoErr(t, c.CompleteActivityByID(ctx, "ns", "wf", "", "act", nil, context.Canceled))
	chkLen(t, receivedRequests[*workflowservice.RespondActivityTaskCanceledByIdRequest](f), 1)

	chkNoErr(t, c.CompleteActivityByID(ctx, "ns", "wf", "", "act", nil, errors.New("boom")))
	failed := receivedRequests[*workflowservice.RespondActivityTaskFailedByIdRequest](f)
	chkLen(t, failed, 1)
	chkEqual(t, "boom", failed[0].GetFailure().GetMessage())

	chkErrContains(t, c.CompleteActivityByID(ctx, "", "wf", "", "act", nil, nil), "are all required")
}

func TestHeartbeatReportsCancellation(t *testing.T) {
	f := startFakeClientFrontend(t)
	c := f.client(t, internal.ClientOptions{})
	ctx := context.Background()

	chkNoErr(t, c.RecordActivityHeartbeat(ctx, []byte("t"), "progress", 3))
	hb := receivedRequests[*workflowservice.RecordActivityTaskHeartbeatRequest](f)
	chkLen(t, hb, 1)
	var progress string
	var n int
	chkNoErr(t, converter.GetDefaultDataConverter().FromPayloads(hb[0].GetDetails(), &progress, &n))
	chkEqual(t, "progress", progress)
	chkEqual(t, 3, n)

	chkNoErr(t, c.RecordActivityHeartbeatByID(ctx, "", "wf", "", "act"))
	byID := receivedRequests[*workflowservice.RecordActivityTaskHeartbeatByIdRequest](f)
	chkLen(t, byID, 1)
	chkEqual(t, clientapi.DefaultNamespace, byID[0].GetNamespace(), "the client's namespace by default")

	f.set(func(f *fakeClientFrontend) { f.cancelRequested = true })
	err := c.RecordActivityHeartbeat(ctx, []byte("t"))
	chkTrue(t, failure.IsCanceledError(err), fmt.Sprintf("got %v", err))
	err = c.RecordActivityHeartbeatByID(ctx, "ns", "wf", "", "act")
	chkTrue(t, failure.IsCanceledError(err), fmt.Sprintf("got %v", err))

	chkErrContains(t, c.RecordActivityHeartbeat(ctx, []byte("t"), func() {}), "argument 1")
}
