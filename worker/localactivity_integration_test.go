package worker_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// laAttempts counts attempts of the local activities below, per test
// (their names carry the test's key).
var laAttempts atomic.Int32

func laFlaky(ctx context.Context, failUntil int32) (int32, error) {
	laAttempts.Add(1)
	if a := activity.GetInfo(ctx).Attempt; a < failUntil {
		return 0, fmt.Errorf("attempt %d failed", a)
	}
	return activity.GetInfo(ctx).Attempt, nil
}

func laSleep(ctx context.Context, d time.Duration) (string, error) {
	select {
	case <-time.After(d):
		return "slept " + d.String(), nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func laInfo(ctx context.Context) (string, error) {
	info := activity.GetInfo(ctx)
	return fmt.Sprintf("local=%v type=%s attempt=%d", info.IsLocalActivity, info.ActivityType.Name, info.Attempt), nil
}

// localActivities runs the scenario it is given.
func localActivities(ctx workflow.Context, scenario string) (string, error) {
	opts := workflow.LocalActivityOptions{StartToCloseTimeout: 10 * time.Second, ScheduleToCloseTimeout: time.Minute,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: 50 * time.Millisecond, BackoffCoefficient: 1}}
	switch scenario {
	case "timer-retries":
		// Backoffs longer than the workflow task timeout (1s here) wait on
		// workflow timers.
		opts.RetryPolicy = &temporal.RetryPolicy{InitialInterval: 1500 * time.Millisecond, BackoffCoefficient: 1}
	case "fails":
		opts.RetryPolicy = &temporal.RetryPolicy{MaximumAttempts: 2, InitialInterval: 10 * time.Millisecond}
	}
	ctx = workflow.WithLocalActivityOptions(ctx, opts)
	switch scenario {
	case "success":
		var s string
		err := workflow.ExecuteLocalActivity(ctx, laInfo).Get(ctx, &s)
		return s, err
	case "fails":
		err := workflow.ExecuteLocalActivity(ctx, laFlaky, int32(10)).Get(ctx, nil)
		var app *temporal.ApplicationError
		var act *temporal.ActivityError
		return fmt.Sprintf("application=%v activityError=%v: %v", errors.As(err, &app), errors.As(err, &act), err), nil
	case "task-retries", "timer-retries":
		var attempt int32
		err := workflow.ExecuteLocalActivity(ctx, laFlaky, int32(3)).Get(ctx, &attempt)
		return fmt.Sprint("attempt ", attempt), err
	case "long":
		// Outlives several workflow task timeouts (2s for this scenario):
		// the worker keeps the task alive.
		var s string
		err := workflow.ExecuteLocalActivity(ctx, laSleep, 5*time.Second).Get(ctx, &s)
		return s, err
	case "parallel":
		var futures []workflow.Future
		for i := range 5 {
			futures = append(futures, workflow.ExecuteLocalActivity(ctx, laSleep, time.Duration(50*(5-i))*time.Millisecond))
		}
		var out []string
		for _, f := range futures {
			var s string
			if err := f.Get(ctx, &s); err != nil {
				return "", err
			}
			out = append(out, s)
		}
		return strings.Join(out, ","), nil
	case "canceled":
		cancelCtx, cancel := workflow.WithCancel(ctx)
		f := workflow.ExecuteLocalActivity(cancelCtx, laSleep, time.Minute)
		if err := workflow.Sleep(ctx, 200*time.Millisecond); err != nil {
			return "", err
		}
		cancel()
		err := f.Get(ctx, nil)
		return fmt.Sprintf("canceled=%v", temporal.IsCanceledError(err)), nil
	}
	return "", fmt.Errorf("no scenario %q", scenario)
}

func TestLocalActivitiesOnADevServer(t *testing.T) {
	c := dial(t)
	taskQueue, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) {
		w.RegisterWorkflow(localActivities)
		w.RegisterActivity(laInfo) // registered or not, both run
	})
	cases := []struct {
		scenario string
		want     string
		attempts int32 // of laFlaky, when it runs
		timers   int
		tasks    int // at least this many workflow tasks completed
		// taskTimeout is the workflow task timeout, 1s when zero. The
		// heartbeat of a task comes at 80% of it: 2s leaves 400ms for the
		// report to reach the server on a loaded machine.
		taskTimeout time.Duration
	}{
		{scenario: "success", want: "local=true type=laInfo attempt=1"},
		{scenario: "fails", want: "application=true activityError=false: attempt 2 failed", attempts: 2},
		{scenario: "task-retries", want: "attempt 3", attempts: 3},
		{scenario: "timer-retries", want: "attempt 3", attempts: 3, timers: 2},
		{scenario: "long", want: "slept 5s", tasks: 3, taskTimeout: 2 * time.Second},
		{scenario: "parallel", want: "slept 250ms,slept 200ms,slept 150ms,slept 100ms,slept 50ms"},
		{scenario: "canceled", want: "canceled=true", timers: 1},
	}
	for _, tc := range cases {
		t.Run(tc.scenario, func(t *testing.T) {
			laAttempts.Store(0)
			ctx := testCtx(t)
			taskTimeout := tc.taskTimeout
			if taskTimeout == 0 {
				taskTimeout = time.Second
			}
			run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: taskQueue, WorkflowTaskTimeout: taskTimeout},
				localActivities, tc.scenario)
			if err != nil {
				t.Fatal(err)
			}
			var got string
			if err := run.Get(ctx, &got); err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			if tc.attempts > 0 && laAttempts.Load() != tc.attempts {
				t.Fatalf("%d attempts, want %d", laAttempts.Load(), tc.attempts)
			}
			h := serverHistory(t, c, run)
			types := eventTypes(h)
			if n := count(types, enumspb.EVENT_TYPE_TIMER_STARTED); n != tc.timers {
				t.Fatalf("%d timers, want %d:\n%v", n, tc.timers, types)
			}
			if n := count(types, enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED); n < tc.tasks {
				t.Fatalf("%d workflow tasks, want at least %d (heartbeats):\n%v", n, tc.tasks, types)
			}
			if slices.Contains(types, enumspb.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT) || slices.Contains(types, enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED) {
				t.Fatalf("no workflow task may time out or fail:\n%v", types)
			}
			if count(types, enumspb.EVENT_TYPE_MARKER_RECORDED) == 0 {
				t.Fatalf("no local activity marker:\n%v", types)
			}
			replayer := worker.NewWorkflowReplayer()
			replayer.RegisterWorkflow(localActivities)
			if err := replayer.ReplayWorkflowHistory(nil, h); err != nil {
				t.Fatalf("the history does not replay: %v", err)
			}
		})
	}
}

