package worker_test

import (
	"strings"
	"time"

	"github.com/durable-go/sdk/workflow"
)

// Changed versions of the recorded workflows: replaying their histories
// must fail with a message that says what changed.

func activitiesAdded(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	var greeting, shouted, extra, again string
	if err := workflow.ExecuteActivity(ctx, Greet, name).Get(ctx, &greeting); err != nil {
		return "", err
	}
	_ = workflow.ExecuteActivity(ctx, Shout, "extra") // added, not awaited
	if err := workflow.ExecuteActivity(ctx, Shout, greeting).Get(ctx, &shouted); err != nil {
		return "", err
	}
	if err := workflow.ExecuteActivity(ctx, Greet, shouted).Get(ctx, &again); err != nil {
		return "", err
	}
	return strings.Join([]string{greeting, shouted, again, extra}, " | "), nil
}

func activitiesRemoved(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	var greeting, again string
	if err := workflow.ExecuteActivity(ctx, Greet, name).Get(ctx, &greeting); err != nil {
		return "", err
	}
	if err := workflow.ExecuteActivity(ctx, Greet, greeting).Get(ctx, &again); err != nil {
		return "", err
	}
	return greeting + again, nil
}

func activitiesRenamed(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	var greeting string
	if err := workflow.ExecuteActivity(ctx, Greet, name).Get(ctx, &greeting); err != nil {
		return "", err
	}
	var n int
	if err := workflow.ExecuteActivity(ctx, Increment, 1).Get(ctx, &n); err != nil {
		return "", err
	}
	return greeting, nil
}

// activitiesNewBranchUnversioned adds a step before the recorded ones
// without guarding it with GetVersion.
func activitiesNewBranchUnversioned(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	var n int
	if err := workflow.ExecuteActivity(ctx, Increment, 1).Get(ctx, &n); err != nil {
		return "", err
	}
	return ActivitiesWorkflow(ctx, name)
}

func timerTurnedIntoActivity(ctx workflow.Context) (int, error) {
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	var s string
	if err := workflow.ExecuteActivity(ctx, Greet, "instead of sleeping").Get(ctx, &s); err != nil {
		return 0, err
	}
	return 1, nil
}

// timersSwapped starts the short timer before the long one.
func timersSwapped(ctx workflow.Context) (int, error) {
	if err := workflow.Sleep(ctx, time.Second); err != nil {
		return 0, err
	}
	longCtx, cancelLong := workflow.WithCancel(ctx)
	shortTimer := workflow.NewTimer(ctx, 200*time.Millisecond)
	longTimer := workflow.NewTimer(longCtx, 2*time.Second)
	sel := workflow.NewSelector(ctx)
	sel.AddFuture(longTimer, func(workflow.Future) {})
	sel.AddFuture(shortTimer, func(workflow.Future) {})
	sel.Select(ctx)
	cancelLong()
	return 2, nil
}

// activitiesSwapped runs the first two activities in the other order.
func activitiesSwapped(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, activityOptions)
	var shouted, greeting string
	if err := workflow.ExecuteActivity(ctx, Shout, name).Get(ctx, &shouted); err != nil {
		return "", err
	}
	if err := workflow.ExecuteActivity(ctx, Greet, shouted).Get(ctx, &greeting); err != nil {
		return "", err
	}
	return greeting, nil
}
