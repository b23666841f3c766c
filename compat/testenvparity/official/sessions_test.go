package parity

import (
	"context"
	"time"

	"github.com/stretchr/testify/mock"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// Transcode is an activity the tests mock: it transcodes a file that an
// earlier step of the same session put on the worker's disk.
func Transcode(_ context.Context, file string) (string, error) { return "", nil }

// Transcoding downloads and transcodes a file in one session; it reports
// the session's state as it goes.
func Transcoding(ctx workflow.Context, file string) ([]string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	sessionCtx, err := workflow.CreateSession(ctx, &workflow.SessionOptions{CreationTimeout: time.Minute, ExecutionTimeout: time.Hour})
	if err != nil {
		return nil, err
	}
	info := workflow.GetSessionInfo(sessionCtx)
	report := []string{stateName(info.SessionState)}
	var out string
	if err := workflow.ExecuteActivity(sessionCtx, Transcode, file).Get(sessionCtx, &out); err != nil {
		return nil, err
	}
	report = append(report, out)
	workflow.CompleteSession(sessionCtx)
	report = append(report, stateName(info.SessionState))
	return report, nil
}

func stateName(s workflow.SessionState) string {
	switch s {
	case workflow.SessionStateOpen:
		return "open"
	case workflow.SessionStateClosed:
		return "closed"
	case workflow.SessionStateFailed:
		return "failed"
	}
	return "unknown"
}

func (s *ParitySuite) TestActivitiesRunInASession() {
	s.env.SetWorkerOptions(worker.Options{EnableSessionWorker: true})
	var sessions []string
	s.env.OnActivity(Transcode, mock.Anything, "movie.mov").Return(func(ctx context.Context, file string) (string, error) {
		sessions = append(sessions, activity.GetInfo(ctx).TaskQueue)
		return file + ".mp4", nil
	}).Once()
	s.env.ExecuteWorkflow(Transcoding, "movie.mov")
	var report []string
	s.Require().NoError(s.env.GetWorkflowResult(&report))
	s.Equal([]string{"open", "movie.mov.mp4", "closed"}, report)
	s.Len(sessions, 1)
}
