package compat

import (
	"context"
	"errors"
	"fmt"
	"net"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	officialactivity "go.temporal.io/sdk/activity"
	officialclient "go.temporal.io/sdk/client"
	officialconverter "go.temporal.io/sdk/converter"
	officialtemporal "go.temporal.io/sdk/temporal"
	officialtestsuite "go.temporal.io/sdk/testsuite"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/stats"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// The tests named TestDifference... keep docs/migration.md true: each
// runs one behaviour the page lists as different on purpose on both SDKs
// and checks that they still differ as the page says. A failure means the
// page is out of date: either this SDK now behaves as go.temporal.io/sdk
// (remove the difference from the page and the test) or it changed in
// another way (say so on the page).
//
//	cd compat && go test -race -run TestDifference -v .

// differs reports a broken difference: what this SDK did (ours) and what
// go.temporal.io/sdk did (theirs), against what the page says of each.
func differs(t *testing.T, what string, ours, wantOurs, theirs, wantTheirs bool, detail string) {
	t.Helper()
	if ours != wantOurs {
		t.Errorf("%s: this SDK no longer behaves as docs/migration.md says (%s); update the page", what, detail)
	}
	if theirs != wantTheirs {
		t.Errorf("%s: go.temporal.io/sdk no longer behaves as docs/migration.md says (%s); update the page", what, detail)
	}
}

// Dial checks that the namespace exists; go.temporal.io/sdk's Dial only
// checks that the server answers, and the first call in the namespace
// fails instead.
func TestDifferenceDialChecksTheNamespace(t *testing.T) {
	hp := testharness.HostPort(t)
	const missing = "no-such-namespace-for-the-migration-page"
	ours, ourErr := client.Dial(client.Options{HostPort: hp, Namespace: missing})
	if ourErr == nil {
		ours.Close()
	}
	theirs, theirErr := officialclient.Dial(officialclient.Options{HostPort: hp, Namespace: missing, Logger: quiet{}})
	if theirErr == nil {
		theirs.Close()
	}
	differs(t, "Dial with a namespace that does not exist",
		ourErr != nil && strings.Contains(ourErr.Error(), missing), true,
		theirErr == nil, true,
		fmt.Sprintf("ours: %v; go.temporal.io/sdk: %v", ourErr, theirErr))
}

// failingActivity is the mocked activity of the test-environment
// differences.
func failingActivity(ctx context.Context) error { return nil }

// The test environment's history is the real one: what the workflow reads
// from it (an ActivityError's event IDs and retry state, the activity's
// ID, which is its scheduled event's) is what a worker on a server reads;
// go.temporal.io/sdk's test environment says 0, 0, UNSPECIFIED and "1" (a
// counter of its own), and has no GetHistory.
func TestDifferenceTheTestEnvironmentWritesTheRealHistory(t *testing.T) {
	type seen struct {
		Scheduled, Started int64
		State              enumspb.RetryState
		ActivityID         string
	}
	var here, there seen

	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterActivity(failingActivity)
	env.OnActivity(failingActivity, mock.Anything).Return(temporal.NewNonRetryableApplicationError("no", "No", nil))
	env.ExecuteWorkflow(func(ctx workflow.Context) error {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
		err := workflow.ExecuteActivity(ctx, failingActivity).Get(ctx, nil)
		var activityErr *temporal.ActivityError
		if errors.As(err, &activityErr) {
			here = seen{activityErr.ScheduledEventID(), activityErr.StartedEventID(), activityErr.RetryState(), activityErr.ActivityID()}
		}
		return nil
	})
	history, err := env.GetHistory()
	if err != nil {
		t.Fatal(err)
	}

	var os officialtestsuite.WorkflowTestSuite
	oenv := os.NewTestWorkflowEnvironment()
	oenv.RegisterActivity(failingActivity)
	oenv.OnActivity(failingActivity, mock.Anything).Return(officialtemporal.NewNonRetryableApplicationError("no", "No", nil))
	oenv.ExecuteWorkflow(func(ctx officialworkflow.Context) error {
		ctx = officialworkflow.WithActivityOptions(ctx, officialworkflow.ActivityOptions{StartToCloseTimeout: time.Minute})
		err := officialworkflow.ExecuteActivity(ctx, failingActivity).Get(ctx, nil)
		var activityErr *officialtemporal.ActivityError
		if errors.As(err, &activityErr) {
			there = seen{activityErr.ScheduledEventID(), activityErr.StartedEventID(), activityErr.RetryState(), activityErr.ActivityID()}
		}
		return nil
	})
	_, officialHasHistory := reflect.TypeOf(oenv).MethodByName("GetHistory")

	scheduled := int64(0)
	for _, e := range history.GetEvents() {
		if e.GetEventType() == enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED {
			scheduled = e.GetEventId()
		}
	}
	differs(t, "an activity's failure in the test environment",
		here.Scheduled == scheduled && scheduled != 0 && here.State == enumspb.RETRY_STATE_NON_RETRYABLE_FAILURE &&
			here.ActivityID == fmt.Sprint(scheduled), true,
		there == seen{ActivityID: "1"} && !officialHasHistory, true,
		fmt.Sprintf("ours: %+v, scheduled as event %d of GetHistory; go.temporal.io/sdk: %+v, GetHistory exists: %v", here, scheduled, there, officialHasHistory))
}

// A workflow that decides differently when it runs again: the first run
// schedules an activity, any later run starts a timer instead. A worker
// replaying it (after a restart, or once the run left its cache) fails.
var replayCheckRuns atomic.Int32

func decidesDifferentlyOnReplay(ctx workflow.Context) error {
	if replayCheckRuns.Add(1) == 1 { //workflowcheck:ignore deciding differently on replay is what the test needs
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
		return workflow.ExecuteActivity(ctx, failingActivity).Get(ctx, nil)
	}
	return workflow.Sleep(ctx, time.Second)
}

var officialReplayCheckRuns atomic.Int32

func decidesDifferentlyOnReplayOfficial(ctx officialworkflow.Context) error {
	if officialReplayCheckRuns.Add(1) == 1 { //workflowcheck:ignore deciding differently on replay is what the test needs
		ctx = officialworkflow.WithActivityOptions(ctx, officialworkflow.ActivityOptions{StartToCloseTimeout: time.Minute})
		return officialworkflow.ExecuteActivity(ctx, failingActivity).Get(ctx, nil)
	}
	return officialworkflow.Sleep(ctx, time.Second)
}

// With the replay check on, the test environment replays each run once it
// ended and reports a run that does not replay; go.temporal.io/sdk's test
// environment runs the workflow once and has no such check.
func TestDifferenceTheTestEnvironmentCanReplayEachRun(t *testing.T) {
	replayCheckRuns.Store(0)
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetReplayCheck(true)
	env.RegisterActivity(failingActivity)
	env.ExecuteWorkflow(decidesDifferentlyOnReplay)
	var mismatch *worker.NonDeterminismError
	caught := errors.As(env.GetWorkflowError(), &mismatch)

	officialReplayCheckRuns.Store(0)
	var os officialtestsuite.WorkflowTestSuite
	oenv := os.NewTestWorkflowEnvironment()
	oenv.RegisterActivity(failingActivity)
	oenv.ExecuteWorkflow(decidesDifferentlyOnReplayOfficial)
	_, hasCheck := reflect.TypeOf(oenv).MethodByName("SetReplayCheck")

	differs(t, "a workflow that does not replay, in the test environment",
		caught, true,
		oenv.GetWorkflowError() == nil && !hasCheck, true,
		fmt.Sprintf("ours: %v; go.temporal.io/sdk: %v, SetReplayCheck exists: %v", env.GetWorkflowError(), oenv.GetWorkflowError(), hasCheck))
}

// A run queried after it ended is rebuilt from its history, as a worker
// of a real server rebuilds it, so its workflow code runs again;
// go.temporal.io/sdk's environment answers from the state it kept.
func TestDifferenceAQueryAfterTheEndReplaysTheRun(t *testing.T) {
	var ourRuns, theirRuns atomic.Int32
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.ExecuteWorkflow(func(ctx workflow.Context) error {
		ourRuns.Add(1) //workflowcheck:ignore counts the runs of the workflow code, decides nothing
		return workflow.SetQueryHandler(ctx, "state", func() (string, error) { return "done", nil })
	})
	_, ourErr := env.QueryWorkflow("state")

	var os officialtestsuite.WorkflowTestSuite
	oenv := os.NewTestWorkflowEnvironment()
	oenv.ExecuteWorkflow(func(ctx officialworkflow.Context) error {
		theirRuns.Add(1) //workflowcheck:ignore counts the runs of the workflow code, decides nothing
		return officialworkflow.SetQueryHandler(ctx, "state", func() (string, error) { return "done", nil })
	})
	_, theirErr := oenv.QueryWorkflow("state")
	differs(t, "a query after the workflow ended, in the test environment",
		ourErr == nil && ourRuns.Load() == 2, true,
		theirErr == nil && theirRuns.Load() == 1, true,
		fmt.Sprintf("the workflow function ran %d times here (query: %v), %d times on go.temporal.io/sdk (query: %v)", ourRuns.Load(), ourErr, theirRuns.Load(), theirErr))
}

// An error that wraps another as "context: cause" is written with the
// message "context", its cause following as the failure's Cause, so the
// decoded error says each message once; go.temporal.io/sdk writes
// "context: cause" and then the cause again.
func TestDifferenceAWrappedErrorSaysItsContextOnce(t *testing.T) {
	cause := errors.New("card declined")
	ours := temporal.GetDefaultFailureConverter().ErrorToFailure(fmt.Errorf("charge order 42: %w", cause))
	theirs := officialtemporal.GetDefaultFailureConverter().ErrorToFailure(fmt.Errorf("charge order 42: %w", cause))
	ourText := temporal.GetDefaultFailureConverter().FailureToError(ours).Error()
	theirText := officialtemporal.GetDefaultFailureConverter().FailureToError(theirs).Error()
	differs(t, "a wrapped error's failure",
		ours.GetMessage() == "charge order 42" && ours.GetCause().GetMessage() == "card declined" && strings.Count(ourText, "card declined") == 1, true,
		theirs.GetMessage() == "charge order 42: card declined" && strings.Count(theirText, "card declined") > 1, true,
		fmt.Sprintf("ours: message %q, decoded %q; go.temporal.io/sdk: message %q, decoded %q", ours.GetMessage(), ourText, theirs.GetMessage(), theirText))
}

// A failure's cause chain is decoded to 100 levels, the last a note of how
// many were left out; go.temporal.io/sdk decodes every level, however
// many a peer sent.
func TestDifferenceADeepFailureChainIsCut(t *testing.T) {
	const levels = 300
	var f *failurepb.Failure
	for i := 0; i < levels; i++ {
		f = &failurepb.Failure{Message: fmt.Sprintf("level %d", i), Cause: f,
			FailureInfo: &failurepb.Failure_ApplicationFailureInfo{ApplicationFailureInfo: &failurepb.ApplicationFailureInfo{Type: "Level"}}}
	}
	depth := func(err error) int {
		n := 0
		for ; err != nil; err = errors.Unwrap(err) {
			n++
		}
		return n
	}
	ours := depth(temporal.GetDefaultFailureConverter().FailureToError(f))
	theirs := depth(officialtemporal.GetDefaultFailureConverter().FailureToError(f))
	differs(t, "a failure chain of 300 levels", ours <= 101, true, theirs == levels, true,
		fmt.Sprintf("decoded to %d levels here, %d on go.temporal.io/sdk", ours, theirs))
}

// A negative number or duration in worker.Options makes worker.New panic,
// naming each; go.temporal.io/sdk's worker starts with it. In activity
// options both refuse it, this SDK naming the option before anything is
// sent, go.temporal.io/sdk with the server's "A valid timeout may not be
// negative".
func TestDifferenceNegativeOptionsAreRefused(t *testing.T) {
	ours, theirs := dialBoth(t)
	defer ours.Close()
	defer theirs.Close()
	var ourPanic any
	func() {
		defer func() { ourPanic = recover() }()
		worker.New(ours, "migration-negative", worker.Options{MaxConcurrentActivityExecutionSize: -1, WorkerStopTimeout: -time.Second})
	}()
	tw := officialworker.New(theirs, fmt.Sprintf("migration-negative-%d", time.Now().UnixNano()),
		officialworker.Options{MaxConcurrentActivityExecutionSize: -1, WorkerStopTimeout: -time.Second})
	theirStart := tw.Start()
	if theirStart == nil {
		tw.Stop()
	}

	const minus5s = -5 * time.Second
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterActivity(failingActivity)
	env.ExecuteWorkflow(func(ctx workflow.Context) error {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: minus5s, ScheduleToCloseTimeout: time.Minute})
		return workflow.ExecuteActivity(ctx, failingActivity).Get(ctx, nil)
	})
	ourErr := env.GetWorkflowError()
	var os officialtestsuite.WorkflowTestSuite
	oenv := os.NewTestWorkflowEnvironment()
	oenv.RegisterActivity(failingActivity)
	oenv.ExecuteWorkflow(func(ctx officialworkflow.Context) error {
		ctx = officialworkflow.WithActivityOptions(ctx, officialworkflow.ActivityOptions{StartToCloseTimeout: minus5s, ScheduleToCloseTimeout: time.Minute})
		return officialworkflow.ExecuteActivity(ctx, failingActivity).Get(ctx, nil)
	})
	theirErr := oenv.GetWorkflowError()

	differs(t, "negative worker options",
		strings.Contains(fmt.Sprint(ourPanic), "MaxConcurrentActivityExecutionSize is -1, WorkerStopTimeout is -1s"), true,
		theirStart == nil, true,
		fmt.Sprintf("worker.New panicked with %v here; go.temporal.io/sdk's Start returned %v", ourPanic, theirStart))
	differs(t, "StartToCloseTimeout: -5s",
		ourErr != nil && strings.Contains(ourErr.Error(), "StartToCloseTimeout is -5s"), true,
		theirErr != nil && !strings.Contains(theirErr.Error(), "StartToCloseTimeout"), true,
		fmt.Sprintf("ours: %v; go.temporal.io/sdk: %v", ourErr, theirErr))

	// A retry policy the server refuses: this SDK refuses it at the call,
	// naming the field; go.temporal.io/sdk sends it and the server answers
	// InvalidArgument.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	id := fmt.Sprintf("migration-retry-policy-%d", time.Now().UnixNano())
	_, ourStart := ours.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: "migration-negative",
		RetryPolicy: &temporal.RetryPolicy{BackoffCoefficient: 0.5}}, "Anything")
	_, theirStartErr := theirs.ExecuteWorkflow(ctx, officialclient.StartWorkflowOptions{ID: id, TaskQueue: "migration-negative",
		RetryPolicy: &officialtemporal.RetryPolicy{BackoffCoefficient: 0.5}}, "Anything")
	var invalid *serviceerror.InvalidArgument
	differs(t, "RetryPolicy.BackoffCoefficient: 0.5",
		ourStart != nil && strings.Contains(ourStart.Error(), "BackoffCoefficient") && !errors.As(ourStart, &invalid), true,
		errors.As(theirStartErr, &invalid), true,
		fmt.Sprintf("ours: %v; go.temporal.io/sdk: %v", ourStart, theirStartErr))
}

