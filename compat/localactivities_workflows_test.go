package compat

// The local activity workflow of the fixtures
// (tools/recordhistories/localactivity_workflows.go), written once against
// each SDK, with its local activities shared: the same scenarios, the same
// activity types and results, so that a history written by either SDK
// replays on the other and workers of both can share a task queue.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	ouractivity "github.com/durable-go/sdk/activity"
	ourtemporal "github.com/durable-go/sdk/temporal"
	ours "github.com/durable-go/sdk/workflow"
	officialactivity "go.temporal.io/sdk/activity"
	officialtemporal "go.temporal.io/sdk/temporal"
	official "go.temporal.io/sdk/workflow"
)

// localActivitiesName is the workflow type on both SDKs.
const localActivitiesName = "LocalActivitiesWorkflow"

// LocalGreet returns a greeting for name.
func LocalGreet(ctx context.Context, name string) (string, error) {
	return "Hello, " + name + "!", nil
}

// LocalNoResult returns no result: its marker has no "result" detail.
func LocalNoResult(ctx context.Context) error {
	return nil
}

// LocalFlaky fails every attempt before attempt succeedAt, then returns
// the attempt. It runs on the workers of both SDKs.
func LocalFlaky(ctx context.Context, succeedAt int32) (int32, error) {
	var attempt int32
	if ouractivity.IsActivity(ctx) {
		attempt = ouractivity.GetInfo(ctx).Attempt
	} else {
		attempt = officialactivity.GetInfo(ctx).Attempt
	}
	if attempt < succeedAt {
		return 0, fmt.Errorf("attempt %d failed", attempt)
	}
	return attempt, nil
}

// LocalSleep sleeps d. It does not watch its context: the worker stops
// waiting for it when its context is canceled or its attempt times out.
func LocalSleep(ctx context.Context, d time.Duration) (string, error) {
	time.Sleep(d)
	return "slept " + d.String(), nil
}

// localActivityScenarios are the scenarios of LocalActivitiesWorkflow and
// what the workflow returns for each (see the fixtures' README).
var localActivityScenarios = []struct{ name, want string }{
	{"success", "Hello, Temporal! / no error"},
	{"failure", "application error of type : attempt 2 failed"},
	{"taskretries", "attempt 3 / no error"},
	{"timerretries", "attempt 3 / no error"},
	{"timeout", "timeout StartToClose: deadline exceeded (type: StartToClose)"},
	{"long", "slept 2.5s / no error"},
	{"parallel", "slept 250ms, slept 200ms, slept 150ms, slept 100ms, slept 50ms"},
	{"canceled", "running: canceled: canceled / not started: canceled: canceled"},
	{"canceledduringbackoff", "canceled: canceled"},
	{"sequence", "Hello, 0! Hello, 1! Hello, 2! Hello, 3! Hello, 4! / attempt 3"},
}

// ---------------------------------------------------------------------------
// go.temporal.io/sdk

func localRetriesOfficial(backoff time.Duration, maximumAttempts int32) official.LocalActivityOptions {
	return official.LocalActivityOptions{
		StartToCloseTimeout:    10 * time.Second,
		ScheduleToCloseTimeout: time.Minute,
		RetryPolicy:            &officialtemporal.RetryPolicy{InitialInterval: backoff, BackoffCoefficient: 1, MaximumAttempts: maximumAttempts},
	}
}

func describeLocalErrorOfficial(err error) string {
	var activityErr *officialtemporal.ActivityError
	var timeoutErr *officialtemporal.TimeoutError
	var appErr *officialtemporal.ApplicationError
	switch {
	case err == nil:
		return "no error"
	case errors.As(err, &activityErr):
		return "activity error: " + err.Error()
	case officialtemporal.IsCanceledError(err):
		return "canceled: " + err.Error()
	case errors.As(err, &timeoutErr):
		return fmt.Sprintf("timeout %v: %v", timeoutErr.TimeoutType(), err)
	case errors.As(err, &appErr):
		return fmt.Sprintf("application error of type %s: %v", appErr.Type(), err)
	}
	return fmt.Sprintf("%T: %v", err, err)
}

