package testsuite_test

import (
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

func Shipping(ctx workflow.Context, order string) (string, error) {
	if err := workflow.Sleep(ctx, time.Hour); err != nil {
		return "", err
	}
	return "shipped " + order, nil
}

// Fulfil ships an order in a child workflow, after telling it its carrier.
func Fulfil(ctx workflow.Context, order string) (string, error) {
	ctx = workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: "ship-" + order})
	var shipped string
	err := workflow.ExecuteChildWorkflow(ctx, Shipping, order).Get(ctx, &shipped)
	return shipped, err
}

func (s *EnvSuite) TestAChildWorkflowRunsForReal() {
	s.env.RegisterWorkflow(Shipping)
	var started, completed []string
	s.env.SetOnChildWorkflowStartedListener(func(info *workflow.Info, _ workflow.Context, _ converter.EncodedValues) {
		started = append(started, info.WorkflowExecution.ID)
	})
	s.env.SetOnChildWorkflowCompletedListener(func(info *workflow.Info, result converter.EncodedValue, err error) {
		completed = append(completed, info.WorkflowExecution.ID)
	})
	s.env.ExecuteWorkflow(Fulfil, "o-1")
	var got string
	s.Require().NoError(s.env.GetWorkflowResult(&got))
	s.Equal("shipped o-1", got)
	s.Equal([]string{"ship-o-1"}, started)
	s.Equal([]string{"ship-o-1"}, completed)
	var child string
	s.NoError(s.env.GetWorkflowResultByID("ship-o-1", &child))
	s.Equal("shipped o-1", child)

	h, err := s.env.GetHistory()
	s.Require().NoError(err)
	replayer := worker.NewWorkflowReplayer()
	replayer.RegisterWorkflow(Fulfil)
	s.NoError(replayer.ReplayWorkflowHistory(nil, h))
}

func (s *EnvSuite) TestAChildWorkflowMock() {
	s.env.OnWorkflow(Shipping, mock.Anything, "o-2").After(30*time.Minute).Return("mock shipped", nil).Once()
	s.env.ExecuteWorkflow(Fulfil, "o-2")
	var got string
	s.Require().NoError(s.env.GetWorkflowResult(&got))
	s.Equal("mock shipped", got)
	s.env.AssertWorkflowNumberOfCalls(s.T(), "Shipping", 1)
}

func (s *EnvSuite) TestAChildWorkflowMockFailing() {
	s.env.OnWorkflow(Shipping, mock.Anything, mock.Anything).Return("", temporal.NewApplicationError("no truck", "NoTruck"))
	s.env.ExecuteWorkflow(Fulfil, "o-3")
	err := s.env.GetWorkflowError()
	var childErr *temporal.ChildWorkflowExecutionError
	s.Require().True(errors.As(err, &childErr), "got %v", err)
	var app *temporal.ApplicationError
	s.Require().True(errors.As(err, &app))
	s.Equal("NoTruck", app.Type())
}

// FulfilOnce reports whether its child could not start.
func FulfilOnce(ctx workflow.Context) (bool, error) {
	_, err := Fulfil(ctx, "o-4")
	var already *temporal.ChildWorkflowExecutionAlreadyStartedError
	return errors.As(err, &already), nil
}

func (s *EnvSuite) TestAChildWorkflowThatCannotStart() {
	s.env.OnWorkflow(Shipping, mock.Anything, mock.Anything).Return("", testsuite.ErrMockStartChildWorkflowFailed)
	s.env.ExecuteWorkflow(FulfilOnce)
	var alreadyStarted bool
	s.NoError(s.env.GetWorkflowResult(&alreadyStarted))
	s.True(alreadyStarted, "the workflow sees a ChildWorkflowExecutionAlreadyStartedError")
}

// Listener takes "item" signals until it is canceled.
func Listener(ctx workflow.Context) ([]string, error) {
	var items []string
	ch := workflow.GetSignalChannel(ctx, "item")
	for {
		sel := workflow.NewSelector(ctx)
		sel.AddReceive(ch, func(c workflow.ReceiveChannel, _ bool) {
			var item string
			c.Receive(ctx, &item)
			items = append(items, item)
		})
		sel.AddReceive(ctx.Done(), func(workflow.ReceiveChannel, bool) {})
		sel.Select(ctx)
		if ctx.Err() != nil {
			return items, ctx.Err()
		}
	}
}

