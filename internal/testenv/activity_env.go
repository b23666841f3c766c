package testenv

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/policy"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/workerrt"
)

// TestActivityEnvironment runs activity functions on their own, through
// the worker's activity executor: interceptors, argument decoding, result
// encoding and error conversion as on a worker (testsuite.TestActivityEnvironment).
// Activities run with no time limit unless SetTestTimeout sets one.
type TestActivityEnvironment struct {
	mu    sync.Mutex
	suite testSuiteDefaults
	registrations
	workerOptions internal.WorkerOptions
	dc            converter.DataConverter
	fc            converter.FailureConverter
	propagators   []internal.ContextPropagator
	header        *commonpb.Header
	identity      string
	timeout       time.Duration
	details       *commonpb.Payloads
	detailsValue  any // what details encode, for a converter told the activity's context
	workerStop    chan struct{}
	onHeartbeat   func(*internal.ActivityInfo, converter.EncodedValues)
	inWorkflow    bool
}

func newTestActivityEnvironment(s *WorkflowTestSuite) *TestActivityEnvironment {
	d := s.defaults()
	return &TestActivityEnvironment{suite: d, registrations: registrations{registry: d.newRegistry()}, dc: converter.GetDefaultDataConverter(),
		propagators: d.propagators, header: d.header, identity: testIdentity}
}

// SetWorkerOptions sets the worker options activities run with
// (interceptors among them). Their Plugins configure them here, as in
// TestWorkflowEnvironment.SetWorkerOptions, and start and stop around
// each ExecuteActivity and ExecuteLocalActivity, whose error is that of
// a plugin that fails the start.
func (t *TestActivityEnvironment) SetWorkerOptions(options internal.WorkerOptions) *TestActivityEnvironment {
	t.configurePlugins(&options)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.workerOptions = options
	return t
}

// SetDataConverter sets the data converter.
func (t *TestActivityEnvironment) SetDataConverter(dataConverter converter.DataConverter) *TestActivityEnvironment {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.dc = dataConverter
	return t
}

// SetFailureConverter sets the failure converter.
func (t *TestActivityEnvironment) SetFailureConverter(failureConverter converter.FailureConverter) *TestActivityEnvironment {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.fc = failureConverter
	return t
}

// SetIdentity sets the worker identity activities see.
func (t *TestActivityEnvironment) SetIdentity(identity string) *TestActivityEnvironment {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.identity = identity
	return t
}

// SetContextPropagators sets the context propagators.
func (t *TestActivityEnvironment) SetContextPropagators(propagators []internal.ContextPropagator) *TestActivityEnvironment {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.propagators = propagators
	return t
}

// SetHeader sets the header activities arrive with.
func (t *TestActivityEnvironment) SetHeader(header *commonpb.Header) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.header = header
}

// SetTestTimeout bounds, in wall time, how long one activity may run; by
// default there is no bound.
func (t *TestActivityEnvironment) SetTestTimeout(idleTimeout time.Duration) *TestActivityEnvironment {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.timeout = idleTimeout
	return t
}

// SetHeartbeatDetails sets the details of an earlier attempt's heartbeat,
// which activity.GetHeartbeatDetails returns.
func (t *TestActivityEnvironment) SetHeartbeatDetails(details any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	p, err := t.dc.ToPayloads(details)
	if err != nil {
		panic(fmt.Sprintf("SetHeartbeatDetails: %T cannot be encoded: %v", details, err))
	}
	t.details, t.detailsValue = p, details
}

// SetWorkerStopChannel sets the channel activity.GetWorkerStopChannel
// returns.
func (t *TestActivityEnvironment) SetWorkerStopChannel(c chan struct{}) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.workerStop = c
}

// SetOnActivityHeartbeatListener sets a function called with the details
// of each heartbeat a worker would send: heartbeats are throttled as the
// worker throttles them (the first at once, then at most one per
// interval, 80% of the heartbeat timeout or 30s without one, the last
// held back sent when the activity fails), as in go.temporal.io/sdk.
func (t *TestActivityEnvironment) SetOnActivityHeartbeatListener(listener func(activityInfo *internal.ActivityInfo, details converter.EncodedValues)) *TestActivityEnvironment {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.onHeartbeat = listener
	return t
}

