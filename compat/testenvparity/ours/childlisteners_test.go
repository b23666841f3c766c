package parity

import (
	"errors"
	"time"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/workflow"
)

// childEnd is what SetOnChildWorkflowCompletedListener heard of one
// child.
type childEnd struct {
	WorkflowID string
	Attempt    int32
	Result     string
	Err        error
}

// listenForChildEnds records what the completed listener hears.
func (s *ParitySuite) listenForChildEnds() *[]childEnd {
	var ends []childEnd
	s.env.SetOnChildWorkflowCompletedListener(func(info *workflow.Info, result converter.EncodedValue, err error) {
		end := childEnd{WorkflowID: info.WorkflowExecution.ID, Attempt: info.Attempt, Err: err}
		if result != nil && result.HasValue() {
			s.NoError(result.Get(&end.Result))
		}
		ends = append(ends, end)
	})
	return &ends
}

// flakyChild fails its first attempts, until failures have failed.
func flakyChild(failures int32) func(ctx workflow.Context) (string, error) {
	return func(ctx workflow.Context) (string, error) {
		if attempt := workflow.GetInfo(ctx).Attempt; attempt <= failures {
			return "", temporal.NewApplicationError("not yet", "Flaky")
		}
		return "done", nil
	}
}

// runsFlakyChild runs the child FlakyChild with up to maxAttempts
// attempts.
func runsFlakyChild(maxAttempts int32) func(ctx workflow.Context) (string, error) {
	return func(ctx workflow.Context) (string, error) {
		ctx = workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
			WorkflowID:  "flaky",
			RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Minute, BackoffCoefficient: 2, MaximumAttempts: maxAttempts},
		})
		var out string
		err := workflow.ExecuteChildWorkflow(ctx, "FlakyChild").Get(ctx, &out)
		return out, err
	}
}

// A retried child is heard of once, when its parent gets the result, with
// its last attempt's info.
func (s *ParitySuite) TestARetriedChildIsHeardOfOnceWithItsLastAttempt() {
	ends := s.listenForChildEnds()
	s.env.RegisterWorkflowWithOptions(flakyChild(2), workflow.RegisterOptions{Name: "FlakyChild"})
	s.env.ExecuteWorkflow(runsFlakyChild(5))
	var out string
	s.Require().NoError(s.env.GetWorkflowResult(&out))
	s.Equal("done", out)
	s.Equal([]childEnd{{WorkflowID: "flaky", Attempt: 3, Result: "done"}}, *ends)
}

// A child that fails for good is heard of once, with the error its parent
// gets: a ChildWorkflowExecutionError wrapping the last attempt's.
func (s *ParitySuite) TestAChildThatFailsForGoodIsHeardOfOnceWithTheParentsError() {
	ends := s.listenForChildEnds()
	s.env.RegisterWorkflowWithOptions(flakyChild(5), workflow.RegisterOptions{Name: "FlakyChild"})
	s.env.ExecuteWorkflow(runsFlakyChild(2))
	s.Error(s.env.GetWorkflowError())
	s.Require().Len(*ends, 1)
	end := (*ends)[0]
	s.Equal("flaky", end.WorkflowID)
	s.EqualValues(2, end.Attempt)
	var childErr *temporal.ChildWorkflowExecutionError
	s.Require().True(errors.As(end.Err, &childErr), "%T %v", end.Err, end.Err)
	var appErr *temporal.ApplicationError
	s.Require().True(errors.As(childErr, &appErr), "%v", childErr)
	s.Equal("Flaky", appErr.Type())
	s.Equal("not yet", appErr.Message())
}

// A cron child's runs never end while its parent runs: none is heard of.
func (s *ParitySuite) TestACronChildThatNeverEndsIsNotHeardOf() {
	ends := s.listenForChildEnds()
	s.env.SetStartTime(time.Date(2024, 3, 1, 9, 20, 0, 0, time.UTC))
	runs := 0
	s.env.RegisterWorkflowWithOptions(func(ctx workflow.Context) (int, error) {
		runs++
		return runs, nil
	}, workflow.RegisterOptions{Name: "HourlyReport"})
	s.env.ExecuteWorkflow(startsHourlyReportsFor(2 * time.Hour))
	s.NoError(s.env.GetWorkflowError())
	s.Equal(3, runs)
	s.Empty(*ends)
}

// A child that completes is heard of with its result and no error.
func (s *ParitySuite) TestACompletedChildIsHeardOfWithItsResult() {
	ends := s.listenForChildEnds()
	s.env.RegisterWorkflowWithOptions(flakyChild(0), workflow.RegisterOptions{Name: "FlakyChild"})
	s.env.ExecuteWorkflow(runsFlakyChild(1))
	s.NoError(s.env.GetWorkflowError())
	s.Equal([]childEnd{{WorkflowID: "flaky", Attempt: 1, Result: "done"}}, *ends)
}

// A child its parent cancels: the canceled listener hears of the request;
// the completed listener of the end, with the parent's error.
func (s *ParitySuite) TestACanceledChildIsHeardOfByBothListeners() {
	ends := s.listenForChildEnds()
	var canceled []string
	s.env.SetOnChildWorkflowCanceledListener(func(info *workflow.Info) { canceled = append(canceled, info.WorkflowExecution.ID) })
	s.env.RegisterWorkflow(Sleeper)
	s.env.ExecuteWorkflow(func(ctx workflow.Context) error {
		childCtx, cancel := workflow.WithCancel(ctx)
		childCtx = workflow.WithChildOptions(childCtx, workflow.ChildWorkflowOptions{WorkflowID: "sleeper"})
		child := workflow.ExecuteChildWorkflow(childCtx, Sleeper)
		if err := child.GetChildWorkflowExecution().Get(ctx, nil); err != nil {
			return err
		}
		if err := workflow.Sleep(ctx, time.Minute); err != nil {
			return err
		}
		cancel()
		err := child.Get(ctx, nil)
		var canceledErr *temporal.CanceledError
		if !errors.As(err, &canceledErr) {
			return errors.New("want the child canceled")
		}
		return nil
	})
	s.NoError(s.env.GetWorkflowError())
	s.Equal([]string{"sleeper"}, canceled)
	s.Require().Len(*ends, 1)
	s.Equal("sleeper", (*ends)[0].WorkflowID)
	var childErr *temporal.ChildWorkflowExecutionError
	s.Require().True(errors.As((*ends)[0].Err, &childErr), "%v", (*ends)[0].Err)
	var canceledErr *temporal.CanceledError
	s.True(errors.As(childErr, &canceledErr), "%v", childErr)
}
