package worker_test

import (
	"strings"
	"testing"

	"github.com/durable-go/sdk/workflow"
)

// sessionSkipped runs SessionWorkflow's activities without a session.
func sessionSkipped(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	var greeting string
	err := workflow.ExecuteActivity(ctx, Greet, name).Get(ctx, &greeting)
	return greeting, err
}

// sessionNotCompleted never completes its first session.
func sessionNotCompleted(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	sessionCtx, err := workflow.CreateSession(ctx, sessionOptions())
	if err != nil {
		return "", err
	}
	var greeting, shouted string
	if err := workflow.ExecuteActivity(sessionCtx, Greet, name).Get(sessionCtx, &greeting); err != nil {
		return "", err
	}
	err = workflow.ExecuteActivity(sessionCtx, Shout, greeting).Get(sessionCtx, &shouted)
	return shouted, err
}

// The session fixture's history pins down the session protocol's commands:
// code that leaves them out does not replay.
func TestSessionFixtureDetectsChangedCode(t *testing.T) {
	for name, wf := range map[string]any{"no session": sessionSkipped, "session not completed": sessionNotCompleted} {
		err := replayWith(t, "sessions.json", "SessionWorkflow", wf)
		if err == nil || !strings.Contains(strings.ToLower(err.Error()), "nondetermin") {
			t.Errorf("%s: replay error = %v, want non-determinism", name, err)
		}
	}
}
