package main

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/suite"

	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/testsuite"
)

type ProcessSuite struct {
	suite.Suite
	testsuite.WorkflowTestSuite
}

func TestProcess(t *testing.T) { suite.Run(t, new(ProcessSuite)) }

func (s *ProcessSuite) SetupTest() { stepDuration = time.Millisecond }

func (s *ProcessSuite) TestFinishesWithoutCleanupWhenNotCanceled() {
	env := s.NewTestWorkflowEnvironment()
	env.RegisterActivity(DoWork)
	env.OnActivity(Cleanup, mock.Anything).Return(nil).Never()

	env.ExecuteWorkflow(Process, 3)

	s.True(env.IsWorkflowCompleted())
	s.NoError(env.GetWorkflowError())
	env.AssertExpectations(s.T())
}

func (s *ProcessSuite) TestACanceledWorkflowStopsTheActivityAndCleansUp() {
	env := s.NewTestWorkflowEnvironment()
	// The real DoWork, wrapped to see how it ended.
	workEnded := make(chan error, 1)
	env.OnActivity(DoWork, mock.Anything, mock.Anything).Return(func(ctx context.Context, steps int) error {
		err := DoWork(ctx, steps)
		workEnded <- err
		return err
	}).Once()
	env.OnActivity(Cleanup, mock.Anything).Return(nil).Once()
	env.RegisterDelayedCallback(env.CancelWorkflow, time.Second)

	// As in go.temporal.io/sdk's test environment, the workflow does not
	// wait for DoWork to acknowledge the cancellation, even with
	// WaitForCancellation: DoWork hears of it later, from the answer to
	// its next heartbeat (the worker sends one at most every 0.8 x
	// HeartbeatTimeout), or as the environment stops its worker.
	env.ExecuteWorkflow(Process, 1_000_000)

	s.True(env.IsWorkflowCompleted())
	s.True(temporal.IsCanceledError(env.GetWorkflowError()), "got %v", env.GetWorkflowError())
	select {
	case workErr := <-workEnded:
		s.True(errors.Is(workErr, context.Canceled), "DoWork must end with its context canceled, ended with %v", workErr)
	case <-time.After(time.Minute):
		s.Fail("DoWork's context was never canceled")
	}
	env.AssertExpectations(s.T())
}