// unencodable is a result the JSON converter cannot encode.
type unencodable struct{ F func() }

// An activity result that cannot be encoded fails the activity with a
// non-retryable ResultEncodingError; go.temporal.io/sdk retries it under
// the retry policy, each attempt failing the same way.
func TestDifferenceAResultThatCannotBeEncodedIsNotRetried(t *testing.T) {
	var ourAttempts, theirAttempts atomic.Int32
	ourActivity := func(ctx context.Context) (unencodable, error) {
		ourAttempts.Add(1)
		return unencodable{F: func() {}}, nil
	}
	theirActivity := func(ctx context.Context) (unencodable, error) {
		theirAttempts.Add(1)
		return unencodable{F: func() {}}, nil
	}

	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterActivityWithOptions(ourActivity, activity.RegisterOptions{Name: "Unencodable"})
	env.ExecuteWorkflow(func(ctx workflow.Context) error {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute,
			RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 3}})
		return workflow.ExecuteActivity(ctx, "Unencodable").Get(ctx, nil)
	})
	var ourApp *temporal.ApplicationError
	ours := errors.As(env.GetWorkflowError(), &ourApp) && ourApp.Type() == "ResultEncodingError" && ourApp.NonRetryable() && ourAttempts.Load() == 1

	var os officialtestsuite.WorkflowTestSuite
	oenv := os.NewTestWorkflowEnvironment()
	oenv.RegisterActivityWithOptions(theirActivity, officialactivity.RegisterOptions{Name: "Unencodable"})
	oenv.ExecuteWorkflow(func(ctx officialworkflow.Context) error {
		ctx = officialworkflow.WithActivityOptions(ctx, officialworkflow.ActivityOptions{StartToCloseTimeout: time.Minute,
			RetryPolicy: &officialtemporal.RetryPolicy{MaximumAttempts: 3}})
		return officialworkflow.ExecuteActivity(ctx, "Unencodable").Get(ctx, nil)
	})
	differs(t, "an activity whose result cannot be encoded",
		ours, true,
		theirAttempts.Load() == 3 && oenv.GetWorkflowError() != nil, true,
		fmt.Sprintf("ours: %d attempt(s), %v; go.temporal.io/sdk: %d attempt(s), %v", ourAttempts.Load(), env.GetWorkflowError(), theirAttempts.Load(), oenv.GetWorkflowError()))
}

