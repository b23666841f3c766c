package nexus_standalone_activity_test

import (
	"os/exec"
	"testing"
)

// durableDevServer is the server the ported test starts in place of the
// Temporal CLI pre-release the sample names (port.sh, edit 1):
// durable-devserver, Temporal server 1.32.1. scripts/install-devserver.sh
// installs it into Go's bin directory, which the test scripts put on PATH.
func durableDevServer(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("durable-devserver")
	if err != nil {
		t.Fatalf("durable-devserver is not on PATH (%v): run scripts/install-devserver.sh and put Go's bin directory on PATH", err)
	}
	return path
}