func count[T comparable](xs []T, x T) int {
	n := 0
	for _, v := range xs {
		if v == x {
			n++
		}
	}
	return n
}

func localThenRemote(ctx workflow.Context) (string, error) {
	lctx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: 5 * time.Second})
	var local string
	if err := workflow.ExecuteLocalActivity(lctx, laInfo).Get(ctx, &local); err != nil {
		return "", err
	}
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 5 * time.Second, ScheduleToStartTimeout: time.Second})
	err := workflow.ExecuteActivity(actx, laInfo).Get(ctx, nil)
	return fmt.Sprintf("%s; remote timed out: %v", local, temporal.IsTimeoutError(errors.Unwrap(err))), nil
}

func TestLocalActivityWorkerOnlyPollsNoActivityTasks(t *testing.T) {
	c := dial(t)
	taskQueue, _ := startWorker(t, c, worker.Options{LocalActivityWorkerOnly: true}, func(w worker.Worker) {
		w.RegisterWorkflow(localThenRemote)
		w.RegisterActivity(laInfo)
	})
	ctx := testCtx(t)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, "wf"), TaskQueue: taskQueue}, localThenRemote)
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if err := run.Get(ctx, &got); err != nil {
		t.Fatal(err)
	}
	if got != "local=true type=laInfo attempt=1; remote timed out: true" {
		t.Fatalf("got %q", got)
	}
}

func TestLocalActivityMetrics(t *testing.T) {
	c, m := dialWithMetrics(t)
	taskQueue, _ := startWorker(t, c, worker.Options{}, func(w worker.Worker) { w.RegisterWorkflow(localActivities) })
	laAttempts.Store(0)
	ctx := testCtx(t)
	for _, scenario := range []string{"task-retries", "fails"} {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: unique(t, scenario), TaskQueue: taskQueue}, localActivities, scenario)
		if err != nil {
			t.Fatal(err)
		}
		if err := run.Get(ctx, nil); err != nil {
			t.Fatal(err)
		}
	}
	tags := tagged("task_queue", taskQueue, "workflow_type", "localActivities", "activity_type", "laFlaky")
	// task-retries: 3 attempts, 2 failed; fails: 2 attempts, both failed.
	assertCounter(t, m, "temporal_local_activity_total", tags, 5)
	failedTags := tagged("task_queue", taskQueue, "workflow_type", "localActivities", "activity_type", "laFlaky", "failure_reason", "ActivityError")
	assertCounter(t, m, "temporal_local_activity_execution_failed", failedTags, 4)
	assertTimerCount(t, m, "temporal_local_activity_execution_latency", tags, 5)
	assertTimerCount(t, m, "temporal_local_activity_succeed_endtoend_latency", tags, 1)
}