// Supervisor starts a child, signals it, and cancels it if it runs late.
func Supervisor(ctx workflow.Context) (string, error) {
	cctx, cancel := workflow.WithCancel(ctx)
	child := workflow.ExecuteChildWorkflow(cctx, Listener)
	if err := child.SignalChildWorkflow(ctx, "item", "first").Get(ctx, nil); err != nil {
		return "", err
	}
	_ = workflow.Sleep(ctx, time.Hour)
	cancel()
	err := child.Get(ctx, nil)
	var canceled *temporal.CanceledError
	if errors.As(err, &canceled) {
		return "canceled late child", nil
	}
	return "", err
}

func (s *EnvSuite) TestSignalAndCancelAChild() {
	s.env.RegisterWorkflow(Listener)
	var canceled []string
	s.env.SetOnChildWorkflowCanceledListener(func(info *workflow.Info) { canceled = append(canceled, info.WorkflowType.Name) })
	s.env.ExecuteWorkflow(Supervisor)
	var got string
	s.Require().NoError(s.env.GetWorkflowResult(&got))
	s.Equal("canceled late child", got)
	s.Equal([]string{"Listener"}, canceled)
}

// Abandons leaves a child behind when it completes.
func Abandons(ctx workflow.Context, policy enumspb.ParentClosePolicy) (string, error) {
	ctx = workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: "left-behind", ParentClosePolicy: policy})
	f := workflow.ExecuteChildWorkflow(ctx, Shipping, "abandoned")
	var exec workflow.Execution
	err := f.GetChildWorkflowExecution().Get(ctx, &exec)
	return exec.ID, err
}

func (s *EnvSuite) TestParentClosePolicies() {
	for policy, want := range map[enumspb.ParentClosePolicy]func(err error) bool{
		enumspb.PARENT_CLOSE_POLICY_ABANDON: func(err error) bool { return err == nil },
		enumspb.PARENT_CLOSE_POLICY_TERMINATE: func(err error) bool {
			var t *temporal.TerminatedError
			return errors.As(err, &t)
		},
		enumspb.PARENT_CLOSE_POLICY_REQUEST_CANCEL: func(err error) bool {
			var c *temporal.CanceledError
			return errors.As(err, &c)
		},
	} {
		env := s.NewTestWorkflowEnvironment()
		env.RegisterWorkflow(Shipping)
		env.ExecuteWorkflow(Abandons, policy)
		s.NoError(env.GetWorkflowError())
		err := env.GetWorkflowErrorByID("left-behind")
		s.True(want(err), "%v: child ended with %v", policy, err)
	}
}

// Notifies signals and cancels other workflows.
func Notifies(ctx workflow.Context) (string, error) {
	sigErr := workflow.SignalExternalWorkflow(ctx, "billing", "", "paid", 10).Get(ctx, nil)
	cancelErr := workflow.RequestCancelExternalWorkflow(ctx, "reminders", "").Get(ctx, nil)
	var unknown *temporal.UnknownExternalWorkflowExecutionError
	return sprint(sigErr, errors.As(cancelErr, &unknown)), nil
}

func (s *EnvSuite) TestSignalsToOtherWorkflows() {
	// The signal is mocked; the cancel request goes to the server, which
	// knows no such workflow.
	s.env.OnSignalExternalWorkflow(mock.Anything, "billing", "", "paid", 10).Return(nil).Once()
	s.env.ExecuteWorkflow(Notifies)
	var got string
	s.Require().NoError(s.env.GetWorkflowResult(&got))
	s.Equal("<nil>|true", got)

	h, err := s.env.GetHistory()
	s.Require().NoError(err)
	s.Empty(eventsOf(h.GetEvents(), enumspb.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED), "a mocked signal is not sent")
	s.Len(eventsOf(h.GetEvents(), enumspb.EVENT_TYPE_REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION_FAILED), 1)
}

// FanOut starts n children and waits for them all.
func FanOut(ctx workflow.Context, n int) (int, error) {
	futures := make([]workflow.ChildWorkflowFuture, n)
	for i := range futures {
		futures[i] = workflow.ExecuteChildWorkflow(ctx, Shipping, "bulk")
	}
	for _, f := range futures {
		if err := f.Get(ctx, nil); err != nil {
			return 0, err
		}
	}
	return n, nil
}

func TestHundredsOfChildrenLeaveNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(Shipping)
	env.ExecuteWorkflow(FanOut, 300)
	var n int
	require.NoError(t, env.GetWorkflowResult(&n))
	require.Equal(t, 300, n)
	after := runtime.NumGoroutine()
	for deadline := time.Now().Add(2 * time.Second); after > before && time.Now().Before(deadline); after = runtime.NumGoroutine() {
		time.Sleep(10 * time.Millisecond)
	}
	if after > before {
		buf := make([]byte, 1<<20)
		t.Fatalf("%d goroutines before, %d after:\n%s", before, after, buf[:runtime.Stack(buf, true)])
	}
}
