package testsuite

import "github.com/durable-go/sdk/internal/testenv"

// WorkflowTestSuite makes test environments; embed it in a testify suite:
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
// Its methods: NewTestWorkflowEnvironment returns an environment to run
// one workflow in, NewTestActivityEnvironment one to run activities in.
// The setters apply to the environments made after them: SetLogger (and
// GetLogger), SetMetricsHandler, SetContextPropagators, SetHeader (the
// header workflows and activities start with) and
// SetDisableRegistrationAliasing (see worker.Options). Beyond
// go.temporal.io/sdk, SetReplayCheck(true) makes its environments replay
// each run once it ended (see the package doc).
type WorkflowTestSuite = testenv.WorkflowTestSuite

// TestWorkflowEnvironment runs one workflow on this SDK's own worker
// runtime and engine, against an in-memory server that writes the
// history a real server would and whose clock skips ahead whenever the
// workflow waits: a workflow that sleeps for days finishes in
// milliseconds. Make one with WorkflowTestSuite.NewTestWorkflowEnvironment.
//
// Registering and running:
//
//   - RegisterWorkflow, RegisterWorkflowWithOptions, RegisterActivity,
//     RegisterActivityWithOptions, RegisterDynamicWorkflow and
//     RegisterDynamicActivity register what the workflow runs, as on a
//     worker (a workflow given to ExecuteWorkflow is registered for you).
//   - ExecuteWorkflow(workflow, args...) runs the workflow until it
//     completes, fails, times out, continues as new (GetWorkflowError is
//     then the *ContinueAsNewError, and no next run starts), or can make
//     no more progress; then IsWorkflowCompleted, GetWorkflowResult
//     and GetWorkflowError say how it ended (GetWorkflowResultByID and
//     GetWorkflowErrorByID for its children), and GetHistory returns the
//     history it wrote, which worker.NewWorkflowReplayer replays.
//   - RegisterDelayedCallback(fn, delay) runs fn at that point of the
//     workflow's clock, to send signals, updates, queries or cancellations
//     at chosen moments.
//   - SignalWorkflow, SignalWorkflowByID and
//     SignalWorkflowSkippingWorkflowTask send signals; QueryWorkflow and
//     QueryWorkflowByID query; UpdateWorkflow, UpdateWorkflowByID and
//     UpdateWorkflowNoRejection send updates (see TestUpdateCallback);
//     CancelWorkflow and CancelWorkflowByID ask to cancel; CompleteActivity
//     completes an activity that returned activity.ErrResultPending.
//   - Now returns the virtual clock's time; SetStartTime sets it.
//   - RegisterNexusService registers a Nexus service whose operations the
//     workflow calls: whatever endpoint the workflow names, the operation
//     runs on the environment's worker, through the handler code a worker
//     runs, and the history records it as a server would. A workflow-run
//     operation's workflow (register it) runs in the environment and its
//     end completes the operation. temporalnexus.GetClient starts and
//     cancels workflows there, and does nothing else.
//
// Mocks (testify), which replace what the workflow calls at the point a
// server would dispatch it:
//
//   - OnActivity(activity, args...) and OnWorkflow(workflow, args...)
//     expect a call of an activity or child workflow and say what it
//     returns (MockCallWrapper); OnSignalExternalWorkflow,
//     OnRequestCancelExternalWorkflow, OnGetVersion, OnSideEffect,
//     OnMutableSideEffect, OnUpsertSearchAttributes,
//     OnUpsertTypedSearchAttributes and OnUpsertMemo do the same for those
//     calls. InOrderMockCalls makes expectations match only in order.
//   - OnNexusOperation(service, operation, input, options) expects a call
//     of a Nexus operation and says what its handler returns (a
//     synchronous result or an asynchronous start, and an error);
//     RegisterNexusAsyncOperationCompletion completes a mocked
//     asynchronous operation after a delay on the workflow's clock.
//   - AssertExpectations checks that every expectation was met;
//     AssertCalled, AssertNotCalled, AssertNumberOfCalls and their
//     Activity and Workflow forms (AssertActivityCalled,
//     AssertActivityNotCalled, AssertActivityNumberOfCalls,
//     AssertWorkflowCalled, AssertWorkflowNotCalled,
//     AssertWorkflowNumberOfCalls) check calls; AssertNexusOperationCalled,
//     AssertNexusOperationNotCalled and AssertNexusOperationNumberOfCalls
//     check the calls of mocked Nexus operations.
//
// Listeners, called as things happen: SetOnActivityStartedListener,
// SetOnActivityCompletedListener, SetOnActivityCanceledListener,
// SetOnActivityHeartbeatListener, SetOnLocalActivityStartedListener,
// SetOnLocalActivityCompletedListener, SetOnLocalActivityCanceledListener,
// SetOnChildWorkflowStartedListener, SetOnChildWorkflowCompletedListener,
// SetOnChildWorkflowCanceledListener, SetOnTimerScheduledListener,
// SetOnTimerFiredListener, SetOnTimerCanceledListener,
// SetOnNexusOperationStartedListener, SetOnNexusOperationCompletedListener
// and SetOnNexusOperationCanceledListener.
//
// Settings, before ExecuteWorkflow:
//
//   - SetWorkerOptions, SetStartWorkflowOptions, SetDataConverter,
//     SetFailureConverter, SetContextPropagators, SetHeader, SetIdentity,
//     SetWorkerStopChannel and SetActivityTaskQueue: the worker's and the
//     start's options.
//   - SetTestTimeout bounds the test in wall time; SetWorkflowRunTimeout
//     bounds the run on the virtual clock; SetActivityTimeoutGracePeriod
//     adds time to activities' start-to-close timeouts, so that an
//     activity can react to its context's deadline before it times out.
//   - SetDetachedChildWait: whether the test waits for children that
//     outlive the workflow (true by default).
//   - What the workflow reads of its past and of the server:
//     SetLastCompletionResult, SetLastError, SetMemoOnStart,
//     SetSearchAttributesOnStart, SetTypedSearchAttributesOnStart,
//     SetContinuedExecutionRunID, SetContinueAsNewSuggested,
//     SetContinueAsNewSuggestedReasons, SetCurrentHistoryLength,
//     SetCurrentHistorySize and SetTargetWorkerDeploymentVersionChanged.
//   - SetReplayCheck(true) replays each run once it ended and reports a run
//     that does not replay as the workflow's error (see the package doc).
type TestWorkflowEnvironment = testenv.TestWorkflowEnvironment

