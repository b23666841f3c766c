package clientapi

import (
	"context"

	commonpb "go.temporal.io/api/common/v1"
)

// NexusStart is what a workflow started for a Nexus operation
// (temporalnexus) sends with its start request besides its options, as
// go.temporal.io/sdk sends it: the operation's request ID (so that a
// retried start finds the workflow it started), the callback that
// completes the caller's operation, the links back to the caller's
// history, and the attachment of all three to a workflow already running
// under the ID (with WorkflowIDConflictPolicy UseExisting).
type NexusStart struct {
	RequestID string
	Callbacks []*commonpb.Callback
	Links     []*commonpb.Link
	// Link receives the link to the started workflow's event that the
	// server returns, for the operation's start response.
	Link *commonpb.Link
}

type nexusStartKey struct{}

// WithNexusStart returns ctx carrying ns: the client's ExecuteWorkflow
// called with it sends ns with the start request and fills in ns.Link.
func WithNexusStart(ctx context.Context, ns *NexusStart) context.Context {
	return context.WithValue(ctx, nexusStartKey{}, ns)
}

// NexusStartOf returns the NexusStart ctx carries, or nil.
func NexusStartOf(ctx context.Context) *NexusStart {
	ns, _ := ctx.Value(nexusStartKey{}).(*NexusStart)
	return ns
}
