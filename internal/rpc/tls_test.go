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
