package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/suite"

	"github.com/durable-go/sdk/testsuite"
)

type CartSuite struct {
	suite.Suite
	testsuite.WorkflowTestSuite
}

func TestCart(t *testing.T) { suite.Run(t, new(CartSuite)) }

func (s *CartSuite) TestAccumulatesSignalsAndAnswersTheQuery() {
	env := s.NewTestWorkflowEnvironment()
	// Delayed callbacks run on the workflow's (virtual) clock: each one
	// acts on the workflow once it has waited that long.
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(AddItemSignal, "apples")
		env.SignalWorkflow(AddItemSignal, "bread")
	}, time.Minute)
	env.RegisterDelayedCallback(func() {
		answer, err := env.QueryWorkflow(ItemsQuery)
		s.NoError(err)
		var items []string
		s.NoError(answer.Get(&items))
		s.Equal([]string{"apples", "bread"}, items)
		env.SignalWorkflow(AddItemSignal, "coffee")
		env.SignalWorkflow(CheckoutSignal, nil)
	}, 2*time.Minute)

	env.ExecuteWorkflow(Cart)

	s.True(env.IsWorkflowCompleted())
	var bought []string
	s.NoError(env.GetWorkflowResult(&bought))
	s.Equal([]string{"apples", "bread", "coffee"}, bought)
}

func (s *CartSuite) TestAnEmptyCartAnswersWithNoItems() {
	env := s.NewTestWorkflowEnvironment()
	env.RegisterDelayedCallback(func() {
		answer, err := env.QueryWorkflow(ItemsQuery)
		s.NoError(err)
		var items []string
		s.NoError(answer.Get(&items))
		s.Empty(items)
		env.SignalWorkflow(CheckoutSignal, nil)
	}, time.Minute)

	env.ExecuteWorkflow(Cart)

	var bought []string
	s.NoError(env.GetWorkflowResult(&bought))
	s.Empty(bought)
}
