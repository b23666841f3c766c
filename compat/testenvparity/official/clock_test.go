package parity

import (
	"context"
	"time"

	"github.com/stretchr/testify/mock"

	"go.temporal.io/sdk/workflow"
)

// Remind is an activity the tests mock: it schedules a reminder.
func Remind(_ context.Context, at time.Time) error { return nil }

// Reminders schedules a reminder an hour from now, waits 90 days, and
// returns the times it read: at its start, after the activity, at its end.
func Reminders(ctx workflow.Context) ([]time.Time, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	times := []time.Time{workflow.Now(ctx)}
	if err := workflow.ExecuteActivity(ctx, Remind, workflow.Now(ctx).Add(time.Hour)).Get(ctx, nil); err != nil {
		return nil, err
	}
	times = append(times, workflow.Now(ctx))
	if err := workflow.Sleep(ctx, 90*24*time.Hour); err != nil {
		return nil, err
	}
	return append(times, workflow.Now(ctx)), nil
}

var reminderStart = time.Date(2018, 12, 20, 16, 30, 0, 0, time.FixedZone("UTC+8", 8*60*60))

func (s *ParitySuite) TestTheClockStandsStillWhileTheWorkflowRuns() {
	s.env.SetStartTime(reminderStart)
	s.env.OnActivity(Remind, mock.Anything, mock.MatchedBy(func(at time.Time) bool {
		return at.Equal(reminderStart.Add(time.Hour)) // a time computed from the start, exactly
	})).Return(nil).Once()
	s.env.ExecuteWorkflow(Reminders)
	var times []time.Time
	s.Require().NoError(s.env.GetWorkflowResult(&times))
	s.Require().Len(times, 3)
	s.True(times[0].Equal(reminderStart), "start: %v", times[0])
	s.True(times[1].Equal(reminderStart), "after the activity: %v", times[1])
	s.True(times[2].Equal(reminderStart.Add(2160*time.Hour)), "after 90 days: %v", times[2])
	s.True(s.env.Now().Equal(reminderStart.Add(2160*time.Hour)), "the environment's clock: %v", s.env.Now())
}

func (s *ParitySuite) TestADelayedCallbackSeesTheExactTime() {
	s.env.SetStartTime(reminderStart)
	s.env.OnActivity(Remind, mock.Anything, mock.Anything).Return(nil)
	var seen []time.Time
	s.env.RegisterDelayedCallback(func() { seen = append(seen, s.env.Now()) }, time.Hour)
	s.env.RegisterDelayedCallback(func() { seen = append(seen, s.env.Now()) }, 30*24*time.Hour)
	s.env.ExecuteWorkflow(Reminders)
	s.NoError(s.env.GetWorkflowError())
	s.Require().Len(seen, 2)
	s.True(seen[0].Equal(reminderStart.Add(time.Hour)), "after an hour: %v", seen[0])
	s.True(seen[1].Equal(reminderStart.Add(30*24*time.Hour)), "after 30 days: %v", seen[1])
}
