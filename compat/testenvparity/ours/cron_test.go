package parity

import (
	"context"
	"errors"
	"time"

	"github.com/stretchr/testify/mock"

	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/workflow"
)

// cronRuns counts the runs of CronChild.
type cronRuns struct{ failed, succeeded, last int }

func (s *ParitySuite) TestACronChildRunsOnItsScheduleAndRetries() {
	var runs cronRuns
	child := func(ctx workflow.Context) (int, error) {
		var result int
		if workflow.HasLastCompletionResult(ctx) {
			_ = workflow.GetLastCompletionResult(ctx, &result)
		}
		_ = workflow.Sleep(ctx, 3*time.Second)
		if workflow.GetInfo(ctx).Attempt == 1 {
			runs.failed++
			return 0, errors.New("please retry")
		}
		runs.succeeded++
		result++
		runs.last = result
		return result, nil
	}
	parent := func(ctx workflow.Context) error {
		ctx = workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
			WorkflowRunTimeout: 10 * time.Minute,
			RetryPolicy:        &temporal.RetryPolicy{MaximumAttempts: 5, InitialInterval: time.Second, MaximumInterval: 10 * time.Second, BackoffCoefficient: 2},
			CronSchedule:       "0 * * * *", // hourly
		})
		cron := workflow.ExecuteChildWorkflow(ctx, "CronChild")
		var err error
		workflow.NewSelector(ctx).
			AddFuture(cron, func(workflow.Future) { err = errors.New("a cron child never returns") }).
			AddFuture(workflow.NewTimer(ctx, 3*time.Hour), func(workflow.Future) {}).
			Select(ctx)
		return err
	}
	s.env.RegisterWorkflowWithOptions(child, workflow.RegisterOptions{Name: "CronChild"})
	s.env.SetStartTime(time.Date(2018, 12, 20, 16, 30, 0, 0, time.FixedZone("UTC+8", 8*60*60)))
	s.env.ExecuteWorkflow(parent)
	s.True(s.env.IsWorkflowCompleted())
	s.NoError(s.env.GetWorkflowError())
	// Runs at 16:30 (at once), 17:00, 18:00 and 19:00; each fails, then
	// its retry succeeds with the last run's result plus one.
	s.Equal(cronRuns{failed: 4, succeeded: 4, last: 4}, runs)
}

// Tick is an activity the tests mock.
func Tick(_ context.Context, at time.Time) error { return nil }

func (s *ParitySuite) TestACronChildStartsAtEachScheduledTime() {
	start := time.Date(2024, 3, 1, 9, 30, 0, 0, time.UTC)
	s.env.SetStartTime(start)
	var ticks []time.Time
	s.env.OnActivity(Tick, mock.Anything, mock.Anything).Return(func(_ context.Context, at time.Time) error {
		ticks = append(ticks, at)
		return nil
	})
	s.env.RegisterWorkflowWithOptions(func(ctx workflow.Context) error {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
		return workflow.ExecuteActivity(ctx, Tick, workflow.Now(ctx)).Get(ctx, nil)
	}, workflow.RegisterOptions{Name: "Ticker"})
	s.env.ExecuteWorkflow(func(ctx workflow.Context) error {
		ctx = workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{CronSchedule: "*/15 * * * *"})
		workflow.ExecuteChildWorkflow(ctx, "Ticker")
		return workflow.Sleep(ctx, 50*time.Minute)
	})
	s.NoError(s.env.GetWorkflowError())
	s.Require().Len(ticks, 4, "at once, then every quarter hour until the parent ends")
	for i, want := range []time.Time{start, start.Add(15 * time.Minute), start.Add(30 * time.Minute), start.Add(45 * time.Minute)} {
		s.True(ticks[i].Equal(want), "run %d at %v, want %v", i+1, ticks[i], want)
	}
}

// HourlyReport is a child workflow that a parent runs on an hourly cron
// schedule; the tests mock it.
func HourlyReport(ctx workflow.Context) (int, error) { return 0, nil }

// startsHourlyReportsFor is a parent that starts HourlyReport on an
// hourly cron schedule and sleeps for d.
func startsHourlyReportsFor(d time.Duration) func(ctx workflow.Context) error {
	return func(ctx workflow.Context) error {
		ctx = workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{CronSchedule: "@hourly"})
		workflow.ExecuteChildWorkflow(ctx, HourlyReport)
		return workflow.Sleep(ctx, d)
	}
}

func (s *ParitySuite) TestAParentSleepingTwoHoursSeesThreeRunsOfAnHourlyCronChild() {
	start := time.Date(2024, 3, 1, 9, 20, 0, 0, time.UTC)
	s.env.SetStartTime(start)
	var runs []time.Time
	s.env.RegisterWorkflowWithOptions(func(ctx workflow.Context) (int, error) {
		runs = append(runs, workflow.Now(ctx))
		return len(runs), nil
	}, workflow.RegisterOptions{Name: "HourlyReport"})
	s.env.ExecuteWorkflow(startsHourlyReportsFor(2 * time.Hour))
	s.NoError(s.env.GetWorkflowError())
	s.Require().Len(runs, 3, "at once, at 10:00 and at 11:00")
	for i, want := range []time.Time{start, start.Add(40 * time.Minute), start.Add(100 * time.Minute)} {
		s.True(runs[i].Equal(want), "run %d at %v, want %v", i+1, runs[i], want)
	}
}

func (s *ParitySuite) TestAMockedCronChildIsAskedForEachRun() {
	s.env.SetStartTime(time.Date(2024, 3, 1, 9, 20, 0, 0, time.UTC))
	s.env.RegisterWorkflow(HourlyReport)
	var results []int
	s.env.OnWorkflow(HourlyReport, mock.Anything).Return(func(ctx workflow.Context) (int, error) {
		var last int
		if workflow.HasLastCompletionResult(ctx) {
			_ = workflow.GetLastCompletionResult(ctx, &last)
		}
		results = append(results, last)
		return last + 10, nil
	}).Once()
	s.env.OnWorkflow(HourlyReport, mock.Anything).Return(7, nil).Twice()
	s.env.ExecuteWorkflow(startsHourlyReportsFor(2 * time.Hour))
	s.NoError(s.env.GetWorkflowError())
	s.env.AssertWorkflowNumberOfCalls(s.T(), "HourlyReport", 3)
	s.Equal([]int{0}, results, "the first run's mock; the next two return 7")
}

func (s *ParitySuite) TestAMockedChildIsAskedAgainForEachRetry() {
	s.env.RegisterWorkflow(HourlyReport)
	s.env.OnWorkflow(HourlyReport, mock.Anything).Return(0, errors.New("report server down")).Once()
	s.env.OnWorkflow(HourlyReport, mock.Anything).Return(5, nil).Once()
	s.env.ExecuteWorkflow(func(ctx workflow.Context) (int, error) {
		ctx = workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
			RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Minute, MaximumAttempts: 3},
		})
		var n int
		err := workflow.ExecuteChildWorkflow(ctx, HourlyReport).Get(ctx, &n)
		return n, err
	})
	var n int
	s.NoError(s.env.GetWorkflowResult(&n))
	s.Equal(5, n)
	s.env.AssertWorkflowNumberOfCalls(s.T(), "HourlyReport", 2)
}