// Test-environment differences listed in the testsuite package's doc.

// OnActivity takes the name of an activity no function was registered
// for (the mock's Return gives its signature); go.temporal.io/sdk's
// environment panics.
func TestDifferenceOnActivityTakesAnUnregisteredName(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.OnActivity("Lookup", mock.Anything, "key").Return("value", nil)
	env.ExecuteWorkflow(func(ctx workflow.Context) (string, error) {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
		var v string
		err := workflow.ExecuteActivity(ctx, "Lookup", "key").Get(ctx, &v)
		return v, err
	})
	var ours string
	ourErr := env.GetWorkflowResult(&ours)

	var os officialtestsuite.WorkflowTestSuite
	oenv := os.NewTestWorkflowEnvironment()
	var theirPanic any
	func() {
		defer func() { theirPanic = recover() }()
		oenv.OnActivity("Lookup", mock.Anything, "key").Return("value", nil)
	}()
	differs(t, "OnActivity with a name nothing registered",
		ourErr == nil && ours == "value", true,
		theirPanic != nil, true,
		fmt.Sprintf("ours: %q, %v; go.temporal.io/sdk panicked with: %v", ours, ourErr, theirPanic))
}

// Activity timeouts run on the workflow's clock, as a server applies
// them: a mock delayed (After) past its StartToCloseTimeout times out;
// go.temporal.io/sdk's environment lets it return.
func TestDifferenceAMockDelayedPastItsTimeoutTimesOut(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterActivity(failingActivity)
	env.OnActivity(failingActivity, mock.Anything).After(10 * time.Minute).Return(nil)
	env.ExecuteWorkflow(func(ctx workflow.Context) error {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute,
			RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1}})
		return workflow.ExecuteActivity(ctx, failingActivity).Get(ctx, nil)
	})
	var timeout *temporal.TimeoutError
	ours := errors.As(env.GetWorkflowError(), &timeout)

	var os officialtestsuite.WorkflowTestSuite
	oenv := os.NewTestWorkflowEnvironment()
	oenv.RegisterActivity(failingActivity)
	oenv.OnActivity(failingActivity, mock.Anything).After(10 * time.Minute).Return(nil)
	oenv.ExecuteWorkflow(func(ctx officialworkflow.Context) error {
		ctx = officialworkflow.WithActivityOptions(ctx, officialworkflow.ActivityOptions{StartToCloseTimeout: time.Minute,
			RetryPolicy: &officialtemporal.RetryPolicy{MaximumAttempts: 1}})
		return officialworkflow.ExecuteActivity(ctx, failingActivity).Get(ctx, nil)
	})
	differs(t, "a mock delayed 10m past its 1m StartToCloseTimeout",
		ours, true,
		oenv.GetWorkflowError() == nil, true,
		fmt.Sprintf("ours: %v; go.temporal.io/sdk: %v", env.GetWorkflowError(), oenv.GetWorkflowError()))
}

