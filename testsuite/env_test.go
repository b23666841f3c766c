package testsuite_test

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"github.com/stretchr/testify/suite"
	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/interceptor"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// EnvSuite tests the test environment the way users write their tests:
// a testify suite with mocks and delayed callbacks.
type EnvSuite struct {
	suite.Suite
	testsuite.WorkflowTestSuite
	env *testsuite.TestWorkflowEnvironment
}

func TestEnvSuite(t *testing.T) {
	t.Parallel()
	suite.Run(t, new(EnvSuite))
}

func (s *EnvSuite) SetupTest() { s.env = s.NewTestWorkflowEnvironment() }

func (s *EnvSuite) AfterTest(string, string) { s.env.AssertExpectations(s.T()) }

// WaitForApproval waits up to 30 days for an "approve" signal and returns
// when it came, as workflow time since the start.
func WaitForApproval(ctx workflow.Context) (time.Duration, error) {
	start := workflow.Now(ctx)
	var approver string
	timedOut := false
	sel := workflow.NewSelector(ctx)
	sel.AddReceive(workflow.GetSignalChannel(ctx, "approve"), func(c workflow.ReceiveChannel, _ bool) { c.Receive(ctx, &approver) })
	sel.AddFuture(workflow.NewTimer(ctx, 30*24*time.Hour), func(workflow.Future) { timedOut = true })
	sel.Select(ctx)
	if timedOut {
		return 0, errors.New("no approval within 30 days")
	}
	if approver != "ann" {
		return 0, errors.New("approved by " + approver)
	}
	return workflow.Now(ctx).Sub(start), nil
}

func (s *EnvSuite) TestSleepsForDaysWithASignalHalfWay() {
	s.env.RegisterDelayedCallback(func() { s.env.SignalWorkflow("approve", "ann") }, 15*24*time.Hour)
	wall := time.Now()
	s.env.ExecuteWorkflow(WaitForApproval)
	s.True(s.env.IsWorkflowCompleted())
	var waited time.Duration
	s.NoError(s.env.GetWorkflowResult(&waited))
	s.Equal(15*24*time.Hour, waited.Round(time.Second))
	s.Less(time.Since(wall), 5*time.Second, "15 days of waiting must be skipped") // generous: -race on a shared machine
}

func (s *EnvSuite) TestTimerWinsWhenNoSignalComes() {
	s.env.ExecuteWorkflow(WaitForApproval)
	err := s.env.GetWorkflowError()
	var app *temporal.ApplicationError
	s.Require().True(errors.As(err, &app), "got %v", err)
	s.Equal("no approval within 30 days", app.Error())
}

// Charge is an activity the tests mock.
func Charge(ctx context.Context, card string, cents int) (string, error) {
	return "", errors.New("the real Charge must not run in these tests")
}

// ChargeWithRetries charges a card, retrying every minute.
func ChargeWithRetries(ctx workflow.Context, card string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Minute, BackoffCoefficient: 2, MaximumAttempts: 5},
	})
	start := workflow.Now(ctx)
	var receipt string
	err := workflow.ExecuteActivity(ctx, Charge, card, 500).Get(ctx, &receipt)
	return receipt + " after " + workflow.Now(ctx).Sub(start).Round(time.Minute).String(), err
}

func (s *EnvSuite) TestActivityFailsTwiceThenSucceedsUnderItsRetryPolicy() {
	flaky := s.env.OnActivity(Charge, mock.Anything, "4242", 500).Return("", errors.New("card network down")).Twice()
	s.env.OnActivity(Charge, mock.Anything, "4242", 500).Return("receipt-1", nil).Once().NotBefore(flaky)
	s.env.ExecuteWorkflow(ChargeWithRetries, "4242")
	var got string
	s.NoError(s.env.GetWorkflowResult(&got))
	// Backoffs of 1m and 1m, skipped on the virtual clock: as in
	// go.temporal.io/sdk's test environment, a policy without a maximum
	// interval keeps the initial one.
	s.Equal("receipt-1 after 2m0s", got)
	s.env.AssertNumberOfCalls(s.T(), "Charge", 3)
}