// TestActivityEnvironment runs activities on their own, through the
// worker's activity executor, without a workflow. Make one with
// WorkflowTestSuite.NewTestActivityEnvironment.
//
//   - RegisterActivity, RegisterActivityWithOptions and
//     RegisterDynamicActivity register activities (ExecuteActivity
//     registers a function it is given).
//   - ExecuteActivity(activity, args...) runs an activity and returns its
//     result, or its error as a workflow would see it;
//     ExecuteLocalActivity runs it as a local activity.
//   - SetHeartbeatDetails sets what activity.GetHeartbeatDetails returns,
//     as after an earlier attempt; SetOnActivityHeartbeatListener hears
//     every heartbeat.
//   - SetWorkerOptions, SetDataConverter, SetFailureConverter,
//     SetIdentity, SetContextPropagators, SetHeader and
//     SetWorkerStopChannel set what the activity runs with; SetTestTimeout
//     bounds, in wall time, how long one activity may run.
//   - SetExecuteActivitiesInWorkflow(true) runs each activity from a
//     workflow, so that it sees a workflow's identity and the server's
//     timeouts and retries apply.
type TestActivityEnvironment = testenv.TestActivityEnvironment

// MockCallWrapper is an expectation on a mocked call (OnActivity,
// OnWorkflow, ...): what it returns, how often, after how long. Its
// methods return it, so that they chain.
//
//   - Return(values...) sets the call's results, or a function of the
//     mocked function's signature that computes them.
//   - Once, Twice, Times(n) and Never set how often it matches; Maybe
//     makes it optional for AssertExpectations.
//   - After(d) makes the call take d on the workflow's clock (skipped over
//     when nothing else runs); AfterFn computes d at each call.
//   - Run(fn) runs fn with the call's arguments before it returns; Panic
//     makes the call panic.
//   - NotBefore(calls...) matches only after the given expectations were
//     met.
//
// For example:
//
//	env.OnActivity(Charge, mock.Anything, order).Return(receipt, nil).Once()
type MockCallWrapper = testenv.MockCallWrapper

// TestUpdateCallback hears what becomes of an update sent with
// TestWorkflowEnvironment.UpdateWorkflow: OnAccept once the validator
// passed, then OnComplete with the handler's result and error; or
// OnReject with the validator's error. Unset fields do nothing. Its
// Accept, Reject and Complete methods call them.
type TestUpdateCallback = testenv.TestUpdateCallback

// ErrMockStartChildWorkflowFailed, returned by a child workflow's mock,
// makes the child fail to start, as if its workflow ID were taken.
var ErrMockStartChildWorkflowFailed = testenv.ErrMockStartChildWorkflowFailed