// A local activity's error reaches the workflow as the activity's own
// error, as on a worker of either SDK; go.temporal.io/sdk's test
// environment alone wraps it in an ActivityError.
func TestDifferenceALocalActivityErrorIsNotWrappedInTests(t *testing.T) {
	failing := func(ctx context.Context) error {
		return temporal.NewNonRetryableApplicationError("no", "No", nil)
	}
	officialFailing := func(ctx context.Context) error {
		return officialtemporal.NewNonRetryableApplicationError("no", "No", nil)
	}
	var wrappedHere, wrappedThere, appHere, appThere bool

	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.ExecuteWorkflow(func(ctx workflow.Context) error {
		ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: time.Minute})
		err := workflow.ExecuteLocalActivity(ctx, failing).Get(ctx, nil)
		var activityErr *temporal.ActivityError
		var appErr *temporal.ApplicationError
		wrappedHere, appHere = errors.As(err, &activityErr), errors.As(err, &appErr)
		return nil
	})

	var os officialtestsuite.WorkflowTestSuite
	oenv := os.NewTestWorkflowEnvironment()
	oenv.ExecuteWorkflow(func(ctx officialworkflow.Context) error {
		ctx = officialworkflow.WithLocalActivityOptions(ctx, officialworkflow.LocalActivityOptions{StartToCloseTimeout: time.Minute})
		err := officialworkflow.ExecuteLocalActivity(ctx, officialFailing).Get(ctx, nil)
		var activityErr *officialtemporal.ActivityError
		var appErr *officialtemporal.ApplicationError
		wrappedThere, appThere = errors.As(err, &activityErr), errors.As(err, &appErr)
		return nil
	})
	differs(t, "a local activity's error in the test environment",
		!wrappedHere && appHere, true,
		wrappedThere && appThere, true,
		fmt.Sprintf("ActivityError around it: %v here, %v on go.temporal.io/sdk", wrappedHere, wrappedThere))
}

