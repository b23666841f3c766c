package parity

import (
	"errors"
	"time"

	"github.com/stretchr/testify/mock"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/workflow"
)

// Price is a child workflow the tests mock: it prices one item.
func Price(ctx workflow.Context, sku string, quantity int) (int, error) {
	return 0, errors.New("the real Price must not run in these tests")
}

// Quote prices each item of an order in a child workflow, one at a time.
func Quote(ctx workflow.Context, items map[string]int, order []string) (int, error) {
	total := 0
	for _, sku := range order {
		var price int
		if err := workflow.ExecuteChildWorkflow(ctx, Price, sku, items[sku]).Get(ctx, &price); err != nil {
			return 0, err
		}
		total += price
	}
	return total, nil
}

func (s *ParitySuite) TestMockedChildrenReturnWhatTheirFunctionsCompute() {
	s.env.OnWorkflow(Price, mock.Anything, "apple", mock.Anything).Return(func(ctx workflow.Context, sku string, quantity int) (int, error) {
		return 30 * quantity, nil
	}).Once()
	s.env.OnWorkflow(Price, mock.Anything, "pear", 2).Return(100, nil).Once()
	s.env.ExecuteWorkflow(Quote, map[string]int{"apple": 3, "pear": 2}, []string{"apple", "pear"})
	var total int
	s.Require().NoError(s.env.GetWorkflowResult(&total))
	s.Equal(190, total)
	s.env.AssertWorkflowCalled(s.T(), "Price", mock.Anything, "apple", 3)
	s.env.AssertWorkflowNumberOfCalls(s.T(), "Price", 2)
}

func (s *ParitySuite) TestAMockedChildTakesItsTimeOnTheClock() {
	start := s.env.Now()
	s.env.OnWorkflow(Price, mock.Anything, mock.Anything, mock.Anything).Return(5, nil).After(2 * time.Hour)
	s.env.ExecuteWorkflow(Quote, map[string]int{"fig": 1, "kiwi": 1}, []string{"fig", "kiwi"})
	var total int
	s.Require().NoError(s.env.GetWorkflowResult(&total))
	s.Equal(10, total)
	s.Equal(4*time.Hour, s.env.Now().Sub(start))
}

// Stock is a child workflow that fails for an unknown item.
func Stock(ctx workflow.Context, sku string) (int, error) {
	if sku != "apple" {
		return 0, temporal.NewNonRetryableApplicationError("no such item", "UnknownItem", nil, sku)
	}
	return 7, nil
}

func (s *ParitySuite) TestAFailingChildGivesItsParentAChildWorkflowExecutionError() {
	var started []string
	var completed []error
	s.env.SetOnChildWorkflowStartedListener(func(info *workflow.Info, _ workflow.Context, args converter.EncodedValues) {
		var sku string
		s.NoError(args.Get(&sku))
		started = append(started, info.WorkflowType.Name+"("+sku+")")
	})
	s.env.SetOnChildWorkflowCompletedListener(func(info *workflow.Info, _ converter.EncodedValue, err error) {
		completed = append(completed, err)
	})
	s.env.RegisterWorkflow(Stock)
	s.env.ExecuteWorkflow(func(ctx workflow.Context) (int, error) {
		var n int
		if err := workflow.ExecuteChildWorkflow(ctx, Stock, "apple").Get(ctx, &n); err != nil {
			return 0, err
		}
		err := workflow.ExecuteChildWorkflow(ctx, Stock, "durian").Get(ctx, nil)
		return n, err
	})
	err := s.env.GetWorkflowError()
	var childErr *temporal.ChildWorkflowExecutionError
	s.Require().True(errors.As(err, &childErr), "%v", err)
	var appErr *temporal.ApplicationError
	s.Require().True(errors.As(err, &appErr))
	s.Equal("UnknownItem", appErr.Type())
	s.True(appErr.NonRetryable())
	var sku string
	s.NoError(appErr.Details(&sku))
	s.Equal("durian", sku)
	s.Equal([]string{"Stock(apple)", "Stock(durian)"}, started)
	s.Require().Len(completed, 2)
	s.NoError(completed[0])
	s.Error(completed[1])
}

// Sleeper is a child that sleeps a day, unless canceled.
func Sleeper(ctx workflow.Context) error { return workflow.Sleep(ctx, 24*time.Hour) }

func (s *ParitySuite) TestACanceledParentCancelsItsChild() {
	var canceled []string
	s.env.SetOnChildWorkflowCanceledListener(func(info *workflow.Info) { canceled = append(canceled, info.WorkflowType.Name) })
	s.env.RegisterWorkflow(Sleeper)
	s.env.RegisterDelayedCallback(s.env.CancelWorkflow, time.Hour)
	s.env.ExecuteWorkflow(func(ctx workflow.Context) error {
		return workflow.ExecuteChildWorkflow(ctx, Sleeper).Get(ctx, nil)
	})
	err := s.env.GetWorkflowError()
	var canceledErr *temporal.CanceledError
	s.True(errors.As(err, &canceledErr), "%v", err)
	s.Equal([]string{"Sleeper"}, canceled)
}
