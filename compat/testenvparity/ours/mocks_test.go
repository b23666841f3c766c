package parity

import (
	"context"
	"errors"
	"time"

	"github.com/stretchr/testify/mock"
	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/workflow"
)

// Rate is an activity the tests mock: the exchange rate of a currency,
// in hundredths.
func Rate(_ context.Context, currency string) (int, error) { return 0, nil }

// Convert converts an amount into each currency in turn, with a short
// start-to-close timeout and three attempts.
func Convert(ctx workflow.Context, amount int, currencies []string) ([]int, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 10 * time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumAttempts: 3},
	})
	var out []int
	for _, c := range currencies {
		var rate int
		if err := workflow.ExecuteActivity(ctx, Rate, c).Get(ctx, &rate); err != nil {
			return nil, err
		}
		out = append(out, amount*rate/100)
	}
	return out, nil
}

func (s *ParitySuite) TestActivityMocksWithReturnFunctionsAndDelays() {
	start := s.env.Now()
	rates := map[string]int{"EUR": 90, "GBP": 80}
	s.env.OnActivity(Rate, mock.Anything, mock.Anything).Return(func(_ context.Context, currency string) (int, error) {
		return rates[currency], nil
	}).After(5 * time.Minute).Twice()
	s.env.ExecuteWorkflow(Convert, 200, []string{"EUR", "GBP"})
	var out []int
	s.Require().NoError(s.env.GetWorkflowResult(&out))
	s.Equal([]int{180, 160}, out)
	s.Equal(10*time.Minute, s.env.Now().Sub(start), "each call took five minutes of the workflow's clock")
	s.env.AssertActivityCalled(s.T(), "Rate", mock.Anything, "GBP")
	s.env.AssertActivityNotCalled(s.T(), "Rate", mock.Anything, "JPY")
}

func (s *ParitySuite) TestANonRetryableActivityErrorAndItsShape() {
	s.env.OnActivity(Rate, mock.Anything, "XXX").Return(0, temporal.NewNonRetryableApplicationError("unknown currency", "BadCurrency", nil, "XXX")).Once()
	s.env.ExecuteWorkflow(Convert, 100, []string{"XXX"})
	err := s.env.GetWorkflowError()
	var executionErr *temporal.WorkflowExecutionError
	s.Require().True(errors.As(err, &executionErr), "%T", err)
	var activityErr *temporal.ActivityError
	s.Require().True(errors.As(err, &activityErr))
	s.Equal("Rate", activityErr.ActivityType().Name)
	var appErr *temporal.ApplicationError
	s.Require().True(errors.As(err, &appErr))
	s.Equal("BadCurrency", appErr.Type())
	s.Equal("unknown currency", appErr.Message())
	var detail string
	s.NoError(appErr.Details(&detail))
	s.Equal("XXX", detail)
}

func (s *ParitySuite) TestAnActivitySlowerThanItsTimeoutTimesOut() {
	s.env.RegisterActivityWithOptions(func(ctx context.Context) error {
		<-ctx.Done() // never done before its deadline
		return ctx.Err()
	}, activity.RegisterOptions{Name: "Hang"})
	s.env.ExecuteWorkflow(func(ctx workflow.Context) error {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			StartToCloseTimeout: 200 * time.Millisecond,
			RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
		})
		return workflow.ExecuteActivity(ctx, "Hang").Get(ctx, nil)
	})
	err := s.env.GetWorkflowError()
	var timeoutErr *temporal.TimeoutError
	s.Require().True(errors.As(err, &timeoutErr), "%v", err)
	s.Equal(enumspb.TIMEOUT_TYPE_START_TO_CLOSE, timeoutErr.TimeoutType())
	var activityErr *temporal.ActivityError
	s.Require().True(errors.As(err, &activityErr))
	s.Equal("Hang", activityErr.ActivityType().Name)
}

func (s *ParitySuite) TestActivityListenersHearEachAttemptStartAndTheOutcome() {
	s.env.OnActivity(Rate, mock.Anything, "EUR").Return(0, errors.New("rate feed down")).Once()
	s.env.OnActivity(Rate, mock.Anything, "EUR").Return(90, nil).Once()
	type attempt struct {
		Currency string
		Attempt  int32
		Rate     int
		Err      string
	}
	var started []attempt
	var ended []attempt
	s.env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, args converter.EncodedValues) {
		var currency string
		s.NoError(args.Get(&currency))
		started = append(started, attempt{Currency: currency, Attempt: info.Attempt})
	})
	s.env.SetOnActivityCompletedListener(func(info *activity.Info, result converter.EncodedValue, err error) {
		a := attempt{Attempt: info.Attempt}
		if err != nil {
			a.Err = err.Error()
		} else {
			s.NoError(result.Get(&a.Rate))
		}
		ended = append(ended, a)
	})
	s.env.ExecuteWorkflow(Convert, 100, []string{"EUR"})
	s.NoError(s.env.GetWorkflowError())
	s.Equal([]attempt{{Currency: "EUR", Attempt: 1}, {Currency: "EUR", Attempt: 2}}, started)
	s.Equal([]attempt{{Attempt: 2, Rate: 90}}, ended, "a retried attempt is no outcome")
}

// Renew continues as new with the next generation until the fifth.
func Renew(ctx workflow.Context, generation int) (int, error) {
	if generation < 5 {
		return 0, workflow.NewContinueAsNewError(ctx, Renew, generation+1)
	}
	return generation, nil
}

func (s *ParitySuite) TestContinueAsNewEndsTheTestWithAContinueAsNewError() {
	s.env.ExecuteWorkflow(Renew, 1)
	s.True(s.env.IsWorkflowCompleted())
	err := s.env.GetWorkflowError()
	var canErr *workflow.ContinueAsNewError
	s.Require().True(errors.As(err, &canErr), "%v", err)
	s.Equal("Renew", canErr.WorkflowType.Name)
	var next int
	s.NoError(converter.GetDefaultDataConverter().FromPayloads(canErr.Input, &next))
	s.Equal(2, next)
}
