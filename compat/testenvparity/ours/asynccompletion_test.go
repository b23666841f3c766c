package parity

import (
	"context"
	"time"

	"github.com/stretchr/testify/mock"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/workflow"
)

// RequestApproval asks a person for an approval that comes later: it
// completes asynchronously, by its task token.
func RequestApproval(ctx context.Context, what string) (string, error) {
	return "", activity.ErrResultPending
}

// Approving waits for RequestApproval's result.
func Approving(ctx workflow.Context) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 24 * time.Hour})
	var answer string
	err := workflow.ExecuteActivity(ctx, RequestApproval, "expenses").Get(ctx, &answer)
	return answer + " at " + workflow.Now(ctx).Format("15:04"), err
}

// registerPendingApproval registers RequestApproval as an activity that
// hands its task token to pending and returns activity.ErrResultPending.
func (s *ParitySuite) registerPendingApproval(pending func(token []byte)) {
	s.env.RegisterActivityWithOptions(func(ctx context.Context, what string) (string, error) {
		pending(activity.GetInfo(ctx).TaskToken)
		return RequestApproval(ctx, what)
	}, activity.RegisterOptions{Name: "RequestApproval"})
}

func (s *ParitySuite) TestADelayedCallbackCompletesAPendingActivity() {
	s.env.SetStartTime(time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC))
	tokens := make(chan []byte, 1)
	s.registerPendingApproval(func(token []byte) { tokens <- token })
	s.env.RegisterDelayedCallback(func() {
		s.NoError(s.env.CompleteActivity(<-tokens, "approved", nil))
	}, time.Hour)
	s.env.ExecuteWorkflow(Approving)
	var answer string
	s.NoError(s.env.GetWorkflowResult(&answer))
	s.Equal("approved at 10:00", answer)
}

func (s *ParitySuite) TestAPendingActivityRegistersTheCallbackThatCompletesIt() {
	s.env.SetStartTime(time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC))
	s.registerPendingApproval(func(token []byte) {
		// On the activity's goroutine, while it runs.
		s.env.RegisterDelayedCallback(func() {
			s.NoError(s.env.CompleteActivity(token, "approved", nil))
		}, time.Hour)
	})
	s.env.ExecuteWorkflow(Approving)
	var answer string
	s.NoError(s.env.GetWorkflowResult(&answer))
	s.Equal("approved at 10:00", answer)
}

func (s *ParitySuite) TestAMockedActivityPendingItsResultIsCompletedByACallback() {
	s.env.SetStartTime(time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC))
	s.env.OnActivity(RequestApproval, mock.Anything, "expenses").Return(func(ctx context.Context, what string) (string, error) {
		token := activity.GetInfo(ctx).TaskToken
		s.env.RegisterDelayedCallback(func() {
			s.NoError(s.env.CompleteActivity(token, "approved", nil))
		}, 90*time.Minute)
		return "", activity.ErrResultPending
	}).Once()
	s.env.ExecuteWorkflow(Approving)
	var answer string
	s.NoError(s.env.GetWorkflowResult(&answer))
	s.Equal("approved at 10:30", answer)
}
