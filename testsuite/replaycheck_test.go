package testsuite_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"

	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// Notify is an activity the tests mock: it notifies one subscriber.
func Notify(_ context.Context, email string) error { return nil }

// subscribers is a mailing list of n subscribers, by ID.
func subscribers(n int) map[string]string {
	m := make(map[string]string, n)
	for i := range n {
		m[fmt.Sprintf("sub-%05d", i)] = fmt.Sprintf("user%d@example.com", i)
	}
	return m
}

// A batch notifies the first few subscribers met in a list of a few
// hundred. The run and its replay each build the list, a map with a hash
// seed of its own, so that their ranges meet the same first subscriber
// about once in 200 and the same batch of eight less than once in a
// million (none in 10^6 tries of two such maps): the replay check sees the
// bug every time. A list this small builds in a few milliseconds even
// under the race detector on a loaded machine, far within the workflow's
// 1s deadlock detection (a list of 65,536 did not).
const (
	listSize  = 256
	batchSize = 8
)

// NotifyBatchInMapOrder notifies a batch of subscribers, one activity each
// (its ID the subscriber's): the first it meets as it ranges over the
// list, which are others each time the code runs.
func NotifyBatchInMapOrder(ctx workflow.Context) ([]string, error) {
	return notifyBatch(ctx, func(m map[string]string) []string {
		var ids []string
		for id := range m {
			ids = append(ids, id)
		}
		return ids
	})
}

// NotifyBatchInOrder is NotifyBatchInMapOrder done right: the batch is
// the first subscribers by ID.
func NotifyBatchInOrder(ctx workflow.Context) ([]string, error) {
	return notifyBatch(ctx, func(m map[string]string) []string {
		ids := make([]string, 0, len(m))
		for id := range m {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		return ids
	})
}

func notifyBatch(ctx workflow.Context, order func(map[string]string) []string) ([]string, error) {
	list := subscribers(listSize)
	ids := order(list)[:batchSize]
	var sent []workflow.Future
	for _, id := range ids {
		actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{ActivityID: "notify-" + id, StartToCloseTimeout: time.Minute})
		sent = append(sent, workflow.ExecuteActivity(actx, Notify, list[id]))
	}
	for _, f := range sent {
		if err := f.Get(ctx, nil); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

func notifyEnv(s *testsuite.WorkflowTestSuite) *testsuite.TestWorkflowEnvironment {
	env := s.NewTestWorkflowEnvironment()
	env.OnActivity(Notify, mock.Anything, mock.Anything).Return(nil)
	return env
}

// A single run of a workflow that ranges over a map passes; replaying it
// finds the commands in another order, and the test fails with the
// replay's NonDeterminismError.
func TestTheReplayCheckCatchesAMapOrderBug(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	s.SetReplayCheck(false)
	env := notifyEnv(&s)
	env.ExecuteWorkflow(NotifyBatchInMapOrder)
	require.NoError(t, env.GetWorkflowError(), "one run hides the bug")

	s.SetReplayCheck(true)
	env = notifyEnv(&s)
	env.ExecuteWorkflow(NotifyBatchInMapOrder)
	require.True(t, env.IsWorkflowCompleted())
	err := env.GetWorkflowError()
	var nd *worker.NonDeterminismError
	require.True(t, errors.As(err, &nd), "the replay's error: %v", err)
	require.Contains(t, err.Error(), "replay check")
	require.Contains(t, nd.Reason, "notify-", "the mismatch names the activities: %s", nd.Reason)
	var sent []string
	require.Equal(t, err, env.GetWorkflowResult(&sent))
}

func TestTheReplayCheckPassesDeterministicCode(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	s.SetReplayCheck(true)
	env := notifyEnv(&s)
	env.ExecuteWorkflow(NotifyBatchInOrder)
	var sent []string
	require.NoError(t, env.GetWorkflowResult(&sent))
	require.Equal(t, []string{"sub-00000", "sub-00001", "sub-00002", "sub-00003", "sub-00004", "sub-00005", "sub-00006", "sub-00007"}, sent)
}

// The check replays the children too: a parent whose child ranges over a
// map fails with the child's mismatch.
func TestTheReplayCheckReplaysChildren(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	s.SetReplayCheck(true)
	env := notifyEnv(&s)
	env.RegisterWorkflow(NotifyBatchInMapOrder)
	env.ExecuteWorkflow(func(ctx workflow.Context) error {
		ctx = workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: "newsletter"})
		return workflow.ExecuteChildWorkflow(ctx, NotifyBatchInMapOrder).Get(ctx, nil)
	})
	err := env.GetWorkflowError()
	var nd *worker.NonDeterminismError
	require.True(t, errors.As(err, &nd), "the replay's error: %v", err)
	require.Contains(t, err.Error(), `"NotifyBatchInMapOrder" (workflow ID newsletter`)
	t.Log(err)
}

