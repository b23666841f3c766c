package testsuite_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

func Upper(_ context.Context, s string) (string, error) { return strings.ToUpper(s), nil }

// LocalSteps runs local activities: a function that is not registered, a
// registered one by name, and returns what they said.
func LocalSteps(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: time.Second})
	var greeting, upper string
	if err := workflow.ExecuteLocalActivity(ctx, func(_ context.Context, n string) (string, error) {
		return "hello " + n, nil
	}, name).Get(ctx, &greeting); err != nil {
		return "", err
	}
	if err := workflow.ExecuteLocalActivity(ctx, "Upper", greeting).Get(ctx, &upper); err != nil {
		return "", err
	}
	return upper, nil
}

func TestLocalActivitiesInTheTestEnvironment(t *testing.T) {
	t.Parallel()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterActivity(Upper)
	env.ExecuteWorkflow(LocalSteps, "ann")
	var got string
	require.NoError(t, env.GetWorkflowResult(&got))
	require.Equal(t, "HELLO ANN", got)

	h, err := env.GetHistory()
	require.NoError(t, err)
	markers := 0
	for _, ev := range h.GetEvents() {
		if ev.GetMarkerRecordedEventAttributes().GetMarkerName() == "LocalActivity" {
			markers++
		}
	}
	require.Equal(t, 2, markers)
	replayer := worker.NewWorkflowReplayer()
	replayer.RegisterWorkflow(LocalSteps)
	require.NoError(t, replayer.ReplayWorkflowHistory(nil, h))
}

var flakyCalls atomic.Int32

// Flaky fails until its fourth attempt.
func Flaky(ctx context.Context) (int32, error) {
	flakyCalls.Add(1)
	if a := activity.GetInfo(ctx).Attempt; a < 4 {
		return 0, errors.New("not yet")
	}
	return activity.GetInfo(ctx).Attempt, nil
}

// RetriesLocally retries Flaky with backoffs of 10ms (in the worker) or
// of an hour (through workflow timers).
func RetriesLocally(ctx workflow.Context, interval time.Duration) (int32, error) {
	ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: time.Second, ScheduleToCloseTimeout: 24 * time.Hour,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: interval, BackoffCoefficient: 1}})
	var attempt int32
	err := workflow.ExecuteLocalActivity(ctx, Flaky).Get(ctx, &attempt)
	return attempt, err
}

func TestLocalActivityRetries(t *testing.T) {
	for _, interval := range []time.Duration{10 * time.Millisecond, time.Hour} {
		t.Run(interval.String(), func(t *testing.T) {
			var s testsuite.WorkflowTestSuite
			env := s.NewTestWorkflowEnvironment()
			flakyCalls.Store(0)
			env.ExecuteWorkflow(RetriesLocally, interval)
			var attempt int32
			require.NoError(t, env.GetWorkflowResult(&attempt))
			require.Equal(t, int32(4), attempt)
			require.Equal(t, int32(4), flakyCalls.Load())
			h, err := env.GetHistory()
			require.NoError(t, err)
			timers := 0
			for _, ev := range h.GetEvents() {
				if ev.GetTimerStartedEventAttributes() != nil {
					timers++
				}
			}
			want := 0
			if interval == time.Hour {
				want = 3 // each backoff waits on a workflow timer
			}
			require.Equal(t, want, timers)
			replayer := worker.NewWorkflowReplayer()
			replayer.RegisterWorkflow(RetriesLocally)
			require.NoError(t, replayer.ReplayWorkflowHistory(nil, h))
		})
	}
}

func TestLocalActivityMocksAndListeners(t *testing.T) {
	t.Parallel()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterActivity(Upper)
	env.OnActivity(Upper, mock.Anything, "hello ann").Return("mocked", nil).Once()
	var started, completed []string
	env.SetOnLocalActivityStartedListener(func(info *activity.Info, _ context.Context, args []any) {
		started = append(started, fmt.Sprintf("%s%v local=%v", info.ActivityType.Name, args, info.IsLocalActivity))
	})
	env.SetOnLocalActivityCompletedListener(func(info *activity.Info, result converter.EncodedValue, err error) {
		var s string
		_ = result.Get(&s)
		completed = append(completed, info.ActivityType.Name+"="+s)
	})
	activityListened := false
	env.SetOnActivityStartedListener(func(*activity.Info, context.Context, converter.EncodedValues) { activityListened = true })
	env.ExecuteWorkflow(LocalSteps, "ann")
	var got string
	require.NoError(t, env.GetWorkflowResult(&got))
	require.Equal(t, "mocked", got)
	require.Len(t, started, 2)
	require.Equal(t, "Upper[hello ann] local=true", started[1])
	require.Equal(t, "Upper=mocked", completed[1])
	require.False(t, activityListened, "local activities have listeners of their own")
	env.AssertExpectations(t)
}

func TestActivityEnvironmentRunsALocalActivity(t *testing.T) {
	t.Parallel()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestActivityEnvironment()
	v, err := env.ExecuteLocalActivity(func(ctx context.Context, n int) (string, error) {
		info := activity.GetInfo(ctx)
		return fmt.Sprintf("%d local=%v token=%d", n*2, info.IsLocalActivity, len(info.TaskToken)), nil
	}, 21)
	require.NoError(t, err)
	var got string
	require.NoError(t, v.Get(&got))
	require.Equal(t, "42 local=true token=0", got)
}

// Nap is a local activity that takes 300ms of wall time.
func Nap(ctx context.Context, step int) (int, error) {
	select {
	case <-time.After(300 * time.Millisecond):
		return step, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// NapsFourTimes runs Nap four times, one after the other: 1.2s of wall
// time in its first workflow task.
func NapsFourTimes(ctx workflow.Context) (int, error) {
	ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: time.Minute})
	sum := 0
	for step := 1; step <= 4; step++ {
		var n int
		if err := workflow.ExecuteLocalActivity(ctx, Nap, step).Get(ctx, &n); err != nil {
			return 0, err
		}
		sum += n
	}
	return sum, nil
}

// A workflow task waiting for local activities stays one task in the
// test environment however long they take, as in go.temporal.io/sdk's,
// which has no workflow tasks to split: a worker reports such a task at
// 80% of its timeout and goes on in the next, which would make the
// history depend on the machine's speed.
func TestLocalActivitiesPastTheWorkflowTaskTimeoutWriteOneWorkflowTask(t *testing.T) {
	t.Parallel()
	for _, taskTimeout := range []time.Duration{0, 500 * time.Millisecond} { // 0: the environment's 1s
		var s testsuite.WorkflowTestSuite
		env := s.NewTestWorkflowEnvironment()
		env.RegisterActivity(Nap)
		env.SetStartWorkflowOptions(client.StartWorkflowOptions{WorkflowTaskTimeout: taskTimeout})
		env.ExecuteWorkflow(NapsFourTimes)
		var sum int
		require.NoError(t, env.GetWorkflowResult(&sum))
		require.Equal(t, 10, sum)
		h, err := env.GetHistory()
		require.NoError(t, err)
		var kinds []string
		for _, ev := range h.GetEvents() {
			kinds = append(kinds, ev.GetEventType().String())
		}
		require.Equal(t, []string{"WorkflowExecutionStarted", "WorkflowTaskScheduled", "WorkflowTaskStarted", "WorkflowTaskCompleted",
			"MarkerRecorded", "MarkerRecorded", "MarkerRecorded", "MarkerRecorded", "WorkflowExecutionCompleted"}, kinds,
			"task timeout %v", taskTimeout)
	}
}