func (s *EnvSuite) TestActivityRetriesRunOutAndTheWorkflowSeesTheLastFailure() {
	s.env.OnActivity(Charge, mock.Anything, mock.Anything, mock.Anything).Return("", errors.New("declined"))
	s.env.ExecuteWorkflow(ChargeWithRetries, "4242")
	err := s.env.GetWorkflowError()
	var actErr *temporal.ActivityError
	s.Require().True(errors.As(err, &actErr), "got %v", err)
	var app *temporal.ApplicationError
	s.Require().True(errors.As(err, &app))
	s.Equal("declined", app.Error())
	s.env.AssertNumberOfCalls(s.T(), "Charge", 5)
}

// Collector keeps the signals it received, answers "seen" queries, and
// returns them after "done".
func Collector(ctx workflow.Context) ([]string, error) {
	var seen []string
	if err := workflow.SetQueryHandler(ctx, "seen", func() ([]string, error) { return seen, nil }); err != nil {
		return nil, err
	}
	ch := workflow.GetSignalChannel(ctx, "item")
	for {
		var item string
		ch.Receive(ctx, &item)
		if item == "done" {
			return seen, nil
		}
		seen = append(seen, item)
	}
}

func (s *EnvSuite) TestQueryBetweenTwoSignals() {
	var between []string
	var queryErr error
	s.env.RegisterDelayedCallback(func() { s.env.SignalWorkflow("item", "first") }, time.Hour)
	s.env.RegisterDelayedCallback(func() {
		v, err := s.env.QueryWorkflow("seen")
		if queryErr = err; err == nil {
			queryErr = v.Get(&between)
		}
	}, 2*time.Hour)
	s.env.RegisterDelayedCallback(func() { s.env.SignalWorkflow("item", "second") }, 3*time.Hour)
	s.env.RegisterDelayedCallback(func() { s.env.SignalWorkflow("item", "done") }, 4*time.Hour)
	s.env.ExecuteWorkflow(Collector)
	s.NoError(queryErr)
	s.Equal([]string{"first"}, between)
	var all []string
	s.NoError(s.env.GetWorkflowResult(&all))
	s.Equal([]string{"first", "second"}, all)

	// After the end, the final state answers.
	v, err := s.env.QueryWorkflow("seen")
	s.Require().NoError(err)
	var final []string
	s.NoError(v.Get(&final))
	s.Equal([]string{"first", "second"}, final)
}

// Release is the cleanup activity of ReserveThenWait.
func Release(ctx context.Context, what string) error { return nil }

// ReserveThenWait waits a day, and releases what it holds if canceled.
func ReserveThenWait(ctx workflow.Context) error {
	err := workflow.Sleep(ctx, 24*time.Hour)
	if temporal.IsCanceledError(err) {
		cleanup, _ := workflow.NewDisconnectedContext(ctx)
		cleanup = workflow.WithActivityOptions(cleanup, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
		if err := workflow.ExecuteActivity(cleanup, Release, "seat 12").Get(cleanup, nil); err != nil {
			return err
		}
	}
	return err
}

func (s *EnvSuite) TestCanceledWorkflowCleansUpInADisconnectedContext() {
	s.env.OnActivity(Release, mock.Anything, "seat 12").Return(nil).Once()
	s.env.RegisterDelayedCallback(s.env.CancelWorkflow, time.Hour)
	s.env.ExecuteWorkflow(ReserveThenWait)
	s.True(s.env.IsWorkflowCompleted())
	err := s.env.GetWorkflowError()
	var canceled *temporal.CanceledError
	s.True(errors.As(err, &canceled), "got %v", err)
}

// Download heartbeats once, then waits for its context to end.
func Download(ctx context.Context) error {
	activity.RecordHeartbeat(ctx, "first chunk")
	<-ctx.Done()
	return ctx.Err()
}

func DownloadOnce(ctx workflow.Context) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Hour,
		HeartbeatTimeout:    200 * time.Millisecond,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
	})
	return workflow.ExecuteActivity(ctx, Download).Get(ctx, nil)
}

func (s *EnvSuite) TestActivityThatStopsHeartbeatingTimesOut() {
	s.env.RegisterActivity(Download)
	var heartbeats atomic.Int32
	s.env.SetOnActivityHeartbeatListener(func(_ *activity.Info, details converter.EncodedValues) { heartbeats.Add(1) })
	s.env.ExecuteWorkflow(DownloadOnce)
	err := s.env.GetWorkflowError()
	var timeout *temporal.TimeoutError
	s.Require().True(errors.As(err, &timeout), "got %v", err)
	s.Equal(enumspb.TIMEOUT_TYPE_HEARTBEAT, timeout.TimeoutType())
	var details string
	s.NoError(timeout.LastHeartbeatDetails(&details))
	s.Equal("first chunk", details)
	s.EqualValues(1, heartbeats.Load())
}