// SetReplayCheck on an environment overrides its suite's; the
// DURABLE_REPLAY_CHECK environment variable sets the default of suites
// that say nothing.
func TestTheReplayCheckSettings(t *testing.T) {
	var on testsuite.WorkflowTestSuite
	on.SetReplayCheck(true)
	env := notifyEnv(&on)
	env.SetReplayCheck(false)
	env.ExecuteWorkflow(NotifyBatchInMapOrder)
	require.NoError(t, env.GetWorkflowError())

	t.Setenv("DURABLE_REPLAY_CHECK", "on")
	var unset testsuite.WorkflowTestSuite
	env = notifyEnv(&unset)
	env.ExecuteWorkflow(NotifyBatchInMapOrder)
	var nd *worker.NonDeterminismError
	require.True(t, errors.As(env.GetWorkflowError(), &nd), "DURABLE_REPLAY_CHECK=on: %v", env.GetWorkflowError())

	t.Setenv("DURABLE_REPLAY_CHECK", "off")
	env = notifyEnv(&unset)
	env.ExecuteWorkflow(NotifyBatchInMapOrder)
	require.NoError(t, env.GetWorkflowError())
}

// Lookup is a local activity the tests mock.
func Lookup(_ context.Context, key string) (string, error) { return "", nil }

// Quote is a child workflow the tests mock.
func Quote(ctx workflow.Context, item string) (int, error) { return 0, nil }

// EverythingOnce uses what the environment mocks or drives from outside:
// a version, a side effect, a local activity, a mocked child, a signal,
// an update and a canceled timer. It replays.
func EverythingOnce(ctx workflow.Context) (string, error) {
	total := 0
	if err := workflow.SetUpdateHandler(ctx, "add", func(ctx workflow.Context, n int) (int, error) {
		total += n
		return total, nil
	}); err != nil {
		return "", err
	}
	v := workflow.GetVersion(ctx, "pricing", workflow.DefaultVersion, 2)
	var discount int
	if err := workflow.SideEffect(ctx, func(workflow.Context) any { return 5 }).Get(&discount); err != nil {
		return "", err
	}
	lctx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: time.Second})
	var name string
	if err := workflow.ExecuteLocalActivity(lctx, Lookup, "item").Get(ctx, &name); err != nil {
		return "", err
	}
	var price int
	if err := workflow.ExecuteChildWorkflow(ctx, Quote, name).Get(ctx, &price); err != nil {
		return "", err
	}
	timerCtx, cancel := workflow.WithCancel(ctx)
	timer := workflow.NewTimer(timerCtx, 24*time.Hour)
	var note string
	workflow.NewSelector(ctx).
		AddReceive(workflow.GetSignalChannel(ctx, "note"), func(c workflow.ReceiveChannel, _ bool) { c.Receive(ctx, &note); cancel() }).
		AddFuture(timer, func(workflow.Future) {}).
		Select(ctx)
	return fmt.Sprintf("v%d %s %d-%d+%d %s", v, name, price, discount, total, note), nil
}

func TestTheReplayCheckPassesMockedAndDrivenRuns(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	s.SetReplayCheck(true)
	env := s.NewTestWorkflowEnvironment()
	env.OnGetVersion("pricing", workflow.DefaultVersion, 2).Return(workflow.Version(1))
	env.OnSideEffect().Return(7)
	env.OnActivity(Lookup, mock.Anything, "item").Return("pear", nil)
	env.OnWorkflow(Quote, mock.Anything, "pear").Return(100, nil).After(time.Hour)
	env.RegisterDelayedCallback(func() {
		env.UpdateWorkflow("add", "", &testsuite.TestUpdateCallback{}, 3)
		env.SignalWorkflow("note", "thanks")
	}, 2*time.Hour)
	env.ExecuteWorkflow(EverythingOnce)
	var got string
	require.NoError(t, env.GetWorkflowResult(&got))
	require.Equal(t, "v1 pear 100-7+3 thanks", got)
	env.AssertExpectations(t)
}

// A workflow that fails by panicking under the FailWorkflow policy
// replays to the same failure.
func TestTheReplayCheckReplaysAWorkflowFailedByAPanic(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	s.SetReplayCheck(true)
	env := s.NewTestWorkflowEnvironment()
	env.SetWorkerOptions(worker.Options{WorkflowPanicPolicy: worker.FailWorkflow})
	env.ExecuteWorkflow(func(ctx workflow.Context) error {
		if err := workflow.Sleep(ctx, time.Hour); err != nil {
			return err
		}
		panic("out of coffee")
	})
	err := env.GetWorkflowError()
	require.ErrorContains(t, err, "out of coffee")
	var nd *worker.NonDeterminismError
	require.False(t, errors.As(err, &nd), "%v", err)
}
