package clientimpl

import (
	"context"
	"errors"
	"fmt"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/encoding/gzip"
	"google.golang.org/grpc/keepalive"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/logging"
	"github.com/durable-go/sdk/internal/optcheck"
	"github.com/durable-go/sdk/internal/rpc"
	"github.com/durable-go/sdk/log"
)

// Keepalive defaults, as the official SDK documents them.
const (
	defaultKeepAliveTime    = 30 * time.Second
	defaultKeepAliveTimeout = 15 * time.Second
)

// rpcOptions turns client options into connection options.
// checkRPCTimeout refuses a negative Options.RPCTimeout, which would end
// every call before it starts.
func checkRPCTimeout(o internal.ClientOptions) error {
	return optcheck.Negative("invalid client options: client.Options", optcheck.Duration("RPCTimeout", o.RPCTimeout))
}

func rpcOptions(o internal.ClientOptions) (rpc.Options, error) {
	co := o.ConnectionOptions
	if err := optcheck.Negative("invalid client options: client.ConnectionOptions",
		optcheck.Duration("KeepAliveTime", co.KeepAliveTime), optcheck.Duration("KeepAliveTimeout", co.KeepAliveTimeout),
		optcheck.Duration("GetSystemInfoTimeout", co.GetSystemInfoTimeout), optcheck.Number("MaxPayloadSize", float64(co.MaxPayloadSize))); err != nil {
		return rpc.Options{}, err
	}
	if co.TLS != nil && co.TLSDisabled {
		return rpc.Options{}, errors.New("invalid client options: ConnectionOptions.TLS and TLSDisabled are both set")
	}
	settings := clientapi.ConnectionSettings{TLS: co.TLS, TLSDisabled: co.TLSDisabled}
	if o.Credentials != nil {
		if err := settings.Apply(o.Credentials); err != nil {
			return rpc.Options{}, err
		}
	}
	var dialOptions []grpc.DialOption
	if co.Authority != "" {
		dialOptions = append(dialOptions, grpc.WithAuthority(co.Authority))
	}
	if params, ok := keepaliveParameters(co); ok {
		dialOptions = append(dialOptions, grpc.WithKeepaliveParams(params))
	}
	switch co.GrpcCompression.(type) {
	case nil, *clientapi.GrpcCompressionNone:
	case *clientapi.GrpcCompressionGzip:
		dialOptions = append(dialOptions, grpc.WithDefaultCallOptions(grpc.UseCompressor(gzip.Name)))
	default:
		return rpc.Options{}, fmt.Errorf("invalid client options: unknown GrpcCompression %T", co.GrpcCompression)
	}
	if o.TrafficController != nil {
		dialOptions = append(dialOptions, grpc.WithChainUnaryInterceptor(trafficControllerInterceptor(o.TrafficController)))
	}
	namespace := o.Namespace
	if namespace == "" {
		namespace = clientapi.DefaultNamespace
	}
	perCall, perAttempt := requestMetricsInterceptors(o.MetricsHandler, namespace, o.DisableErrorCodeMetricTags)
	return rpc.Options{
		// TLS that only the API key asked for may be replaced by secure
		// transport credentials in DialOptions; a configured one may not.
		TLSForAPIKey:        co.TLS == nil && settings.TLS != nil && len(settings.TLS.Certificates) == 0,
		DisableRawSocket:    co.DisableRawSocketIO,
		Logger:              clientLogger(o),
		CallInterceptors:    perCall,
		AttemptInterceptors: perAttempt,
		HostPort:            o.HostPort,
		Namespace:           o.Namespace,
		Identity:            o.Identity,
		TLS:                 settings.TLS,
		APIKey:              settings.APIKey,
		HeadersProvider:     o.HeadersProvider,
		DialOptions:         append(dialOptions, co.DialOptions...),
		MaxMessageSize:      co.MaxPayloadSize,
	}, nil
}

// clientLogger is the logger of a client made with o, and of its
// connection and workers: the configured one, made safe from its own
// panics (the SDK logs from goroutines of its own, polls, heartbeats,
// Stop, the connection's watch, where a panicking logger would end the
// process), or the default one.
func clientLogger(o internal.ClientOptions) log.Logger {
	if o.Logger == nil {
		return logging.NewDefaultLogger()
	}
	return logging.NewPanicSafeLogger(o.Logger)
}

// keepaliveParameters returns the keepalive parameters to set, and false
// when the connection's defaults (the same as the official SDK's) apply.
func keepaliveParameters(co clientapi.ConnectionOptions) (keepalive.ClientParameters, bool) {
	if co.DisableKeepAliveCheck {
		// Zero Time means no pings at all.
		return keepalive.ClientParameters{}, true
	}
	if co.KeepAliveTime == 0 && co.KeepAliveTimeout == 0 && !co.DisableKeepAlivePermitWithoutStream {
		return keepalive.ClientParameters{}, false
	}
	params := keepalive.ClientParameters{
		Time:                co.KeepAliveTime,
		Timeout:             co.KeepAliveTimeout,
		PermitWithoutStream: !co.DisableKeepAlivePermitWithoutStream,
	}
	if params.Time == 0 {
		params.Time = defaultKeepAliveTime
	}
	if params.Timeout == 0 {
		params.Timeout = defaultKeepAliveTimeout
	}
	return params, true
}

func trafficControllerInterceptor(tc internal.TrafficController) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if err := checkCallAllowed(ctx, tc, method, req, reply); err != nil {
			return err
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

// checkCallAllowed asks tc whether the call may go, turning a panic into
// the call's error: a bug in the user's controller fails the call, not
// the process.
func checkCallAllowed(ctx context.Context, tc internal.TrafficController, method string, req, reply any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the client's TrafficController (client.Options.TrafficController) panicked: %v; the call was not sent", p)
		}
	}()
	return tc.CheckCallAllowed(ctx, method, req, reply)
}
