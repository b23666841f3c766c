package nexushandler

import (
	"context"
	"sync"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/log"
)

// OperationContext is what one Nexus task's handler knows of the worker
// that runs it. The task handler makes one per task and puts it in the
// handler's context (FromContext finds it).
type OperationContext struct {
	// Client is the client the worker was made with.
	Client clientapi.Client
	// Namespace and TaskQueue are the worker's.
	Namespace, TaskQueue string
	// Endpoint is the endpoint the caller addressed (server 1.30 and later
	// send it).
	Endpoint string
	// Service and Operation are the request's.
	Service, Operation string
	// RequestID is the start request's ID (empty for a cancel request).
	RequestID string
	// Logger and Metrics are the worker's, tagged with the service, the
	// operation and the task queue.
	Logger  log.Logger
	Metrics sdkmetrics.Handler
	// ResolveWorkflowName gives the name a workflow function is registered
	// under with the worker (its function name when it is not
	// registered); a string is a name already.
	ResolveWorkflowName func(workflow any) (string, error)
	// ResolveActivityName is ResolveWorkflowName for activities
	// (temporalnexus.StartActivity).
	ResolveActivityName func(activity any) (string, error)

	mu            sync.Mutex
	responseLinks []*commonpb.Link
	requestLinks  []*commonpb.Link
}

var _ clientapi.NexusHandlerCalls = (*OperationContext)(nil)

// RequestLinks are the start request's links (to the caller's history),
// which the handler's signals send.
func (c *OperationContext) RequestLinks() []*commonpb.Link { return c.requestLinks }

// SerializationContext is the context of the operation's payloads.
func (c *OperationContext) SerializationContext() converter.NexusSerializationContext {
	return converter.NexusSerializationContext{Endpoint: c.Endpoint, Service: c.Service, Operation: c.Operation}
}

// AddResponseLink records a link the handler's calls returned (the
// started workflow's event); the start response carries it back to the
// caller. Nil is ignored.
func (c *OperationContext) AddResponseLink(link *commonpb.Link) {
	if link == nil {
		return
	}
	c.mu.Lock()
	c.responseLinks = append(c.responseLinks, link)
	c.mu.Unlock()
}

// ResponseLinks returns the links AddResponseLink recorded, in order.
func (c *OperationContext) ResponseLinks() []*commonpb.Link {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*commonpb.Link(nil), c.responseLinks...)
}

type operationContextKey struct{}

// WithOperationContext returns ctx carrying oc, for temporalnexus and,
// as clientapi.NexusHandlerCalls, for the client's signals.
func WithOperationContext(ctx context.Context, oc *OperationContext) context.Context {
	return clientapi.WithNexusHandlerCalls(context.WithValue(ctx, operationContextKey{}, oc), oc)
}

// FromContext returns the OperationContext of a Nexus operation's
// context, and false outside one.
func FromContext(ctx context.Context) (*OperationContext, bool) {
	oc, ok := ctx.Value(operationContextKey{}).(*OperationContext)
	return oc, ok
}
