// Package envconfig loads client options from the TOML profiles and
// TEMPORAL_* environment variables that the Temporal CLI reads, so that
// one binary can run against a local dev server, a self-hosted cluster or
// Temporal Cloud by switching a profile or an environment. It mirrors
// go.temporal.io/sdk/contrib/envconfig:
//
//	c, err := client.Dial(envconfig.MustLoadDefaultClientOptions())
//
// The file is TEMPORAL_CONFIG_FILE, or else temporalio/temporal.toml in
// the user's configuration directory (os.UserConfigDir). Its profiles are
// tables under "profile":
//
//	[profile.default]
//	address = "localhost:7233"
//	namespace = "default"
//
//	[profile.cloud]
//	address = "my-ns.a1b2c.tmprl.cloud:7233"
//	namespace = "my-ns.a1b2c"
//	api_key = "..."
//	[profile.cloud.tls]
//	client_cert_path = "/certs/client.pem"
//	client_key_path = "/certs/client.key"
//	[profile.cloud.grpc_meta]
//	my-header = "value"
//
// The profile used is TEMPORAL_PROFILE, or else "default". Environment
// variables then override the profile's values: TEMPORAL_ADDRESS,
// TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_CLIENT_AUTHORITY,
// TEMPORAL_TLS, TEMPORAL_TLS_CLIENT_CERT_PATH, TEMPORAL_TLS_CLIENT_CERT_DATA,
// TEMPORAL_TLS_CLIENT_KEY_PATH, TEMPORAL_TLS_CLIENT_KEY_DATA,
// TEMPORAL_TLS_SERVER_CA_CERT_PATH, TEMPORAL_TLS_SERVER_CA_CERT_DATA,
// TEMPORAL_TLS_SERVER_NAME, TEMPORAL_TLS_DISABLE_HOST_VERIFICATION,
// TEMPORAL_CODEC_ENDPOINT, TEMPORAL_CODEC_AUTH and TEMPORAL_GRPC_META_<NAME>.
package envconfig

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
)

// ClientConfig is the content of a config file: its profiles.
type ClientConfig struct {
	// Profiles by name.
	Profiles map[string]*ClientConfigProfile
}

// ClientConfigProfile is one profile: how to reach and authenticate to a
// server.
type ClientConfigProfile struct {
	// Address is the server's host:port.
	Address string
	// Namespace is the namespace the client works in.
	Namespace string
	// APIKey, if set, is sent as a bearer token, and turns TLS on unless
	// TLS says it is disabled.
	APIKey string
	// TLS configures TLS; nil leaves it off (unless APIKey is set).
	TLS *ClientConfigTLS
	// Codec names a remote codec server.
	Codec *ClientConfigCodec
	// GRPCMeta are gRPC headers sent with every request. Keys read from a
	// file or the environment, or written to a file, are normalized by
	// NormalizeGRPCMetaKey; set keys in that form so that environment
	// variables can override them.
	GRPCMeta map[string]string
	// Authority overrides the :authority pseudo-header of requests.
	Authority string
}

// ClientConfigTLS configures TLS. Each certificate or key is given either
// as a file path or as PEM data, not both.
type ClientConfigTLS struct {
	// Disabled turns TLS off, even with an API key.
	Disabled bool
	// ClientCertPath and ClientCertData are the client's certificate for
	// mTLS; ClientKeyPath and ClientKeyData its private key. The
	// certificate and the key come together.
	ClientCertPath string
	ClientCertData []byte
	ClientKeyPath  string
	ClientKeyData  []byte
	// ServerCACertPath and ServerCACertData replace the system's root
	// certificates for checking the server.
	ServerCACertPath string
	ServerCACertData []byte
	// ServerName overrides the name checked in the server's certificate
	// (SNI).
	ServerName string
	// DisableHostVerification skips checking the server's certificate.
	DisableHostVerification bool
}

// ClientConfigCodec names a remote codec server.
type ClientConfigCodec struct {
	// Endpoint is the codec server's URL.
	Endpoint string
	// Auth is sent as the Authorization header of codec requests.
	Auth string
}

// ToClientOptionsRequest are the options of ToClientOptions.
type ToClientOptionsRequest struct {
	// IncludeRemoteCodec makes the client's data converter encode and
	// decode payloads through the profile's codec server. Usually a codec
	// is better configured in code; never use this for a worker's client,
	// which would call the server for every payload, replays included.
	IncludeRemoteCodec bool
}

// DefaultConfigFileProfile is the profile used when none is named.
const DefaultConfigFileProfile = "default"

// ToClientOptions returns the client options of the named profile
// ("default" when empty). A profile not in the config is an error.
func (c *ClientConfig) ToClientOptions(profile string, options ToClientOptionsRequest) (client.Options, error) {
	if profile == "" {
		profile = DefaultConfigFileProfile
	}
	p, ok := c.Profiles[profile]
	if !ok || p == nil {
		return client.Options{}, fmt.Errorf("profile %q not found; the config has %s", profile, profileNames(c.Profiles))
	}
	return p.ToClientOptions(options)
}