// The test timeout ends a test that makes no progress in wall time (here,
// an activity that runs longer) with an error from GetWorkflowError that
// shows where the workflow is blocked; go.temporal.io/sdk's environment
// panics out of ExecuteWorkflow.
func TestDifferenceTheTestTimeoutIsAnError(t *testing.T) {
	slow := func(ctx context.Context) error {
		select {
		case <-ctx.Done():
		case <-time.After(3 * time.Second):
		}
		return nil
	}
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetTestTimeout(time.Second)
	env.RegisterActivityWithOptions(slow, activity.RegisterOptions{Name: "Slow"})
	var ourPanic any
	func() {
		defer func() { ourPanic = recover() }()
		env.ExecuteWorkflow(func(ctx workflow.Context) error {
			ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
			return workflow.ExecuteActivity(ctx, "Slow").Get(ctx, nil)
		})
	}()

	var os officialtestsuite.WorkflowTestSuite
	oenv := os.NewTestWorkflowEnvironment()
	oenv.SetTestTimeout(time.Second)
	oenv.RegisterActivityWithOptions(slow, officialactivity.RegisterOptions{Name: "Slow"})
	var theirPanic any
	func() {
		defer func() { theirPanic = recover() }()
		oenv.ExecuteWorkflow(func(ctx officialworkflow.Context) error {
			ctx = officialworkflow.WithActivityOptions(ctx, officialworkflow.ActivityOptions{StartToCloseTimeout: time.Minute})
			return officialworkflow.ExecuteActivity(ctx, "Slow").Get(ctx, nil)
		})
	}()
	ourErr := env.GetWorkflowError()
	differs(t, "a test stuck past its test timeout",
		ourPanic == nil && ourErr != nil && strings.Contains(ourErr.Error(), "test timeout"), true,
		theirPanic != nil && strings.Contains(fmt.Sprint(theirPanic), "test timeout"), true,
		fmt.Sprintf("ours: panic %v, error %v; go.temporal.io/sdk: panic %v", ourPanic, ourErr, theirPanic))
}

