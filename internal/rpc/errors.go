package rpc

import (
	"context"
	"fmt"
	"strings"

	"go.temporal.io/api/serviceerror"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// convertErrorsInterceptor turns gRPC status errors into the typed errors
// of go.temporal.io/api/serviceerror (NotFound, WorkflowExecutionAlreadyStarted
// ...), which is what SDK code and users match on.
func convertErrorsInterceptor(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	err := invoker(ctx, method, req, reply, cc, opts...)
	st, ok := status.FromError(err)
	if !ok {
		// nil, or a local failure such as a credentials error, which the
		// caller should see as it is.
		return err
	}
	return serviceerror.FromStatus(st)
}

// UnreachableError reports that no Temporal frontend answered at HostPort.
type UnreachableError struct {
	HostPort string
	// Err is the failed call's error.
	Err error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("failed reaching Temporal server at %s: %s", e.HostPort, explainUnreachable(e.Err))
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// explainUnreachable keeps the cause and says what to try, for the
// failures people actually hit; anything else is shown as gRPC put it.
func explainUnreachable(err error) string {
	st := serviceerror.ToStatus(err)
	msg := st.Message()
	switch {
	case strings.Contains(msg, "connection refused"):
		return "connection refused (is the server running? start one with 'temporal server start-dev')"
	case strings.Contains(msg, "no such host"):
		return "no such host (check the host name)"
	case strings.Contains(msg, "first record does not look like a TLS handshake"):
		return "TLS handshake failed: the server does not use TLS (connect without TLS)"
	case strings.Contains(msg, "error reading server preface"):
		return "the server closed the connection during setup (does it require TLS?)"
	case st.Code() == codes.DeadlineExceeded:
		return "no answer before the deadline (check the address, and that the server is running and reachable)"
	}
	return msg
}

// NamespaceNotFoundError reports that the server has no such namespace.
type NamespaceNotFoundError struct {
	Namespace string
	HostPort  string
	// Err is the server's NotFound error.
	Err error
}

func (e *NamespaceNotFoundError) Error() string {
	create := "temporal operator namespace create " + e.Namespace
	if !isDefaultAddress(e.HostPort) {
		create += " --address " + e.HostPort
	}
	return fmt.Sprintf("namespace %q not found on server %s: create it with '%s'", e.Namespace, e.HostPort, create)
}

func (e *NamespaceNotFoundError) Unwrap() error { return e.Err }

// isDefaultAddress reports whether the CLI reaches hostPort without being
// told the address.
func isDefaultAddress(hostPort string) bool {
	return hostPort == DefaultHostPort || hostPort == "127.0.0.1:7233"
}

// isUnreachable reports whether err means nothing usable answered.
func isUnreachable(err error) bool {
	switch serviceerror.ToStatus(err).Code() {
	case codes.Unavailable, codes.DeadlineExceeded:
		return true
	}
	return false
}
