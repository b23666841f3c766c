package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/durable-go/sdk/internal/testharness"
)

// TestMain lets the test binary be the benchmark's child process too: the
// program re-executes its own binary with -child.
func TestMain(m *testing.M) {
	if cfg, ok := childArg(os.Args[1:]); ok {
		os.Exit(childMain(cfg))
	}
	os.Exit(m.Run())
}

// TestTinyRun runs the whole program with tiny counts against a dev server
// it starts: every workload (the nexus ones with the Nexus endpoints they
// create), both SDKs, profiles for missed targets. It
// fails without the temporal CLI unless DURABLE_SKIP_INTEGRATION=1.
func TestTinyRun(t *testing.T) {
	cli := testharness.RequireCLI(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	profiles := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := run(ctx, []string{
		"-temporal", cli,
		"-latency-runs", "5", "-localactivity-runs", "5", "-workflows", "5", "-memory-workflows", "5", "-scale-workflows", "5",
		"-scale-activities", "1,4", "-nexus-workflows", "5", "-versioning-workflows", "5", "-typed-workflows", "5", "-concurrency", "5", "-warmup", "1",
		"-replay-time", "0", "-replay-iters", "1", "-timeout", "90s",
		"-profile", profiles,
	}, &stdout, &stderr)
	out := stdout.String()
	t.Logf("output:\n%s", out)
	if code != 0 {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr.String())
	}
	for _, w := range []string{"latency", "throughput", "replay", "dispatcher", "memory", "localactivities", "scale x1", "scale x4", "nexus sync", "nexus async", "versioning", "typed"} {
		// A line with the workload, two figures, a ratio.
		re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(w) + `\s+\S.*\s[-0-9.]+\s*(<=|>=)?`)
		if !re.MatchString(out) {
			t.Errorf("no line for workload %q", w)
		}
	}
	if strings.Contains(out, "error") {
		t.Errorf("a workload failed")
	}
	if !regexp.MustCompile(`round 1: \d+ of \d+ targets met`).MatchString(out) {
		t.Errorf("no summary of the targets")
	}
	// Every profile the output names exists.
	for _, m := range regexp.MustCompile(`profile of ours, [^:]+: (\S+?)[,;]`).FindAllStringSubmatch(out, -1) {
		if _, err := os.Stat(m[1]); err != nil {
			t.Errorf("profile %s: %v", m[1], err)
		}
	}
}

// TestTinyRunWithMetrics runs the worker workloads with -metrics: both
// sides' workers record the SDK's metrics, and the report says how many
// series each recorded.
func TestTinyRunWithMetrics(t *testing.T) {
	cli := testharness.RequireCLI(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	code := run(ctx, []string{
		"-temporal", cli, "-metrics", "-only", "latency,throughput",
		"-latency-runs", "3", "-workflows", "3", "-concurrency", "3", "-warmup", "1", "-timeout", "90s",
	}, &stdout, &stderr)
	out := stdout.String()
	t.Logf("output:\n%s", out)
	if code != 0 && !strings.Contains(out, "targets met") {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr.String())
	}
	series := regexp.MustCompile(`(?m)^(\S+)\s+SDK metric series\s+(\d+)\.00\s+(\d+)\.00`).FindAllStringSubmatch(out, -1)
	if len(series) != 2 {
		t.Fatalf("%d lines of SDK metric series, want one for latency and one for throughput", len(series))
	}
	for _, m := range series {
		ours, _ := strconv.Atoi(m[2])
		official, _ := strconv.Atoi(m[3])
		// Each SDK emits some 40 to 50 series here; far fewer on our
		// side would mean its worker metrics are not emitted.
		if ours < 30 || official < 30 {
			t.Errorf("%s: %d series recorded by ours, %d by official; want both to emit the worker's metrics", m[1], ours, official)
		}
	}
}

// TestTinyRunProfilesEverything profiles the throughput workload with
// -profile-all: a CPU profile and a heap profile of our worker, whether
// its targets were met or not.
func TestTinyRunProfilesEverything(t *testing.T) {
	cli := testharness.RequireCLI(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	profiles := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := run(ctx, []string{
		"-temporal", cli, "-only", "throughput", "-profile", profiles, "-profile-all",
		"-workflows", "5", "-concurrency", "5", "-warmup", "1", "-timeout", "90s",
	}, &stdout, &stderr)
	out := stdout.String()
	t.Logf("output:\n%s", out)
	if code != 0 {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr.String())
	}
	for _, kind := range []string{"cpu", "heap"} {
		path := filepath.Join(profiles, "r1-throughput-ours."+kind+".pprof")
		if !strings.Contains(out, kind+" profile of ours, throughput (an extra run, not measured): "+path) {
			t.Errorf("the output does not name the %s profile %s", kind, path)
		}
		if fi, err := os.Stat(path); err != nil {
			t.Errorf("%s profile: %v", kind, err)
		} else if fi.Size() == 0 {
			t.Errorf("%s profile %s is empty", kind, path)
		}
	}
}

