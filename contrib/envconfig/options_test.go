package envconfig_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/durable-go/sdk/contrib/envconfig"
)

// selfSigned returns a certificate and its key, PEM-encoded.
func selfSigned(t *testing.T) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	template := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "envconfig test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		IsCA:         true,
		KeyUsage:     x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})
}

func TestToClientOptions(t *testing.T) {
	certPEM, keyPEM := selfSigned(t)
	dir := t.TempDir()
	certPath, keyPath := filepath.Join(dir, "client.pem"), filepath.Join(dir, "client.key")
	if err := os.WriteFile(certPath, certPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyPath, keyPEM, 0o600); err != nil {
		t.Fatal(err)
	}

	plain, err := (&envconfig.ClientConfigProfile{Address: "h:1", Namespace: "ns", Authority: "auth"}).ToClientOptions(envconfig.ToClientOptionsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if plain.HostPort != "h:1" || plain.Namespace != "ns" || plain.ConnectionOptions.Authority != "auth" ||
		plain.Credentials != nil || plain.ConnectionOptions.TLS != nil || plain.HeadersProvider != nil || plain.DataConverter != nil {
		t.Errorf("a plain profile gave %+v", plain)
	}

	// An API key turns TLS on, unless TLS is disabled.
	withKey, err := (&envconfig.ClientConfigProfile{APIKey: "k"}).ToClientOptions(envconfig.ToClientOptionsRequest{})
	if err != nil || withKey.Credentials == nil || withKey.ConnectionOptions.TLS == nil {
		t.Errorf("an API key: credentials %v, TLS %v, %v", withKey.Credentials, withKey.ConnectionOptions.TLS, err)
	}
	keyNoTLS, err := (&envconfig.ClientConfigProfile{APIKey: "k", TLS: &envconfig.ClientConfigTLS{Disabled: true}}).ToClientOptions(envconfig.ToClientOptionsRequest{})
	if err != nil || keyNoTLS.ConnectionOptions.TLS != nil || !keyNoTLS.ConnectionOptions.TLSDisabled {
		t.Errorf("an API key with TLS disabled: %+v, %v", keyNoTLS.ConnectionOptions, err)
	}

	for name, tlsConfig := range map[string]*envconfig.ClientConfigTLS{
		"files": {ClientCertPath: certPath, ClientKeyPath: keyPath, ServerCACertPath: certPath, ServerName: "sni", DisableHostVerification: true},
		"data":  {ClientCertData: certPEM, ClientKeyData: keyPEM, ServerCACertData: certPEM, ServerName: "sni", DisableHostVerification: true},
	} {
		opts, err := (&envconfig.ClientConfigProfile{TLS: tlsConfig}).ToClientOptions(envconfig.ToClientOptionsRequest{})
		if err != nil {
			t.Fatalf("TLS from %s: %v", name, err)
		}
		conf := opts.ConnectionOptions.TLS
		if conf == nil || len(conf.Certificates) != 1 || conf.RootCAs == nil || conf.ServerName != "sni" || !conf.InsecureSkipVerify {
			t.Errorf("TLS from %s: %+v", name, conf)
		}
	}

	for _, tc := range []struct {
		name string
		tls  envconfig.ClientConfigTLS
		want string
	}{
		{"a cert without a key", envconfig.ClientConfigTLS{ClientCertData: certPEM}, "needs a client key"},
		{"a key without a cert", envconfig.ClientConfigTLS{ClientKeyPath: keyPath}, "needs a client key"},
		{"a cert by path and data", envconfig.ClientConfigTLS{ClientCertPath: certPath, ClientCertData: certPEM, ClientKeyData: keyPEM}, "both as a path and as data"},
		{"a missing file", envconfig.ClientConfigTLS{ServerCACertPath: filepath.Join(dir, "none.pem")}, "reading the server CA cert"},
		{"a CA that is not PEM", envconfig.ClientConfigTLS{ServerCACertData: []byte("not pem")}, "holds no PEM certificate"},
		{"a key that does not match", envconfig.ClientConfigTLS{ClientCertData: certPEM, ClientKeyData: certPEM}, "do not make a key pair"},
	} {
		_, err := (&envconfig.ClientConfigProfile{TLS: &tc.tls}).ToClientOptions(envconfig.ToClientOptionsRequest{})
		if err == nil || !strings.Contains(err.Error(), "invalid TLS config") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.want)
		}
	}

	withMeta, err := (&envconfig.ClientConfigProfile{GRPCMeta: map[string]string{"x-team": "a"}}).ToClientOptions(envconfig.ToClientOptionsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	headers, err := withMeta.HeadersProvider.GetHeaders(context.Background())
	if err != nil || !reflect.DeepEqual(headers, map[string]string{"x-team": "a"}) {
		t.Errorf("headers %v, %v", headers, err)
	}

	config := envconfig.ClientConfig{Profiles: map[string]*envconfig.ClientConfigProfile{"default": {Address: "d:1"}}}
	if opts, err := config.ToClientOptions("", envconfig.ToClientOptionsRequest{}); err != nil || opts.HostPort != "d:1" {
		t.Errorf("the default profile: %+v, %v", opts, err)
	}
	if _, err := config.ToClientOptions("staging", envconfig.ToClientOptionsRequest{}); err == nil || !strings.Contains(err.Error(), `profile "staging" not found; the config has profiles "default"`) {
		t.Errorf("a missing profile: %v", err)
	}
}

