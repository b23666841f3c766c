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
	var workErr error
	env.OnActivity(DoWork, mock.Anything, mock.Anything).Return(func(ctx context.Context, steps int) error {
		workErr = DoWork(ctx, steps)
		return workErr
	}).Once()
	env.OnActivity(Cleanup, mock.Anything).Return(nil).Once()
	env.RegisterDelayedCallback(env.CancelWorkflow, time.Second)
	// DoWork learns of the cancellation from the answer to its next
	// heartbeat, which the worker sends up to 0.8 x HeartbeatTimeout (4 s)
	// after the last one, as on a server: more than the default 3 s the
	// environment waits for a workflow to make progress.
	env.SetTestTimeout(30 * time.Second)

	env.ExecuteWorkflow(Process, 1_000_000)

	s.True(env.IsWorkflowCompleted())
	s.True(temporal.IsCanceledError(env.GetWorkflowError()), "got %v", env.GetWorkflowError())
	s.True(errors.Is(workErr, context.Canceled), "DoWork must end with its context canceled, ended with %v", workErr)
	env.AssertExpectations(s.T())
}