// SetExecuteActivitiesInWorkflow makes ExecuteActivity run the activity
// from a workflow, in a test workflow environment, so that it sees a real
// workflow's identity and the server's timeouts and retries apply.
func (t *TestActivityEnvironment) SetExecuteActivitiesInWorkflow(executeActivitiesInWorkflow bool) *TestActivityEnvironment {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.inWorkflow = executeActivitiesInWorkflow
	return t
}

// ExecuteActivity runs an activity, given as a registered function (it is
// registered if it is not) or a name, with args, and returns its result or
// its error as a workflow would see it.
func (t *TestActivityEnvironment) ExecuteActivity(activityFn any, args ...any) (converter.EncodedValue, error) {
	name := t.registry.ActivityTypeOf(activityFn)
	if reflect.TypeOf(activityFn).Kind() == reflect.Func {
		if !t.registry.IsRegistered("activity", name) {
			if err := t.registry.RegisterActivity(activityFn, "", false, false); err != nil {
				return nil, err
			}
		}
		if err := registry.CheckArgs(activityFn, args, "activity"); err != nil {
			return nil, err
		}
	}
	t.mu.Lock()
	if t.fc == nil {
		t.fc = failure.NewDefaultFailureConverter(failure.DefaultFailureConverterOptions{DataConverter: t.dc})
	}
	inWorkflow := t.inWorkflow
	t.mu.Unlock()
	return t.withPlugins(func() (converter.EncodedValue, error) {
		if inWorkflow {
			return t.executeInWorkflow(name, args)
		}
		return t.execute(name, args, nil)
	})
}

// ExecuteLocalActivity runs one attempt of a local activity, given as a
// function (registered or not) or a registered name, with args, as a
// workflow's local activity: activity.GetInfo says IsLocalActivity, and it
// has no task token.
func (t *TestActivityEnvironment) ExecuteLocalActivity(activityFn any, args ...any) (converter.EncodedValue, error) {
	name, err := t.registry.ActivityName(activityFn)
	if err != nil {
		return nil, err
	}
	if err := registry.CheckArgs(activityFn, args, "local activity"); err != nil {
		return nil, err
	}
	var fn any
	if _, isName := activityFn.(string); !isName {
		fn = activityFn
	}
	t.mu.Lock()
	if t.fc == nil {
		t.fc = failure.NewDefaultFailureConverter(failure.DefaultFailureConverterOptions{DataConverter: t.dc})
	}
	t.mu.Unlock()
	return t.withPlugins(func() (converter.EncodedValue, error) { return t.execute(name, args, &local{fn: fn}) })
}

// local marks an execution as a local activity's, with the function the
// code passed (nil: the registered one).
type local struct{ fn any }