func localActivitiesOfficial(ctx official.Context, scenario string) (string, error) {
	ctx = official.WithLocalActivityOptions(ctx, localRetriesOfficial(50*time.Millisecond, 0))
	switch scenario {
	case "success":
		var greeting string
		if err := official.ExecuteLocalActivity(ctx, LocalGreet, "Temporal").Get(ctx, &greeting); err != nil {
			return "", err
		}
		err := official.ExecuteLocalActivity(ctx, LocalNoResult).Get(ctx, nil)
		return greeting + " / " + describeLocalErrorOfficial(err), nil
	case "failure":
		ctx = official.WithLocalActivityOptions(ctx, localRetriesOfficial(10*time.Millisecond, 2))
		err := official.ExecuteLocalActivity(ctx, LocalFlaky, int32(10)).Get(ctx, nil)
		return describeLocalErrorOfficial(err), nil
	case "taskretries", "timerretries":
		if scenario == "timerretries" {
			ctx = official.WithLocalActivityOptions(ctx, localRetriesOfficial(1500*time.Millisecond, 0))
		}
		var attempt int32
		err := official.ExecuteLocalActivity(ctx, LocalFlaky, int32(3)).Get(ctx, &attempt)
		return fmt.Sprintf("attempt %d / %s", attempt, describeLocalErrorOfficial(err)), nil
	case "timeout":
		options := localRetriesOfficial(10*time.Millisecond, 2)
		options.StartToCloseTimeout = 100 * time.Millisecond
		ctx = official.WithLocalActivityOptions(ctx, options)
		err := official.ExecuteLocalActivity(ctx, LocalSleep, 10*time.Second).Get(ctx, nil)
		return describeLocalErrorOfficial(err), nil
	case "long":
		var slept string
		err := official.ExecuteLocalActivity(ctx, LocalSleep, 2500*time.Millisecond).Get(ctx, &slept)
		return slept + " / " + describeLocalErrorOfficial(err), nil
	case "parallel":
		var futures []official.Future
		for i := range 5 {
			futures = append(futures, official.ExecuteLocalActivity(ctx, LocalSleep, time.Duration(5-i)*50*time.Millisecond))
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
		cancelCtx, cancel := official.WithCancel(ctx)
		running := official.ExecuteLocalActivity(cancelCtx, LocalSleep, 10*time.Second)
		if err := official.ExecuteLocalActivity(ctx, LocalSleep, 100*time.Millisecond).Get(ctx, nil); err != nil {
			return "", err
		}
		cancel()
		errRunning := running.Get(ctx, nil)
		errNotStarted := official.ExecuteLocalActivity(cancelCtx, LocalGreet, "late").Get(ctx, nil)
		return "running: " + describeLocalErrorOfficial(errRunning) + " / not started: " + describeLocalErrorOfficial(errNotStarted), nil
	case "canceledduringbackoff":
		cancelCtx, cancel := official.WithCancel(ctx)
		cancelCtx = official.WithLocalActivityOptions(cancelCtx, localRetriesOfficial(1500*time.Millisecond, 0))
		official.Go(ctx, func(ctx official.Context) {
			_ = official.Sleep(ctx, 500*time.Millisecond)
			cancel()
		})
		err := official.ExecuteLocalActivity(cancelCtx, LocalFlaky, int32(100)).Get(ctx, nil)
		return describeLocalErrorOfficial(err), nil
	case "sequence":
		// Many workflow tasks, for workers that take turns: local
		// activities between short timers, then retries through timers.
		var greetings []string
		for i := range 5 {
			var g string
			if err := official.ExecuteLocalActivity(ctx, LocalGreet, fmt.Sprint(i)).Get(ctx, &g); err != nil {
				return "", err
			}
			greetings = append(greetings, g)
			if err := official.Sleep(ctx, 10*time.Millisecond); err != nil {
				return "", err
			}
		}
		ctx = official.WithLocalActivityOptions(ctx, localRetriesOfficial(1500*time.Millisecond, 0))
		var attempt int32
		err := official.ExecuteLocalActivity(ctx, LocalFlaky, int32(3)).Get(ctx, &attempt)
		return fmt.Sprintf("%s / attempt %d", strings.Join(greetings, " "), attempt), err
	}
	return "", fmt.Errorf("LocalActivitiesWorkflow: no scenario %q", scenario)
}

// ---------------------------------------------------------------------------
// github.com/durable-go/sdk

func localRetriesOurs(backoff time.Duration, maximumAttempts int32) ours.LocalActivityOptions {
	return ours.LocalActivityOptions{
		StartToCloseTimeout:    10 * time.Second,
		ScheduleToCloseTimeout: time.Minute,
		RetryPolicy:            &ourtemporal.RetryPolicy{InitialInterval: backoff, BackoffCoefficient: 1, MaximumAttempts: maximumAttempts},
	}
}

func describeLocalErrorOurs(err error) string {
	var activityErr *ourtemporal.ActivityError
	var timeoutErr *ourtemporal.TimeoutError
	var appErr *ourtemporal.ApplicationError
	switch {
	case err == nil:
		return "no error"
	case errors.As(err, &activityErr):
		return "activity error: " + err.Error()
	case ourtemporal.IsCanceledError(err):
		return "canceled: " + err.Error()
	case errors.As(err, &timeoutErr):
		return fmt.Sprintf("timeout %v: %v", timeoutErr.TimeoutType(), err)
	case errors.As(err, &appErr):
		return fmt.Sprintf("application error of type %s: %v", appErr.Type(), err)
	}
	return fmt.Sprintf("%T: %v", err, err)
}

func localActivitiesOurs(ctx ours.Context, scenario string) (string, error) {
	ctx = ours.WithLocalActivityOptions(ctx, localRetriesOurs(50*time.Millisecond, 0))
	switch scenario {
	case "success":
		var greeting string
		if err := ours.ExecuteLocalActivity(ctx, LocalGreet, "Temporal").Get(ctx, &greeting); err != nil {
			return "", err
		}
		err := ours.ExecuteLocalActivity(ctx, LocalNoResult).Get(ctx, nil)
		return greeting + " / " + describeLocalErrorOurs(err), nil
	case "failure":
		ctx = ours.WithLocalActivityOptions(ctx, localRetriesOurs(10*time.Millisecond, 2))
		err := ours.ExecuteLocalActivity(ctx, LocalFlaky, int32(10)).Get(ctx, nil)
		return describeLocalErrorOurs(err), nil
	case "taskretries", "timerretries":
		if scenario == "timerretries" {
			ctx = ours.WithLocalActivityOptions(ctx, localRetriesOurs(1500*time.Millisecond, 0))
		}
		var attempt int32
		err := ours.ExecuteLocalActivity(ctx, LocalFlaky, int32(3)).Get(ctx, &attempt)
		return fmt.Sprintf("attempt %d / %s", attempt, describeLocalErrorOurs(err)), nil
	case "timeout":
		options := localRetriesOurs(10*time.Millisecond, 2)
		options.StartToCloseTimeout = 100 * time.Millisecond
		ctx = ours.WithLocalActivityOptions(ctx, options)
		err := ours.ExecuteLocalActivity(ctx, LocalSleep, 10*time.Second).Get(ctx, nil)
		return describeLocalErrorOurs(err), nil
	case "long":
		var slept string
		err := ours.ExecuteLocalActivity(ctx, LocalSleep, 2500*time.Millisecond).Get(ctx, &slept)
		return slept + " / " + describeLocalErrorOurs(err), nil
	case "parallel":
		var futures []ours.Future
		for i := range 5 {
			futures = append(futures, ours.ExecuteLocalActivity(ctx, LocalSleep, time.Duration(5-i)*50*time.Millisecond))
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
		cancelCtx, cancel := ours.WithCancel(ctx)
		running := ours.ExecuteLocalActivity(cancelCtx, LocalSleep, 10*time.Second)
		if err := ours.ExecuteLocalActivity(ctx, LocalSleep, 100*time.Millisecond).Get(ctx, nil); err != nil {
			return "", err
		}
		cancel()
		errRunning := running.Get(ctx, nil)
		errNotStarted := ours.ExecuteLocalActivity(cancelCtx, LocalGreet, "late").Get(ctx, nil)
		return "running: " + describeLocalErrorOurs(errRunning) + " / not started: " + describeLocalErrorOurs(errNotStarted), nil
	case "canceledduringbackoff":
		cancelCtx, cancel := ours.WithCancel(ctx)
		cancelCtx = ours.WithLocalActivityOptions(cancelCtx, localRetriesOurs(1500*time.Millisecond, 0))
		ours.Go(ctx, func(ctx ours.Context) {
			_ = ours.Sleep(ctx, 500*time.Millisecond)
			cancel()
		})
		err := ours.ExecuteLocalActivity(cancelCtx, LocalFlaky, int32(100)).Get(ctx, nil)
		return describeLocalErrorOurs(err), nil
	case "sequence":
		var greetings []string
		for i := range 5 {
			var g string
			if err := ours.ExecuteLocalActivity(ctx, LocalGreet, fmt.Sprint(i)).Get(ctx, &g); err != nil {
				return "", err
			}
			greetings = append(greetings, g)
			if err := ours.Sleep(ctx, 10*time.Millisecond); err != nil {
				return "", err
			}
		}
		ctx = ours.WithLocalActivityOptions(ctx, localRetriesOurs(1500*time.Millisecond, 0))
		var attempt int32
		err := ours.ExecuteLocalActivity(ctx, LocalFlaky, int32(3)).Get(ctx, &attempt)
		return fmt.Sprintf("%s / attempt %d", strings.Join(greetings, " "), attempt), err
	}
	return "", fmt.Errorf("LocalActivitiesWorkflow: no scenario %q", scenario)
}
