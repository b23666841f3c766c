package testsuite_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// FileStep stands for one step of work on a file on the worker's disk.
func FileStep(_ context.Context, step string) (string, error) { return step + " done", nil }

var sessionOptions = &workflow.SessionOptions{CreationTimeout: time.Minute, ExecutionTimeout: time.Hour}

// SessionSteps runs three steps in one session, sleeping an hour after the
// first, and reports what it saw of the session.
func SessionSteps(ctx workflow.Context) ([]string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	sessionCtx, err := workflow.CreateSession(ctx, sessionOptions)
	if err != nil {
		return nil, err
	}
	info := workflow.GetSessionInfo(sessionCtx)
	var report []string
	for i, step := range []string{"download", "process", "upload"} {
		var out string
		if err := workflow.ExecuteActivity(sessionCtx, FileStep, step).Get(sessionCtx, &out); err != nil {
			return nil, err
		}
		report = append(report, out)
		if i == 0 {
			if err := workflow.Sleep(ctx, time.Hour); err != nil {
				return nil, err
			}
		}
	}
	if _, err := workflow.CreateSession(sessionCtx, sessionOptions); err == nil {
		return nil, errors.New("a second session opened inside an open one")
	}
	report = append(report, "open="+boolString(info.SessionState == workflow.SessionStateOpen), "host="+info.HostName)
	workflow.CompleteSession(sessionCtx)
	report = append(report, "closed="+boolString(info.SessionState == workflow.SessionStateClosed))
	return report, nil
}

func boolString(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func sessionEnv(t *testing.T, options worker.Options) *testsuite.TestWorkflowEnvironment {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetWorkerOptions(options)
	env.RegisterActivity(FileStep)
	return env
}

// scheduledQueues lists the activities a history scheduled, as
// "type@queue".
func scheduledQueues(t *testing.T, env *testsuite.TestWorkflowEnvironment) []string {
	t.Helper()
	h, err := env.GetHistory()
	require.NoError(t, err)
	var out []string
	for _, ev := range h.GetEvents() {
		if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil {
			out = append(out, a.GetActivityType().GetName()+"@"+a.GetTaskQueue().GetName())
		}
	}
	return out
}

func TestSessionRunsItsActivitiesOnItsWorkerAndCompletes(t *testing.T) {
	t.Parallel()
	env := sessionEnv(t, worker.Options{EnableSessionWorker: true})
	var openDuring []*workflow.SessionInfo
	env.RegisterDelayedCallback(func() {
		v, err := env.QueryWorkflow(client.QueryTypeOpenSessions)
		require.NoError(t, err)
		require.NoError(t, v.Get(&openDuring))
	}, 30*time.Minute)
	env.ExecuteWorkflow(SessionSteps)
	var report []string
	require.NoError(t, env.GetWorkflowResult(&report))
	host, _ := os.Hostname()
	require.Equal(t, []string{"download done", "process done", "upload done", "open=true", "host=" + host, "closed=true"}, report)

	resourceQueue := "testResourceID@" + host
	require.Equal(t, []string{
		"internalSessionCreationActivity@default-test-taskqueue__internal_session_creation",
		"FileStep@" + resourceQueue, "FileStep@" + resourceQueue, "FileStep@" + resourceQueue,
		"internalSessionCompletionActivity@" + resourceQueue,
	}, scheduledQueues(t, env))

	require.Len(t, openDuring, 1, "the __open_sessions query lists the open session")
	require.Equal(t, host, openDuring[0].HostName)
	require.Equal(t, workflow.SessionStateOpen, openDuring[0].SessionState)
	v, err := env.QueryWorkflow(client.QueryTypeOpenSessions)
	require.NoError(t, err)
	var openAfter []*workflow.SessionInfo
	require.NoError(t, v.Get(&openAfter))
	require.Empty(t, openAfter, "a completed session is no longer open")

	h, err := env.GetHistory()
	require.NoError(t, err)
	replayer := worker.NewWorkflowReplayer()
	replayer.RegisterWorkflow(SessionSteps)
	require.NoError(t, replayer.ReplayWorkflowHistory(nil, h))
}

// TwoSessions opens a session, then a second one while the first is open;
// it completes the first after hold. It returns how long after the start
// the second one opened.
func TwoSessions(ctx workflow.Context, hold time.Duration) (time.Duration, error) {
	start := workflow.Now(ctx)
	first, err := workflow.CreateSession(ctx, sessionOptions)
	if err != nil {
		return 0, err
	}
	var secondAt time.Duration
	var secondErr error
	done := workflow.NewChannel(ctx)
	workflow.Go(ctx, func(ctx workflow.Context) {
		var second workflow.Context
		second, secondErr = workflow.CreateSession(ctx, &workflow.SessionOptions{CreationTimeout: 2 * time.Hour, ExecutionTimeout: time.Hour})
		secondAt = workflow.Now(ctx).Sub(start)
		if secondErr == nil {
			workflow.CompleteSession(second)
		}
		done.Send(ctx, nil)
	})
	if err := workflow.Sleep(ctx, hold); err != nil {
		return 0, err
	}
	workflow.CompleteSession(first)
	done.Receive(ctx, nil)
	return secondAt, secondErr
}

func TestAFullWorkerOpensTheNextSessionOnceOneCompletes(t *testing.T) {
	t.Parallel()
	env := sessionEnv(t, worker.Options{EnableSessionWorker: true, MaxConcurrentSessionExecutionSize: 1})
	env.ExecuteWorkflow(TwoSessions, 5*time.Second)
	var secondAt time.Duration
	require.NoError(t, env.GetWorkflowResult(&secondAt))
	// The second creation activity fails ("too many outstanding sessions")
	// and is retried (after 1s, 1.1s, 1.21s, ...) until the first session
	// completes.
	require.GreaterOrEqual(t, secondAt, 5*time.Second)
	require.Less(t, secondAt, 15*time.Second)
}

func TestASessionThatWaitsLongerThanTheCappedRetriesFails(t *testing.T) {
	t.Parallel()
	env := sessionEnv(t, worker.Options{EnableSessionWorker: true, MaxConcurrentSessionExecutionSize: 1})
	env.ExecuteWorkflow(TwoSessions, time.Hour)
	// The creation activity's policy sets no maximum of attempts: as in
	// go.temporal.io/sdk's test environment, it stops after 10 (about 14s),
	// long before the first session completes.
	err := env.GetWorkflowError()
	require.ErrorContains(t, err, "too many outstanding sessions")
}

// RecreatedSession completes a session and opens another on the same
// worker with its recreate token; a token that is not one fails.
func RecreatedSession(ctx workflow.Context) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	first, err := workflow.CreateSession(ctx, sessionOptions)
	if err != nil {
		return "", err
	}
	token := workflow.GetSessionInfo(first).GetRecreateToken()
	workflow.CompleteSession(first)
	if _, err := workflow.RecreateSession(ctx, []byte("not a token"), sessionOptions); err == nil {
		return "", errors.New("a bad token recreated a session")
	}
	second, err := workflow.RecreateSession(ctx, token, sessionOptions)
	if err != nil {
		return "", err
	}
	defer workflow.CompleteSession(second)
	var out string
	err = workflow.ExecuteActivity(second, FileStep, "again").Get(second, &out)
	return out, err
}

