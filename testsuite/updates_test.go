package testsuite_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

var errNegative = errors.New("amounts must not be negative")

// Counter adds what its "add" updates ask (after an hour of work each,
// for "slow-add") until a "close" update, and returns the total.
func Counter(ctx workflow.Context) (int, error) {
	total, closing := 0, false
	if err := workflow.SetUpdateHandlerWithOptions(ctx, "add", func(ctx workflow.Context, n int) (int, error) {
		if n == 13 {
			return 0, errors.New("unlucky")
		}
		total += n
		return total, nil
	}, workflow.UpdateHandlerOptions{Validator: func(n int) error {
		if n < 0 {
			return errNegative
		}
		return nil
	}}); err != nil {
		return 0, err
	}
	if err := workflow.SetUpdateHandler(ctx, "slow-add", func(ctx workflow.Context, n int) (int, error) {
		if err := workflow.Sleep(ctx, time.Hour); err != nil {
			return 0, err
		}
		total += n
		return total, nil
	}); err != nil {
		return 0, err
	}
	if err := workflow.SetUpdateHandler(ctx, "close", func(ctx workflow.Context) error {
		closing = true
		return nil
	}); err != nil {
		return 0, err
	}
	if err := workflow.Await(ctx, func() bool { return closing && workflow.AllHandlersFinished(ctx) }); err != nil {
		return 0, err
	}
	return total, nil
}

// updateLog records what the callbacks of updates heard, by update ID.
type updateLog struct {
	mu  sync.Mutex
	got map[string][]any
}

func (l *updateLog) callbacks(id string) *testsuite.TestUpdateCallback {
	add := func(v ...any) {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.got == nil {
			l.got = make(map[string][]any)
		}
		l.got[id] = append(l.got[id], v...)
	}
	return &testsuite.TestUpdateCallback{
		OnAccept:   func() { add("accepted") },
		OnReject:   func(err error) { add("rejected", err) },
		OnComplete: func(v any, err error) { add("completed", v, err) },
	}
}

func (l *updateLog) of(id string) []any {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.got[id]
}

func TestUpdatesAreAcceptedRejectedAndCompleted(t *testing.T) {
	t.Parallel()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	var log updateLog
	env.UpdateWorkflow("add", "before-start", log.callbacks("before-start"), 1) // delivered as the workflow starts
	env.RegisterDelayedCallback(func() {
		env.UpdateWorkflow("add", "two", log.callbacks("two"), 2)
		env.UpdateWorkflow("add", "negative", log.callbacks("negative"), -5)
		env.UpdateWorkflow("add", "thirteen", log.callbacks("thirteen"), 13)
		env.UpdateWorkflow("nonexistent", "unknown", log.callbacks("unknown"))
	}, time.Minute)
	env.RegisterDelayedCallback(func() { env.UpdateWorkflow("close", "close", log.callbacks("close")) }, time.Hour)
	env.ExecuteWorkflow(Counter)

	require.True(t, env.IsWorkflowCompleted())
	var total int
	require.NoError(t, env.GetWorkflowResult(&total))
	require.Equal(t, 3, total)

	require.Equal(t, []any{"accepted", "completed", 1, nil}, log.of("before-start"), "the handler's own return values, as Go values")
	require.Equal(t, []any{"accepted", "completed", 3, nil}, log.of("two"))
	require.Equal(t, []any{"completed", nil, nil}, log.of("close")[1:], "a handler returning only an error completes with nil")

	neg := log.of("negative")
	require.Len(t, neg, 2)
	require.Equal(t, "rejected", neg[0])
	require.ErrorIs(t, neg[1].(error), errNegative, "the validator's own error")

	thirteen := log.of("thirteen")
	// As in go.temporal.io/sdk, a handler that fails hands its callbacks
	// both of its results.
	require.Equal(t, []any{"accepted", "completed", 0}, thirteen[:3])
	require.EqualError(t, thirteen[3].(error), "unlucky")

	unknown := log.of("unknown")
	require.Equal(t, "rejected", unknown[0])
	require.ErrorContains(t, unknown[1].(error), "nonexistent")
}

func TestAnUpdateIDIsHandledOnce(t *testing.T) {
	t.Parallel()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	var log updateLog
	env.RegisterDelayedCallback(func() {
		env.UpdateWorkflow("add", "once", log.callbacks("first"), 5)
		env.UpdateWorkflow("add", "once", log.callbacks("second"), 5) // while the first is in flight
	}, time.Minute)
	env.RegisterDelayedCallback(func() {
		env.UpdateWorkflow("add", "once", log.callbacks("third"), 5) // long after it completed
		env.UpdateWorkflow("close", "close", nil)
	}, time.Hour)
	env.ExecuteWorkflow(Counter)

	var total int
	require.NoError(t, env.GetWorkflowResult(&total))
	require.Equal(t, 5, total, "the handler ran once")
	for _, who := range []string{"first", "second", "third"} {
		require.Equal(t, []any{"accepted", "completed", 5, nil}, log.of(who), who)
	}
}

