package frontend

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"go.temporal.io/api/serviceerror"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/status"
)

// ServerOptions are the options a gRPC server that serves the frontend
// needs: calls the frontend does not serve, and services it does not
// know, answer Unimplemented with a message that says what to use
// instead. Clients' keepalive pings are allowed as a Temporal server
// allows them (frontend.keepAliveMinTime, 10 s, and
// frontend.keepAlivePermitWithoutStream): both SDKs ping an idle
// connection every 30 s, and gRPC's default policy (at most one ping in
// 5 minutes, none without a call in flight) closes the connection with
// "too_many_pings" after the third.
func ServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: 10 * time.Second, PermitWithoutStream: true}),
		grpc.ChainUnaryInterceptor(recoverPanics, toStatus, explainUnimplemented),
		grpc.UnknownServiceHandler(func(_ any, stream grpc.ServerStream) error {
			method, _ := grpc.MethodFromServerStream(stream)
			return Unimplemented(method)
		}),
	}
}

// Unimplemented is the error of a call the embedded server does not
// serve; method is the call's full gRPC method name.
func Unimplemented(method string) error {
	name := method[strings.LastIndex(method, "/")+1:]
	service := strings.TrimPrefix(method, "/")
	if i := strings.LastIndex(service, "/"); i >= 0 {
		service = service[:i]
	}
	return status.Error(codes.Unimplemented, fmt.Sprintf(
		"the embedded Temporal server does not serve %s (%s): run a Temporal dev server (`temporal server start-dev`) for it", name, service))
}

// recoverPanics answers a call whose handling panicked with codes.Internal,
// naming the call and the panic: the embedded server runs inside the
// user's process (a test binary, a demo), which a request the in-memory
// server mishandles must not take down.
func recoverPanics(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
	defer func() {
		if p := recover(); p != nil {
			resp, err = nil, status.Errorf(codes.Internal, "the embedded Temporal server failed on %s: panic: %v\n%s", info.FullMethod, p, debug.Stack())
		}
	}()
	return handler(ctx, req)
}

// toStatus turns the service errors the calls return
// (go.temporal.io/api/serviceerror) into the gRPC statuses, with their
// details, that clients turn back into the same errors.
func toStatus(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	resp, err := handler(ctx, req)
	if err != nil {
		return nil, serviceerror.ToStatus(err).Err()
	}
	return resp, nil
}

// explainUnimplemented gives the Unimplemented answers of the generated
// base (UnimplementedWorkflowServiceServer) the embedded server's message.
func explainUnimplemented(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	resp, err := handler(ctx, req)
	if err != nil && status.Code(err) == codes.Unimplemented && strings.HasSuffix(status.Convert(err).Message(), "not implemented") {
		return nil, Unimplemented(info.FullMethod)
	}
	return resp, err
}
