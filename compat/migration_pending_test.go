package compat

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	officialactivity "go.temporal.io/sdk/activity"
	officialtemporal "go.temporal.io/sdk/temporal"
	officialtestsuite "go.temporal.io/sdk/testsuite"
	officialworkflow "go.temporal.io/sdk/workflow"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/workflow"
)

// An activity pending its result (ErrResultPending) that nobody completes
// times out at its StartToCloseTimeout, on the workflow's clock, as a
// server times it out; go.temporal.io/sdk's environment runs no timeout
// for it and skips to the workflow's own (ten years by default), which
// fails the workflow with a ScheduleToClose TimeoutError.
func TestDifferenceAPendingActivityNobodyCompletesTimesOut(t *testing.T) {
	start := time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC)
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetStartTime(start)
	env.RegisterActivityWithOptions(func(context.Context) error { return activity.ErrResultPending }, activity.RegisterOptions{Name: "Pending"})
	env.ExecuteWorkflow(func(ctx workflow.Context) error {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Hour,
			RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1}})
		return workflow.ExecuteActivity(ctx, "Pending").Get(ctx, nil)
	})
	var activityErr *temporal.ActivityError
	var timeout *temporal.TimeoutError
	ours := errors.As(env.GetWorkflowError(), &activityErr) && errors.As(activityErr, &timeout) &&
		timeout.TimeoutType() == enumspb.TIMEOUT_TYPE_START_TO_CLOSE && env.Now().Equal(start.Add(time.Hour))

	var os officialtestsuite.WorkflowTestSuite
	oenv := os.NewTestWorkflowEnvironment()
	oenv.SetStartTime(start)
	oenv.RegisterActivityWithOptions(func(context.Context) error { return officialactivity.ErrResultPending }, officialactivity.RegisterOptions{Name: "Pending"})
	oenv.ExecuteWorkflow(func(ctx officialworkflow.Context) error {
		ctx = officialworkflow.WithActivityOptions(ctx, officialworkflow.ActivityOptions{StartToCloseTimeout: time.Hour,
			RetryPolicy: &officialtemporal.RetryPolicy{MaximumAttempts: 1}})
		return officialworkflow.ExecuteActivity(ctx, "Pending").Get(ctx, nil)
	})
	var officialActivityErr *officialtemporal.ActivityError
	var officialTimeout *officialtemporal.TimeoutError
	theirs := !errors.As(oenv.GetWorkflowError(), &officialActivityErr) && errors.As(oenv.GetWorkflowError(), &officialTimeout) &&
		officialTimeout.TimeoutType() == enumspb.TIMEOUT_TYPE_SCHEDULE_TO_CLOSE
	differs(t, "an activity pending its result that nobody completes",
		ours, true, theirs, true,
		fmt.Sprintf("ours: %v at %v; go.temporal.io/sdk: %v at %v", env.GetWorkflowError(), env.Now(), oenv.GetWorkflowError(), oenv.Now()))
}