// TestTinyMemoryRunWithoutRelease measures memory with the workflows left
// open: the process's RSS is reported, and what is kept after completion
// is not measured.
func TestTinyMemoryRunWithoutRelease(t *testing.T) {
	cli := testharness.RequireCLI(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	code := run(ctx, []string{
		"-temporal", cli, "-only", "memory", "-memory-workflows", "5", "-memory-release=false",
		"-concurrency", "5", "-warmup", "1", "-timeout", "90s",
	}, &stdout, &stderr)
	out := stdout.String()
	t.Logf("output:\n%s", out)
	if code != 0 {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr.String())
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^memory\s+process RSS, all cached\s+[0-9.]+ MiB\s+[0-9.]+ MiB\s+[0-9.]+`),
		regexp.MustCompile(`(?m)^memory\s+process RSS / workflow\s+\S`),
		regexp.MustCompile(`(?m)^memory\s+kept after completion / wf\s+-\s+-\s+-`),
	} {
		if !want.MatchString(out) {
			t.Errorf("no line matching %s", want)
		}
	}
}

// TestTinyVersioningRun runs the versioning workload with AutoUpgrade
// (TestTinyRun runs it with the default, Pinned): on each side an
// unversioned worker, then a versioned one whose version the run makes
// current, and the report gives both CPU figures and their ratio.
func TestTinyVersioningRun(t *testing.T) {
	cli := testharness.RequireCLI(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	code := run(ctx, []string{
		"-temporal", cli, "-only", "versioning", "-versioning-workflows", "5", "-versioning-auto-upgrade",
		"-concurrency", "5", "-warmup", "1", "-timeout", "90s",
	}, &stdout, &stderr)
	out := stdout.String()
	t.Logf("output:\n%s", out)
	if code != 0 && !strings.Contains(out, "targets met") {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr.String())
	}
	if !strings.Contains(out, "versioning 2 x 5 workflows (AutoUpgrade)") {
		t.Errorf("the header does not name the versioned worker's behavior")
	}
	for _, label := range []string{"worker CPU / wf versioned", "worker CPU / wf unversioned", "versioned / unversioned CPU"} {
		// Two figures and a ratio, no error.
		re := regexp.MustCompile(`(?m)^versioning\s+` + regexp.QuoteMeta(label) + `\s+[0-9.]+\s*\S*\s+[0-9.]+\s*\S*\s+[0-9.]+`)
		if !re.MatchString(out) {
			t.Errorf("no figures for %q", label)
		}
	}
}

// TestTinyTypedRun runs the typed workload: our worker runs the plain
// workflow, then the one written with the typed API; the official worker
// runs its plain one twice; the report gives both CPU figures and their
// ratio.
func TestTinyTypedRun(t *testing.T) {
	cli := testharness.RequireCLI(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	code := run(ctx, []string{
		"-temporal", cli, "-only", "typed", "-typed-workflows", "5", "-concurrency", "5", "-warmup", "1", "-timeout", "90s",
	}, &stdout, &stderr)
	out := stdout.String()
	t.Logf("output:\n%s", out)
	if code != 0 && !strings.Contains(out, "targets met") {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr.String())
	}
	for _, label := range []string{"worker CPU / wf typed", "worker CPU / wf plain", "typed / plain CPU"} {
		re := regexp.MustCompile(`(?m)^typed\s+` + regexp.QuoteMeta(label) + `\s+[0-9.]+\s*\S*\s+[0-9.]+\s*\S*\s+[0-9.]+`)
		if !re.MatchString(out) {
			t.Errorf("no figures for %q", label)
		}
	}
}

func TestProfileAllNeedsAProfileDirectory(t *testing.T) {
	if _, err := parseFlags([]string{"-profile-all"}, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "-profile DIR") {
		t.Fatalf("-profile-all alone: %v", err)
	}
}

func TestQuickKeepsExplicitFlags(t *testing.T) {
	c, err := parseFlags([]string{"-quick", "-workflows", "7"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if c.workflows != 7 || c.latencyRuns >= 300 || c.memoryWorkflows >= 2000 {
		t.Errorf("-quick -workflows 7: workflows %d, latency runs %d, memory workflows %d", c.workflows, c.latencyRuns, c.memoryWorkflows)
	}
	if _, err := parseFlags([]string{"-only", "nope"}, &bytes.Buffer{}); err == nil {
		t.Error("-only nope: no error")
	}
}

func TestPercentile(t *testing.T) {
	var d []time.Duration
	for i := 1; i <= 100; i++ {
		d = append(d, time.Duration(i))
	}
	for p, want := range map[float64]time.Duration{0.5: 50, 0.9: 90, 0.99: 99, 1: 100} {
		if got := percentile(d, p); got != want {
			t.Errorf("p%v = %v, want %v", p, got, want)
		}
	}
	if got := percentile(d[:1], 0.99); got != 1 {
		t.Errorf("p99 of one = %v", got)
	}
}