func TestARecreatedSessionGoesToTheSameWorker(t *testing.T) {
	t.Parallel()
	env := sessionEnv(t, worker.Options{EnableSessionWorker: true})
	env.ExecuteWorkflow(RecreatedSession)
	var out string
	require.NoError(t, env.GetWorkflowResult(&out))
	require.Equal(t, "again done", out)
	host, _ := os.Hostname()
	resourceQueue := "testResourceID@" + host
	require.Equal(t, []string{
		"internalSessionCreationActivity@default-test-taskqueue__internal_session_creation",
		"internalSessionCompletionActivity@" + resourceQueue,
		"internalSessionCreationActivity@" + resourceQueue,
		"FileStep@" + resourceQueue,
		"internalSessionCompletionActivity@" + resourceQueue,
	}, scheduledQueues(t, env))
}

func TestSessionsNeedTheSessionWorker(t *testing.T) {
	t.Parallel()
	env := sessionEnv(t, worker.Options{})
	env.ExecuteWorkflow(SessionSteps)
	err := env.GetWorkflowError()
	var app *temporal.ApplicationError
	require.True(t, errors.As(err, &app), "got %v", err)
	require.Equal(t, "SessionWorkerNotEnabled", app.Type())
	require.Contains(t, app.Error(), "EnableSessionWorker")
}

// checks the creation activity's history: one retry policy, the timeouts
// of the session options.
func TestTheCreationActivityCarriesTheSessionOptions(t *testing.T) {
	t.Parallel()
	env := sessionEnv(t, worker.Options{EnableSessionWorker: true})
	env.ExecuteWorkflow(SessionSteps)
	require.NoError(t, env.GetWorkflowError())
	h, err := env.GetHistory()
	require.NoError(t, err)
	var creation *historypb.ActivityTaskScheduledEventAttributes
	for _, ev := range h.GetEvents() {
		if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil && a.GetActivityType().GetName() == "internalSessionCreationActivity" {
			creation = a
			break
		}
	}
	require.NotNil(t, creation)
	require.Equal(t, time.Minute, creation.GetScheduleToStartTimeout().AsDuration())
	require.Equal(t, time.Hour, creation.GetStartToCloseTimeout().AsDuration())
	require.Equal(t, 20*time.Second, creation.GetHeartbeatTimeout().AsDuration())
	require.Equal(t, []string{"TemporalTimeout:StartToClose", "TemporalTimeout:Heartbeat"}, creation.GetRetryPolicy().GetNonRetryableErrorTypes())
	require.Equal(t, 1.1, creation.GetRetryPolicy().GetBackoffCoefficient())
	sideEffects := 0
	for _, ev := range h.GetEvents() {
		if ev.GetEventType() == enumspb.EVENT_TYPE_MARKER_RECORDED && strings.EqualFold(ev.GetMarkerRecordedEventAttributes().GetMarkerName(), "SideEffect") {
			sideEffects++
		}
	}
	require.Equal(t, 1, sideEffects, "the session ID is recorded as a side effect")
}

// BadSessionOptions asks for sessions with options that cannot work.
func BadSessionOptions(ctx workflow.Context) (string, error) {
	var errs []string
	for _, o := range []*workflow.SessionOptions{nil, {CreationTimeout: time.Minute}} {
		_, err := workflow.CreateSession(ctx, o)
		errs = append(errs, fmt.Sprint(err))
	}
	return strings.Join(errs, "\n"), nil
}

func TestBadSessionOptionsFailClearly(t *testing.T) {
	t.Parallel()
	env := sessionEnv(t, worker.Options{EnableSessionWorker: true})
	env.ExecuteWorkflow(BadSessionOptions)
	var errs string
	require.NoError(t, env.GetWorkflowResult(&errs))
	require.Equal(t, "CreateSession: SessionOptions are required (at least ExecutionTimeout and CreationTimeout)\n"+
		"CreateSession: SessionOptions.ExecutionTimeout is required: it bounds how long the session may run", errs)
	h, err := env.GetHistory()
	require.NoError(t, err)
	require.Empty(t, scheduledQueues(t, env), "no activity was scheduled")
	require.Len(t, h.GetEvents(), 5, "nothing but the workflow's start and end was recorded")
}
