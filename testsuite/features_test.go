package testsuite_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"

	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// Everything uses most of the workflow API in one run.
func Everything(ctx workflow.Context) (string, error) {
	info := workflow.GetInfo(ctx)
	var last string
	if workflow.HasLastCompletionResult(ctx) {
		if err := workflow.GetLastCompletionResult(ctx, &last); err != nil {
			return "", err
		}
	}
	lastErr := workflow.GetLastError(ctx)
	var memo string
	if p := info.Memo.GetFields()["note"]; p != nil {
		_ = workflow.GetMetricsHandler(ctx) // reachable in tests too
		if err := workflowPayload(p, &memo); err != nil {
			return "", err
		}
	}
	var rnd int
	if err := workflow.SideEffect(ctx, func(workflow.Context) any { return 4 }).Get(&rnd); err != nil {
		return "", err
	}
	var mutable string
	if err := workflow.MutableSideEffect(ctx, "config", func(workflow.Context) any { return "v1" },
		func(a, b any) bool { return a == b }).Get(&mutable); err != nil {
		return "", err
	}
	v := workflow.GetVersion(ctx, "feature", workflow.DefaultVersion, 1)
	if err := workflow.UpsertMemo(ctx, map[string]any{"stage": "upserted"}); err != nil {
		return "", err
	}
	ok, err := workflow.AwaitWithTimeout(ctx, time.Hour, func() bool { return false })
	if err != nil || ok {
		return "", errors.New("await should time out")
	}
	suggested := info.GetContinueAsNewSuggested()
	return sprint(last, lastErr, memo, rnd, mutable, int(v), suggested, workflow.Now(ctx).Sub(info.WorkflowStartTime).Round(time.Minute)), nil
}

func sprint(args ...any) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = toString(a)
	}
	return strings.Join(parts, "|")
}

func (s *EnvSuite) TestEveryFeatureRunsAndReplays() {
	s.env.SetLastCompletionResult("previous run")
	s.env.SetLastError(errors.New("previous failure"))
	s.Require().NoError(s.env.SetMemoOnStart(map[string]any{"note": "from start"}))
	s.env.SetContinueAsNewSuggested(true)
	s.env.ExecuteWorkflow(Everything)
	var got string
	s.Require().NoError(s.env.GetWorkflowResult(&got))
	s.Equal("previous run|previous failure|from start|4|v1|1|true|1h0m0s", got)

	h, err := s.env.GetHistory()
	s.Require().NoError(err)
	replayer := worker.NewWorkflowReplayer()
	replayer.RegisterWorkflow(Everything)
	s.NoError(replayer.ReplayWorkflowHistory(nil, h))
}

func (s *EnvSuite) TestSideEffectAndUpsertMocks() {
	s.env.OnSideEffect().Return(42).Once()
	s.env.OnMutableSideEffect("config").Return("mocked").Once()
	s.env.OnUpsertMemo(map[string]any{"stage": "upserted"}).Return(nil).Once()
	s.env.OnGetVersion(mock.Anything, workflow.DefaultVersion, 1).Return(workflow.DefaultVersion)
	s.env.ExecuteWorkflow(Everything)
	var got string
	s.Require().NoError(s.env.GetWorkflowResult(&got))
	s.Equal("|<nil>||42|mocked|-1|false|1h0m0s", got)
}

func RunsOnTwoQueues(ctx workflow.Context) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute, ScheduleToStartTimeout: time.Minute,
		TaskQueue: "billing", RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1}})
	var r string
	err := workflow.ExecuteActivity(ctx, Greet, "billing").Get(ctx, &r)
	return r, err
}

func (s *EnvSuite) TestActivityBoundToAnotherTaskQueueIsNotRunHere() {
	s.env.RegisterActivity(Greet)
	s.env.SetActivityTaskQueue("shipping", Greet)
	s.env.ExecuteWorkflow(RunsOnTwoQueues)
	var timeout *temporal.TimeoutError
	s.True(errors.As(s.env.GetWorkflowError(), &timeout), "no worker of billing runs Greet: %v", s.env.GetWorkflowError())
}

func (s *EnvSuite) TestActivityBoundToItsTaskQueueRuns() {
	s.env.RegisterActivity(Greet)
	s.env.SetActivityTaskQueue("billing", Greet)
	s.env.ExecuteWorkflow(RunsOnTwoQueues)
	var r string
	s.NoError(s.env.GetWorkflowResult(&r))
	s.Equal("Hello, billing!", r)
}

// capturingLogger keeps the warnings it is given.
type capturingLogger struct {
	mu    sync.Mutex
	warns []string
}

func (l *capturingLogger) Debug(string, ...any) {}
func (l *capturingLogger) Info(string, ...any)  {}
func (l *capturingLogger) Error(string, ...any) {}
func (l *capturingLogger) Warn(msg string, keyvals ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.warns = append(l.warns, fmt.Sprint(append([]any{msg}, keyvals...)...))
}

// ForgetsSignals continues as new without reading its signals, as the
// docs' sliding-window sample did.
func ForgetsSignals(ctx workflow.Context, round int) error {
	if err := workflow.Sleep(ctx, time.Hour); err != nil {
		return err
	}
	return workflow.NewContinueAsNewError(ctx, ForgetsSignals, round+1)
}

func TestContinuingAsNewWithUnreadSignalsIsLogged(t *testing.T) {
	logger := &capturingLogger{}
	var s testsuite.WorkflowTestSuite
	s.SetLogger(logger)
	env := s.NewTestWorkflowEnvironment()
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow("ReportCompletion", 7)
		env.SignalWorkflow("ReportCompletion", 8)
	}, time.Minute)
	env.ExecuteWorkflow(ForgetsSignals, 1)
	var can *workflow.ContinueAsNewError
	require.True(t, errors.As(env.GetWorkflowError(), &can))
	logger.mu.Lock()
	defer logger.mu.Unlock()
	found := false
	for _, w := range logger.warns {
		found = found || strings.Contains(w, "ReportCompletion (2)")
	}
	require.True(t, found, "want a warning naming the unread signals, got %v", logger.warns)
}

func (s *EnvSuite) TestQueriesAcceptExtraArguments() {
	s.env.RegisterDelayedCallback(func() {
		v, err := s.env.QueryWorkflow("seen", "an argument the handler does not take")
		s.NoError(err)
		var seen []string
		s.NoError(v.Get(&seen))
		s.env.SignalWorkflow("item", "done")
	}, time.Minute)
	s.env.ExecuteWorkflow(Collector)
	s.NoError(s.env.GetWorkflowError())
}
