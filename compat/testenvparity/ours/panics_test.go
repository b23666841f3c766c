package parity

import (
	"context"
	"errors"
	"time"

	"github.com/stretchr/testify/mock"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/workflow"
)

// Inventory is an activity the tests mock.
func Inventory(_ context.Context, sku string) (int, error) { return 0, nil }

// Restock panics when the stock it reads is negative.
func Restock(ctx workflow.Context, sku string) (int, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var stock int
	if err := workflow.ExecuteActivity(ctx, Inventory, sku).Get(ctx, &stock); err != nil {
		return 0, err
	}
	if stock < 0 {
		panic("negative stock for " + sku)
	}
	return stock + 10, nil
}

func (s *ParitySuite) TestAPanickingWorkflowEndsWithAPanicError() {
	s.env.OnActivity(Inventory, mock.Anything, "sku-9").Return(-3, nil)
	s.env.ExecuteWorkflow(Restock, "sku-9")
	s.True(s.env.IsWorkflowCompleted())
	err := s.env.GetWorkflowError()
	s.Require().Error(err)
	var panicErr *temporal.PanicError
	s.Require().True(errors.As(err, &panicErr), "the error holds a PanicError: %T %v", err, err)
	s.Contains(panicErr.Error(), "negative stock for sku-9")
	s.Contains(panicErr.StackTrace(), "Restock", "the stack trace shows the workflow function")
}

func (s *ParitySuite) TestAPanickingActivityFailsItsAttemptWithAPanicError() {
	s.env.RegisterActivityWithOptions(func(ctx context.Context, sku string) (int, error) {
		panic("inventory service unreachable")
	}, activity.RegisterOptions{Name: "Inventory"})
	s.env.ExecuteWorkflow(func(ctx workflow.Context) error {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			StartToCloseTimeout: time.Minute,
			RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 2},
		})
		return workflow.ExecuteActivity(ctx, "Inventory", "sku-1").Get(ctx, nil)
	})
	err := s.env.GetWorkflowError()
	var activityErr *temporal.ActivityError
	s.Require().True(errors.As(err, &activityErr), "%v", err)
	s.Equal("Inventory", activityErr.ActivityType().Name)
	var panicErr *temporal.PanicError
	s.Require().True(errors.As(err, &panicErr), "the activity's error holds a PanicError: %T", errors.Unwrap(activityErr))
	s.Contains(panicErr.Error(), "inventory service unreachable")
}
