package devserver

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const installHint = "install it with: go install github.com/temporalio/cli/cmd/temporal@v1.5.1"

func writeExecutable(t *testing.T, path, script string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

func wantFound(t *testing.T, want string) {
	t.Helper()
	got, err := FindCLI("")
	if err != nil || got != want {
		t.Errorf("FindCLI() = %q, %v; want %q", got, err, want)
	}
}

func wantNotFound(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, ErrCLINotFound) || !strings.Contains(err.Error(), installHint) {
		t.Errorf("got %v, want ErrCLINotFound with %q", err, installHint)
	}
}

func TestFindCLIPrefersExistingPath(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "my-temporal")
	writeExecutable(t, exe, "#!/bin/sh\n")

	if got, err := FindCLI(exe); err != nil || got != exe {
		t.Errorf("FindCLI(%q) = %q, %v", exe, got, err)
	}
}

func TestFindCLIMissingExistingPath(t *testing.T) {
	_, err := FindCLI("/nonexistent/temporal")

	wantNotFound(t, err)
	if want := "temporal CLI not found at /nonexistent/temporal; " + installHint; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
}

func TestFindCLISearchesPathThenGoBin(t *testing.T) {
	onPath := filepath.Join(t.TempDir(), "temporal")
	writeExecutable(t, onPath, "#!/bin/sh\n")
	gopath := t.TempDir()
	inGoPath := filepath.Join(gopath, "bin", "temporal")
	writeExecutable(t, inGoPath, "#!/bin/sh\n")
	t.Setenv("GOBIN", "")
	t.Setenv("GOPATH", gopath)

	t.Setenv("PATH", filepath.Dir(onPath))
	wantFound(t, onPath)

	t.Setenv("PATH", t.TempDir())
	wantFound(t, inGoPath)

	gobin := t.TempDir()
	writeExecutable(t, filepath.Join(gobin, "temporal"), "#!/bin/sh\n")
	t.Setenv("GOBIN", gobin)
	wantFound(t, filepath.Join(gobin, "temporal"))
}

func TestFindCLINotInstalled(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("GOBIN", t.TempDir())

	_, err := FindCLI("")

	wantNotFound(t, err)
}

func TestStartWithoutCLISaysHowToInstall(t *testing.T) {
	_, err := Start(context.Background(), Options{ExistingPath: filepath.Join(t.TempDir(), "temporal")})

	wantNotFound(t, err)
}

func TestStartReportsEarlyExit(t *testing.T) {
	// A "CLI" that fails at once, the way a bad flag would.
	exe := filepath.Join(t.TempDir(), "temporal")
	writeExecutable(t, exe, "#!/bin/sh\necho 'Error: unknown flag --bogus' >&2\nexit 3\n")

	_, err := Start(context.Background(), Options{ExistingPath: exe, Stderr: new(tailBuffer)})

	for _, want := range []string{"exited before it was ready (exit status 3)", "unknown flag --bogus"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
}

// The tests' server is durable-devserver unless DURABLE_TEST_SERVER says
// 1.29, the Temporal CLI.
func TestFindTestServerFollowsTheTarget(t *testing.T) {
	dir := t.TempDir()
	devserver := filepath.Join(dir, "durable-devserver")
	cli := filepath.Join(dir, "temporal")
	writeExecutable(t, devserver, "#!/bin/sh\n")
	writeExecutable(t, cli, "#!/bin/sh\n")
	t.Setenv("PATH", dir)
	for target, want := range map[string]string{"": devserver, "1.32": devserver, "1.29": cli} {
		t.Setenv(TargetEnv, target)
		if got, err := FindTestServer(); err != nil || got != want {
			t.Errorf("%s=%q: FindTestServer() = %q, %v; want %q", TargetEnv, target, got, err, want)
		}
	}
	t.Setenv(TargetEnv, "1.31")
	if _, err := FindTestServer(); err == nil || !strings.Contains(err.Error(), "use 1.32") {
		t.Errorf("an unknown target: %v", err)
	}
	t.Setenv(TargetEnv, "")
	t.Setenv("PATH", t.TempDir())
	t.Setenv("GOBIN", t.TempDir())
	if _, err := FindTestServer(); !errors.Is(err, ErrDevServerNotFound) || !strings.Contains(err.Error(), DevServerInstallCommand) {
		t.Errorf("no durable-devserver: %v", err)
	}
}
