package clientimpl

import (
	"context"
	"crypto/tls"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/clientapi"
)

func TestRPCOptionsCarryAddressNamespaceIdentityAndSize(t *testing.T) {
	opts, err := rpcOptions(internal.ClientOptions{
		HostPort:          "temporal.example:7233",
		Namespace:         "orders",
		Identity:          "me",
		ConnectionOptions: clientapi.ConnectionOptions{MaxPayloadSize: 1 << 20},
	})
	chkNoErr(t, err)
	chkEqual(t, "temporal.example:7233", opts.HostPort)
	chkEqual(t, "orders", opts.Namespace)
	chkEqual(t, "me", opts.Identity)
	chkEqual(t, 1<<20, opts.MaxMessageSize)
	chkNil(t, opts.TLS, "plaintext unless asked")
	chkNil(t, opts.APIKey)
	chkEmpty(t, opts.DialOptions, "no option set, nothing to add")
}

func TestRPCOptionsRejectTLSWithTLSDisabled(t *testing.T) {
	_, err := rpcOptions(internal.ClientOptions{ConnectionOptions: clientapi.ConnectionOptions{TLS: &tls.Config{}, TLSDisabled: true}})
	chkErrContains(t, err, "TLS and TLSDisabled")
}

// A negative PayloadLimits size is refused with an error that names it
// (go.temporal.io/sdk panics), before any connection is made.
func TestNegativePayloadLimitsAreRefused(t *testing.T) {
	_, err := newWorkflowClient(internal.ClientOptions{PayloadLimits: internal.PayloadLimitOptions{MemoSizeWarning: -1}}, nil)
	chkErrContains(t, err, "MemoSizeWarning")
}

