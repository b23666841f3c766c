package client

import (
	"errors"

	"go.temporal.io/api/proxy"
	"go.temporal.io/api/workflowservice/v1"
)

// WorkflowServiceProxyOptions configure NewWorkflowServiceProxyServer.
type WorkflowServiceProxyOptions struct {
	// Client receives every request the proxy server gets, typically a
	// client's WorkflowService(); required.
	Client workflowservice.WorkflowServiceClient
	// DisableHeaderForwarding keeps the gRPC headers of incoming requests
	// from being sent on with them.
	DisableHeaderForwarding bool
}

// NewWorkflowServiceProxyServer returns a workflow service to register
// with a gRPC server: it forwards each request to options.Client and
// returns its answer. With gRPC interceptors on the server or the client,
// a proxy can check, change or encode what passes (a codec server for
// payloads, say).
func NewWorkflowServiceProxyServer(options WorkflowServiceProxyOptions) (workflowservice.WorkflowServiceServer, error) {
	if options.Client == nil {
		return nil, errors.New("NewWorkflowServiceProxyServer: WorkflowServiceProxyOptions.Client is nil; give the client requests go to, such as a client's WorkflowService()")
	}
	return proxy.NewWorkflowServiceProxyServer(proxy.WorkflowServiceProxyOptions{
		Client:                  options.Client,
		DisableHeaderForwarding: options.DisableHeaderForwarding,
	})
}
