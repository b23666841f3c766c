package main

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/suite"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/typed"
	"github.com/durable-go/sdk/typed/typedtest"
	"github.com/durable-go/sdk/workflow"
)

// The tests run on the test environment, without a server, with the typed
// test calls of package typedtest.
type TypedSuite struct {
	suite.Suite
	testsuite.WorkflowTestSuite
}

func TestTyped(t *testing.T) { suite.Run(t, new(TypedSuite)) }

func (s *TypedSuite) newEnv() *testsuite.TestWorkflowEnvironment {
	env := s.NewTestWorkflowEnvironment()
	// One start time for every run, so that two runs can write the same
	// history.
	env.SetStartTime(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	env.RegisterWorkflow(Shipment)
	for _, activity := range []any{Greet, ReserveStock, Charge, BookCourier, SendReceipt} {
		env.RegisterActivity(activity)
	}
	return env
}

func (s *TypedSuite) TestHelloWithTheRealActivity() {
	greeting, err := typedtest.ExecuteWorkflow(s.newEnv(), Greeting, "Temporal")
	s.NoError(err)
	s.Equal("Hello, Temporal!", greeting)
}

func (s *TypedSuite) TestHelloWithAMockedActivity() {
	env := s.newEnv()
	typedtest.OnActivity(env, Greet, "Temporal").Return("Hi!", nil).Once()
	greeting, err := typedtest.ExecuteWorkflow(env, Greeting, "Temporal")
	s.NoError(err)
	s.Equal("Hi!", greeting)
	env.AssertExpectations(s.T())
}

// orderScript is what the customer does, at the same moments in every
// test: three items, one of them without a SKU (rejected), a look at the
// status, and the payment.
type orderScript struct {
	mug, noSKU, tea *typedtest.UpdateResult[int]
	status          Status
	statusErr       error
}

func (o *orderScript) schedule(env *testsuite.TestWorkflowEnvironment) {
	env.RegisterDelayedCallback(func() { o.mug = typedtest.UpdateWorkflow(env, AddItem, "add-1", Item{SKU: "mug", Cents: 1200}) }, time.Minute)
	env.RegisterDelayedCallback(func() { o.noSKU = typedtest.UpdateWorkflow(env, AddItem, "add-2", Item{Cents: 100}) }, 2*time.Minute)
	env.RegisterDelayedCallback(func() { o.tea = typedtest.UpdateWorkflow(env, AddItem, "add-3", Item{SKU: "tea", Cents: 850}) }, 3*time.Minute)
	env.RegisterDelayedCallback(func() { o.status, o.statusErr = typedtest.QueryWorkflow0(env, OrderStatus) }, 4*time.Minute)
	env.RegisterDelayedCallback(func() { typedtest.SignalWorkflow(env, Pay, Payment{Card: "4242424242424242"}) }, 5*time.Minute)
}

func (s *TypedSuite) TestAnOrderFromFirstItemToReceipt() {
	env := s.newEnv()
	var script orderScript
	script.schedule(env)
	receipt, err := typedtest.ExecuteWorkflow(env, OrderWorkflow, "A-1001")
	s.NoError(err)
	s.Equal(Receipt{OrderID: "A-1001", ChargeID: "ch_4242_2050", Cents: 2050, Tracking: "TRK-A-1001-2"}, receipt)

	total, err := script.mug.Get()
	s.NoError(err)
	s.Equal(1200, total)
	total, err = script.tea.Get()
	s.NoError(err)
	s.Equal(2050, total)
	_, err = script.noSKU.Get()
	s.ErrorContains(err, "needs a SKU and a price")
	s.False(script.noSKU.Accepted())
	s.NoError(script.statusErr)
	s.Equal(Status{Items: 2, TotalCents: 2050}, script.status)
}

func (s *TypedSuite) TestAFailedChargeFailsTheOrder() {
	env := s.newEnv()
	var script orderScript
	script.schedule(env)
	typedtest.OnActivity2(env, Charge, mock.Anything, 2050).Return("", temporal.NewNonRetryableApplicationError("card declined", "Declined", nil))
	typedtest.OnActivityNoResult(env, SendReceipt, mock.Anything).Return(typed.None{}, nil).Never()
	_, err := typedtest.ExecuteWorkflow(env, OrderWorkflow, "A-1002")
	var appErr *temporal.ApplicationError
	s.True(errors.As(err, &appErr), "want the charge's ApplicationError, got %v", err)
	s.Equal("Declined", appErr.Type())
	env.AssertExpectations(s.T())
}

// The typed workflows write the history their untyped forms write: the
// same commands, the same payloads. Moving a workflow to package typed
// changes nothing a worker, a replayer or the server sees.
func (s *TypedSuite) TestTheTypedFormsWriteTheUntypedFormsHistories() {
	for _, c := range []struct {
		name           string
		typed, untyped any
		arg            string
		script         bool
	}{
		{"Greeting", Greeting, greetingUntyped, "Temporal", false},
		{"OrderWorkflow", OrderWorkflow, orderWorkflowUntyped, "A-1003", true},
	} {
		history := func(wf any) (*historypb.History, string) {
			env := s.newEnv()
			env.RegisterWorkflowWithOptions(wf, workflow.RegisterOptions{Name: c.name})
			if c.script {
				new(orderScript).schedule(env)
			}
			env.ExecuteWorkflow(c.name, c.arg)
			s.NoError(env.GetWorkflowError())
			h, err := env.GetHistory()
			s.Require().NoError(err)
			var types []string
			for _, e := range h.GetEvents() {
				types = append(types, e.GetEventType().String())
			}
			return h, strings.Join(types, " ")
		}
		typedHistory, typedEvents := history(c.typed)
		untypedHistory, _ := history(c.untyped)
		s.NoError(typedtest.CompareHistories(untypedHistory, typedHistory), c.name)
		s.Contains(typedEvents, "ActivityTaskCompleted", c.name)
		if c.script {
			s.Contains(typedEvents, "WorkflowExecutionUpdateCompleted")
			s.Contains(typedEvents, "WorkflowExecutionSignaled")
			s.Contains(typedEvents, "ChildWorkflowExecutionCompleted")
		}
	}
}
