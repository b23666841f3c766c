package parity

import (
	"context"
	"errors"
	"time"

	"github.com/stretchr/testify/mock"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/workflow"
)

// Refund is an activity the tests mock: it undoes a booking.
func Refund(_ context.Context, booking string) error { return nil }

// Booking holds a booking for a day; canceled, it refunds it on a
// disconnected context and ends canceled.
func Booking(ctx workflow.Context, booking string) error {
	err := workflow.Sleep(ctx, 24*time.Hour)
	if !temporal.IsCanceledError(err) {
		return err
	}
	cleanup, _ := workflow.NewDisconnectedContext(ctx)
	cleanup = workflow.WithActivityOptions(cleanup, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	if err := workflow.ExecuteActivity(cleanup, Refund, booking).Get(cleanup, nil); err != nil {
		return err
	}
	return err
}

func (s *ParitySuite) TestCancelWorkflowFromADelayedCallback() {
	start := s.env.Now()
	s.env.OnActivity(Refund, mock.Anything, "B-17").Return(nil).Once()
	s.env.RegisterDelayedCallback(s.env.CancelWorkflow, time.Hour)
	s.env.ExecuteWorkflow(Booking, "B-17")
	s.True(s.env.IsWorkflowCompleted())
	err := s.env.GetWorkflowError()
	var canceled *temporal.CanceledError
	s.Require().True(errors.As(err, &canceled), "a canceled workflow's error holds a CanceledError: %v", err)
	s.True(temporal.IsCanceledError(err))
	var executionErr *temporal.WorkflowExecutionError
	s.True(errors.As(err, &executionErr))
	s.Equal(time.Hour, s.env.Now().Sub(start))
}

// heartbeatUntilCanceled is an activity that heartbeats until its context
// ends.
func heartbeatUntilCanceled(ctx context.Context) error {
	for {
		activity.RecordHeartbeat(ctx, "working")
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func (s *ParitySuite) TestCancelingTheWorkflowCancelsItsActivity() {
	s.env.RegisterActivityWithOptions(heartbeatUntilCanceled, activity.RegisterOptions{Name: "Work"})
	var started, canceled []string
	s.env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
		started = append(started, info.ActivityType.Name)
		s.env.CancelWorkflow() // as soon as the work started
	})
	s.env.SetOnActivityCanceledListener(func(info *activity.Info) { canceled = append(canceled, info.ActivityType.Name) })
	s.env.ExecuteWorkflow(func(ctx workflow.Context) error {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			StartToCloseTimeout: time.Hour, HeartbeatTimeout: time.Second, WaitForCancellation: true,
		})
		return workflow.ExecuteActivity(ctx, "Work").Get(ctx, nil)
	})
	err := s.env.GetWorkflowError()
	var canceledErr *temporal.CanceledError
	s.True(errors.As(err, &canceledErr), "the workflow ends canceled: %v", err)
	s.Equal([]string{"Work"}, started)
	s.Equal([]string{"Work"}, canceled)
}

// heartbeatUntil is heartbeatUntilCanceled, telling ended how it ended.
func heartbeatUntil(ended chan<- error) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		err := heartbeatUntilCanceled(ctx)
		ended <- err
		return err
	}
}

// The environment does not wait for a canceled activity to acknowledge
// the cancellation, even with WaitForCancellation: the workflow goes on
// at once, though the activity hears of it only from the answer to its
// next heartbeat, which the worker's throttle holds back for up to 80%
// of the heartbeat timeout (4s here, more than the test timeout).
func (s *ParitySuite) TestACanceledActivityIsNotWaitedForEvenWithWaitForCancellation() {
	start := s.env.Now()
	ended := make(chan error, 1)
	s.env.RegisterActivityWithOptions(heartbeatUntil(ended), activity.RegisterOptions{Name: "Work"})
	var canceled []string
	s.env.SetOnActivityCanceledListener(func(info *activity.Info) { canceled = append(canceled, info.ActivityType.Name) })
	s.env.RegisterDelayedCallback(s.env.CancelWorkflow, time.Second)
	var activityErr error
	s.env.ExecuteWorkflow(func(ctx workflow.Context) error {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			StartToCloseTimeout: time.Hour, HeartbeatTimeout: 5 * time.Second, WaitForCancellation: true,
		})
		activityErr = workflow.ExecuteActivity(ctx, "Work").Get(ctx, nil)
		return activityErr
	})
	s.True(s.env.IsWorkflowCompleted())
	err := s.env.GetWorkflowError()
	s.True(temporal.IsCanceledError(err), "the workflow ends canceled: %v", err)
	s.True(temporal.IsCanceledError(activityErr), "the activity's future fails canceled: %v", activityErr)
	s.Equal(time.Second, s.env.Now().Sub(start), "the workflow ends when it is canceled")
	s.Equal([]string{"Work"}, canceled)
	// The activity's context is canceled in the end (by its next
	// heartbeat's answer, or as the environment stops its worker).
	select {
	case err := <-ended:
		s.ErrorIs(err, context.Canceled)
	case <-time.After(time.Minute):
		s.Fail("the canceled activity's context was never canceled")
	}
}