// Client and worker differences.

// panicEncoding marks a payload that panickyCodec panics on.
const panicEncoding = "binary/migration-panic"

// panickyCodec is a worker's codec with a bug: Decode panics on payloads
// of panicEncoding.
type panickyCodec struct{}

func (panickyCodec) Encode(ps []*commonpb.Payload) ([]*commonpb.Payload, error) { return ps, nil }

func (panickyCodec) Decode(ps []*commonpb.Payload) ([]*commonpb.Payload, error) {
	for _, p := range ps {
		if string(p.GetMetadata()["encoding"]) == panicEncoding {
			panic("panickyCodec: cannot decode " + panicEncoding)
		}
	}
	return ps, nil
}

// boomCodec is a client's codec that sends the string "boom" as a payload
// of panicEncoding.
type boomCodec struct{}

func (boomCodec) Encode(ps []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(ps))
	for i, p := range ps {
		out[i] = p
		if string(p.GetData()) == `"boom"` {
			out[i] = &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte(panicEncoding)}, Data: []byte("boom")}
		}
	}
	return out, nil
}

func (boomCodec) Decode(ps []*commonpb.Payload) ([]*commonpb.Payload, error) { return ps, nil }

// EchoUntilDone answers the query "echo" until it is terminated.
func EchoUntilDoneOurs(ctx workflow.Context) error {
	if err := workflow.SetQueryHandler(ctx, "echo", func(s string) (string, error) { return s, nil }); err != nil {
		return err
	}
	return workflow.Await(ctx, func() bool { return false })
}

