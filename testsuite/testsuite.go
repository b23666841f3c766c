package testsuite

import "github.com/durable-go/sdk/internal"

type (
	// WorkflowTestSuite makes test environments; embed it in a testify
	// suite:
	//
	//	type GreetingSuite struct {
	//		suite.Suite
	//		testsuite.WorkflowTestSuite
	//	}
	//
	//	func (s *GreetingSuite) TestGreeting() {
	//		env := s.NewTestWorkflowEnvironment()
	//		env.OnActivity(Greet, mock.Anything, "Temporal").Return("Hello, Temporal!", nil)
	//		env.ExecuteWorkflow(Greeting, "Temporal")
	//		s.True(env.IsWorkflowCompleted())
	//		var greeting string
	//		s.NoError(env.GetWorkflowResult(&greeting))
	//	}
	//
	// Beyond go.temporal.io/sdk, SetReplayCheck(true) makes its
	// environments replay each run once it ended (see the package doc).
	WorkflowTestSuite = internal.WorkflowTestSuite

	// TestWorkflowEnvironment runs one workflow on this SDK's own worker
	// runtime and engine, against an in-memory server that writes the
	// history a real server would and whose clock skips ahead whenever the
	// workflow waits: a workflow that sleeps for days finishes in
	// milliseconds. Activities run for real or mocked (OnActivity);
	// signals, cancellations and queries arrive at chosen moments
	// (RegisterDelayedCallback). GetHistory returns the run's history,
	// which worker.NewWorkflowReplayer replays.
	TestWorkflowEnvironment = internal.TestWorkflowEnvironment

	// TestActivityEnvironment runs activities on their own, through the
	// worker's activity executor.
	TestActivityEnvironment = internal.TestActivityEnvironment

	// MockCallWrapper is an expectation on a mocked activity or workflow
	// call: what it returns, how often, after how long.
	MockCallWrapper = internal.MockCallWrapper

	// TestUpdateCallback hears what becomes of an update sent with
	// TestWorkflowEnvironment.UpdateWorkflow: OnAccept then OnComplete
	// (with the handler's own return values), or OnReject. Unset fields do
	// nothing.
	TestUpdateCallback = internal.TestUpdateCallback
)

// ErrMockStartChildWorkflowFailed, returned by a child workflow's mock,
// makes the child fail to start, as if its workflow ID were taken.
var ErrMockStartChildWorkflowFailed = internal.ErrMockStartChildWorkflowFailed
