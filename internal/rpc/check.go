package rpc

import (
	"context"
	"fmt"
	"strings"
	"time"

	namespacepb "go.temporal.io/api/namespace/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// checkTimeout bounds connection checks whose context has no deadline: an
// answer takes milliseconds, and a person is waiting.
const checkTimeout = 5 * time.Second

// healthService is the name the frontend registers with gRPC health.
const healthService = "temporal.api.workflowservice.v1.WorkflowService"

// Dial connects to the server and checks that it answers GetSystemInfo,
// so a wrong address or a stopped server is reported here, with a hint,
// rather than on first use.
func Dial(ctx context.Context, opts Options) (*Conn, error) {
	c, err := NewConn(opts)
	if err != nil {
		return nil, err
	}
	if _, err := c.SystemInfo(ctx); err != nil {
		_ = c.Close()
		return nil, err
	}
	return c, nil
}

// SystemInfo returns the server's GetSystemInfo answer, asking only once
// per connection. It is attempted once, within 5 s unless ctx has a
// deadline; an unreachable server gives an *UnreachableError.
func (c *Conn) SystemInfo(ctx context.Context) (*workflowservice.GetSystemInfoResponse, error) {
	if info := c.systemInfo.Load(); info != nil {
		return info, nil
	}
	ctx, cancel := checkContext(ctx)
	defer cancel()
	info, err := c.workflow.GetSystemInfo(ctx, &workflowservice.GetSystemInfoRequest{})
	switch {
	case isUnknownMethod(err):
		// Servers older than GetSystemInfo have no capabilities to report.
		info = &workflowservice.GetSystemInfoResponse{}
	case err != nil:
		return nil, c.checkError("GetSystemInfo", err)
	}
	c.internalIsFinal.Store(info.GetCapabilities().GetInternalErrorDifferentiation())
	c.systemInfo.Store(info)
	return info, nil
}

// KnownSystemInfo is the server's GetSystemInfo answer if this connection
// has had it (SystemInfo, Dial), else nil; it never calls the server.
func (c *Conn) KnownSystemInfo() *workflowservice.GetSystemInfoResponse {
	return c.systemInfo.Load()
}

// CheckHealth asks the frontend's gRPC health service whether the workflow
// service is serving.
func (c *Conn) CheckHealth(ctx context.Context) error {
	ctx, cancel := checkContext(ctx)
	defer cancel()
	resp, err := healthpb.NewHealthClient(c.cc).Check(ctx, &healthpb.HealthCheckRequest{Service: healthService})
	if err != nil {
		return c.checkError("health check", err)
	}
	if resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		return fmt.Errorf("the Temporal server at %s is not serving: health status %v", c.opts.HostPort, resp.GetStatus())
	}
	return nil
}

// CheckNamespace checks that namespace exists on the server, returning a
// *NamespaceNotFoundError that says how to create it if not.
func (c *Conn) CheckNamespace(ctx context.Context, namespace string) error {
	ctx, cancel := checkContext(ctx)
	defer cancel()
	resp, err := c.workflow.DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: namespace})
	if err != nil && serviceerror.ToStatus(err).Code() == codes.NotFound {
		return &NamespaceNotFoundError{Namespace: namespace, HostPort: c.opts.HostPort, Err: err}
	}
	if err != nil {
		return c.checkError("DescribeNamespace", err)
	}
	c.namespaceInfo.Store(namespace, resp.GetNamespaceInfo())
	return nil
}

// KnownNamespaceCapabilities are the capabilities the server reported for
// namespace at this connection's last successful CheckNamespace of it, or
// nil if there was none; it never calls the server. A worker reads them
// as it starts, having checked its namespace, as go.temporal.io/sdk's
// does.
func (c *Conn) KnownNamespaceCapabilities(namespace string) *namespacepb.NamespaceInfo_Capabilities {
	return c.knownNamespaceInfo(namespace).GetCapabilities()
}

// KnownNamespaceLimits are the limits (of payload and memo sizes, say)
// the server reported for namespace at this connection's last successful
// CheckNamespace of it, or nil; as KnownNamespaceCapabilities, it never
// calls the server.
func (c *Conn) KnownNamespaceLimits(namespace string) *namespacepb.NamespaceInfo_Limits {
	return c.knownNamespaceInfo(namespace).GetLimits()
}

func (c *Conn) knownNamespaceInfo(namespace string) *namespacepb.NamespaceInfo {
	info, _ := c.namespaceInfo.Load(namespace)
	namespaceInfo, _ := info.(*namespacepb.NamespaceInfo)
	return namespaceInfo
}

func (c *Conn) checkError(what string, err error) error {
	if isUnreachable(err) {
		t := c.opts.TLS
		return &UnreachableError{HostPort: c.opts.HostPort, Err: err, tls: t != nil,
			clientCert: t != nil && (len(t.Certificates) > 0 || t.GetClientCertificate != nil)}
	}
	switch st := serviceerror.ToStatus(err); st.Code() {
	case codes.Unauthenticated, codes.PermissionDenied:
		if strings.HasPrefix(st.Message(), guardRefused) {
			break // refused here, not by the server
		}
		return fmt.Errorf("%s on Temporal server at %s: the server refused this client's credentials; check client.Options.Credentials (the API key, or the client certificate): %w", what, c.opts.HostPort, err)
	}
	return fmt.Errorf("%s on Temporal server at %s: %w", what, c.opts.HostPort, err)
}

// checkContext makes a check report the server's state now: one attempt,
// and a deadline if the caller gave none.
func checkContext(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx = WithoutRetries(ctx)
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, checkTimeout)
}

func isUnknownMethod(err error) bool {
	st := serviceerror.ToStatus(err)
	return st.Code() == codes.Unimplemented && strings.Contains(strings.ToLower(st.Message()), "unknown method")
}
