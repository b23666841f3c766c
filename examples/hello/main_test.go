package main

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/suite"

	"github.com/durable-go/sdk/internal/historycheck"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/temporaltest"
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
	var out strings.Builder
	if err := run("", "", true, &out); err != nil {
		t.Fatal(err)
	}
	want := regexp.MustCompile(`^embedded server running at 127\.0\.0\.1:[0-9]+ \(in memory[^\n]*\)\n` +
		`workflow result: Hello, Temporal!\n$`)
	if !want.MatchString(out.String()) {
		t.Errorf("the sample printed\n%s\nwant it to match\n%s", out.String(), want)
	}
}

// TestTheSampleWritesTheDevServersHistory runs the sample as it runs with
// -address, against an embedded server the test starts: the workflow's
// history holds the events, in the order, it holds on a dev server. One
// activity, with nothing from outside: the events come in one order.
func TestTheSampleWritesTheDevServersHistory(t *testing.T) {
	srv, err := temporaltest.NewServer(temporaltest.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	hostPort := historycheck.Server(t, srv.HostPort())
	var out strings.Builder
	if err := run(hostPort, "", false, &out); err != nil {
		t.Fatal(err)
	}
	if want := "using the server at " + hostPort + "\nworkflow result: Hello, Temporal!\n"; out.String() != want {
		t.Errorf("the sample printed\n%s\nwant\n%s", out.String(), want)
	}
	historycheck.Check(t, historycheck.Dial(t, hostPort), "testdata/histories.json", historycheck.Exact, "hello-workflow")
}
