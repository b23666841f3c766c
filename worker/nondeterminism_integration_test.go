package worker_test

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// greetsThenWaits runs Greet, then waits for the signal "go".
func greetsThenWaits(ctx workflow.Context) error {
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	if err := workflow.ExecuteActivity(ctx, Greet, "x").Get(ctx, nil); err != nil {
		return err
	}
	workflow.GetSignalChannel(ctx, "go").Receive(ctx, nil)
	return nil
}

// shoutsThenWaits is greetsThenWaits changed: it runs Shout instead.
func shoutsThenWaits(ctx workflow.Context) error {
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	if err := workflow.ExecuteActivity(ctx, Shout, "x").Get(ctx, nil); err != nil { // the changed line
		return err
	}
	workflow.GetSignalChannel(ctx, "go").Receive(ctx, nil)
	return nil
}

// errorLog keeps the messages and values of the errors logged.
type errorLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *errorLog) Debug(string, ...any) {}
func (l *errorLog) Info(string, ...any)  {}
func (l *errorLog) Warn(string, ...any)  {}
func (l *errorLog) Error(msg string, kv ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprint(append([]any{msg}, kv...)...))
}

func (l *errorLog) find(substr string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, line := range l.lines {
		if strings.Contains(line, substr) {
			return line
		}
	}
	return ""
}

// TestTheLiveWorkersNonDeterminismErrorSaysWhereTheCodeIs: a worker whose
// code no longer matches a run's history logs the workflow task's failure
// and reports it to the server with the file:line of the workflow code
// that differs, as the replayer's error gives it.
func TestTheLiveWorkersNonDeterminismErrorSaysWhereTheCodeIs(t *testing.T) {
	c := dial(t)
	ctx := testCtx(t)
	tq := unique(t, "tq")
	// The run's next task waits this long on the stopped worker's sticky
	// queue before it goes to the task queue.
	first := worker.New(c, tq, worker.Options{StickyScheduleToStartTimeout: time.Second})
	first.RegisterWorkflowWithOptions(greetsThenWaits, workflow.RegisterOptions{Name: "Changes"})
	first.RegisterActivity(Greet)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: tq}, "Changes")
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the workflow to wait for its signal", func() bool {
		events := history(t, c, run.GetID())
		return len(events) >= 10 // up to the WorkflowTaskCompleted after the activity
	})
	first.Stop()

	logs := &errorLog{}
	logged, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), Logger: logs})
	if err != nil {
		t.Fatal(err)
	}
	defer logged.Close()
	second := worker.New(logged, tq, worker.Options{})
	second.RegisterWorkflowWithOptions(shoutsThenWaits, workflow.RegisterOptions{Name: "Changes"})
	second.RegisterActivity(Shout)
	if err := second.Start(); err != nil {
		t.Fatal(err)
	}
	defer second.Stop()
	if err := c.SignalWorkflow(ctx, run.GetID(), "", "go", nil); err != nil {
		t.Fatal(err)
	}
	_, file, _, _ := runtime.Caller(0)
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	changed := 1 + strings.Count(string(src[:strings.Index(string(src), "// the changed line")]), "\n")
	where := fmt.Sprintf("(workflow code at %s:%d)", file, changed)
	var reported string
	waitFor(t, "the failed workflow task", func() bool {
		for _, ev := range history(t, c, run.GetID()) {
			if a := ev.GetWorkflowTaskFailedEventAttributes(); a != nil {
				reported = a.GetFailure().GetMessage()
				return true
			}
		}
		return false
	})
	if !strings.Contains(reported, "nondeterministic workflow") || !strings.Contains(reported, where) {
		t.Errorf("the failure reported to the server is %q; want it to say %q", reported, where)
	}
	line := logs.find("workflow task failed")
	if !strings.Contains(line, where) {
		t.Errorf("the worker logged %q; want it to say %q", line, where)
	}
	_ = c.TerminateWorkflow(ctx, run.GetID(), "", "test done")
}