// WorkerHeartbeatInterval: 0 is 60 s, negative turns heartbeats off, and
// anything outside [1s, 60s] is refused with an error naming it
// (go.temporal.io/sdk panics).
func TestWorkerHeartbeatIntervalIsChecked(t *testing.T) {
	for _, tc := range []struct {
		in, want time.Duration
		err      bool
	}{{0, time.Minute, false}, {-1, 0, false}, {time.Second, time.Second, false}, {time.Minute, time.Minute, false},
		{500 * time.Millisecond, 0, true}, {2 * time.Minute, 0, true}} {
		got, err := workerHeartbeatInterval(tc.in)
		if got != tc.want || (err != nil) != tc.err {
			t.Errorf("workerHeartbeatInterval(%v) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.err)
		}
	}
	_, err := newWorkflowClient(internal.ClientOptions{WorkerHeartbeatInterval: time.Hour}, nil)
	chkErrContains(t, err, "WorkerHeartbeatInterval")
	c, err := newWorkflowClient(internal.ClientOptions{WorkerHeartbeatInterval: -1}, nil)
	chkNoErr(t, err)
	chkNil(t, c.WorkerSettings().Heartbeats, "a negative interval sends no heartbeats")
	c, err = newWorkflowClient(internal.ClientOptions{SdkName: "embedder", DisableWorkerEnvironmentInfo: true}, nil)
	chkNoErr(t, err)
	chkEqual(t, "embedder", c.WorkerSettings().SDKName)
	chkNil(t, c.WorkerSettings().Environment, "DisableWorkerEnvironmentInfo")
}

func TestAPIKeyCredentialsTurnOnTLSUnlessDisabled(t *testing.T) {
	opts, err := rpcOptions(internal.ClientOptions{Credentials: clientapi.NewAPIKeyStaticCredentials("secret")})
	chkNoErr(t, err)
	chkNotNil(t, opts.TLS, "an API key must not travel in plaintext by default")
	key, err := opts.APIKey(context.Background())
	chkNoErr(t, err)
	chkEqual(t, "secret", key)

	opts, err = rpcOptions(internal.ClientOptions{
		Credentials:       clientapi.NewAPIKeyStaticCredentials("secret"),
		ConnectionOptions: clientapi.ConnectionOptions{TLSDisabled: true},
	})
	chkNoErr(t, err)
	chkNil(t, opts.TLS)
	chkNotNil(t, opts.APIKey)

	own := &tls.Config{ServerName: "x"}
	opts, err = rpcOptions(internal.ClientOptions{Credentials: clientapi.NewAPIKeyStaticCredentials("k"), ConnectionOptions: clientapi.ConnectionOptions{TLS: own}})
	chkNoErr(t, err)
	chkSame(t, own, opts.TLS, "the caller's TLS config is used as is")
}

// Transport credentials in DialOptions may stand in for the TLS an API key
// turns on, if they are secure, but never for a TLS configuration the
// user gave (rpc's tlsGuard): the connection is told which it is.
func TestRPCOptionsSayWhetherTLSIsTheAPIKeys(t *testing.T) {
	cert := tls.Certificate{Certificate: [][]byte{{1, 2, 3}}}
	for _, c := range []struct {
		name    string
		options internal.ClientOptions
		want    bool
	}{
		{"API key", internal.ClientOptions{Credentials: clientapi.NewAPIKeyStaticCredentials("k")}, true},
		{"API key and TLS", internal.ClientOptions{Credentials: clientapi.NewAPIKeyStaticCredentials("k"), ConnectionOptions: clientapi.ConnectionOptions{TLS: &tls.Config{}}}, false},
		{"mTLS", internal.ClientOptions{Credentials: clientapi.NewMTLSCredentials(cert)}, false},
		{"TLS", internal.ClientOptions{ConnectionOptions: clientapi.ConnectionOptions{TLS: &tls.Config{}}}, false},
		{"plaintext", internal.ClientOptions{}, false},
	} {
		opts, err := rpcOptions(c.options)
		chkNoErr(t, err)
		if opts.TLSForAPIKey != c.want {
			t.Errorf("%s: TLSForAPIKey = %v, want %v", c.name, opts.TLSForAPIKey, c.want)
		}
	}
}

func TestRPCOptionsCarryTheRawSocketSwitch(t *testing.T) {
	opts, err := rpcOptions(internal.ClientOptions{ConnectionOptions: clientapi.ConnectionOptions{DisableRawSocketIO: true}})
	chkNoErr(t, err)
	chkTrue(t, opts.DisableRawSocket)
	opts, err = rpcOptions(internal.ClientOptions{})
	chkNoErr(t, err)
	chkFalse(t, opts.DisableRawSocket)
}

func TestDynamicAPIKeyIsAskedEachTime(t *testing.T) {
	n := 0
	opts, err := rpcOptions(internal.ClientOptions{Credentials: clientapi.NewAPIKeyDynamicCredentials(func(context.Context) (string, error) {
		n++
		return "key", nil
	})})
	chkNoErr(t, err)
	for range 2 {
		_, err := opts.APIKey(context.Background())
		chkNoErr(t, err)
	}
	chkEqual(t, 2, n)
}

func TestMTLSCredentialsAddTheCertificateWithoutChangingTheCallersConfig(t *testing.T) {
	cert := tls.Certificate{Certificate: [][]byte{{1, 2, 3}}}
	opts, err := rpcOptions(internal.ClientOptions{Credentials: clientapi.NewMTLSCredentials(cert)})
	chkNoErr(t, err)
	chkNotNil(t, opts.TLS)
	chkEqual(t, []tls.Certificate{cert}, opts.TLS.Certificates)

	own := &tls.Config{ServerName: "s"}
	opts, err = rpcOptions(internal.ClientOptions{Credentials: clientapi.NewMTLSCredentials(cert), ConnectionOptions: clientapi.ConnectionOptions{TLS: own}})
	chkNoErr(t, err)
	chkEqual(t, "s", opts.TLS.ServerName)
	chkLen(t, opts.TLS.Certificates, 1)
	chkEmpty(t, own.Certificates, "the caller's config must not change")

	_, err = rpcOptions(internal.ClientOptions{
		Credentials:       clientapi.NewMTLSCredentials(cert),
		ConnectionOptions: clientapi.ConnectionOptions{TLS: &tls.Config{Certificates: []tls.Certificate{cert}}},
	})
	chkErrContains(t, err, "already has certificates")
}

func TestConnectionOptionsBecomeDialOptions(t *testing.T) {
	opts, err := rpcOptions(internal.ClientOptions{ConnectionOptions: clientapi.ConnectionOptions{
		Authority:       "authority",
		KeepAliveTime:   time.Minute,
		GrpcCompression: &clientapi.GrpcCompressionGzip{},
	}})
	chkNoErr(t, err)
	chkLen(t, opts.DialOptions, 3, "authority, keepalive, compression")

	opts, err = rpcOptions(internal.ClientOptions{ConnectionOptions: clientapi.ConnectionOptions{GrpcCompression: &clientapi.GrpcCompressionNone{}}})
	chkNoErr(t, err)
	chkEmpty(t, opts.DialOptions)
}

func TestKeepaliveParameters(t *testing.T) {
	_, set := keepaliveParameters(clientapi.ConnectionOptions{})
	chkFalse(t, set, "defaults are the connection's own")

	params, set := keepaliveParameters(clientapi.ConnectionOptions{DisableKeepAliveCheck: true, KeepAliveTime: time.Minute})
	chkTrue(t, set)
	chkZero(t, params.Time, "zero Time means no pings")

	params, set = keepaliveParameters(clientapi.ConnectionOptions{KeepAliveTime: time.Minute})
	chkTrue(t, set)
	chkEqual(t, time.Minute, params.Time)
	chkEqual(t, defaultKeepAliveTimeout, params.Timeout)
	chkTrue(t, params.PermitWithoutStream)

	params, _ = keepaliveParameters(clientapi.ConnectionOptions{DisableKeepAlivePermitWithoutStream: true})
	chkEqual(t, defaultKeepAliveTime, params.Time)
	chkFalse(t, params.PermitWithoutStream)
}

// stubClientPropagator writes a fixed header field, or fails.
type stubClientPropagator struct {
	key string
	err error
}

func (p stubClientPropagator) Inject(_ context.Context, w internal.HeaderWriter) error {
	if p.err != nil {
		return p.err
	}
	w.Set(p.key, &commonpb.Payload{Data: []byte(p.key)})
	return nil
}

func (stubClientPropagator) Extract(ctx context.Context, _ internal.HeaderReader) (context.Context, error) {
	return ctx, nil
}

func (stubClientPropagator) InjectFromWorkflow(internal.Context, internal.HeaderWriter) error {
	return nil
}

func (stubClientPropagator) ExtractToWorkflow(ctx internal.Context, _ internal.HeaderReader) (internal.Context, error) {
	return ctx, nil
}

func TestOutgoingHeaderMergesGivenFieldsAndPropagators(t *testing.T) {
	noCodec := func() converter.PayloadCodec { return nil }
	header, err := internal.ClientOutgoingHeader(internal.ContextWithNewHeader(context.Background()), nil, noCodec)
	chkNoErr(t, err)
	chkNil(t, header, "nothing to send")

	given := &commonpb.Header{Fields: map[string]*commonpb.Payload{"given": {Data: []byte("g")}}}
	header, err = internal.ClientOutgoingHeader(internal.ContextWithHeader(context.Background(), given), []internal.ContextPropagator{stubClientPropagator{key: "a"}, stubClientPropagator{key: "b"}}, noCodec)
	chkNoErr(t, err)
	chkLen(t, header.GetFields(), 3)
	chkLen(t, given.GetFields(), 1, "the caller's header is not changed")

	_, err = internal.ClientOutgoingHeader(context.Background(), []internal.ContextPropagator{stubClientPropagator{err: errClientTest}}, noCodec)
	chkErrIs(t, err, errClientTest)
}

func TestTheCallHeaderIsSentUnlessEmpty(t *testing.T) {
	noCodec := func() converter.PayloadCodec { return nil }
	ctx := internal.ContextWithHeader(context.Background(), &commonpb.Header{Fields: map[string]*commonpb.Payload{"given": {Data: []byte("g")}}})
	internal.Header(ctx)["added"] = &commonpb.Payload{}
	header, err := internal.ClientOutgoingHeader(ctx, nil, noCodec)
	chkNoErr(t, err)
	chkLen(t, header.GetFields(), 2)
	header, err = internal.ClientOutgoingHeader(internal.ContextWithNewHeader(context.Background()), nil, noCodec)
	chkNoErr(t, err)
	chkNil(t, header, "an empty header is not sent")
}
