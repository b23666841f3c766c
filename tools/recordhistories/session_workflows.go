package main

// The session workflows of the history fixtures: recorded code, like
// workflows.go (whose activities they run), with the same rules.

import (
	"time"

	"go.temporal.io/sdk/workflow"
)

// sessionOptions are the options of every fixture session.
func sessionOptions() *workflow.SessionOptions {
	return &workflow.SessionOptions{CreationTimeout: time.Minute, ExecutionTimeout: time.Minute}
}

// SessionWorkflow runs Greet(name) and Shout(greeting) in one session,
// completes it, recreates it on the same worker from its token, and runs
// Greet(shouted) there.
func SessionWorkflow(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	sessionCtx, err := workflow.CreateSession(ctx, sessionOptions())
	if err != nil {
		return "", err
	}
	var greeting, shouted string
	if err := workflow.ExecuteActivity(sessionCtx, Greet, name).Get(sessionCtx, &greeting); err != nil {
		return "", err
	}
	if err := workflow.ExecuteActivity(sessionCtx, Shout, greeting).Get(sessionCtx, &shouted); err != nil {
		return "", err
	}
	token := workflow.GetSessionInfo(sessionCtx).GetRecreateToken()
	workflow.CompleteSession(sessionCtx)
	again, err := workflow.RecreateSession(ctx, token, sessionOptions())
	if err != nil {
		return "", err
	}
	var last string
	err = workflow.ExecuteActivity(again, Greet, shouted).Get(again, &last)
	workflow.CompleteSession(again)
	return greeting + " | " + shouted + " | " + last, err
}

// ParallelSessionsWorkflow opens n sessions at once, one per coroutine;
// each runs Increment(i) and completes its session. It returns the sum.
func ParallelSessionsWorkflow(ctx workflow.Context, n int) (int, error) {
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	results := workflow.NewBufferedChannel(ctx, n)
	for i := range n {
		workflow.Go(ctx, func(ctx workflow.Context) {
			sessionCtx, err := workflow.CreateSession(ctx, sessionOptions())
			if err != nil {
				results.Send(ctx, -1000)
				return
			}
			var out int
			if err := workflow.ExecuteActivity(sessionCtx, Increment, i).Get(sessionCtx, &out); err != nil {
				out = -1000
			}
			workflow.CompleteSession(sessionCtx)
			results.Send(ctx, out)
		})
	}
	sum := 0
	for range n {
		var out int
		results.Receive(ctx, &out)
		sum += out
	}
	return sum, nil
}