func EchoUntilDoneOfficial(ctx officialworkflow.Context) error {
	if err := officialworkflow.SetQueryHandler(ctx, "echo", func(s string) (string, error) { return s, nil }); err != nil {
		return err
	}
	return officialworkflow.Await(ctx, func() bool { return false })
}

// A query whose argument makes the worker's codec panic fails at once with
// the panic's message; go.temporal.io/sdk's worker recovers the panic but
// never answers, and the caller's query times out.
func TestDifferenceAQueryThatPanicsTheCodecFailsAtOnce(t *testing.T) {
	hp := testharness.HostPort(t)
	plain, err := client.Dial(client.Options{HostPort: hp})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	sender, err := client.Dial(client.Options{HostPort: hp, DataConverter: converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), boomCodec{})})
	if err != nil {
		t.Fatal(err)
	}
	defer sender.Close()

	// query starts EchoUntilDone on tq, where a worker of one SDK runs, and
	// sends the query that panics its codec.
	query := func(tq string) (err error, timedOut bool) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		run, err := plain.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: tq}, "EchoUntilDone")
		if err != nil {
			t.Fatal(err)
		}
		defer plain.TerminateWorkflow(context.Background(), run.GetID(), "", "test done")
		for {
			if _, err := plain.QueryWorkflow(ctx, run.GetID(), "", "echo", "hi"); err == nil {
				break
			} else if ctx.Err() != nil {
				t.Fatalf("the workflow on %s never answered a plain query: %v", tq, err)
			}
			time.Sleep(50 * time.Millisecond)
		}
		qctx, qcancel := context.WithTimeout(ctx, 5*time.Second)
		defer qcancel()
		_, err = sender.QueryWorkflow(qctx, run.GetID(), "", "echo", "boom")
		// The server gives up on an unanswered query a little before the
		// caller's deadline, so a timeout may come back as its
		// DeadlineExceeded while qctx is still live.
		var deadline *serviceerror.DeadlineExceeded
		return err, qctx.Err() != nil || errors.As(err, &deadline) || errors.Is(err, context.DeadlineExceeded)
	}

	ourTQ := fmt.Sprintf("migration-query-ours-%d", time.Now().UnixNano())
	oc, err := client.Dial(client.Options{HostPort: hp, DataConverter: converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), panickyCodec{}), Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	defer oc.Close()
	ow := worker.New(oc, ourTQ, worker.Options{})
	ow.RegisterWorkflowWithOptions(EchoUntilDoneOurs, workflow.RegisterOptions{Name: "EchoUntilDone"})
	if err := ow.Start(); err != nil {
		t.Fatal(err)
	}
	defer ow.Stop()
	ourErr, ourTimeout := query(ourTQ)

	theirTQ := fmt.Sprintf("migration-query-official-%d", time.Now().UnixNano())
	tc, err := officialclient.Dial(officialclient.Options{HostPort: hp, Logger: quiet{},
		DataConverter: officialconverter.NewCodecDataConverter(officialconverter.GetDefaultDataConverter(), panickyCodec{})})
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close()
	tw := officialworker.New(tc, theirTQ, officialworker.Options{})
	tw.RegisterWorkflowWithOptions(EchoUntilDoneOfficial, officialworkflow.RegisterOptions{Name: "EchoUntilDone"})
	if err := tw.Start(); err != nil {
		t.Fatal(err)
	}
	defer tw.Stop()
	theirErr, theirTimeout := query(theirTQ)

	differs(t, "a query whose argument makes the worker's codec panic",
		!ourTimeout && ourErr != nil && strings.Contains(ourErr.Error(), "panickyCodec"), true,
		theirTimeout, true,
		fmt.Sprintf("ours: %v (timed out: %v); go.temporal.io/sdk: %v (timed out: %v)", ourErr, ourTimeout, theirErr, theirTimeout))
}

// compressionRecorder is a stats handler that notes the compression of the
// requests a server receives, by method.
type compressionRecorder struct {
	mu  sync.Mutex
	got map[string]string
}