// The remote codec is used only when asked for, and its requests carry
// the namespace and the configured authorization.
func TestRemoteCodec(t *testing.T) {
	type seen struct{ path, namespace, auth string }
	requests := make(chan seen, 10)
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests <- seen{r.URL.Path, r.Header.Get("X-Namespace"), r.Header.Get("Authorization")}
		var body json.RawMessage
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		_, _ = w.Write(body) // an identity codec
	}))
	defer server.Close()
	profile := envconfig.ClientConfigProfile{Namespace: "ns", Codec: &envconfig.ClientConfigCodec{Endpoint: server.URL, Auth: "Bearer codec"}}

	without, err := profile.ToClientOptions(envconfig.ToClientOptionsRequest{})
	if err != nil || without.DataConverter != nil {
		t.Fatalf("a codec not asked for: converter %v, %v", without.DataConverter, err)
	}
	with, err := profile.ToClientOptions(envconfig.ToClientOptionsRequest{IncludeRemoteCodec: true})
	if err != nil {
		t.Fatal(err)
	}
	payload, err := with.DataConverter.ToPayload("through the codec")
	if err != nil {
		t.Fatal(err)
	}
	var back string
	if err := with.DataConverter.FromPayload(payload, &back); err != nil || back != "through the codec" {
		t.Fatalf("round trip: %q, %v", back, err)
	}
	for _, wantPath := range []string{"/encode", "/decode"} {
		got := <-requests
		if got != (seen{wantPath, "ns", "Bearer codec"}) {
			t.Errorf("codec request %+v, want path %s with the namespace and authorization", got, wantPath)
		}
	}
}

func TestTOMLRoundTrip(t *testing.T) {
	certPEM, keyPEM := selfSigned(t)
	config := envconfig.ClientConfig{Profiles: map[string]*envconfig.ClientConfigProfile{
		"default": {Address: "localhost:7233", Namespace: "default"},
		"cloud": {
			Address: "c:7233", Namespace: "ns", APIKey: "k", Authority: "a",
			TLS: &envconfig.ClientConfigTLS{
				ClientCertData: certPEM, ClientKeyData: keyPEM, ServerCACertPath: "/ca.pem",
				ServerName: "sni", DisableHostVerification: true,
			},
			Codec:    &envconfig.ClientConfigCodec{Endpoint: "https://codec", Auth: "x"},
			GRPCMeta: map[string]string{"Upper_Case": "v"},
		},
		"off": {TLS: &envconfig.ClientConfigTLS{Disabled: true}},
	}}
	data, err := config.ToTOML(envconfig.ClientConfigToTOMLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var back envconfig.ClientConfig
	if err := back.FromTOML(data, envconfig.ClientConfigFromTOMLOptions{Strict: true}); err != nil {
		t.Fatalf("reading back %s: %v", data, err)
	}
	// Header names are written normalized.
	config.Profiles["cloud"].GRPCMeta = map[string]string{"upper-case": "v"}
	if !reflect.DeepEqual(back, config) {
		t.Errorf("read back\n%+v\nwant\n%+v\nfrom\n%s", back.Profiles, config.Profiles, data)
	}
	if !strings.Contains(string(data), "\n  [profile.cloud]") {
		t.Errorf("nested tables are not indented by two spaces:\n%s", data)
	}
	tab := "\t"
	data, err = config.ToTOML(envconfig.ClientConfigToTOMLOptions{OverrideIndent: &tab})
	if err != nil || !strings.Contains(string(data), "\n\t[profile.cloud]") {
		t.Errorf("with a tab indent (%v):\n%s", err, data)
	}

	var empty envconfig.ClientConfig
	if err := empty.FromTOML(nil, envconfig.ClientConfigFromTOMLOptions{}); err != nil || len(empty.Profiles) != 0 {
		t.Errorf("empty TOML: %+v, %v", empty, err)
	}
}

// A tool that reads and writes the file (the CLI) keeps the keys this
// package does not know.
func TestTOMLAdditionalProfileFields(t *testing.T) {
	input := "[profile.default]\naddress = \"a:1\"\ncolor = \"blue\"\nretries = 3\n\n[profile.default.tls]\nextra = true\n"
	additional := map[string]map[string]any{}
	var config envconfig.ClientConfig
	if err := config.FromTOML([]byte(input), envconfig.ClientConfigFromTOMLOptions{AdditionalProfileFields: additional}); err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]any{"default": {"color": "blue", "retries": int64(3)}}
	if !reflect.DeepEqual(additional, want) {
		t.Errorf("additional fields %v, want %v", additional, want)
	}
	data, err := config.ToTOML(envconfig.ClientConfigToTOMLOptions{AdditionalProfileFields: additional})
	if err != nil {
		t.Fatal(err)
	}
	again := map[string]map[string]any{}
	var back envconfig.ClientConfig
	if err := back.FromTOML(data, envconfig.ClientConfigFromTOMLOptions{AdditionalProfileFields: again}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, want) || back.Profiles["default"].Address != "a:1" {
		t.Errorf("written and read back: %v, %+v\n%s", again, back.Profiles["default"], data)
	}
	_, err = config.ToTOML(envconfig.ClientConfigToTOMLOptions{AdditionalProfileFields: map[string]map[string]any{"default": {"address": "x"}}})
	if err == nil || !strings.Contains(err.Error(), `additional field "address" of profile "default"`) {
		t.Errorf("an additional field that is a known one: %v", err)
	}
}