func TestAnUpdateCanWaitOnTheWorkflowClock(t *testing.T) {
	t.Parallel()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	var log updateLog
	var completedAt time.Time
	start := env.Now()
	env.RegisterDelayedCallback(func() {
		env.UpdateWorkflow("slow-add", "slow", &testsuite.TestUpdateCallback{
			OnComplete: func(v any, err error) {
				completedAt = env.Now()
				log.callbacks("slow").Complete(v, err)
			},
		}, 7)
		env.UpdateWorkflowNoRejection("close", "close", t) // the workflow waits for the slow handler
	}, time.Minute)
	env.ExecuteWorkflow(Counter)

	var total int
	require.NoError(t, env.GetWorkflowResult(&total))
	require.Equal(t, 7, total)
	require.Equal(t, []any{"completed", 7, nil}, log.of("slow"))
	require.GreaterOrEqual(t, completedAt.Sub(start), time.Hour+time.Minute)
	require.Less(t, completedAt.Sub(start), 2*time.Hour)
}

// eventTypes lists a history's event types.
func eventTypes(h *historypb.History) []enumspb.EventType {
	var types []enumspb.EventType
	for _, ev := range h.GetEvents() {
		types = append(types, ev.GetEventType())
	}
	return types
}

func TestARejectedUpdateLeavesNoTraceAndTheHistoryReplays(t *testing.T) {
	t.Parallel()
	run := func(rejected bool) *historypb.History {
		var s testsuite.WorkflowTestSuite
		env := s.NewTestWorkflowEnvironment()
		var log updateLog
		if rejected {
			env.RegisterDelayedCallback(func() { env.UpdateWorkflow("add", "neg", log.callbacks("neg"), -1) }, time.Minute)
		}
		env.RegisterDelayedCallback(func() { env.UpdateWorkflow("add", "two", log.callbacks("two"), 2) }, 2*time.Minute)
		env.RegisterDelayedCallback(func() { env.UpdateWorkflow("close", "close", log.callbacks("close")) }, 3*time.Minute)
		env.ExecuteWorkflow(Counter)
		require.NoError(t, env.GetWorkflowError())
		if rejected {
			require.Equal(t, "rejected", log.of("neg")[0])
		}
		h, err := env.GetHistory()
		require.NoError(t, err)
		return h
	}
	with, without := run(true), run(false)
	require.Equal(t, eventTypes(without), eventTypes(with), "the rejected update's workflow task is erased")
	require.Contains(t, eventTypes(with), enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED)
	require.Contains(t, eventTypes(with), enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED)

	replayer := worker.NewWorkflowReplayer()
	replayer.RegisterWorkflow(Counter)
	require.NoError(t, replayer.ReplayWorkflowHistory(nil, with))
}

// Impatient completes an hour in, whatever updates still run.
func Impatient(ctx workflow.Context) error {
	if err := workflow.SetUpdateHandler(ctx, "wait", func(ctx workflow.Context) error {
		return workflow.Sleep(ctx, 24*time.Hour)
	}); err != nil {
		return err
	}
	return workflow.Sleep(ctx, time.Hour)
}

func TestUpdatesOfAClosedWorkflowFail(t *testing.T) {
	t.Parallel()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	var log updateLog
	env.RegisterDelayedCallback(func() { env.UpdateWorkflow("wait", "unfinished", log.callbacks("unfinished")) }, time.Minute)
	env.ExecuteWorkflow(Impatient)
	require.NoError(t, env.GetWorkflowError())
	got := log.of("unfinished")
	require.Equal(t, []any{"accepted", "completed", nil}, got[:3])
	require.ErrorContains(t, got[3].(error), "closed before update \"unfinished\" completed")

	env.UpdateWorkflow("wait", "late", log.callbacks("late"))
	require.Equal(t, "rejected", log.of("late")[0], "an update sent after the end is refused")
}

// UpdatableChild takes "add" updates until an hour passed.
func UpdatableChild(ctx workflow.Context) (int, error) {
	total := 0
	if err := workflow.SetUpdateHandler(ctx, "add", func(ctx workflow.Context, n int) (int, error) {
		total += n
		return total, nil
	}); err != nil {
		return 0, err
	}
	err := workflow.Sleep(ctx, time.Hour)
	return total, err
}

func ParentOfUpdatable(ctx workflow.Context) (int, error) {
	ctx = workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: "updatable-child"})
	var total int
	err := workflow.ExecuteChildWorkflow(ctx, UpdatableChild).Get(ctx, &total)
	return total, err
}

func TestUpdateWorkflowByIDReachesAChild(t *testing.T) {
	t.Parallel()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(UpdatableChild)
	var log updateLog
	env.RegisterDelayedCallback(func() {
		require.NoError(t, env.UpdateWorkflowByID("updatable-child", "add", "to-child", log.callbacks("to-child"), 4))
		require.Error(t, env.UpdateWorkflowByID("no-such-workflow", "add", "lost", log.callbacks("lost"), 4))
	}, time.Minute)
	env.ExecuteWorkflow(ParentOfUpdatable)
	var total int
	require.NoError(t, env.GetWorkflowResult(&total))
	require.Equal(t, 4, total)
	require.Equal(t, []any{"accepted", "completed", 4, nil}, log.of("to-child"))
	require.Empty(t, log.of("lost"))
}
