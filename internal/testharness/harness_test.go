package testharness

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/durable-go/sdk/internal/devserver"
	"github.com/durable-go/sdk/internal/rpc"
	"github.com/durable-go/sdk/temporaltest"
)

func TestMain(m *testing.M) { Main(m) }

func TestSharedServerAnswers(t *testing.T) {
	c, err := rpc.Dial(context.Background(), rpc.Options{HostPort: HostPort(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	if Namespace(t) != "default" {
		t.Errorf("namespace %q, want default", Namespace(t))
	}
	if err := c.CheckNamespace(context.Background(), Namespace(t)); err != nil {
		t.Error(err)
	}
}

// fakeTests stands in for *testing.M.
type fakeTests struct {
	ran  bool
	code int
	// seen is what the tests would have seen of the harness.
	seen *harness
}

func (f *fakeTests) Run() int {
	f.ran = true
	f.seen = active.Load()
	return f.code
}

func wantOutput(t *testing.T, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

func TestRunFailsWithInstallHintWithoutCLI(t *testing.T) {
	t.Setenv(SkipEnv, "")
	var stderr bytes.Buffer
	tests := &fakeTests{}
	before := active.Load()

	code := run(tests, &stderr, WithServerOptions(devserver.Options{ExistingPath: filepath.Join(t.TempDir(), "temporal")}))

	if code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	if tests.ran {
		t.Error("tests ran without their server")
	}
	wantOutput(t, stderr.String(),
		"install it with: go install github.com/temporalio/cli/cmd/temporal@v1.5.1",
		"or set DURABLE_SKIP_INTEGRATION=1 to skip integration tests")
	if active.Load() != before {
		t.Error("the package's own harness was not restored")
	}
}

func TestRunWithSkipRunsTestsWithoutServer(t *testing.T) {
	t.Setenv(SkipEnv, "1")
	before := active.Load()
	tests := &fakeTests{code: 7}

	code := run(tests, new(bytes.Buffer), WithServerOptions(devserver.Options{ExistingPath: "/nonexistent"}))

	if code != 7 || !tests.ran {
		t.Fatalf("exit code %d, ran %v; want the tests' own code 7", code, tests.ran)
	}
	if !tests.seen.skipped || tests.seen.server != nil {
		t.Errorf("tests saw %+v, want a skipped harness without server", tests.seen)
	}
	if active.Load() != before {
		t.Error("the package's own harness was not restored")
	}
}

func TestRunWhileFuzzingStartsNoServer(t *testing.T) {
	t.Setenv(SkipEnv, "")
	old := flag.Lookup("test.fuzz").Value.String()
	if err := flag.Set("test.fuzz", "FuzzSomething"); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = flag.Set("test.fuzz", old) }()
	tests := &fakeTests{code: 3}

	// A server that cannot start would fail the run: it must not be tried.
	code := run(tests, new(bytes.Buffer), WithServerOptions(devserver.Options{ExistingPath: "/nonexistent"}))

	if code != 3 || !tests.ran {
		t.Fatalf("exit code %d, ran %v; want the tests' own code 3", code, tests.ran)
	}
	if !tests.seen.skipped || tests.seen.server != nil || !strings.Contains(tests.seen.skipReason, "fuzzing") {
		t.Errorf("tests saw %+v, want a harness skipped for fuzzing", tests.seen)
	}
}

func TestHostPortSkipsWhenSkipped(t *testing.T) {
	prev := active.Swap(&harness{skipped: true})
	defer active.Store(prev)

	reached := false
	ok := t.Run("needs server", func(t *testing.T) {
		HostPort(t)
		reached = true
	})

	if !ok || reached {
		t.Errorf("subtest passed=%v reached=%v; HostPort must skip it", ok, reached)
	}
}

func TestRequireCLISkipsWhenAsked(t *testing.T) {
	t.Setenv(SkipEnv, "1")
	t.Setenv("PATH", t.TempDir())
	t.Setenv("GOBIN", t.TempDir())

	reached := false
	t.Run("needs cli", func(t *testing.T) {
		RequireCLI(t)
		reached = true
	})

	if reached {
		t.Error("RequireCLI did not skip")
	}
}

func TestRequireCLIFindsBinary(t *testing.T) {
	if path := RequireCLI(t); filepath.Base(path) != "temporal" {
		t.Errorf("RequireCLI() = %q", path)
	}
}

func TestRunShowsServerOutputWhenTestsFail(t *testing.T) {
	RequireCLI(t)
	var stderr bytes.Buffer
	tests := &fakeTests{code: 1}

	code := run(tests, &stderr, WithServerOptions(devserver.Options{Namespace: "harness-check"}))

	if code != 1 || !tests.ran {
		t.Fatalf("exit code %d, ran %v", code, tests.ran)
	}
	if got := tests.seen.server.Namespace(); got != "harness-check" {
		t.Errorf("server namespace %q", got)
	}
	wantOutput(t, stderr.String(), "testharness: dev server at "+tests.seen.server.HostPort()+", last stderr output:")
}

func TestTheEmbeddedTargetRunsTestsAgainstTheEmbeddedServer(t *testing.T) {
	t.Setenv(SkipEnv, "")
	t.Setenv(devserver.TargetEnv, EmbeddedTarget)
	before := active.Load()
	var hostPort, namespace string
	var answered error
	tests := &runFunc{func() int {
		hostPort, namespace = HostPort(t), Namespace(t)
		c, err := rpc.Dial(context.Background(), rpc.Options{HostPort: hostPort})
		if err != nil {
			answered = err
			return 1
		}
		defer c.Close()
		answered = errors.Join(c.CheckNamespace(context.Background(), namespace), c.CheckNamespace(context.Background(), "default"))
		return 0
	}}

	code := run(tests, new(bytes.Buffer), WithServerOptions(devserver.Options{ExistingPath: "/nonexistent", Namespace: "other"}))

	if code != 0 || answered != nil {
		t.Fatalf("exit code %d; the embedded server at %q answered %v", code, hostPort, answered)
	}
	if namespace != "other" {
		t.Errorf("namespace %q, want other, the options' namespace, as a dev server's", namespace)
	}
	if active.Load() != before {
		t.Error("the package's own harness was not restored")
	}
}

func TestNeedsDevServerSkipsOnlyOnTheEmbeddedServer(t *testing.T) {
	embedded, err := temporaltest.NewServer(temporaltest.ServerOptions{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer embedded.Stop()
	for _, h := range []*harness{{embedded: embedded}, {server: active.Load().server}} {
		var skipped bool
		runWith(&runFunc{func() int {
			t.Run("probe", func(t *testing.T) {
				defer func() { skipped = t.Skipped() }()
				NeedsDevServer(t, "a feature")
			})
			return 0
		}}, h)
		if want := h.embedded != nil; skipped != want {
			t.Errorf("embedded %v: skipped %v, want %v", h.embedded != nil, skipped, want)
		}
	}
}

// runFunc is a runner that runs a function.
type runFunc struct{ f func() int }

func (r *runFunc) Run() int { return r.f() }
