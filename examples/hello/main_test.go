package main

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/suite"

	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/testsuite"
)

// GreetingSuite unit-tests the workflow without a server: the test
// environment runs it on the SDK's engine against an in-memory server.
type GreetingSuite struct {
	suite.Suite
	testsuite.WorkflowTestSuite
}

func TestGreeting(t *testing.T) { suite.Run(t, new(GreetingSuite)) }

func (s *GreetingSuite) TestWithTheRealActivity() {
	env := s.NewTestWorkflowEnvironment()
	env.RegisterActivity(Greet)
	env.ExecuteWorkflow(Greeting, "Temporal")
	s.True(env.IsWorkflowCompleted())
	var greeting string
	s.NoError(env.GetWorkflowResult(&greeting))
	s.Equal("Hello, Temporal!", greeting)
}

func (s *GreetingSuite) TestWithAMockedActivity() {
	env := s.NewTestWorkflowEnvironment()
	env.OnActivity(Greet, mock.Anything, "Temporal").Return("Hi!", nil).Once()
	env.ExecuteWorkflow(Greeting, "Temporal")
	var greeting string
	s.NoError(env.GetWorkflowResult(&greeting))
	s.Equal("Hi!", greeting)
	env.AssertExpectations(s.T())
}

func (s *GreetingSuite) TestAFailingActivityFailsTheWorkflow() {
	env := s.NewTestWorkflowEnvironment()
	// A non-retryable failure ends the activity at once; a retryable one
	// would be retried by the default retry policy, on the virtual clock.
	env.OnActivity(Greet, mock.Anything, mock.Anything).Return("", temporal.NewNonRetryableApplicationError("no greetings today", "Closed", nil))
	env.ExecuteWorkflow(Greeting, "Temporal")
	var appErr *temporal.ApplicationError
	s.True(errors.As(env.GetWorkflowError(), &appErr))
	s.Equal("Closed", appErr.Type())
}

// TestTheSampleRunsOnTheEmbeddedServer runs the sample as
// scripts/run-sample.sh does on a machine with no server: a real worker
// and client, over gRPC, against the embedded server.
func TestTheSampleRunsOnTheEmbeddedServer(t *testing.T) {
	if err := run("", "", true); err != nil {
		t.Fatal(err)
	}
}
