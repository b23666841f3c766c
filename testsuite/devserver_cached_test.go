package testsuite_test

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/testsuite"
)

// StartDevServer with CachedDownload builds the pinned Temporal CLI into
// its cache (the user's temp folder: a machine builds it once) and runs
// it: the server answers the client it returns.
func TestStartDevServerWithCachedDownload(t *testing.T) {
	if os.Getenv(testharness.SkipEnv) != "" || testing.Short() {
		t.Skip("starts a dev server built from the module proxy")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	server, err := testsuite.StartDevServer(ctx, testsuite.DevServerOptions{
		CachedDownload: testsuite.CachedDownload{Version: "default"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer server.Stop()
	if _, err := server.Client().CheckHealth(ctx, nil); err != nil {
		t.Errorf("the server the cached CLI started does not answer: %v", err)
	}
}
