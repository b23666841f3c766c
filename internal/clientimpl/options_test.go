package clientimpl

import (
	"context"
	"crypto/tls"
	"errors"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/chk"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/propagation"
)

// errClientTest is the error the tests' fake services return.
var errClientTest = errors.New("client test error")

func TestRPCOptionsCarryAddressNamespaceIdentityAndSize(t *testing.T) {
	opts, err := rpcOptions(internal.ClientOptions{
		HostPort:          "temporal.example:7233",
		Namespace:         "orders",
		Identity:          "me",
		ConnectionOptions: clientapi.ConnectionOptions{MaxPayloadSize: 1 << 20},
	})
	chk.NoErr(t, err)
	chk.Equal(t, "temporal.example:7233", opts.HostPort)
	chk.Equal(t, "orders", opts.Namespace)
	chk.Equal(t, "me", opts.Identity)
	chk.Equal(t, 1<<20, opts.MaxMessageSize)
	chk.Nil(t, opts.TLS, "plaintext unless asked")
	chk.Nil(t, opts.APIKey)
	chk.Empty(t, opts.DialOptions, "no option set, nothing to add")
}

func TestRPCOptionsRejectTLSWithTLSDisabled(t *testing.T) {
	_, err := rpcOptions(internal.ClientOptions{ConnectionOptions: clientapi.ConnectionOptions{TLS: &tls.Config{}, TLSDisabled: true}})
	chk.ErrContains(t, err, "TLS and TLSDisabled")
}

// A negative PayloadLimits size is refused with an error that names it
// (go.temporal.io/sdk panics), before any connection is made.
func TestNegativePayloadLimitsAreRefused(t *testing.T) {
	_, err := newWorkflowClient(internal.ClientOptions{PayloadLimits: internal.PayloadLimitOptions{MemoSizeWarning: -1}}, nil)
	chk.ErrContains(t, err, "MemoSizeWarning")
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
	chk.ErrContains(t, err, "WorkerHeartbeatInterval")
	c, err := newWorkflowClient(internal.ClientOptions{WorkerHeartbeatInterval: -1}, nil)
	chk.NoErr(t, err)
	chk.Nil(t, c.WorkerSettings().Heartbeats, "a negative interval sends no heartbeats")
	c, err = newWorkflowClient(internal.ClientOptions{SdkName: "embedder", DisableWorkerEnvironmentInfo: true}, nil)
	chk.NoErr(t, err)
	chk.Equal(t, "embedder", c.WorkerSettings().SDKName)
	chk.Nil(t, c.WorkerSettings().Environment, "DisableWorkerEnvironmentInfo")
}

func TestAPIKeyCredentialsTurnOnTLSUnlessDisabled(t *testing.T) {
	opts, err := rpcOptions(internal.ClientOptions{Credentials: clientapi.NewAPIKeyStaticCredentials("secret")})
	chk.NoErr(t, err)
	chk.NotNil(t, opts.TLS, "an API key must not travel in plaintext by default")
	key, err := opts.APIKey(context.Background())
	chk.NoErr(t, err)
	chk.Equal(t, "secret", key)

	opts, err = rpcOptions(internal.ClientOptions{
		Credentials:       clientapi.NewAPIKeyStaticCredentials("secret"),
		ConnectionOptions: clientapi.ConnectionOptions{TLSDisabled: true},
	})
	chk.NoErr(t, err)
	chk.Nil(t, opts.TLS)
	chk.NotNil(t, opts.APIKey)

	own := &tls.Config{ServerName: "x"}
	opts, err = rpcOptions(internal.ClientOptions{Credentials: clientapi.NewAPIKeyStaticCredentials("k"), ConnectionOptions: clientapi.ConnectionOptions{TLS: own}})
	chk.NoErr(t, err)
	chk.Same(t, own, opts.TLS, "the caller's TLS config is used as is")
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
		chk.NoErr(t, err)
		if opts.TLSForAPIKey != c.want {
			t.Errorf("%s: TLSForAPIKey = %v, want %v", c.name, opts.TLSForAPIKey, c.want)
		}
	}
}

func TestRPCOptionsCarryTheRawSocketSwitch(t *testing.T) {
	opts, err := rpcOptions(internal.ClientOptions{ConnectionOptions: clientapi.ConnectionOptions{DisableRawSocketIO: true}})
	chk.NoErr(t, err)
	chk.True(t, opts.DisableRawSocket)
	opts, err = rpcOptions(internal.ClientOptions{})
	chk.NoErr(t, err)
	chk.False(t, opts.DisableRawSocket)
}

func TestDynamicAPIKeyIsAskedEachTime(t *testing.T) {
	n := 0
	opts, err := rpcOptions(internal.ClientOptions{Credentials: clientapi.NewAPIKeyDynamicCredentials(func(context.Context) (string, error) {
		n++
		return "key", nil
	})})
	chk.NoErr(t, err)
	for range 2 {
		_, err := opts.APIKey(context.Background())
		chk.NoErr(t, err)
	}
	chk.Equal(t, 2, n)
}

