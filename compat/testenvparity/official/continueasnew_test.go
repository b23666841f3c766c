package parity

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/stretchr/testify/mock"

	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/workflow"
)

// Stamp is an activity the tests mock: it stamps one generation.
func Stamp(_ context.Context, generation int) error { return nil }

// stampGenerations is a workflow that stamps its generation, then
// continues as new with the next one until the last; runs counts the runs
// whose code ran (not in replay).
func stampGenerations(runs *atomic.Int32, last int) func(ctx workflow.Context, generation int) (int, error) {
	return func(ctx workflow.Context, generation int) (int, error) {
		if !workflow.IsReplaying(ctx) {
			runs.Add(1)
		}
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
		if err := workflow.ExecuteActivity(ctx, Stamp, generation).Get(ctx, nil); err != nil {
			return 0, err
		}
		if generation < last {
			return 0, workflow.NewContinueAsNewError(ctx, "StampGenerations", generation+1)
		}
		return generation, nil
	}
}

// The test's own workflow stops at its continue-as-new: ExecuteWorkflow
// returns the ContinueAsNewError, and no next run starts, then or later
// (its mock, set up for one call, is not called again).
func (s *ParitySuite) TestTheTestsWorkflowRunsNoNextRunAfterContinuingAsNew() {
	var runs atomic.Int32
	s.env.RegisterWorkflowWithOptions(stampGenerations(&runs, 5), workflow.RegisterOptions{Name: "StampGenerations"})
	s.env.OnActivity(Stamp, mock.Anything, 1).Return(nil).Once()
	s.env.ExecuteWorkflow("StampGenerations", 1)
	s.True(s.env.IsWorkflowCompleted())
	var canErr *workflow.ContinueAsNewError
	s.Require().True(errors.As(s.env.GetWorkflowError(), &canErr), "%v", s.env.GetWorkflowError())
	var next int
	s.NoError(converter.GetDefaultDataConverter().FromPayloads(canErr.Input, &next))
	s.Equal(2, next)
	s.EqualValues(1, runs.Load(), "one run of the workflow's code")
	time.Sleep(100 * time.Millisecond) // a next run started in the background would have run by now
	s.EqualValues(1, runs.Load(), "no run after ExecuteWorkflow returned")
	s.env.AssertNumberOfCalls(s.T(), "Stamp", 1)
}

// A child's chain of runs goes on through its continue-as-new: its parent
// gets the last run's result, the started listener hears every run and
// the completed listener the chain's end, once.
func (s *ParitySuite) TestAChildsContinueAsNewChainGoesOnToItsEnd() {
	var runs atomic.Int32
	s.env.RegisterWorkflowWithOptions(stampGenerations(&runs, 3), workflow.RegisterOptions{Name: "StampGenerations"})
	s.env.OnActivity(Stamp, mock.Anything, mock.Anything).Return(nil)
	var started []int
	s.env.SetOnChildWorkflowStartedListener(func(info *workflow.Info, _ workflow.Context, args converter.EncodedValues) {
		var generation int
		s.NoError(args.Get(&generation))
		started = append(started, generation)
	})
	type completion struct {
		WorkflowID   string
		WorkflowType string
		Result       int
		Err          error
	}
	var completed []completion
	s.env.SetOnChildWorkflowCompletedListener(func(info *workflow.Info, result converter.EncodedValue, err error) {
		c := completion{WorkflowID: info.WorkflowExecution.ID, WorkflowType: info.WorkflowType.Name, Err: err}
		if result != nil && result.HasValue() {
			s.NoError(result.Get(&c.Result))
		}
		completed = append(completed, c)
	})
	s.env.ExecuteWorkflow(func(ctx workflow.Context) (int, error) {
		ctx = workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: "stamps"})
		var last int
		err := workflow.ExecuteChildWorkflow(ctx, "StampGenerations", 1).Get(ctx, &last)
		return last, err
	})
	var last int
	s.Require().NoError(s.env.GetWorkflowResult(&last))
	s.Equal(3, last)
	s.EqualValues(3, runs.Load())
	s.Equal([]int{1, 2, 3}, started)
	s.Equal([]completion{{WorkflowID: "stamps", WorkflowType: "StampGenerations", Result: 3}}, completed)
	s.env.AssertNumberOfCalls(s.T(), "Stamp", 3)
}
