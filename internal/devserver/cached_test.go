package devserver

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestCachedCLIRefusesLatestAndMalformedVersions(t *testing.T) {
	for version, want := range map[string]string{
		"latest":  "cannot be built with go install",
		"1.5.1":   "want a release such as",
		"v1/../x": "want a release such as",
	} {
		_, err := CachedCLI(context.Background(), version, t.TempDir(), nil)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CachedCLI(%q) = %v, want an error saying %q", version, err, want)
		}
	}
}

// The first call builds the pinned CLI into its own folder under DestDir;
// the second finds it there. With Go's build cache warm (scripts/test.sh
// installs the same release first) the build is a link.
func TestCachedCLIBuildsOnceAndReusesTheBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Temporal CLI")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dest := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	path, err := CachedCLI(ctx, "default", dest, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dest, "durable-go-temporal-cli-"+CLIVersion, exeName("temporal")); path != want {
		t.Errorf("built %s, want %s", path, want)
	}
	// The binary says 0.0.0-DEV of itself; its build information names
	// the module version it was built from.
	out, err := exec.Command("go", "version", "-m", path).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "github.com/temporalio/cli\t"+CLIVersion) {
		t.Errorf("go version -m %s: %s %v, want module github.com/temporalio/cli %s", path, out, err, CLIVersion)
	}
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	again, err := CachedCLI(ctx, "", dest, nil)
	if err != nil || again != path {
		t.Fatalf("second call: %s %v, want %s", again, err, path)
	}
	after, _ := os.Stat(path)
	if !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("the second call rebuilt the binary")
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("the cache folder holds %d entries, want only the binary (no scratch folder left)", len(entries))
	}
}

func TestCachedCLIQuotesTheGoCommandWhenTheBuildFails(t *testing.T) {
	if testing.Short() {
		t.Skip("asks the module proxy")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	_, err := CachedCLI(context.Background(), "v0.0.0-no-such-release", t.TempDir(), nil)
	if err == nil || !strings.Contains(err.Error(), "go install github.com/temporalio/cli/cmd/temporal@v0.0.0-no-such-release") {
		t.Errorf("got %v, want the failed go install quoted", err)
	}
}
