package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/suite"

	"github.com/durable-go/sdk/testsuite"
)

type EnvConfigSuite struct {
	suite.Suite
	testsuite.WorkflowTestSuite
}

func TestEnvConfig(t *testing.T) { suite.Run(t, new(EnvConfigSuite)) }

// SetupTest unsets the variables that would override the profiles, so
// that the machine's environment does not change the outcome.
func (s *EnvConfigSuite) SetupTest() {
	for _, name := range []string{"TEMPORAL_CONFIG_FILE", "TEMPORAL_PROFILE", "TEMPORAL_ADDRESS", "TEMPORAL_NAMESPACE",
		"TEMPORAL_API_KEY", "TEMPORAL_TLS", "TEMPORAL_TLS_CLIENT_CERT_PATH", "TEMPORAL_TLS_CLIENT_KEY_PATH"} {
		s.T().Setenv(name, "") // restores the variable after the test
		s.NoError(os.Unsetenv(name))
	}
}

func (s *EnvConfigSuite) TestTheDefaultProfileOfTheCheckedInFile() {
	options, err := loadOptions("temporal.toml", "")
	s.Require().NoError(err)
	s.Equal("localhost:7233", options.HostPort)
	s.Equal("default", options.Namespace)
	s.Nil(options.ConnectionOptions.TLS)
	s.Nil(options.Credentials)
}

func (s *EnvConfigSuite) TestTheEnvironmentOverridesTheProfile() {
	s.T().Setenv("TEMPORAL_ADDRESS", "127.0.0.1:7299")
	s.T().Setenv("TEMPORAL_NAMESPACE", "staging")
	options, err := loadOptions("temporal.toml", "default")
	s.Require().NoError(err)
	s.Equal("127.0.0.1:7299", options.HostPort)
	s.Equal("staging", options.Namespace)
}

func (s *EnvConfigSuite) TestAnAPIKeyTurnsOnTLS() {
	s.T().Setenv("TEMPORAL_API_KEY", "secret")
	options, err := loadOptions("temporal.toml", "apikey")
	s.Require().NoError(err)
	s.Equal("us-east-1.aws.api.temporal.io:7233", options.HostPort)
	s.NotNil(options.Credentials)
	s.NotNil(options.ConnectionOptions.TLS)
}

func (s *EnvConfigSuite) TestAnMTLSProfileLoadsItsCertificate() {
	dir := s.T().TempDir()
	certPath, keyPath := writeClientCertificate(s.T(), dir)
	config := filepath.Join(dir, "temporal.toml")
	s.Require().NoError(os.WriteFile(config, []byte(`
[profile.cloud]
address = "my-namespace.a1b2c.tmprl.cloud:7233"
namespace = "my-namespace.a1b2c"
[profile.cloud.tls]
client_cert_path = "`+certPath+`"
client_key_path = "`+keyPath+`"
`), 0o600))
	// TEMPORAL_CONFIG_FILE and TEMPORAL_PROFILE choose them as the flags do.
	s.T().Setenv("TEMPORAL_CONFIG_FILE", config)
	s.T().Setenv("TEMPORAL_PROFILE", "cloud")

	options, err := loadOptions("", "")
	s.Require().NoError(err)
	s.Equal("my-namespace.a1b2c.tmprl.cloud:7233", options.HostPort)
	s.Equal("my-namespace.a1b2c", options.Namespace)
	s.Require().NotNil(options.ConnectionOptions.TLS)
	s.Len(options.ConnectionOptions.TLS.Certificates, 1)
}

func (s *EnvConfigSuite) TestAProfileThatIsNotThereIsAnError() {
	_, err := loadOptions("temporal.toml", "production")
	s.ErrorContains(err, "production")
}

func (s *EnvConfigSuite) TestTheWorkflowReportsItsNamespace() {
	env := s.NewTestWorkflowEnvironment()
	env.ExecuteWorkflow(Namespace)
	var namespace string
	s.NoError(env.GetWorkflowResult(&namespace))
	s.Equal("default-test-namespace", namespace, "the test environment's namespace")
}

// writeClientCertificate writes a self-signed client certificate and its
// key to dir as PEM files and returns their paths.
func writeClientCertificate(t *testing.T, dir string) (certPath, keyPath string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	template := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "example-client"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certPath, keyPath = filepath.Join(dir, "client.pem"), filepath.Join(dir, "client.key")
	if err := os.WriteFile(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyPath, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certPath, keyPath
}
