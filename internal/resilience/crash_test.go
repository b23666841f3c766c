package resilience

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/devserver"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
)

// The crash test's worker process is this test binary run again, with
// these variables saying where to connect and what to poll (see TestMain).
const (
	workerProcessEnv      = "DURABLE_RESILIENCE_WORKER" // the server's host:port
	workerTaskQueueEnv    = "DURABLE_RESILIENCE_TASK_QUEUE"
	workerProcessReady    = "worker ready"
	activityStartedLine   = "activity started "
	activitySucceededLine = "activity succeeded "
)

// runWorkerProcess runs a worker of Mixed until the process is killed,
// telling its parent on stdout when it is ready and when each activity
// starts and succeeds.
func runWorkerProcess() int {
	var out sync.Mutex
	say := func(line string) {
		out.Lock()
		defer out.Unlock()
		fmt.Println(line)
	}
	activities.onStart = func(key string) { say(activityStartedLine + key) }
	activities.onSuccess = func(key string) { say(activitySucceededLine + key) }
	c, err := client.Dial(client.Options{HostPort: os.Getenv(workerProcessEnv)})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	w := newMixedWorker(c, os.Getenv(workerTaskQueueEnv), worker.Options{})
	if err := w.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	say(workerProcessReady)
	// Until killed; or, should the test die first, until its end of the
	// stdin pipe closes, so that no worker outlives it.
	_, _ = io.Copy(io.Discard, os.Stdin)
	return 0
}

// workerProcess is a worker running in a child process.
type workerProcess struct {
	cmd    *exec.Cmd
	stderr bytes.Buffer
	// stdin is never written: the child exits when it closes, with this
	// process.
	stdin io.WriteCloser

	mu        sync.Mutex
	ready     chan struct{}
	started   map[string]bool
	succeeded map[string]bool
	exited    chan struct{}
}

func startWorkerProcess(t *testing.T, hostPort, taskQueue string) *workerProcess {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := &workerProcess{ready: make(chan struct{}), started: map[string]bool{}, succeeded: map[string]bool{}, exited: make(chan struct{})}
	p.cmd = exec.Command(exe, "-test.run=^$")
	p.cmd.Env = append(os.Environ(), workerProcessEnv+"="+hostPort, workerTaskQueueEnv+"="+taskQueue)
	p.cmd.Stderr = &p.stderr
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.exited
	})
	go func() {
		defer close(p.exited)
		defer func() { _ = p.cmd.Wait() }()
		lines := bufio.NewScanner(stdout)
		for lines.Scan() {
			p.read(lines.Text())
		}
	}()
	select {
	case <-p.ready:
	case <-p.exited:
		t.Fatalf("the worker process exited before it was ready: %s", p.stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatal("the worker process was not ready within 30s")
	}
	return p
}

func (p *workerProcess) read(line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case line == workerProcessReady:
		close(p.ready)
	case strings.HasPrefix(line, activityStartedLine):
		p.started[strings.TrimPrefix(line, activityStartedLine)] = true
	case strings.HasPrefix(line, activitySucceededLine):
		p.succeeded[strings.TrimPrefix(line, activitySucceededLine)] = true
	}
}

// progress is how many activities the process started and finished.
func (p *workerProcess) progress() (started, succeeded int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.started), len(p.succeeded)
}

// succeededOnce reports whether the activity's code ran to success in the
// process.
func (p *workerProcess) succeededOnce(key string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.succeeded[key]
}

// kill sends SIGKILL and waits for the process to end.
func (p *workerProcess) kill(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-p.exited
}

// TestWorkerKilledMidTaskLosesNothing kills a worker process with
// SIGKILL while it runs workflow tasks and activities for a few hundred
// workflows; a second worker then finishes every workflow with its
// correct result, each activity completed exactly once in history.
func TestWorkerKilledMidTaskLosesNothing(t *testing.T) {
	n, kills := 300, 1
	if heavy() {
		n, kills = 1000, 3
	}
	activities.reset()
	hostPort := testharness.HostPort(t)
	starter := dialDirect(t)
	tq := unique(t, "tq")
	ins := mixedInputs(n, time.Second, 300*time.Millisecond)
	// A workflow task held by a dead worker is retried once its timeout
	// passes; a short one keeps the test short.
	ids := startMixed(t, starter, tq, unique(t, "wf"), ins, client.StartWorkflowOptions{WorkflowTaskTimeout: 2 * time.Second})
	var report []string
	var processes []*workerProcess
	for range kills {
		p := startWorkerProcess(t, hostPort, tq)
		processes = append(processes, p)
		// Kill when this process has done its share of the work and has
		// activities running.
		target := n / (kills + 1)
		waitUntil(t, time.Minute, "the worker process's progress", func() bool {
			started, succeeded := p.progress()
			return succeeded >= target && started-succeeded >= 10
		})
		started, succeeded := p.progress()
		p.kill(t)
		report = append(report, fmt.Sprintf("killed with %d of its activities running (%d succeeded)", started-succeeded, succeeded))
	}
	second := newMixedWorker(dialDirect(t), tq, worker.Options{})
	if err := second.Start(); err != nil {
		t.Fatal(err)
	}
	defer second.Stop()
	elapsed := requireResults(t, starter, ids, ins, 3*time.Minute)
	requireOneCompletionPerActivity(t, starter, ids, func(key string) bool {
		for _, p := range processes {
			if p.succeededOnce(key) {
				return true
			}
		}
		return activities.ran(key)
	})
	t.Logf("%d workflows: worker process %s; then a worker in this process finished them all in %v", n, strings.Join(report, "; then "), elapsed.Round(time.Millisecond))
}

// TestServerRestartUnderLoadLosesNothing stops the dev server while a few
// hundred workflows are in flight and starts it again on its SQLite file:
// the worker reconnects by itself and every workflow completes with its
// result.
func TestServerRestartUnderLoadLosesNothing(t *testing.T) {
	testharness.RequireCLI(t)
	activities.reset()
	n := 200
	if heavy() {
		n = 1000
	}
	opts := devserver.Options{DBFilename: filepath.Join(t.TempDir(), "temporal.db"), Stderr: &bytes.Buffer{}}
	server, err := devserver.Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = server.Stop() }()
	logs := &lineLogger{}
	c, err := client.Dial(client.Options{HostPort: server.HostPort(), Logger: logs})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tq := unique(t, "tq")
	w := newMixedWorker(c, tq, worker.Options{})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ins := mixedInputs(n, 3*time.Second, 100*time.Millisecond)
	// Workflow tasks in flight when the server stops are retried once
	// their timeout passes; a short one keeps the test short.
	ids := startMixed(t, c, tq, unique(t, "wf"), ins, client.StartWorkflowOptions{WorkflowTaskTimeout: 2 * time.Second})

	time.Sleep(time.Second) // first activities done, timers pending
	stopped := time.Now()
	if err := server.Stop(); err != nil {
		t.Fatal(err)
	}
	opts.HostPort = server.HostPort()
	if server, err = devserver.Start(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	down := time.Since(stopped)
	elapsed := requireResults(t, c, ids, ins, 3*time.Minute)
	requireOneCompletionPerActivity(t, c, ids, activities.ran)
	t.Logf("%d workflows: the server was down %v; all completed %v after it was back; the worker's log: connection lost %d time(s), back %d time(s)",
		n, down.Round(time.Millisecond), elapsed.Round(time.Millisecond),
		logs.count("lost the connection to the Temporal server"), logs.count("reconnected to the Temporal server"))
	if logs.count("reconnected to the Temporal server") == 0 {
		t.Error("the worker's reconnection was not logged")
	}
}