func Forever(ctx workflow.Context, n int) error {
	if n < 3 {
		return workflow.NewContinueAsNewError(ctx, Forever, n+1)
	}
	return nil
}

func (s *EnvSuite) TestContinueAsNewEndsTheTestWithAContinueAsNewError() {
	s.env.ExecuteWorkflow(Forever, 1)
	err := s.env.GetWorkflowError()
	var can *workflow.ContinueAsNewError
	s.Require().True(errors.As(err, &can), "got %v", err)
	s.Equal("Forever", can.WorkflowType.Name)
	var next int
	s.NoError(converter.GetDefaultDataConverter().FromPayloads(can.Input, &next))
	s.Equal(2, next)
}

func Panics(ctx workflow.Context) error {
	panic("out of stock")
}

func (s *EnvSuite) TestPanicIsAPanicErrorWithTheStack() {
	s.env.ExecuteWorkflow(Panics)
	err := s.env.GetWorkflowError()
	var p *temporal.PanicError
	s.Require().True(errors.As(err, &p), "got %v", err)
	s.Contains(p.Error(), "out of stock")
	s.Contains(p.StackTrace(), "Panics")
}

func SpinsWithoutYielding(ctx workflow.Context) error {
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) { //workflowcheck:ignore the test needs a coroutine that never yields
	}
	return nil
}

func (s *EnvSuite) TestDeadlockIsDetected() {
	s.env.SetWorkerOptions(worker.Options{DeadlockDetectionTimeout: 100 * time.Millisecond})
	s.env.ExecuteWorkflow(SpinsWithoutYielding)
	err := s.env.GetWorkflowError()
	s.Require().Error(err)
	s.Contains(err.Error(), "deadlock")
}

func SleepsTwoHours(ctx workflow.Context) error { return workflow.Sleep(ctx, 2*time.Hour) }

func (s *EnvSuite) TestWorkflowRunTimeoutBehavesAsOnAServer() {
	s.env.SetWorkflowRunTimeout(time.Hour)
	s.env.ExecuteWorkflow(SleepsTwoHours)
	err := s.env.GetWorkflowError()
	var timeout *temporal.TimeoutError
	s.True(errors.As(err, &timeout), "got %v", err)
}

func WaitsForever(ctx workflow.Context) error {
	workflow.GetSignalChannel(ctx, "never").Receive(ctx, nil)
	return nil
}

func (s *EnvSuite) TestAStuckWorkflowShowsWhereItIsBlocked() {
	s.env.SetTestTimeout(100 * time.Millisecond)
	s.env.ExecuteWorkflow(WaitsForever)
	err := s.env.GetWorkflowError()
	s.Require().Error(err)
	s.Contains(err.Error(), "test timeout")
	s.Contains(err.Error(), "WaitsForever")
}

func Versioned(ctx workflow.Context) (int, error) {
	return int(workflow.GetVersion(ctx, "new-pricing", workflow.DefaultVersion, 3)), nil
}

func (s *EnvSuite) TestOnGetVersionPicksTheVersion() {
	s.env.OnGetVersion("new-pricing", workflow.DefaultVersion, 3).Return(workflow.Version(2))
	s.env.ExecuteWorkflow(Versioned)
	var v int
	s.NoError(s.env.GetWorkflowResult(&v))
	s.Equal(2, v)
}

func (s *EnvSuite) TestTimerListenersFollowTheHistory() {
	var scheduled, fired []string
	s.env.SetOnTimerScheduledListener(func(id string, d time.Duration) { scheduled = append(scheduled, id+"/"+d.String()) })
	s.env.SetOnTimerFiredListener(func(id string) { fired = append(fired, id) })
	s.env.ExecuteWorkflow(SleepsTwoHours)
	s.NoError(s.env.GetWorkflowError())
	s.Equal([]string{"5/2h0m0s"}, scheduled)
	s.Equal([]string{"5"}, fired)
}

func ChargeByName(ctx workflow.Context) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var r string
	err := workflow.ExecuteActivity(ctx, "ChargeCard", "4242", 500).Get(ctx, &r)
	return r, err
}

