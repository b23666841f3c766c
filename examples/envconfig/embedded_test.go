package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/durable-go/sdk/temporaltest"
)

// runOn runs the program as main does with these flags, a real worker
// and client over gRPC, and returns what it printed.
func (s *EnvConfigSuite) runOn(configFile, profile string) string {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out strings.Builder
	s.Require().NoError(run(ctx, configFile, profile, &out))
	return out.String()
}

// startServer starts an embedded server that serves namespace ("":
// default), for the test.
func (s *EnvConfigSuite) startServer(namespace string) *temporaltest.Server {
	srv, err := temporaltest.NewServer(temporaltest.ServerOptions{Namespace: namespace})
	s.Require().NoError(err)
	s.T().Cleanup(srv.Stop)
	return srv
}

// The program reaches the server and namespace a profile names: here the
// embedded server's, serving a namespace of its own.
func (s *EnvConfigSuite) TestTheProgramRunsOnTheServerOfAProfile() {
	srv := s.startServer("envconfig-example")
	config := filepath.Join(s.T().TempDir(), "temporal.toml")
	s.Require().NoError(os.WriteFile(config, []byte(fmt.Sprintf(`
[profile.embedded]
address = %q
namespace = "envconfig-example"
`, srv.HostPort())), 0o600))

	printed := s.runOn(config, "embedded")

	s.Equal(fmt.Sprintf("connected to %s; a workflow ran in namespace \"envconfig-example\"\n", srv.HostPort()), printed)
}

// TEMPORAL_ADDRESS overrides the checked-in default profile's address, as
// in the README's `TEMPORAL_ADDRESS=127.0.0.1:7299 go run .`.
func (s *EnvConfigSuite) TestTheProgramRunsOnTheServerTheEnvironmentNames() {
	srv := s.startServer("")
	s.T().Setenv("TEMPORAL_ADDRESS", srv.HostPort())

	printed := s.runOn("temporal.toml", "default")

	s.Equal(fmt.Sprintf("connected to %s; a workflow ran in namespace \"default\"\n", srv.HostPort()), printed)
}
