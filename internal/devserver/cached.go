package devserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// CachedCLI returns the Temporal CLI of the given version (CLIVersion for
// "" or "default") in a folder of its own under destDir (the user's temp
// folder when empty), building it there from the Go module proxy with
// `go install` the first time. It is testsuite.CachedDownload's download:
// go.temporal.io/sdk fetches a release archive from temporal.download,
// this SDK builds the same release from its module, so that it needs no
// more than the Go toolchain and module proxy the tests already use. The
// first build takes minutes (it says so on progress); later calls find
// the binary. "latest" is refused: the CLI's releases after v1.5.1 cannot
// be built with go install.
func CachedCLI(ctx context.Context, version, destDir string, progress io.Writer) (string, error) {
	switch version {
	case "", "default":
		version = CLIVersion
	case "latest":
		return "", fmt.Errorf(`CachedDownload.Version "latest": the Temporal CLI's releases after %s cannot be built with go install (their go.mod replaces a module their module zip does not hold); name a release up to %s, or set ExistingPath (e.g. to durable-devserver, server 1.32)`, CLIVersion, CLIVersion)
	}
	if !strings.HasPrefix(version, "v") || strings.ContainsAny(version, `/\ `) {
		return "", fmt.Errorf("CachedDownload.Version %q: want a release such as %s, \"default\" or empty", version, CLIVersion)
	}
	if destDir == "" {
		destDir = os.TempDir()
	}
	dir := filepath.Join(destDir, "durable-go-temporal-cli-"+version)
	binary := filepath.Join(dir, exeName("temporal"))

	// One build at a time per binary in this process: parallel tests
	// starting servers share it.
	lock := buildLock(binary)
	lock.Lock()
	defer lock.Unlock()
	if isExecutable(binary) {
		return binary, nil
	}
	goCommand, err := exec.LookPath("go")
	if err != nil {
		return "", errors.New("CachedDownload builds the Temporal CLI with the go command, which is not on PATH: install Go, or set DevServerOptions.ExistingPath to a Temporal CLI")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("CachedDownload: creating %s: %w", dir, err)
	}
	if progress == nil {
		progress = io.Discard
	}
	fmt.Fprintf(progress, "building the Temporal CLI %s into %s (the first build takes minutes)\n", version, dir)
	// Built into a scratch folder and renamed, so that a build cut short
	// leaves no binary that a later call would take for a whole one.
	scratch, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return "", fmt.Errorf("CachedDownload: %w", err)
	}
	defer os.RemoveAll(scratch)
	cmd := exec.CommandContext(ctx, goCommand, "install", "github.com/temporalio/cli/cmd/temporal@"+version)
	cmd.Env = append(os.Environ(), "GOBIN="+scratch)
	var output strings.Builder
	cmd.Stdout = &output
	cmd.Stderr = io.MultiWriter(&output, progress)
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("CachedDownload: building the Temporal CLI %s with `go install github.com/temporalio/cli/cmd/temporal@%s` failed: %w\n%s", version, version, err, strings.TrimSpace(output.String()))
	}
	if err := os.Rename(filepath.Join(scratch, exeName("temporal")), binary); err != nil {
		return "", fmt.Errorf("CachedDownload: %w", err)
	}
	return binary, nil
}

var buildLocks sync.Map // binary path -> *sync.Mutex

func buildLock(binary string) *sync.Mutex {
	lock, _ := buildLocks.LoadOrStore(binary, new(sync.Mutex))
	return lock.(*sync.Mutex)
}