func (s *EnvSuite) TestAnActivityCanBeMockedByNameWithoutAFunction() {
	s.env.OnActivity("ChargeCard", mock.Anything, "4242", 500).Return("receipt-9", nil)
	s.env.ExecuteWorkflow(ChargeByName)
	var r string
	s.NoError(s.env.GetWorkflowResult(&r))
	s.Equal("receipt-9", r)
}

func (s *EnvSuite) TestAMockReturnFunctionHasTheActivitysSignature() {
	s.env.OnActivity(Charge, mock.Anything, mock.Anything, mock.Anything).Return(func(ctx context.Context, card string, cents int) (string, error) {
		return card + ":" + activity.GetInfo(ctx).ActivityType.Name, nil
	})
	s.env.ExecuteWorkflow(ChargeWithRetries, "4242")
	var got string
	s.NoError(s.env.GetWorkflowResult(&got))
	s.Equal("4242:Charge after 0s", got)
}

func (s *EnvSuite) TestAMockCanTakeTimeOnTheWorkflowClock() {
	s.env.OnActivity(Charge, mock.Anything, mock.Anything, mock.Anything).After(30*time.Second).Return("slow", nil)
	s.env.ExecuteWorkflow(ChargeWithRetries, "4242")
	var got string
	s.NoError(s.env.GetWorkflowResult(&got))
	s.Equal("slow after 1m0s", got) // 30s, rounded to the minute
}

// countingInterceptor counts the activities it sees.
type countingInterceptor struct {
	interceptor.WorkerInterceptorBase
	activities atomic.Int32
}

func (c *countingInterceptor) InterceptActivity(ctx context.Context, next interceptor.ActivityInboundInterceptor) interceptor.ActivityInboundInterceptor {
	c.activities.Add(1)
	return next
}

func (s *EnvSuite) TestInterceptorsRunAroundMockedActivities() {
	counter := &countingInterceptor{}
	s.env.SetWorkerOptions(worker.Options{Interceptors: []interceptor.WorkerInterceptor{counter}})
	s.env.OnActivity(Charge, mock.Anything, mock.Anything, mock.Anything).Return("ok", nil)
	s.env.ExecuteWorkflow(ChargeWithRetries, "4242")
	s.NoError(s.env.GetWorkflowError())
	s.EqualValues(1, counter.activities.Load())
}

// Pending completes asynchronously: its token goes out through a channel.
func Pending(ctx context.Context, tokens chan<- []byte) (string, error) {
	tokens <- activity.GetInfo(ctx).TaskToken
	return "", activity.ErrResultPending
}

func (s *EnvSuite) TestAsyncActivityCompletion() {
	tokens := make(chan []byte)
	completed := make(chan struct{})
	pending := func(ctx context.Context) (string, error) {
		defer func() { <-completed }() // not before its completion was sent: the clock would skip to its timeout
		return Pending(ctx, tokens)
	}
	s.env.RegisterActivityWithOptions(pending, activity.RegisterOptions{Name: "Pending"})
	go func() {
		token := <-tokens
		s.NoError(s.env.CompleteActivity(token, "done later", nil))
		close(completed)
	}()
	s.env.ExecuteWorkflow(func(ctx workflow.Context) (string, error) {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Hour})
		var r string
		err := workflow.ExecuteActivity(ctx, "Pending").Get(ctx, &r)
		return r, err
	})
	var r string
	s.NoError(s.env.GetWorkflowResult(&r))
	s.Equal("done later", r)
}

func (s *EnvSuite) TestTheHistoryReplays() {
	s.env.OnActivity(Charge, mock.Anything, mock.Anything, mock.Anything).Return("", errors.New("once")).Once()
	s.env.OnActivity(Charge, mock.Anything, mock.Anything, mock.Anything).Return("ok", nil)
	s.env.RegisterDelayedCallback(func() { s.env.SignalWorkflow("unused", 1) }, 30*time.Second)
	s.env.ExecuteWorkflow(ChargeWithRetries, "4242")
	s.Require().NoError(s.env.GetWorkflowError())
	h, err := s.env.GetHistory()
	s.Require().NoError(err)
	s.Greater(len(h.GetEvents()), 8)
	replayer := worker.NewWorkflowReplayer()
	replayer.RegisterWorkflow(ChargeWithRetries)
	s.NoError(replayer.ReplayWorkflowHistory(nil, h))
}

