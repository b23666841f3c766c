package devserver

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The SDK's own integration tests run against one of two servers, chosen
// by TargetEnv:
//
//   - "1.32" (the default): durable-devserver, Temporal server 1.32.1 in
//     one process (cmd/durable-devserver, installed by
//     scripts/install-devserver.sh). The Temporal CLI releases that carry
//     server 1.32 cannot be built with go install, so the SDK builds its
//     own from the server library.
//   - "1.29": the Temporal CLI v1.5.1's dev server (server 1.29.1), the
//     older target.
//
// Both take the same flags ("server start-dev --ip ... --port ..."), so
// Start runs either.
const TargetEnv = "DURABLE_TEST_SERVER"

const (
	// DevServerName is the binary of cmd/durable-devserver.
	DevServerName = "durable-devserver"
	// DevServerVersion is the Temporal server it runs.
	DevServerVersion = "1.32.1"
	// DevServerInstallCommand installs it from a checkout of this
	// repository.
	DevServerInstallCommand = "bash scripts/install-devserver.sh"
)

// ErrDevServerNotFound is wrapped by the error FindTestServer returns
// when there is no durable-devserver binary.
var ErrDevServerNotFound = errors.New(DevServerName + " not found")

// FindTestServer returns the server binary the SDK's integration tests
// run, as TargetEnv picks it: durable-devserver (on PATH or where go
// install puts binaries) by default, the temporal CLI for "1.29".
func FindTestServer() (string, error) {
	switch target := os.Getenv(TargetEnv); target {
	case "", "1.32":
	case "1.29":
		return FindCLI("")
	default:
		return "", fmt.Errorf("%s=%q: use 1.32 (durable-devserver, the default) or 1.29 (the Temporal CLI %s)", TargetEnv, target, CLIVersion)
	}
	if path, err := exec.LookPath(exeName(DevServerName)); err == nil {
		return path, nil
	}
	var searched []string
	for _, dir := range goBinDirs() {
		path := filepath.Join(dir, exeName(DevServerName))
		if isExecutable(path) {
			return path, nil
		}
		searched = append(searched, dir)
	}
	return "", fmt.Errorf("%w (Temporal server %s) on PATH or in %s; install it with: %s, or run the tests on the Temporal CLI's server with %s=1.29",
		ErrDevServerNotFound, DevServerVersion, strings.Join(searched, ", "), DevServerInstallCommand, TargetEnv)
}
