package clientapi

import (
	"context"

	commonpb "go.temporal.io/api/common/v1"
	nexuspb "go.temporal.io/api/nexus/v1"
)

// NexusStart is what a workflow started for a Nexus operation
// (temporalnexus) sends with its start request besides its options, as
// go.temporal.io/sdk sends it: the operation's request ID (so that a
// retried start finds the workflow it started), the callback that
// completes the caller's operation, the links back to the caller's
// history, and the attachment of all three to a workflow already running
// under the ID (with WorkflowIDConflictPolicy UseExisting).
//
// An update sent with it (temporalnexus.StartUpdateWorkflow) carries the
// same, in its request.
type NexusStart struct {
	RequestID string
	Callbacks []*commonpb.Callback
	Links     []*commonpb.Link
	// SerializationContext is the operation's (endpoint, service,
	// operation): the workflow's result and failure, and the update's,
	// are converted with it, as the caller reads them.
	SerializationContext *nexuspb.PropagatedSerializationContext
	// Link receives the link to the started workflow's (or the accepted
	// update's) event that the server returns, for the operation's start
	// response.
	Link *commonpb.Link
	// UpdateCompleted is set when the server's answer to an update holds
	// its outcome already.
	UpdateCompleted bool
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

// NexusHandlerCalls is what the context of a Nexus operation's handler
// tells the client's signals, as go.temporal.io/sdk's do: the links to
// the caller's history, which a signal sends so that its event links
// back to the caller, and where the link to the signaled event goes, for
// the operation's start response.
type NexusHandlerCalls interface {
	RequestLinks() []*commonpb.Link
	AddResponseLink(link *commonpb.Link)
}

type nexusHandlerKey struct{}

// WithNexusHandlerCalls returns ctx carrying h.
func WithNexusHandlerCalls(ctx context.Context, h NexusHandlerCalls) context.Context {
	return context.WithValue(ctx, nexusHandlerKey{}, h)
}

// NexusHandlerCallsOf returns the NexusHandlerCalls ctx carries, or nil.
func NexusHandlerCallsOf(ctx context.Context) NexusHandlerCalls {
	h, _ := ctx.Value(nexusHandlerKey{}).(NexusHandlerCalls)
	return h
}

type nexusSignalRequestIDKey struct{}

// WithNexusSignalRequestID returns ctx whose signals carry requestID, the
// Nexus operation's, so that a retried task does not signal twice
// (temporalnexus.NexusClient.GetWorkflowClient).
func WithNexusSignalRequestID(ctx context.Context, requestID string) context.Context {
	return context.WithValue(ctx, nexusSignalRequestIDKey{}, requestID)
}

// NexusSignalRequestIDOf returns the request ID ctx gives signals, or "".
func NexusSignalRequestIDOf(ctx context.Context) string {
	id, _ := ctx.Value(nexusSignalRequestIDKey{}).(string)
	return id
}