func TestActivityEnvironment(t *testing.T) {
	t.Parallel()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestActivityEnvironment()
	env.RegisterActivity(Download)

	var heartbeats []string
	env.SetOnActivityHeartbeatListener(func(_ *activity.Info, details converter.EncodedValues) {
		var d string
		require.NoError(t, details.Get(&d))
		heartbeats = append(heartbeats, d)
	})
	env.SetTestTimeout(50 * time.Millisecond)
	_, err := env.ExecuteActivity(Download)
	require.Error(t, err)
	require.Equal(t, []string{"first chunk"}, heartbeats)

	v, err := env.ExecuteActivity(Greet, "activity env")
	require.NoError(t, err)
	var greeting string
	require.NoError(t, v.Get(&greeting))
	require.Equal(t, "Hello, activity env!", greeting)

	_, err = env.ExecuteActivity(Charge, "4242", 1)
	var app *temporal.ApplicationError
	require.True(t, errors.As(err, &app), "activity errors arrive as a workflow sees them, got %T", err)
	require.True(t, strings.Contains(app.Error(), "must not run"))
}

func TestActivityEnvironmentInAWorkflow(t *testing.T) {
	t.Parallel()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestActivityEnvironment().SetExecuteActivitiesInWorkflow(true)
	v, err := env.ExecuteActivity(func(ctx context.Context, name string) (string, error) {
		return name + " in workflow " + activity.GetInfo(ctx).WorkflowExecution.ID, nil
	}, "ann")
	require.NoError(t, err)
	var got string
	require.NoError(t, v.Get(&got))
	require.Equal(t, "ann in workflow default-test-workflow-id", got)
}

func TestEnvironmentsInParallel(t *testing.T) {
	t.Parallel()
	for i := range 20 {
		t.Run("", func(t *testing.T) {
			t.Parallel()
			var s testsuite.WorkflowTestSuite
			env := s.NewTestWorkflowEnvironment()
			env.RegisterDelayedCallback(func() { env.SignalWorkflow("approve", "ann") }, time.Duration(i+1)*time.Hour)
			env.ExecuteWorkflow(WaitForApproval)
			var waited time.Duration
			require.NoError(t, env.GetWorkflowResult(&waited))
			require.Equal(t, time.Duration(i+1)*time.Hour, waited.Round(time.Second))
		})
	}
}

func TestNoGoroutineOutlivesATest(t *testing.T) {
	// Not parallel: it counts the process's goroutines.
	settle := func(limit int) int {
		n := runtime.NumGoroutine()
		for deadline := time.Now().Add(2 * time.Second); n > limit && time.Now().Before(deadline); n = runtime.NumGoroutine() {
			time.Sleep(10 * time.Millisecond)
		}
		return n
	}
	before := settle(0)
	for range 20 {
		var s testsuite.WorkflowTestSuite
		env := s.NewTestWorkflowEnvironment()
		env.OnActivity(Charge, mock.Anything, mock.Anything, mock.Anything).After(50*time.Second).Return("ok", nil)
		env.RegisterDelayedCallback(func() { _, _ = env.QueryWorkflow("__stack_trace") }, 30*time.Second)
		env.ExecuteWorkflow(ChargeWithRetries, "4242")
		require.NoError(t, env.GetWorkflowError())
		_, err := env.QueryWorkflow("__stack_trace") // a worker runs again to answer, and stops
		require.NoError(t, err)
	}
	if after := settle(before); after > before {
		buf := make([]byte, 1<<20)
		t.Fatalf("%d goroutines before, %d after 20 tests:\n%s", before, after, buf[:runtime.Stack(buf, true)])
	}
}

func (s *EnvSuite) TestAMockSlowerThanItsTimeoutTimesOut() {
	// Each attempt's mock takes 2 minutes of a 1-minute start-to-close
	// timeout: five attempts time out, on the virtual clock.
	s.env.OnActivity(Charge, mock.Anything, mock.Anything, mock.Anything).After(2*time.Minute).Return("late", nil)
	wall := time.Now()
	s.env.ExecuteWorkflow(ChargeWithRetries, "4242")
	var timeout *temporal.TimeoutError
	s.Require().True(errors.As(s.env.GetWorkflowError(), &timeout), "got %v", s.env.GetWorkflowError())
	s.Equal(enumspb.TIMEOUT_TYPE_START_TO_CLOSE, timeout.TimeoutType())
	s.env.AssertNumberOfCalls(s.T(), "Charge", 5)
	s.Less(time.Since(wall), 5*time.Second)
}
