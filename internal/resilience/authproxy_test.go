package resilience

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// authProxy stands in front of a dev server as Temporal Cloud's frontend
// or a company's gateway does: it terminates TLS (optionally requiring a
// client certificate), checks the API key in the authorization header,
// and forwards every call, unread, to the server in plaintext.
type authProxy struct {
	addr    string
	apiKey  string // "" accepts calls without one
	refused atomic.Int64
	backend *grpc.ClientConn
}

func startAuthProxy(t *testing.T, target string, tlsConfig *tls.Config, apiKey string) *authProxy {
	t.Helper()
	backend, err := grpc.NewClient(target, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &authProxy{addr: lis.Addr().String(), apiKey: apiKey, backend: backend}
	srv := grpc.NewServer(grpc.Creds(credentials.NewTLS(tlsConfig)), grpc.ForceServerCodecV2(rawCodec{}), grpc.UnknownServiceHandler(p.forward))
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(func() {
		srv.Stop()
		backend.Close()
	})
	return p
}

// forward checks one call's API key and passes it on. Every call of the
// Temporal API is unary: one request, one response.
func (p *authProxy) forward(_ any, stream grpc.ServerStream) error {
	method, _ := grpc.MethodFromServerStream(stream)
	in, _ := metadata.FromIncomingContext(stream.Context())
	if p.apiKey != "" {
		if got := in.Get("authorization"); len(got) != 1 || got[0] != "Bearer "+p.apiKey {
			p.refused.Add(1)
			return status.Error(codes.Unauthenticated, "the request has no valid API key")
		}
	}
	out := metadata.MD{}
	for k, v := range in {
		// gRPC's own headers are the connection's, and the key stops here.
		if strings.HasPrefix(k, ":") || strings.HasPrefix(k, "grpc-") || k == "authorization" ||
			k == "content-type" || k == "user-agent" || k == "te" {
			continue
		}
		out[k] = v
	}
	var req, resp frame
	if err := stream.RecvMsg(&req); err != nil {
		return err
	}
	var header, trailer metadata.MD
	err := p.backend.Invoke(metadata.NewOutgoingContext(stream.Context(), out), method, &req, &resp,
		grpc.ForceCodecV2(rawCodec{}), grpc.Header(&header), grpc.Trailer(&trailer))
	stream.SetTrailer(trailer)
	if err != nil {
		return err
	}
	if err := stream.SetHeader(header); err != nil {
		return err
	}
	return stream.SendMsg(&resp)
}

// frame is a message the proxy forwards without decoding it.
type frame struct{ data []byte }

type rawCodec struct{}

func (rawCodec) Marshal(v any) (mem.BufferSlice, error) {
	return mem.BufferSlice{mem.SliceBuffer(v.(*frame).data)}, nil
}

func (rawCodec) Unmarshal(data mem.BufferSlice, v any) error {
	v.(*frame).data = data.Materialize()
	return nil
}

func (rawCodec) Name() string { return "proto" }

// testPKI is a certificate authority and what it signed for a test.
type testPKI struct {
	ca     *x509.Certificate
	caKey  *ecdsa.PrivateKey
	pool   *x509.CertPool
	server tls.Certificate // for 127.0.0.1 and localhost
	client tls.Certificate // for client authentication
}

func newTestPKI(t *testing.T, name string) *testPKI {
	t.Helper()
	key := newKey(t)
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: name},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	ca, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	p := &testPKI{ca: ca, caKey: key, pool: x509.NewCertPool()}
	p.pool.AddCert(ca)
	p.server = p.sign(t, &x509.Certificate{
		Subject:     pkix.Name{CommonName: "temporal frontend"},
		DNSNames:    []string{"localhost"},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	})
	p.client = p.sign(t, &x509.Certificate{
		Subject:     pkix.Name{CommonName: "worker"},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	})
	return p
}

func (p *testPKI) sign(t *testing.T, tmpl *x509.Certificate) tls.Certificate {
	t.Helper()
	key := newKey(t)
	tmpl.SerialNumber = big.NewInt(time.Now().UnixNano())
	tmpl.NotBefore, tmpl.NotAfter = time.Now().Add(-time.Hour), time.Now().Add(time.Hour)
	tmpl.KeyUsage = x509.KeyUsageDigitalSignature
	der, err := x509.CreateCertificate(rand.Reader, tmpl, p.ca, &key.PublicKey, p.caKey)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

func newKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// serverTLS is the proxy's TLS configuration; with clientCAs, it requires
// a client certificate signed by one of them.
func (p *testPKI) serverTLS(clientCAs *x509.CertPool) *tls.Config {
	c := &tls.Config{Certificates: []tls.Certificate{p.server}, MinVersion: tls.VersionTLS12}
	if clientCAs != nil {
		c.ClientAuth, c.ClientCAs = tls.RequireAndVerifyClientCert, clientCAs
	}
	return c
}
