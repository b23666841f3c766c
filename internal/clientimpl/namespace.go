package clientimpl

import (
	"context"

	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/rpc"
	"github.com/durable-go/sdk/log"
)

// NewNamespaceClient returns a client for namespace administration. It
// connects on its first call.
func NewNamespaceClient(options internal.ClientOptions) (clientapi.NamespaceClient, error) {
	options.Logger = clientLogger(options) // one logger, so one report of its panics
	if err := checkRPCTimeout(options); err != nil {
		return nil, err
	}
	opts, err := rpcOptions(options)
	if err != nil {
		return nil, err
	}
	conn, err := rpc.NewConn(opts)
	if err != nil {
		return nil, err
	}
	return &namespaceClient{conn: conn, service: conn.BoundedWorkflowService(options.RPCTimeout, nil), logger: options.Logger}, nil
}

// namespaceClient implements NamespaceClient.
type namespaceClient struct {
	conn    *rpc.Conn
	service workflowservice.WorkflowServiceClient // bounded by RPCTimeout
	logger  log.Logger
}

// Register implements NamespaceClient.
func (n *namespaceClient) Register(ctx context.Context, request *workflowservice.RegisterNamespaceRequest) error {
	_, err := n.service.RegisterNamespace(ctx, request)
	return wrapCallError(err, "registering namespace %q", request.GetNamespace())
}

// Describe implements NamespaceClient.
func (n *namespaceClient) Describe(ctx context.Context, name string) (*workflowservice.DescribeNamespaceResponse, error) {
	resp, err := n.service.DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: name})
	if err != nil {
		return nil, wrapCallError(err, "describing namespace %q", name)
	}
	return resp, nil
}

// Update implements NamespaceClient.
func (n *namespaceClient) Update(ctx context.Context, request *workflowservice.UpdateNamespaceRequest) error {
	_, err := n.service.UpdateNamespace(ctx, request)
	return wrapCallError(err, "updating namespace %q", request.GetNamespace())
}

// Close implements NamespaceClient.
func (n *namespaceClient) Close() {
	if err := n.conn.Close(); err != nil {
		n.logger.Warn("closing the connection to the Temporal server failed", "Error", err)
	}
}
