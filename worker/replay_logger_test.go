package worker_test

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// explodingLogger panics in every method, and counts its calls.
type explodingLogger struct{ calls atomic.Int64 }

func (l *explodingLogger) log()                 { l.calls.Add(1); panic("the log sink is gone") }
func (l *explodingLogger) Debug(string, ...any) { l.log() }
func (l *explodingLogger) Info(string, ...any)  { l.log() }
func (l *explodingLogger) Warn(string, ...any)  { l.log() }
func (l *explodingLogger) Error(string, ...any) { l.log() }

// LogsAndNaps logs, sleeps an hour, and logs again.
func LogsAndNaps(ctx workflow.Context) (string, error) {
	workflow.GetLogger(ctx).Info("going to sleep")
	if err := workflow.Sleep(ctx, time.Hour); err != nil {
		return "", err
	}
	workflow.GetLogger(ctx).Info("awake")
	return "rested", nil
}

// LogsAndWorks logs, then runs a timer where LogsAndNaps slept: it does
// not replay LogsAndNaps's history.
func LogsAndWorks(ctx workflow.Context) (string, error) {
	workflow.GetLogger(ctx).Info("going to work")
	return "worked", workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute}), "Work").Get(ctx, nil)
}

// A logger that panics, given to the replayer, loses its calls but fails
// no replay and reaches no caller: the replay's outcome is the history's.
func TestReplayWithALoggerThatPanics(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.ExecuteWorkflow(LogsAndNaps)
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	history, err := env.GetHistory()
	if err != nil {
		t.Fatal(err)
	}

	logger := &explodingLogger{}
	replayer, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{EnableLoggingInReplay: true})
	if err != nil {
		t.Fatal(err)
	}
	replayer.RegisterWorkflow(LogsAndNaps)
	if err := replayer.ReplayWorkflowHistory(logger, history); err != nil {
		t.Fatalf("the replay failed: %v", err)
	}
	if logger.calls.Load() == 0 {
		t.Fatal("the workflow's logger was never called: the test shows nothing")
	}

	changed := worker.NewWorkflowReplayer()
	changed.RegisterWorkflowWithOptions(LogsAndWorks, workflow.RegisterOptions{Name: "LogsAndNaps"})
	err = changed.ReplayWorkflowHistory(logger, history)
	var nd *worker.NonDeterminismError
	if !errors.As(err, &nd) {
		t.Fatalf("replaying changed code: %v, want a NonDeterminismError", err)
	}
}
