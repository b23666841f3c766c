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
// As in go.temporal.io/sdk's test environment, each signal the test sends
// is handled by a workflow task of its own, so the run continues after the
// third and the later ones reach a run that has ended; on a server,
// signals that arrive together are drained into Pending (the next test
// starts a run with such a tally).
func (s *AccumulateSuite) TestContinuesAsNewAfterItsShareOfSignals() {
	env := s.NewTestWorkflowEnvironment()
	env.RegisterDelayedCallback(func() {
		for amount := 1; amount <= 3; amount++ {
			env.SignalWorkflow(AddSignal, amount)
		}
	}, time.Second)

	env.ExecuteWorkflow(Accumulate, Tally{Goal: 100})

	var continued *workflow.ContinueAsNewError
	s.Require().True(errors.As(env.GetWorkflowError(), &continued), "got %v", env.GetWorkflowError())
	s.Equal("Accumulate", continued.WorkflowType.Name)
	var next Tally
	s.NoError(converter.GetDefaultDataConverter().FromPayloads(continued.Input, &next))
	s.Equal(Tally{Goal: 100, Total: 1 + 2 + 3, Runs: 1}, next)
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