func TestMTLSCredentialsAddTheCertificateWithoutChangingTheCallersConfig(t *testing.T) {
	cert := tls.Certificate{Certificate: [][]byte{{1, 2, 3}}}
	opts, err := rpcOptions(internal.ClientOptions{Credentials: clientapi.NewMTLSCredentials(cert)})
	chk.NoErr(t, err)
	chk.NotNil(t, opts.TLS)
	chk.Equal(t, []tls.Certificate{cert}, opts.TLS.Certificates)

	own := &tls.Config{ServerName: "s"}
	opts, err = rpcOptions(internal.ClientOptions{Credentials: clientapi.NewMTLSCredentials(cert), ConnectionOptions: clientapi.ConnectionOptions{TLS: own}})
	chk.NoErr(t, err)
	chk.Equal(t, "s", opts.TLS.ServerName)
	chk.Len(t, opts.TLS.Certificates, 1)
	chk.Empty(t, own.Certificates, "the caller's config must not change")

	_, err = rpcOptions(internal.ClientOptions{
		Credentials:       clientapi.NewMTLSCredentials(cert),
		ConnectionOptions: clientapi.ConnectionOptions{TLS: &tls.Config{Certificates: []tls.Certificate{cert}}},
	})
	chk.ErrContains(t, err, "already has certificates")
}

func TestConnectionOptionsBecomeDialOptions(t *testing.T) {
	opts, err := rpcOptions(internal.ClientOptions{ConnectionOptions: clientapi.ConnectionOptions{
		Authority:       "authority",
		KeepAliveTime:   time.Minute,
		GrpcCompression: &clientapi.GrpcCompressionGzip{},
	}})
	chk.NoErr(t, err)
	chk.Len(t, opts.DialOptions, 3, "authority, keepalive, compression")

	opts, err = rpcOptions(internal.ClientOptions{ConnectionOptions: clientapi.ConnectionOptions{GrpcCompression: &clientapi.GrpcCompressionNone{}}})
	chk.NoErr(t, err)
	chk.Empty(t, opts.DialOptions)
}

func TestKeepaliveParameters(t *testing.T) {
	_, set := keepaliveParameters(clientapi.ConnectionOptions{})
	chk.False(t, set, "defaults are the connection's own")

	params, set := keepaliveParameters(clientapi.ConnectionOptions{DisableKeepAliveCheck: true, KeepAliveTime: time.Minute})
	chk.True(t, set)
	chk.Zero(t, params.Time, "zero Time means no pings")

	params, set = keepaliveParameters(clientapi.ConnectionOptions{KeepAliveTime: time.Minute})
	chk.True(t, set)
	chk.Equal(t, time.Minute, params.Time)
	chk.Equal(t, defaultKeepAliveTimeout, params.Timeout)
	chk.True(t, params.PermitWithoutStream)

	params, _ = keepaliveParameters(clientapi.ConnectionOptions{DisableKeepAlivePermitWithoutStream: true})
	chk.Equal(t, defaultKeepAliveTime, params.Time)
	chk.False(t, params.PermitWithoutStream)
}

// stubClientPropagator writes a fixed header field, or fails.
type stubClientPropagator struct {
	key string
	err error
}

func (p stubClientPropagator) Inject(_ context.Context, w propagation.HeaderWriter) error {
	if p.err != nil {
		return p.err
	}
	w.Set(p.key, &commonpb.Payload{Data: []byte(p.key)})
	return nil
}

func (stubClientPropagator) Extract(ctx context.Context, _ propagation.HeaderReader) (context.Context, error) {
	return ctx, nil
}

func (stubClientPropagator) InjectFromWorkflow(internal.Context, propagation.HeaderWriter) error {
	return nil
}

func (stubClientPropagator) ExtractToWorkflow(ctx internal.Context, _ propagation.HeaderReader) (internal.Context, error) {
	return ctx, nil
}

func TestOutgoingHeaderMergesGivenFieldsAndPropagators(t *testing.T) {
	noCodec := func() converter.PayloadCodec { return nil }
	header, err := propagation.ClientOutgoingHeader[internal.ContextPropagator](propagation.ContextWithNewHeader(context.Background()), nil, noCodec)
	chk.NoErr(t, err)
	chk.Nil(t, header, "nothing to send")

	given := &commonpb.Header{Fields: map[string]*commonpb.Payload{"given": {Data: []byte("g")}}}
	header, err = propagation.ClientOutgoingHeader(propagation.ContextWithHeader(context.Background(), given), []internal.ContextPropagator{stubClientPropagator{key: "a"}, stubClientPropagator{key: "b"}}, noCodec)
	chk.NoErr(t, err)
	chk.Len(t, header.GetFields(), 3)
	chk.Len(t, given.GetFields(), 1, "the caller's header is not changed")

	_, err = propagation.ClientOutgoingHeader(context.Background(), []internal.ContextPropagator{stubClientPropagator{err: errClientTest}}, noCodec)
	chk.ErrIs(t, err, errClientTest)
}

func TestTheCallHeaderIsSentUnlessEmpty(t *testing.T) {
	noCodec := func() converter.PayloadCodec { return nil }
	ctx := propagation.ContextWithHeader(context.Background(), &commonpb.Header{Fields: map[string]*commonpb.Payload{"given": {Data: []byte("g")}}})
	propagation.Header(ctx)["added"] = &commonpb.Payload{}
	header, err := propagation.ClientOutgoingHeader[internal.ContextPropagator](ctx, nil, noCodec)
	chk.NoErr(t, err)
	chk.Len(t, header.GetFields(), 2)
	header, err = propagation.ClientOutgoingHeader[internal.ContextPropagator](propagation.ContextWithNewHeader(context.Background()), nil, noCodec)
	chk.NoErr(t, err)
	chk.Nil(t, header, "an empty header is not sent")
}
