package replaytool_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/worker/replaytool"
	"github.com/durable-go/sdk/workflow"
)

func TestMain(m *testing.M) { testharness.Main(m) }

const fixtures = "../../testdata/histories"

// Increment is the activity of the recorded SequentialActivitiesWorkflow.
func Increment(ctx context.Context, i int) (int, error) { return i + 1, nil }

// SequentialActivitiesWorkflow is the code that recorded sequential3.json
// (tools/recordhistories/workflows.go).
func SequentialActivitiesWorkflow(ctx workflow.Context, n int) (int, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	v := 0
	for i := 0; i < n; i++ {
		if err := workflow.ExecuteActivity(ctx, Increment, v).Get(ctx, &v); err != nil {
			return 0, err
		}
	}
	return v, nil
}

// timersChanged is registered as the TimersWorkflow of timers.json, which
// starts with a timer: it runs an activity instead.
func timersChanged(ctx workflow.Context) (int, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var n int
	err := workflow.ExecuteActivity(ctx, Increment, 1).Get(ctx, &n) // the changed line
	return n, err
}

// register is a worker's registration function: the command takes it as
// it is, activities included.
func register(r worker.Registry) {
	r.RegisterWorkflow(SequentialActivitiesWorkflow)
	r.RegisterWorkflowWithOptions(timersChanged, workflow.RegisterOptions{Name: "TimersWorkflow"})
	r.RegisterActivity(Increment)
}

// historiesDir copies recorded histories into a new folder.
func historiesDir(t *testing.T, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(fixtures, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func run(t *testing.T, cfg replaytool.Config, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errs bytes.Buffer
	code = replaytool.Run(context.Background(), cfg, args, &out, &errs)
	return code, out.String(), errs.String()
}

func lines(s string) []string { return strings.Split(strings.TrimSuffix(s, "\n"), "\n") }

func TestFolderWithAGoodAndABrokenHistory(t *testing.T) {
	dir := historiesDir(t, "sequential3.json", "timers.json")
	code, out, errs := run(t, replaytool.Config{Register: register}, dir)
	if code != replaytool.ExitFailed {
		t.Fatalf("exit status %d, want %d\n%s%s", code, replaytool.ExitFailed, out, errs)
	}
	got := lines(out)
	if len(got) != 2 {
		t.Fatalf("want one line per history, got:\n%s", out)
	}
	if got[0] != "ok    "+filepath.Join(dir, "sequential3.json") {
		t.Errorf("line 1: %q", got[0])
	}
	for _, want := range []string{"FAIL  " + filepath.Join(dir, "timers.json") + ": ", "nondeterministic workflow",
		"event 5 TimerStarted", `ScheduleActivityTask (activity "5", type "Increment")`, "replaytool_test.go:"} {
		if !strings.Contains(got[1], want) {
			t.Errorf("line 2 lacks %q: %s", want, got[1])
		}
	}
	if !strings.Contains(errs, "2 histories, 1 ok, 1 failed") {
		t.Errorf("stderr lacks the totals: %s", errs)
	}
}

func TestEveryHistoryReplays(t *testing.T) {
	dir := historiesDir(t, "sequential3.json")
	// A folder's folders are searched too.
	if err := os.Mkdir(filepath.Join(dir, "more"), 0o755); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(fixtures, "sequential3.json"))
	if err := os.WriteFile(filepath.Join(dir, "more", "again.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, replaytool.Config{Register: register}, dir, filepath.Join(fixtures, "sequential3.json"))
	if code != replaytool.ExitOK || len(lines(out)) != 3 || strings.Contains(out, "FAIL") {
		t.Fatalf("exit status %d\n%s%s", code, out, errs)
	}
}

func TestNotAHistoryFails(t *testing.T) {
	code, out, _ := run(t, replaytool.Config{Register: register}, filepath.Join(fixtures, "manifest.json"))
	if code != replaytool.ExitFailed || !strings.Contains(out, "FAIL") || !strings.Contains(out, "not a history") {
		t.Fatalf("exit status %d: %s", code, out)
	}
}

func TestPanicIsOneLineUnlessVerbose(t *testing.T) {
	panics := func(r worker.Registry) {
		r.RegisterWorkflowWithOptions(func(ctx workflow.Context, n int) (int, error) { panic("broken at start") },
			workflow.RegisterOptions{Name: "SequentialActivitiesWorkflow"})
	}
	file := filepath.Join(fixtures, "sequential3.json")
	code, out, _ := run(t, replaytool.Config{Register: panics}, file)
	if code != replaytool.ExitFailed || len(lines(out)) != 1 || !strings.Contains(out, "broken at start") {
		t.Fatalf("want one FAIL line, exit status %d:\n%s", code, out)
	}
	_, out, _ = run(t, replaytool.Config{Register: panics}, "-v", file)
	if len(lines(out)) < 2 || !strings.Contains(out, "replaytool_test.go") {
		t.Fatalf("-v must print the panic's stack:\n%s", out)
	}
}

func TestMisuse(t *testing.T) {
	empty := t.TempDir()
	cases := []struct {
		name string
		cfg  replaytool.Config
		args []string
		want string
	}{
		{"nothing to replay", replaytool.Config{Register: register}, nil, "nothing to replay"},
		{"missing folder", replaytool.Config{Register: register}, []string{filepath.Join(empty, "nope")}, "no such file"},
		{"empty folder", replaytool.Config{Register: register}, []string{empty}, "holds no *.json history"},
		{"save without query", replaytool.Config{Register: register}, []string{"-save", empty, empty}, "give -query too"},
		{"negative limit", replaytool.Config{Register: register}, []string{"-query", "x", "-limit", "-1"}, "-limit -1"},
		{"no registration", replaytool.Config{}, []string{empty}, "Config.Register is nil"},
		{"unknown flag", replaytool.Config{Register: register}, []string{"-frobnicate"}, "flag provided but not defined"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := run(t, c.cfg, c.args...)
			if code != replaytool.ExitUsage || out != "" || !strings.Contains(errs, c.want) {
				t.Fatalf("exit status %d, stdout %q, stderr lacks %q:\n%s", code, out, c.want, errs)
			}
		})
	}
}

// TestMainExitStatus runs Main in a child process, as a CI job runs the
// command, and checks its exit status.
func TestMainExitStatus(t *testing.T) {
	if args := os.Getenv("REPLAYTOOL_MAIN_ARGS"); args != "" {
		os.Args = append([]string{"replay"}, strings.Split(args, "\x00")...)
		replaytool.Main(replaytool.Config{Register: register})
		return // not reached: Main exits
	}
	dir := historiesDir(t, "sequential3.json", "timers.json")
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{filepath.Join(dir, "sequential3.json")}, replaytool.ExitOK},
		{[]string{dir}, replaytool.ExitFailed},
		{[]string{"-frobnicate"}, replaytool.ExitUsage},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMainExitStatus$")
		cmd.Env = append(os.Environ(), "REPLAYTOOL_MAIN_ARGS="+strings.Join(c.args, "\x00"), testharness.SkipEnv+"=1")
		out, err := cmd.CombinedOutput()
		code := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.want {
			t.Errorf("replay %v: exit status %d, want %d\n%s", c.args, code, c.want, out)
		}
	}
}
