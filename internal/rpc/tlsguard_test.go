package rpc

import (
	"context"
	"crypto/tls"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
)

func staticKey(key string) func(context.Context) (string, error) {
	return func(context.Context) (string, error) { return key, nil }
}

// gRPC lets transport credentials in DialOptions replace the connection's
// own without a word: the TLS asked for is dropped, and an API key goes
// out in plaintext. The guard refuses to send such calls.
func TestTransportCredentialsInDialOptionsDoNotDropTLS(t *testing.T) {
	cert, pool := selfSigned(t)
	plaintext := startFakeServer(t)
	withTLS := startFakeServer(t, grpc.Creds(credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{cert}})))
	theirTLS := grpc.WithTransportCredentials(credentials.NewTLS(&tls.Config{RootCAs: pool}))
	plain := grpc.WithTransportCredentials(insecure.NewCredentials())

	cases := []struct {
		name    string
		server  *fakeServer
		options Options
		refused string // "" if the calls go out
	}{
		{"TLS configured, plaintext credentials", plaintext,
			Options{TLS: &tls.Config{RootCAs: pool}, DialOptions: []grpc.DialOption{plain}}, errTLSReplaced},
		{"TLS configured, TLS credentials of their own", withTLS,
			Options{TLS: &tls.Config{RootCAs: pool, ServerName: "configured"}, DialOptions: []grpc.DialOption{theirTLS}}, errTLSReplaced},
		{"API key, plaintext credentials", plaintext,
			Options{TLS: &tls.Config{}, TLSForAPIKey: true, APIKey: staticKey("secret"), DialOptions: []grpc.DialOption{plain}}, errAPIKeyWithoutTLS},
		{"API key, TLS credentials of their own", withTLS,
			Options{TLS: &tls.Config{}, TLSForAPIKey: true, APIKey: staticKey("secret"), DialOptions: []grpc.DialOption{theirTLS}}, ""},
		{"TLS configured, no credentials in DialOptions", withTLS,
			Options{TLS: &tls.Config{RootCAs: pool}, APIKey: staticKey("secret")}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := len(c.server.received())
			c.options.HostPort = c.server.addr
			conn, err := Dial(context.Background(), c.options)
			if c.refused == "" {
				must(t, err)
				must(t, conn.Close())
				if got := c.server.received(); len(got) == before {
					t.Error("the server received no call")
				}
				return
			}
			if err == nil {
				_ = conn.Close()
				t.Fatalf("Dial succeeded; want the call refused with %q", c.refused)
			}
			if !strings.Contains(err.Error(), c.refused) || strings.Contains(err.Error(), "the server refused") {
				t.Errorf("Dial failed with %v\nwant it to say %q", err, c.refused)
			}
			wantCode(t, err, codes.Unauthenticated)
			if got := c.server.received(); len(got) != before {
				t.Errorf("the server received %d calls, want none", len(got)-before)
			}
		})
	}
}
