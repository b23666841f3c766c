package testsuite_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/workflow"
)

// GreetsWith calls Greet (which takes a string) with the arguments given,
// once, as code ported from go.temporal.io/sdk may: that SDK schedules the
// activity whatever the arguments.
func GreetsWith(ctx workflow.Context, args []any) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
	})
	var greeting string
	err := workflow.ExecuteActivity(ctx, Greet, args...).Get(ctx, &greeting)
	return greeting, err
}

func TestActivityArgumentsThatDoNotFitAreScheduledAndLogged(t *testing.T) {
	cases := []struct {
		name     string
		args     []any
		result   string // when the activity succeeds
		failure  []string
		warnings []string
	}{
		{"an extra argument", []any{"Ada", "extra"}, "Hello, Ada!", nil,
			[]string{`activity "Greet" takes 1 argument(s) (string), but 2 were given`}},
		{"a missing argument", []any{}, "Hello, !", nil,
			[]string{`activity "Greet" takes 1 argument(s) (string), but 0 were given`}},
		{"an argument of another type", []any{true}, "",
			[]string{`activity "Greet": argument 1 (string)`, "cannot unmarshal bool", "check the arguments the activity is called with"},
			[]string{`activity "Greet": argument 1 is bool, but the parameter is string`}},
		{"arguments that fit", []any{"Ada"}, "Hello, Ada!", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			logger := &capturingLogger{}
			var s testsuite.WorkflowTestSuite
			s.SetLogger(logger)
			env := s.NewTestWorkflowEnvironment()
			env.RegisterActivity(Greet)
			env.ExecuteWorkflow(GreetsWith, c.args)
			if c.failure == nil {
				var got string
				require.NoError(t, env.GetWorkflowResult(&got))
				require.Equal(t, c.result, got)
			} else {
				err := env.GetWorkflowError()
				var appErr *temporal.ApplicationError
				require.True(t, errors.As(err, &appErr), "want the activity's decoding failure, got %v", err)
				for _, want := range c.failure {
					require.Contains(t, appErr.Error(), want)
				}
			}
			logger.mu.Lock()
			defer logger.mu.Unlock()
			var warnings []string
			for _, w := range logger.warns {
				if strings.Contains(w, "ExecuteActivity") {
					warnings = append(warnings, w)
				}
			}
			require.Len(t, warnings, len(c.warnings), "one warning per call that does not fit, none in the replay check: %v", warnings)
			for i, want := range c.warnings {
				require.Contains(t, warnings[i], want)
				require.Contains(t, warnings[i], "scheduled all the same")
			}
		})
	}
}

// WaitsBackwards sleeps and waits on a timer for negative durations.
func WaitsBackwards(ctx workflow.Context) (bool, error) {
	if err := workflow.Sleep(ctx, -time.Minute); err != nil {
		return false, err
	}
	var fired bool
	err := workflow.NewTimerWithOptions(ctx, -time.Second, workflow.TimerOptions{Summary: "never"}).Get(ctx, &fired)
	return fired, err
}

// TestANegativeTimerIsReadyAtOnce: as in go.temporal.io/sdk, a negative
// duration is no wait, with no timer in history.
func TestANegativeTimerIsReadyAtOnce(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	start := env.Now()
	env.ExecuteWorkflow(WaitsBackwards)
	var fired bool
	require.NoError(t, env.GetWorkflowResult(&fired))
	require.True(t, fired, "a timer that needs no wait is ready with true, as in go.temporal.io/sdk")
	require.Equal(t, start, env.Now())
	h, err := env.GetHistory()
	require.NoError(t, err)
	for _, ev := range h.GetEvents() {
		require.NotContains(t, ev.GetEventType().String(), "TIMER", "no timer is started")
	}
}
