package parity

import (
	"context"
	"time"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/workflow"
)

// ReportTaskQueue returns the task queue its info names.
func ReportTaskQueue(ctx context.Context) (string, error) {
	return activity.GetInfo(ctx).TaskQueue, nil
}

// TaskQueuesSeenByActivities runs ReportTaskQueue on the workflow's task
// queue and then on another one, and returns what each saw.
func TaskQueuesSeenByActivities(ctx workflow.Context) ([]string, error) {
	var seen []string
	for _, queue := range []string{"", "billing"} {
		ctx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute, TaskQueue: queue})
		var q string
		if err := workflow.ExecuteActivity(ctx, ReportTaskQueue).Get(ctx, &q); err != nil {
			return nil, err
		}
		seen = append(seen, q)
	}
	return seen, nil
}

func (s *ParitySuite) TestAnActivityOnAnotherTaskQueueSeesThatQueueInItsInfo() {
	s.env.RegisterActivity(ReportTaskQueue)
	s.env.ExecuteWorkflow(TaskQueuesSeenByActivities)
	s.Require().NoError(s.env.GetWorkflowError())
	var seen []string
	s.Require().NoError(s.env.GetWorkflowResult(&seen))
	s.Equal([]string{"default-test-taskqueue", "billing"}, seen)
}
