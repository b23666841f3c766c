package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/suite"

	"github.com/durable-go/sdk/testsuite"
)

type EventSuite struct {
	suite.Suite
	testsuite.WorkflowTestSuite
}

func TestEvent(t *testing.T) { suite.Run(t, new(EventSuite)) }

// outcome records what became of one update.
type outcome struct {
	accepted bool
	rejected error
	left     int
}

// reserve sends the reserve update and returns where its outcome will be
// recorded; the test environment calls the callbacks before UpdateWorkflow
// returns.
func (s *EventSuite) reserve(env *testsuite.TestWorkflowEnvironment, seats int) *outcome {
	var o outcome
	env.UpdateWorkflow(ReserveUpdate, "", &testsuite.TestUpdateCallback{
		OnAccept: func() { o.accepted = true },
		OnReject: func(err error) { o.rejected = err },
		OnComplete: func(result any, err error) {
			s.NoError(err)
			o.left = result.(int)
		},
	}, seats)
	return &o
}

func (s *EventSuite) TestTheValidatorRejectsBadRequestsAndTheRestSellOut() {
	env := s.NewTestWorkflowEnvironment()
	var first, none, tooMany, last *outcome
	env.RegisterDelayedCallback(func() {
		first = s.reserve(env, 3)
		none = s.reserve(env, 0)
		tooMany = s.reserve(env, 9)
		last = s.reserve(env, 2)
	}, time.Second)

	env.ExecuteWorkflow(Event, 5)

	s.True(first.accepted)
	s.Equal(2, first.left)
	s.False(none.accepted)
	s.ErrorContains(none.rejected, "ask for at least one")
	s.False(tooMany.accepted)
	s.ErrorContains(tooMany.rejected, "only 2 left")
	s.True(last.accepted)
	s.Equal(0, last.left)

	s.True(env.IsWorkflowCompleted())
	var reservations int
	s.NoError(env.GetWorkflowResult(&reservations))
	s.Equal(2, reservations, "rejected updates do not count")
}
