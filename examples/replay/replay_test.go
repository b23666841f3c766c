package main

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/suite"

	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// The history recorded from a run of Onboarding on a dev server; see the
// README for how to record it again.
const recordedHistory = "testdata/onboarding.json"

type ReplaySuite struct{ suite.Suite }

func TestReplay(t *testing.T) { suite.Run(t, new(ReplaySuite)) }

// replay replays the recorded history with fn as the Onboarding workflow.
func (s *ReplaySuite) replay(fn any) error {
	replayer := worker.NewWorkflowReplayer()
	replayer.RegisterWorkflowWithOptions(fn, workflow.RegisterOptions{Name: "Onboarding"})
	return replayer.ReplayWorkflowHistoryFromJSONFile(nil, recordedHistory)
}

// The check to keep in CI: today's code replays yesterday's runs.
func (s *ReplaySuite) TestTheCurrentCodeReplaysTheRecordedRun() {
	s.NoError(s.replay(Onboarding))
}

// What the check catches: a step added where the recorded run had none.
func (s *ReplaySuite) TestAnUnversionedChangeFailsTheReplay() {
	err := s.replay(onboardingWithSurvey)
	// worker.NonDeterminismError is this SDK's; it says where code and
	// history part (go.temporal.io/sdk returns a plain error).
	var mismatch *worker.NonDeterminismError
	s.Require().True(errors.As(err, &mismatch), "want a NonDeterminismError, got %v", err)
	s.NotEmpty(mismatch.Reason)
	s.Contains(mismatch.CodeLocation, "replay_test.go")
}

// And how to fix it: the change guarded by workflow.GetVersion runs only
// in runs that start after it, and the recorded run replays.
func (s *ReplaySuite) TestAVersionedChangeReplays() {
	s.NoError(s.replay(onboardingWithVersionedSurvey))
}

// onboardingWithSurvey is Onboarding with a survey sent before the wait.
func onboardingWithSurvey(ctx workflow.Context, customer Customer) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	if err := workflow.ExecuteActivity(ctx, SendEmail, customer.Name, "welcome").Get(ctx, nil); err != nil {
		return err
	}
	if err := workflow.ExecuteActivity(ctx, SendEmail, customer.Name, "survey").Get(ctx, nil); err != nil {
		return err
	}
	if err := workflow.Sleep(ctx, customer.FollowUpAfter); err != nil {
		return err
	}
	return workflow.ExecuteActivity(ctx, SendEmail, customer.Name, "tips").Get(ctx, nil)
}

// onboardingWithVersionedSurvey sends the survey only in runs that reach
// this point with the new code.
func onboardingWithVersionedSurvey(ctx workflow.Context, customer Customer) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	if err := workflow.ExecuteActivity(ctx, SendEmail, customer.Name, "welcome").Get(ctx, nil); err != nil {
		return err
	}
	if workflow.GetVersion(ctx, "survey", workflow.DefaultVersion, 1) == 1 {
		if err := workflow.ExecuteActivity(ctx, SendEmail, customer.Name, "survey").Get(ctx, nil); err != nil {
			return err
		}
	}
	if err := workflow.Sleep(ctx, customer.FollowUpAfter); err != nil {
		return err
	}
	return workflow.ExecuteActivity(ctx, SendEmail, customer.Name, "tips").Get(ctx, nil)
}
