package testsuite_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/workflow"
)

// explodingLogger panics in every method, and counts its calls.
type explodingLogger struct{ calls atomic.Int64 }

func (l *explodingLogger) log()                 { l.calls.Add(1); panic("the log sink is gone") }
func (l *explodingLogger) Debug(string, ...any) { l.log() }
func (l *explodingLogger) Info(string, ...any)  { l.log() }
func (l *explodingLogger) Warn(string, ...any)  { l.log() }
func (l *explodingLogger) Error(string, ...any) { l.log() }

// Shout is an activity that logs.
func Shout(ctx context.Context, s string) (string, error) {
	activity.GetLogger(ctx).Info("shouting", "Text", s)
	return s + "!", nil
}

// LogsEverywhere logs in its code, in an activity and in a local
// activity.
func LogsEverywhere(ctx workflow.Context) (string, error) {
	workflow.GetLogger(ctx).Info("starting")
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var out string
	if err := workflow.ExecuteActivity(ctx, Shout, "hey").Get(ctx, &out); err != nil {
		return "", err
	}
	ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: time.Minute})
	if err := workflow.ExecuteLocalActivity(ctx, Shout, out).Get(ctx, &out); err != nil {
		return "", err
	}
	workflow.GetLogger(ctx).Warn("done", "Result", out)
	return out, nil
}

// A suite's logger that panics loses its calls, but fails no workflow
// task, no activity, and does not end the test binary from the worker's
// goroutines (which log a failed workflow task, for one).
func TestALoggerThatPanicsIsDroppedNotFatal(t *testing.T) {
	logger := &explodingLogger{}
	var s testsuite.WorkflowTestSuite
	s.SetLogger(logger)

	env := s.NewTestWorkflowEnvironment()
	env.RegisterActivity(Shout)
	env.ExecuteWorkflow(LogsEverywhere)
	var out string
	require.NoError(t, env.GetWorkflowResult(&out))
	require.Equal(t, "hey!!", out)
	require.Positive(t, logger.calls.Load(), "the logger was never called: the test shows nothing")

	// A workflow task that fails is logged by the worker's own goroutine.
	env = s.NewTestWorkflowEnvironment()
	env.ExecuteWorkflow(func(ctx workflow.Context) error { panic("out of coffee") })
	var panicErr *temporal.PanicError
	require.ErrorAs(t, env.GetWorkflowError(), &panicErr)

	aenv := s.NewTestActivityEnvironment()
	aenv.RegisterActivity(Shout)
	v, err := aenv.ExecuteActivity(Shout, "ho")
	require.NoError(t, err)
	require.NoError(t, v.Get(&out))
	require.Equal(t, "ho!", out)
}
