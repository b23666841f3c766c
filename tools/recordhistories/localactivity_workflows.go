package main

// The local activity workflow of the history fixtures: recorded code, like
// workflows.go, with the same rules. Its local activities are here too,
// passed to ExecuteLocalActivity as functions (never registered). It runs
// with a workflow task timeout of 1s (the fixtures set it), so that a
// backoff of 1.5s is waited out on a workflow timer and a local activity
// of 2.5s outlives several workflow task timeouts.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// LocalGreet returns a greeting for name.
func LocalGreet(ctx context.Context, name string) (string, error) {
	return "Hello, " + name + "!", nil
}

// LocalNoResult returns no result: its marker has no "result" detail.
func LocalNoResult(ctx context.Context) error {
	return nil
}

// LocalFlaky fails every attempt before attempt succeedAt, then returns
// the attempt.
func LocalFlaky(ctx context.Context, succeedAt int32) (int32, error) {
	attempt := activity.GetInfo(ctx).Attempt
	if attempt < succeedAt {
		return 0, fmt.Errorf("attempt %d failed", attempt)
	}
	return attempt, nil
}

// LocalSleep sleeps d. It does not watch its context: the worker stops
// waiting for it when its context is canceled or its attempt times out,
// and records that at once.
func LocalSleep(ctx context.Context, d time.Duration) (string, error) {
	time.Sleep(d)
	return "slept " + d.String(), nil
}

// localRetries returns local activity options with a retry policy of
// fixed backoff.
func localRetries(backoff time.Duration, maximumAttempts int32) workflow.LocalActivityOptions {
	return workflow.LocalActivityOptions{
		StartToCloseTimeout:    10 * time.Second,
		ScheduleToCloseTimeout: time.Minute,
		RetryPolicy:            &temporal.RetryPolicy{InitialInterval: backoff, BackoffCoefficient: 1, MaximumAttempts: maximumAttempts},
	}
}

// describeLocalError says what the workflow sees of a local activity's
// error: its kind and message.
func describeLocalError(err error) string {
	var activityErr *temporal.ActivityError
	var timeoutErr *temporal.TimeoutError
	var appErr *temporal.ApplicationError
	switch {
	case err == nil:
		return "no error"
	case errors.As(err, &activityErr):
		return "activity error: " + err.Error()
	case temporal.IsCanceledError(err):
		return "canceled: " + err.Error()
	case errors.As(err, &timeoutErr):
		return fmt.Sprintf("timeout %v: %v", timeoutErr.TimeoutType(), err)
	case errors.As(err, &appErr):
		return fmt.Sprintf("application error of type %s: %v", appErr.Type(), err)
	}
	return fmt.Sprintf("%T: %v", err, err)
}

// LocalActivitiesWorkflow runs the local activity scenario it is given and
// returns what the workflow saw:
//
//   - success: LocalGreet("Temporal"), then LocalNoResult;
//   - failure: LocalFlaky fails both of its 2 attempts;
//   - taskretries: LocalFlaky succeeds at attempt 3 after backoffs of 50ms,
//     retried within the workflow task;
//   - timerretries: the same with backoffs of 1.5s, each waited out on a
//     workflow timer;
//   - timeout: LocalSleep(10s) times out after 100ms, twice;
//   - long: LocalSleep(2.5s) outlives the workflow task timeout; the worker
//     keeps the task alive;
//   - parallel: 5 LocalSleeps at once, the first started the last done;
//   - canceled: a running LocalSleep(10s) canceled when another local
//     activity completes, then a LocalGreet asked for on the canceled
//     context;
//   - canceledduringbackoff: LocalFlaky fails and waits 1.5s on a timer;
//     another coroutine cancels its context 500ms in.
func LocalActivitiesWorkflow(ctx workflow.Context, scenario string) (string, error) {
	ctx = workflow.WithLocalActivityOptions(ctx, localRetries(50*time.Millisecond, 0))
	switch scenario {
	case "success":
		var greeting string
		if err := workflow.ExecuteLocalActivity(ctx, LocalGreet, "Temporal").Get(ctx, &greeting); err != nil {
			return "", err
		}
		err := workflow.ExecuteLocalActivity(ctx, LocalNoResult).Get(ctx, nil)
		return greeting + " / " + describeLocalError(err), nil
	case "failure":
		ctx = workflow.WithLocalActivityOptions(ctx, localRetries(10*time.Millisecond, 2))
		err := workflow.ExecuteLocalActivity(ctx, LocalFlaky, int32(10)).Get(ctx, nil)
		return describeLocalError(err), nil
	case "taskretries", "timerretries":
		if scenario == "timerretries" {
			ctx = workflow.WithLocalActivityOptions(ctx, localRetries(1500*time.Millisecond, 0))
		}
		var attempt int32
		err := workflow.ExecuteLocalActivity(ctx, LocalFlaky, int32(3)).Get(ctx, &attempt)
		return fmt.Sprintf("attempt %d / %s", attempt, describeLocalError(err)), nil
	case "timeout":
		options := localRetries(10*time.Millisecond, 2)
		options.StartToCloseTimeout = 100 * time.Millisecond
		ctx = workflow.WithLocalActivityOptions(ctx, options)
		err := workflow.ExecuteLocalActivity(ctx, LocalSleep, 10*time.Second).Get(ctx, nil)
		return describeLocalError(err), nil
	case "long":
		var slept string
		err := workflow.ExecuteLocalActivity(ctx, LocalSleep, 2500*time.Millisecond).Get(ctx, &slept)
		return slept + " / " + describeLocalError(err), nil
	case "parallel":
		var futures []workflow.Future
		for i := range 5 {
			futures = append(futures, workflow.ExecuteLocalActivity(ctx, LocalSleep, time.Duration(5-i)*50*time.Millisecond))
		}
		var slept []string
		for _, f := range futures {
			var s string
			if err := f.Get(ctx, &s); err != nil {
				return "", err
			}
			slept = append(slept, s)
		}
		return strings.Join(slept, ", "), nil
	case "canceled":
		cancelCtx, cancel := workflow.WithCancel(ctx)
		running := workflow.ExecuteLocalActivity(cancelCtx, LocalSleep, 10*time.Second)
		if err := workflow.ExecuteLocalActivity(ctx, LocalSleep, 100*time.Millisecond).Get(ctx, nil); err != nil {
			return "", err
		}
		cancel()
		errRunning := running.Get(ctx, nil)
		errNotStarted := workflow.ExecuteLocalActivity(cancelCtx, LocalGreet, "late").Get(ctx, nil)
		return "running: " + describeLocalError(errRunning) + " / not started: " + describeLocalError(errNotStarted), nil
	case "canceledduringbackoff":
		cancelCtx, cancel := workflow.WithCancel(ctx)
		cancelCtx = workflow.WithLocalActivityOptions(cancelCtx, localRetries(1500*time.Millisecond, 0))
		workflow.Go(ctx, func(ctx workflow.Context) {
			_ = workflow.Sleep(ctx, 500*time.Millisecond)
			cancel()
		})
		err := workflow.ExecuteLocalActivity(cancelCtx, LocalFlaky, int32(100)).Get(ctx, nil)
		return describeLocalError(err), nil
	}
	return "", fmt.Errorf("LocalActivitiesWorkflow: no scenario %q", scenario)
}
