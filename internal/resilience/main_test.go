package resilience

import (
	"os"
	"testing"

	"github.com/durable-go/sdk/internal/testharness"
)

// TestMain runs the tests against a shared dev server, or, when the crash
// test starts this binary as its worker process, runs that worker.
func TestMain(m *testing.M) {
	if os.Getenv(workerProcessEnv) != "" {
		os.Exit(runWorkerProcess())
	}
	testharness.Main(m)
}

// heavy reports that the heavier versions of the load and crash tests
// were asked for (DURABLE_HEAVY=1): they take minutes, not seconds.
func heavy() bool { return os.Getenv("DURABLE_HEAVY") == "1" }
