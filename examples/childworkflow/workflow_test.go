package main

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/suite"

	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/testsuite"
)

type OrderSuite struct {
	suite.Suite
	testsuite.WorkflowTestSuite
}

func TestOrder(t *testing.T) { suite.Run(t, new(OrderSuite)) }

func (s *OrderSuite) TestRunsTheRealChildren() {
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(ShipParcel)

	env.ExecuteWorkflow(ProcessOrder, Order{ID: "o1", Parcels: []string{"books", "lamp"}})

	s.True(env.IsWorkflowCompleted())
	var tracking []string
	s.NoError(env.GetWorkflowResult(&tracking))
	s.Equal([]string{"TRK-BOOKS", "TRK-LAMP"}, tracking, "results in the order's order")
}

func (s *OrderSuite) TestCombinesMockedChildren() {
	env := s.NewTestWorkflowEnvironment()
	// OnWorkflow mocks a child: the parent is tested on its own.
	env.OnWorkflow(ShipParcel, mock.Anything, "books").Return("T-1", nil).Once()
	env.OnWorkflow(ShipParcel, mock.Anything, "lamp").Return("T-2", nil).Once()
	env.OnWorkflow(ShipParcel, mock.Anything, "kettle").Return("T-3", nil).Once()

	env.ExecuteWorkflow(ProcessOrder, Order{ID: "o2", Parcels: []string{"books", "lamp", "kettle"}})

	var tracking []string
	s.NoError(env.GetWorkflowResult(&tracking))
	s.Equal([]string{"T-1", "T-2", "T-3"}, tracking)
	env.AssertExpectations(s.T())
}

func (s *OrderSuite) TestAFailedChildFailsTheOrder() {
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(ShipParcel)

	env.ExecuteWorkflow(ProcessOrder, Order{ID: "o3", Parcels: []string{"books", ""}})

	err := env.GetWorkflowError()
	s.ErrorContains(err, "parcel 1")
	// The parent sees the child's failure as a ChildWorkflowExecutionError
	// wrapping the child's own error.
	var childErr *temporal.ChildWorkflowExecutionError
	s.True(errors.As(err, &childErr), "got %v", err)
	s.ErrorContains(err, "the parcel has no content")
}
