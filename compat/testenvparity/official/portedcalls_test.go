package parity

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/stretchr/testify/mock"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// Calls that go.temporal.io/sdk lets through and ported code makes: a
// negative timer, an activity given arguments that do not fit it.

// WaitsBackwards sleeps, waits on a timer and awaits a condition, each
// for a negative duration, and says how each ended.
func WaitsBackwards(ctx workflow.Context) (string, error) {
	slept := workflow.Sleep(ctx, -time.Minute)
	var fired bool
	timerErr := workflow.NewTimer(ctx, -time.Second).Get(ctx, &fired)
	ok, awaitErr := workflow.AwaitWithTimeout(ctx, -time.Hour, func() bool { return false })
	return fmt.Sprintf("slept: %v, timer: %v %v, await: %v %v", slept, fired, timerErr, ok, awaitErr), nil
}

func (s *ParitySuite) TestANegativeTimerIsReadyAtOnce() {
	log := s.listenToTimers()
	start := s.env.Now()
	s.env.ExecuteWorkflow(WaitsBackwards)
	var got string
	s.Require().NoError(s.env.GetWorkflowResult(&got))
	s.Equal("slept: <nil>, timer: true <nil>, await: false <nil>", got)
	s.Empty(log.order, "no timer is started")
	s.Equal(time.Duration(0), s.env.Now().Sub(start))
}

// Label is an activity of one string argument.
func Label(_ context.Context, name string) (string, error) { return "label: " + name, nil }

// CallsLabel calls Label with the arguments given (one attempt).
func CallsLabel(ctx workflow.Context, args []any) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
	})
	var label string
	err := workflow.ExecuteActivity(ctx, Label, args...).Get(ctx, &label)
	return label, err
}

func (s *ParitySuite) TestAnActivityIgnoresExtraArguments() {
	s.env.RegisterActivity(Label)
	s.env.ExecuteWorkflow(CallsLabel, []any{"a", "an argument Label does not take"})
	var got string
	s.Require().NoError(s.env.GetWorkflowResult(&got))
	s.Equal("label: a", got)
}

func (s *ParitySuite) TestAnActivityTakesZeroValuesForMissingArguments() {
	s.env.RegisterActivity(Label)
	s.env.ExecuteWorkflow(CallsLabel, []any{})
	var got string
	s.Require().NoError(s.env.GetWorkflowResult(&got))
	s.Equal("label: ", got)
}

func (s *ParitySuite) TestAnActivityFailsToDecodeAnArgumentOfAnotherType() {
	s.env.RegisterActivity(Label)
	s.env.ExecuteWorkflow(CallsLabel, []any{42})
	err := s.env.GetWorkflowError()
	var activityErr *temporal.ActivityError
	s.Require().True(errors.As(err, &activityErr), "%v", err)
	s.Equal("Label", activityErr.ActivityType().Name)
	var appErr *temporal.ApplicationError
	s.Require().True(errors.As(err, &appErr), "%v", err)
	s.False(appErr.NonRetryable(), "retryable, as any error of the activity")
	s.Contains(appErr.Error(), "cannot unmarshal number")
}

func (s *ParitySuite) TestAMockedActivityGetsTheArgumentsItTakes() {
	s.env.OnActivity(Label, mock.Anything, "a").Return("mocked", nil).Once()
	s.env.ExecuteWorkflow(CallsLabel, []any{"a", "an argument Label does not take"})
	var got string
	s.Require().NoError(s.env.GetWorkflowResult(&got))
	s.Equal("mocked", got)
}
