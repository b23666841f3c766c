package parity

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/stretchr/testify/mock"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/workflow"
)

// Charge is an activity the tests mock.
func Charge(_ context.Context, card string) (string, error) {
	return "", errors.New("the real Charge must not run in these tests")
}

// ChargeOnce charges a card under a retry policy that sets no maximum of
// attempts, and returns how long it took on the workflow's clock.
func ChargeOnce(ctx workflow.Context, card string) (time.Duration, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second},
	})
	start := workflow.Now(ctx)
	err := workflow.ExecuteActivity(ctx, Charge, card).Get(ctx, nil)
	return workflow.Now(ctx).Sub(start), err
}

func (s *ParitySuite) TestAnActivityWithoutMaximumAttemptsStopsAfterTen() {
	s.env.OnActivity(Charge, mock.Anything, "4242").Return("", errors.New("card network down"))
	s.env.ExecuteWorkflow(ChargeOnce, "4242")
	s.True(s.env.IsWorkflowCompleted())
	var activityErr *temporal.ActivityError
	s.Require().True(errors.As(s.env.GetWorkflowError(), &activityErr), "the workflow fails with the activity's error")
	var appErr *temporal.ApplicationError
	s.True(errors.As(activityErr, &appErr))
	s.Equal("card network down", appErr.Error())
	s.env.AssertNumberOfCalls(s.T(), "Charge", 10)
}

func (s *ParitySuite) TestRetriesWaitTheInitialIntervalEachWithoutAMaximumInterval() {
	s.env.OnActivity(Charge, mock.Anything, "4242").Return("", errors.New("declined")).Times(3)
	s.env.OnActivity(Charge, mock.Anything, "4242").Return("receipt", nil).Once()
	s.env.ExecuteWorkflow(ChargeOnce, "4242")
	var took time.Duration
	s.NoError(s.env.GetWorkflowResult(&took))
	// Three backoffs of 1s: a policy without a maximum interval keeps
	// the initial one.
	s.Equal(3*time.Second, took)
}

func (s *ParitySuite) TestTheTestTimeoutEndsATestWhoseActivityNeverEnds() {
	release := make(chan struct{})
	defer close(release)
	s.env.RegisterActivityWithOptions(func(ctx context.Context) error {
		select { // works until released, whatever its context
		case <-release:
		case <-ctx.Done():
		}
		return nil
	}, activity.RegisterOptions{Name: "Stuck"})
	s.env.SetTestTimeout(300 * time.Millisecond)
	failure := s.endsWithError(func() {
		s.env.ExecuteWorkflow(func(ctx workflow.Context) error {
			ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Hour})
			return workflow.ExecuteActivity(ctx, "Stuck").Get(ctx, nil)
		})
	})
	s.Require().NotNil(failure, "the test ends with an error")
	s.Contains(fmt.Sprint(failure), "test timeout")
}