func (t *TestActivityEnvironment) execute(name string, args []any, la *local) (converter.EncodedValue, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	// What goes to the activity and comes back is converted with the
	// serialization context the worker's executor gives the activity.
	sc := converter.ActivitySerializationContext{Namespace: testNamespace, ActivityType: name, TaskQueue: testTaskQueue, IsLocal: la != nil}
	dc := converter.WithDataConverterSerializationContext(t.dc, sc)
	fc := converter.WithFailureConverterSerializationContext(t.fc, sc)
	var input *commonpb.Payloads
	if la == nil { // a local activity gets the Go values, as a worker gives them
		var err error
		if input, err = registry.EncodeArgs(dc, args); err != nil {
			return nil, fmt.Errorf("activity %q: %w", name, err)
		}
	}
	details := t.details
	if _, aware := t.dc.(converter.DataConverterWithSerializationContext); aware && details != nil {
		var err error
		if details, err = dc.ToPayloads(t.detailsValue); err != nil {
			return nil, fmt.Errorf("activity %q: the heartbeat details: %w", name, err)
		}
	}
	now := time.Now()
	var token []byte
	if la == nil { // local activities have no task token
		token = fmt.Appendf(nil, "test-activity-%s-%d", name, now.UnixNano())
	}
	task := &workflowservice.PollActivityTaskQueueResponse{
		TaskToken: token, WorkflowNamespace: testNamespace,
		ActivityType: &commonpb.ActivityType{Name: name}, ActivityId: "0", Input: input, Header: t.header, HeartbeatDetails: details,
		ScheduledTime: timestamppb.New(now), CurrentAttemptScheduledTime: timestamppb.New(now), StartedTime: timestamppb.New(now), Attempt: 1,
	}
	ctx := cmp.Or(t.workerOptions.BackgroundActivityContext, context.Background())
	if t.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t.timeout)
		defer cancel()
		task.StartToCloseTimeout = durationpb.New(t.timeout)
	}
	stop := t.workerStop
	if stop == nil {
		stop = make(chan struct{})
	}
	// The listener hears the heartbeats a worker would send, throttled as
	// the worker throttles them.
	onHeartbeat := t.onHeartbeat
	interval := workerrt.HeartbeatInterval(task.GetHeartbeatTimeout().AsDuration(),
		t.workerOptions.DefaultHeartbeatThrottleInterval, t.workerOptions.MaxHeartbeatThrottleInterval)
	throttle := workerrt.NewHeartbeatThrottle(interval, func(details *commonpb.Payloads) {
		if onHeartbeat != nil {
			info := seam.ActivityInfo(&workerrt.ActivityTask{Task: task}, testNamespace)
			onHeartbeat(&info, failure.NewEncodedValues(details, dc))
		}
	})
	defer throttle.Stop()
	exec := wiring{DataConverter: t.dc, Logger: t.suite.logger, Metrics: t.suite.metrics, Namespace: testNamespace,
		TaskQueue: testTaskQueue, Interceptors: t.workerOptions.Interceptors, Propagators: t.propagators}.activityExecutor(t.registry)
	at := &workerrt.ActivityTask{Task: task, Heartbeat: throttle.Record, WorkerStop: stop}
	if la != nil {
		at.Local, at.LocalFn, at.LocalArgs, at.Heartbeat = true, la.fn, args, func(*commonpb.Payloads) {}
	}
	result, err := exec.Execute(ctx, at)
	throttle.Finish(err == nil)
	if errors.Is(err, internal.ErrResultPending) {
		return nil, err
	}
	if err != nil {
		// As a workflow would see it: through the failure converter.
		return nil, fc.FailureToError(fc.ErrorToFailure(err))
	}
	return failure.NewEncodedValue(result, dc), nil
}

// executeInWorkflow runs the activity from a workflow in a test workflow
// environment.
func (t *TestActivityEnvironment) executeInWorkflow(name string, args []any) (converter.EncodedValue, error) {
	t.mu.Lock()
	wenv := (&WorkflowTestSuite{logger: t.suite.logger, metrics: t.suite.metrics, propagators: t.propagators, header: t.header}).NewTestWorkflowEnvironment()
	wenv.registry = t.registry
	wenv.SetDataConverter(t.dc).SetFailureConverter(t.fc).SetWorkerOptions(t.configuredWorkerOptions()).SetIdentity(t.identity)
	if t.onHeartbeat != nil {
		wenv.SetOnActivityHeartbeatListener(t.onHeartbeat)
	}
	timeout := t.timeout
	t.mu.Unlock()
	if timeout <= 0 {
		timeout = 10 * time.Minute // on the virtual clock: only a stuck activity reaches it
	}
	// The result passes through the workflow undecoded.
	runner := func(ctx internal.Context) (converter.RawValue, error) {
		ctx = internal.WithActivityOptions(ctx, internal.ActivityOptions{StartToCloseTimeout: timeout, RetryPolicy: &policy.RetryPolicy{MaximumAttempts: 1}})
		f := internal.ExecuteActivity(ctx, name, args...)
		var raw converter.RawValue
		if err := f.Get(ctx, nil); err != nil {
			return raw, err
		}
		_ = f.Get(ctx, &raw) // an error: the activity has no result
		return raw, nil
	}
	wenv.RegisterWorkflowWithOptions(runner, internal.RegisterWorkflowOptions{Name: "TestActivityEnvironmentWorkflow"})
	wenv.ExecuteWorkflow("TestActivityEnvironmentWorkflow")
	var raw converter.RawValue
	if err := wenv.GetWorkflowResult(&raw); err != nil {
		var wee *failure.WorkflowExecutionError
		if errors.As(err, &wee) {
			err = errors.Unwrap(wee)
		}
		var ae *failure.ActivityError
		if errors.As(err, &ae) {
			err = errors.Unwrap(ae)
		}
		return nil, err
	}
	if raw.Payload() == nil {
		return failure.NewEncodedValue(nil, t.dc), nil
	}
	return failure.NewEncodedValue(&commonpb.Payloads{Payloads: []*commonpb.Payload{raw.Payload()}}, t.dc), nil
}
