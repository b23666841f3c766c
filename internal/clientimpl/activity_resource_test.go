package clientimpl

import (
	"context"
	"testing"

	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal"
)

// Requests about an activity found by ID carry the resource ID
// go.temporal.io/sdk gives them: its workflow's ("workflow:<ID>"), or,
// for a standalone activity, its own ("activity:<ID>").
func TestActivityRequestsByIDCarryTheResourceID(t *testing.T) {
	f := startFakeClientFrontend(t)
	c := f.client(t, internal.ClientOptions{})
	ctx := context.Background()

	chkNoErr(t, c.CompleteActivityByID(ctx, "ns", "wf", "", "act", "done", nil))
	chkNoErr(t, c.CompleteActivityByActivityID(ctx, "ns", "standalone", "", "done", nil))
	completed := receivedRequests[*workflowservice.RespondActivityTaskCompletedByIdRequest](f)
	chkLen(t, completed, 2)
	chkEqual(t, "workflow:wf", completed[0].GetResourceId())
	chkEqual(t, "activity:standalone", completed[1].GetResourceId())
	chkEqual(t, "", completed[1].GetWorkflowId())

	chkNoErr(t, c.RecordActivityHeartbeatByID(ctx, "ns", "wf", "", "act"))
	heartbeats := receivedRequests[*workflowservice.RecordActivityTaskHeartbeatByIdRequest](f)
	chkLen(t, heartbeats, 1)
	chkEqual(t, "workflow:wf", heartbeats[0].GetResourceId())
}
