package main

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/suite"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/workflow"
)

type AccumulateSuite struct {
	suite.Suite
	testsuite.WorkflowTestSuite
}

func TestAccumulate(t *testing.T) { suite.Run(t, new(AccumulateSuite)) }

// The test environment runs one run: continuing as new ends it with a
// *workflow.ContinueAsNewError whose Input is the next run's arguments.
func (s *AccumulateSuite) TestContinuesAsNewWithTheUnreadSignals() {
	env := s.NewTestWorkflowEnvironment()
	env.RegisterDelayedCallback(func() {
		for amount := 1; amount <= 5; amount++ {
			env.SignalWorkflow(AddSignal, amount)
		}
	}, time.Second)

	env.ExecuteWorkflow(Accumulate, Tally{Goal: 100})

	var continued *workflow.ContinueAsNewError
	s.Require().True(errors.As(env.GetWorkflowError(), &continued), "got %v", env.GetWorkflowError())
	s.Equal("Accumulate", continued.WorkflowType.Name)
	var next Tally
	s.NoError(converter.GetDefaultDataConverter().FromPayloads(continued.Input, &next))
	s.Equal(Tally{Goal: 100, Total: 1 + 2 + 3, Pending: []int{4, 5}, Runs: 1}, next)
}

func (s *AccumulateSuite) TestTheNextRunHandlesThePendingAmountsFirst() {
	env := s.NewTestWorkflowEnvironment()
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(AddSignal, 10) }, time.Second)

	env.ExecuteWorkflow(Accumulate, Tally{Goal: 25, Total: 6, Pending: []int{4, 5}, Runs: 1})

	s.True(env.IsWorkflowCompleted())
	var tally Tally
	s.NoError(env.GetWorkflowResult(&tally))
	s.Equal(Tally{Goal: 25, Total: 25, Pending: []int{}, Runs: 1}, tally)
}