// profileNames lists the profiles for an error message.
func profileNames(profiles map[string]*ClientConfigProfile) string {
	if len(profiles) == 0 {
		return "no profiles"
	}
	names := make([]string, 0, len(profiles))
	for name := range profiles {
		names = append(names, fmt.Sprintf("%q", name))
	}
	slices.Sort(names)
	return "profiles " + strings.Join(names, ", ")
}

// ToClientOptions returns the client options this profile describes.
// Certificates and keys given by path are read now.
func (c *ClientConfigProfile) ToClientOptions(options ToClientOptionsRequest) (client.Options, error) {
	opts := client.Options{
		HostPort:          c.Address,
		Namespace:         c.Namespace,
		ConnectionOptions: client.ConnectionOptions{Authority: c.Authority},
	}
	if c.APIKey != "" {
		opts.Credentials = client.NewAPIKeyStaticCredentials(c.APIKey)
	}
	switch {
	case c.TLS != nil && c.TLS.Disabled:
		opts.ConnectionOptions.TLSDisabled = true
	case c.TLS != nil:
		conf, err := c.TLS.tlsConfig()
		if err != nil {
			return client.Options{}, fmt.Errorf("invalid TLS config: %w", err)
		}
		opts.ConnectionOptions.TLS = conf
	case c.APIKey != "":
		opts.ConnectionOptions.TLS = &tls.Config{}
	}
	if c.Codec != nil && options.IncludeRemoteCodec {
		if c.Codec.Endpoint == "" {
			return client.Options{}, errors.New("invalid codec config: the endpoint is empty")
		}
		opts.DataConverter = c.Codec.dataConverter(c.Namespace)
	}
	if len(c.GRPCMeta) > 0 {
		opts.HeadersProvider = fixedHeaders(c.GRPCMeta)
	}
	return opts, nil
}

// tlsConfig builds the TLS configuration, reading files as needed.
func (c *ClientConfigTLS) tlsConfig() (*tls.Config, error) {
	conf := &tls.Config{ServerName: c.ServerName, InsecureSkipVerify: c.DisableHostVerification}
	certPEM, err := pemFrom("client cert", c.ClientCertPath, c.ClientCertData)
	if err != nil {
		return nil, err
	}
	keyPEM, err := pemFrom("client key", c.ClientKeyPath, c.ClientKeyData)
	if err != nil {
		return nil, err
	}
	switch {
	case certPEM != nil && keyPEM != nil:
		cert, err := tls.X509KeyPair(certPEM, keyPEM)
		if err != nil {
			return nil, fmt.Errorf("the client cert and key do not make a key pair: %w", err)
		}
		conf.Certificates = []tls.Certificate{cert}
	case certPEM != nil || keyPEM != nil:
		return nil, errors.New("a client cert needs a client key and the other way round: give both, or neither")
	}
	caPEM, err := pemFrom("server CA cert", c.ServerCACertPath, c.ServerCACertData)
	if err != nil {
		return nil, err
	}
	if caPEM != nil {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(caPEM) {
			return nil, errors.New("the server CA cert holds no PEM certificate")
		}
		conf.RootCAs = pool
	}
	return conf, nil
}

// pemFrom returns PEM data given inline or by path; nil when neither.
func pemFrom(what, path string, data []byte) ([]byte, error) {
	switch {
	case path != "" && len(data) > 0:
		return nil, fmt.Errorf("the %s is given both as a path and as data: keep one", what)
	case len(data) > 0:
		return data, nil
	case path != "":
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("reading the %s: %w", what, err)
		}
		return b, nil
	}
	return nil, nil
}

// dataConverter sends payloads to the codec server, with the headers the
// Temporal UI and CLI send it.
func (c *ClientConfigCodec) dataConverter(namespace string) converter.DataConverter {
	auth := c.Auth
	return converter.NewRemoteDataConverter(converter.GetDefaultDataConverter(), converter.RemoteDataConverterOptions{
		Endpoint: c.Endpoint,
		ModifyRequest: func(req *http.Request) error {
			req.Header.Set("X-Namespace", namespace)
			if auth != "" {
				req.Header.Set("Authorization", auth)
			}
			return nil
		},
	})
}

// NormalizeGRPCMetaKey lowercases a gRPC header name and replaces its
// underscores with hyphens, so that TEMPORAL_GRPC_META_MY_HEADER and a
// file's my-header name the same header.
func NormalizeGRPCMetaKey(k string) string {
	return strings.ToLower(strings.ReplaceAll(k, "_", "-"))
}

// fixedHeaders sends the same headers with every request.
type fixedHeaders map[string]string

func (h fixedHeaders) GetHeaders(context.Context) (map[string]string, error) { return h, nil }
