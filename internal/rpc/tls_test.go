package rpc

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
)

// selfSigned returns a server certificate for 127.0.0.1 and a pool that
// trusts it.
func selfSigned(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	must(t, err)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "fake temporal"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	must(t, err)
	leaf, err := x509.ParseCertificate(der)
	must(t, err)
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}

func TestTLS(t *testing.T) {
	cert, pool := selfSigned(t)
	f := startFakeServer(t, grpc.Creds(credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{cert}})))

	c, err := Dial(context.Background(), Options{HostPort: f.addr, TLS: &tls.Config{RootCAs: pool}})
	must(t, err)
	must(t, c.Close())

	// A TLS server hangs up on plaintext.
	_, err = Dial(context.Background(), Options{HostPort: f.addr})
	wantUnreachable(t, err)
	if !strings.Contains(err.Error(), "the server closed the connection during setup (does it require TLS?)") {
		t.Errorf("no TLS hint in %v", err)
	}
}

func TestTLSAgainstPlaintextServer(t *testing.T) {
	f := startFakeServer(t)

	_, err := Dial(context.Background(), Options{HostPort: f.addr, TLS: &tls.Config{}})

	wantUnreachable(t, err)
	if !strings.Contains(err.Error(), "TLS handshake failed: the server does not use TLS (connect without TLS)") {
		t.Errorf("no TLS hint in %v", err)
	}
}

// TestTLSFailuresSayWhatToDo covers the TLS failures of a connection's
// setup, as gRPC reports them.
func TestTLSFailuresSayWhatToDo(t *testing.T) {
	const prefix = `connection error: desc = "transport: authentication handshake failed: `
	cases := []struct {
		name             string
		msg              string
		usesTLS, hasCert bool
		want             string
	}{
		{"unknown CA", prefix + `tls: failed to verify certificate: x509: certificate signed by unknown authority"`, true, false,
			"set ConnectionOptions.TLS.RootCAs to a pool that holds the CA certificate that signed it (tls: failed to verify certificate: x509: certificate signed by unknown authority)"},
		{"other host", prefix + `tls: failed to verify certificate: x509: certificate is valid for localhost, not example.com"`, true, false,
			"set ConnectionOptions.TLS.ServerName"},
		{"expired", prefix + `tls: failed to verify certificate: x509: certificate has expired or is not yet valid: current time ..."`, true, false,
			"has expired or is not yet valid"},
		{"client certificate required", `connection error: desc = "error reading server preface: remote error: tls: certificate required"`, true, false,
			"set Credentials to client.NewMTLSCredentials"},
		{"client certificate not sent", `connection error: desc = "error reading server preface: remote error: tls: certificate required"`, true, true,
			"the server refused this client's certificate"},
		{"client certificate refused", `connection error: desc = "error reading server preface: remote error: tls: bad certificate"`, true, true,
			"the server refused this client's certificate: check which CA signed it"},
		{"closed, no certificate", `connection error: desc = "transport: failed to write client preface: write tcp 1->2: write: broken pipe"`, true, false,
			"if it requires a client certificate (mutual TLS), set Credentials to client.NewMTLSCredentials"},
		{"closed, with a certificate", `connection error: desc = "error reading server preface: EOF"`, true, true,
			"it may refuse this client's certificate"},
		{"closed, plaintext", `connection error: desc = "error reading server preface: EOF"`, false, false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := explainTLS(c.msg, c.usesTLS, c.hasCert)
			if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
				t.Errorf("explainTLS = %q, want it to hold %q", got, c.want)
			}
		})
	}
}
