package clientimpl

import (
	"context"
	"testing"

	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/chk"
)

// Requests about an activity found by ID carry the resource ID
// go.temporal.io/sdk gives them: its workflow's ("workflow:<ID>"), or,
// for a standalone activity, its own ("activity:<ID>").
func TestActivityRequestsByIDCarryTheResourceID(t *testing.T) {
	f := startFakeClientFrontend(t)
	c := f.client(t, internal.ClientOptions{})
	ctx := context.Background()

	chk.NoErr(t, c.CompleteActivityByID(ctx, "ns", "wf", "", "act", "done", nil))
	chk.NoErr(t, c.CompleteActivityByActivityID(ctx, "ns", "standalone", "", "done", nil))
	completed := receivedRequests[*workflowservice.RespondActivityTaskCompletedByIdRequest](f)
	chk.Len(t, completed, 2)
	chk.Equal(t, "workflow:wf", completed[0].GetResourceId())
	chk.Equal(t, "activity:standalone", completed[1].GetResourceId())
	chk.Equal(t, "", completed[1].GetWorkflowId())

	chk.NoErr(t, c.RecordActivityHeartbeatByID(ctx, "ns", "wf", "", "act"))
	heartbeats := receivedRequests[*workflowservice.RecordActivityTaskHeartbeatByIdRequest](f)
	chk.Len(t, heartbeats, 1)
	chk.Equal(t, "workflow:wf", heartbeats[0].GetResourceId())
}