func (r *compressionRecorder) TagRPC(ctx context.Context, _ *stats.RPCTagInfo) context.Context {
	return ctx
}
func (r *compressionRecorder) TagConn(ctx context.Context, _ *stats.ConnTagInfo) context.Context {
	return ctx
}
func (r *compressionRecorder) HandleConn(context.Context, stats.ConnStats) {}
func (r *compressionRecorder) HandleRPC(_ context.Context, s stats.RPCStats) {
	if h, ok := s.(*stats.InHeader); ok {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.got[h.FullMethod] = h.Compression
	}
}

func (r *compressionRecorder) of(method string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.got[method]
}

// systemInfoServer answers what Dial asks.
type systemInfoServer struct {
	workflowservice.UnimplementedWorkflowServiceServer
}

func (systemInfoServer) GetSystemInfo(context.Context, *workflowservice.GetSystemInfoRequest) (*workflowservice.GetSystemInfoResponse, error) {
	return &workflowservice.GetSystemInfoResponse{ServerVersion: "1.29.1"}, nil
}

func (systemInfoServer) DescribeNamespace(_ context.Context, req *workflowservice.DescribeNamespaceRequest) (*workflowservice.DescribeNamespaceResponse, error) {
	return &workflowservice.DescribeNamespaceResponse{}, nil
}

// Requests go out uncompressed unless ConnectionOptions.GrpcCompression
// asks for gzip; go.temporal.io/sdk compresses them with gzip by default.
func TestDifferenceRequestsAreNotCompressedByDefault(t *testing.T) {
	rec := &compressionRecorder{got: map[string]string{}}
	srv := grpc.NewServer(grpc.StatsHandler(rec))
	workflowservice.RegisterWorkflowServiceServer(srv, systemInfoServer{})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(lis) }()
	defer srv.Stop()
	const method = "/temporal.api.workflowservice.v1.WorkflowService/GetSystemInfo"

	ours, err := client.Dial(client.Options{HostPort: lis.Addr().String()})
	if err != nil {
		t.Fatal(err)
	}
	ours.Close()
	ourCompression := rec.of(method)
	theirs, err := officialclient.Dial(officialclient.Options{HostPort: lis.Addr().String(), Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	theirs.Close()
	theirCompression := rec.of(method)
	differs(t, "the compression of requests by default",
		ourCompression == "" || ourCompression == "identity", true,
		theirCompression == "gzip", true,
		fmt.Sprintf("GetSystemInfo came %q from this SDK, %q from go.temporal.io/sdk", ourCompression, theirCompression))
}

// NewResourceBasedTuner measures the process's cgroup or /proc when no
// InfoSupplier is given; go.temporal.io/sdk requires one.
func TestDifferenceTheResourceBasedTunerNeedsNoInfoSupplier(t *testing.T) {
	_, ourErr := worker.NewResourceBasedTuner(worker.ResourceBasedTunerOptions{TargetMem: 0.8, TargetCpu: 0.9})
	_, theirErr := officialworker.NewResourceBasedTuner(officialworker.ResourceBasedTunerOptions{TargetMem: 0.8, TargetCpu: 0.9})
	differs(t, "NewResourceBasedTuner without an InfoSupplier",
		ourErr == nil, true, theirErr != nil, true,
		fmt.Sprintf("ours: %v; go.temporal.io/sdk: %v", ourErr, theirErr))
}

// Clients name this SDK in their headers ("durable-go" and its own
// version); go.temporal.io/sdk's say "temporal-go".
func TestDifferenceClientsIdentifyAsThisSDK(t *testing.T) {
	var mu sync.Mutex
	names := map[string]bool{}
	record := func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		md, _ := metadata.FromIncomingContext(ctx)
		mu.Lock()
		for _, n := range md.Get("client-name") {
			names[n] = true
		}
		mu.Unlock()
		return handler(ctx, req)
	}
	srv := grpc.NewServer(grpc.UnaryInterceptor(record))
	workflowservice.RegisterWorkflowServiceServer(srv, systemInfoServer{})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(lis) }()
	defer srv.Stop()
	ours, err := client.Dial(client.Options{HostPort: lis.Addr().String()})
	if err != nil {
		t.Fatal(err)
	}
	ours.Close()
	theirs, err := officialclient.Dial(officialclient.Options{HostPort: lis.Addr().String(), Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	theirs.Close()
	mu.Lock()
	defer mu.Unlock()
	differs(t, "the client-name header", names["durable-go"], true, names["temporal-go"], true, fmt.Sprintf("names seen: %v", names))
}
