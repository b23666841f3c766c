package rpc

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"go.temporal.io/api/serviceerror"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// convertErrorsInterceptor turns gRPC status errors into the typed errors
// of go.temporal.io/api/serviceerror (NotFound, WorkflowExecutionAlreadyStarted
// ...), which is what SDK code and users match on.
func convertErrorsInterceptor(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	err := invoker(ctx, method, req, reply, cc, opts...)
	if err == nil {
		return nil
	}
	if ended := contextEnded(ctx); ended != nil && endedByContext(err) {
		return contextEndedError(ended, err)
	}
	return convertError(err, method, req)
}

// contextEnded is ctx's error, or context.DeadlineExceeded once its
// deadline has passed: gRPC's own timer for the deadline may end the call
// a moment before the context's timer marks the context done.
func contextEnded(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if deadline, ok := ctx.Deadline(); ok && !time.Now().Before(deadline) {
		return context.DeadlineExceeded
	}
	return nil
}

// endedByContext reports whether err, the error of a call whose context
// has ended, is the context's doing: gRPC's DeadlineExceeded or Canceled
// (a reset stream included), or a failure the retry loop would have
// repeated had the context not ended. Any other answer is the server's
// and stays what it is.
func endedByContext(err error) bool {
	switch serviceerror.ToStatus(err).Code() {
	case codes.DeadlineExceeded, codes.Canceled:
		return true
	}
	return IsRetryable(err, false)
}

// contextEndedError is what a call ended by its context returns, as
// go.temporal.io/sdk returns it (code written for it asserts the type):
// a *serviceerror.DeadlineExceeded, or a *serviceerror.Canceled, whatever
// form gRPC gave it. The message is the context's, with the last
// attempt's error when another failure was being retried.
func contextEndedError(ended, err error) error {
	msg := ended.Error()
	switch serviceerror.ToStatus(err).Code() {
	case codes.DeadlineExceeded, codes.Canceled:
	default:
		msg += " (retrying: " + serviceerror.ToStatus(err).Message() + ")"
	}
	if errors.Is(ended, context.DeadlineExceeded) {
		return serviceerror.NewDeadlineExceeded(msg)
	}
	return serviceerror.NewCanceled(msg)
}

// convertError turns a gRPC status error of a call of method into its
// serviceerror, or into a MessageTooLargeError.
func convertError(err error, method string, req any) error {
	st, ok := status.FromError(err)
	if !ok {
		// nil, or a local failure such as a credentials error, which the
		// caller should see as it is.
		return err
	}
	if IsMessageTooLarge(err) {
		return newMessageTooLargeError(st, method, req)
	}
	if st.Code() == codes.InvalidArgument && ExplainServerLimit(st.Message()) != "" {
		size := ""
		if msg, ok := req.(proto.Message); ok {
			size = fmt.Sprintf("the request carries %s of payloads", formatBytes(payloadBytes(msg)))
		}
		// Still an InvalidArgument, for code that checks the type.
		return serviceerror.NewInvalidArgument(explainServerLimit(st.Message(), size))
	}
	return serviceerror.FromStatus(st)
}

// formatBytes renders a size for people.
func formatBytes(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// UnreachableError reports that no Temporal frontend answered at HostPort.
type UnreachableError struct {
	HostPort string
	// Err is the failed call's error.
	Err error
	// tls says how the connection was set up, for the hints about TLS
	// failures: whether it uses TLS, and whether it presents a client
	// certificate.
	tls, clientCert bool
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("failed reaching Temporal server at %s: %s", e.HostPort, e.explain())
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// explain keeps the cause and says what to try, for the failures people
// actually hit; anything else is shown as gRPC put it.
func (e *UnreachableError) explain() string {
	msg := serviceerror.ToStatus(e.Err).Message()
	if hint := explainTLS(msg, e.tls, e.clientCert); hint != "" {
		return hint
	}
	if strings.Contains(msg, "no children to pick from") || strings.Contains(msg, "produced zero addresses") {
		// gRPC's resolver found no address and says so in its own terms.
		return explainResolution(e.HostPort)
	}
	return explainUnreachable(e.Err)
}

// explainResolution says why the host of hostPort resolves to no address,
// looking it up again to learn the resolver's reason.
func explainResolution(hostPort string) string {
	host, _, err := net.SplitHostPort(hostPort)
	if err != nil {
		host = hostPort
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err = net.DefaultResolver.LookupHost(ctx, host)
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		return fmt.Sprintf("no such host %q (check the host name)", host)
	case err != nil:
		return fmt.Sprintf("cannot resolve host %q: %v (check the host name and the DNS settings)", host, err)
	}
	return fmt.Sprintf("host %q resolved to no address gRPC could use (check the host name)", host)
}

// explainTLS says what to do about a failed TLS setup, keeping the TLS
// library's own words at the end; "" when msg is no TLS failure.
func explainTLS(msg string, usesTLS, clientCert bool) string {
	detail := msg
	if i := strings.Index(msg, "tls: "); i >= 0 {
		detail = strings.TrimRight(msg[i:], `"`)
	}
	// With TLS 1.3 the server checks the client's certificate after the
	// handshake: its refusal arrives as an alert, or, if the client wrote
	// first, as a connection the server has already closed.
	closedInSetup := strings.Contains(msg, "broken pipe") || strings.Contains(msg, "connection reset") || strings.HasSuffix(strings.TrimRight(msg, `"`), "EOF")
	switch {
	case strings.Contains(msg, "certificate signed by unknown authority"):
		return "TLS handshake failed: the server's certificate is signed by an authority this client does not trust; set ConnectionOptions.TLS.RootCAs to a pool that holds the CA certificate that signed it (" + detail + ")"
	case strings.Contains(msg, "certificate is valid for"):
		return "TLS handshake failed: the server's certificate is not for the name dialed; dial a name it holds, or set ConnectionOptions.TLS.ServerName to one (" + detail + ")"
	case strings.Contains(msg, "certificate has expired or is not yet valid"):
		return "TLS handshake failed: the server's certificate has expired or is not yet valid (" + detail + ")"
	case strings.Contains(msg, "tls: certificate required") && clientCert:
		// Go sends a client certificate only if one of the CAs the
		// server named signed it.
		return "the server refused this client's certificate: it requires one that a CA it trusts signed, and this one is not; check which CA signed it (" + detail + ")"
	case strings.Contains(msg, "tls: certificate required"):
		return "the server requires a client certificate (mutual TLS): set Credentials to client.NewMTLSCredentials with a certificate it trusts (" + detail + ")"
	case strings.Contains(msg, "tls: unknown certificate authority"), strings.Contains(msg, "tls: bad certificate"):
		return "the server refused this client's certificate: check which CA signed it; the server accepts only those its CAs signed (" + detail + ")"
	case usesTLS && closedInSetup && !clientCert:
		return "the server closed the connection during TLS setup; if it requires a client certificate (mutual TLS), set Credentials to client.NewMTLSCredentials (" + detail + ")"
	case usesTLS && closedInSetup:
		return "the server closed the connection during TLS setup: it may refuse this client's certificate; check which CA signed it, the server accepts only those its CAs signed (" + detail + ")"
	}
	return ""
}

// explainUnreachable keeps the cause and says what to try, for failures
// to reach a server that are not about TLS.
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
