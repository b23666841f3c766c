package testenv

import (
	"context"
	"errors"
	"math"
	"reflect"
	"sync"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/searchattr"
)

// testInterceptor is the test environment's own worker interceptor, the
// outermost: it answers the workflow calls that have mock expectations and
// tells the listeners about activities. Mocks of workflow calls are asked
// only when the code first runs, never in replay, so that a replay (after
// the run left the cache, or to answer a query) sees what history
// recorded and does not use up expectations.
type testInterceptor struct {
	internal.WorkerInterceptorBase
	env *TestWorkflowEnvironment
}

func (i *testInterceptor) InterceptWorkflow(_ internal.Context, next internal.WorkflowInboundInterceptor) internal.WorkflowInboundInterceptor {
	return &testWorkflowInbound{WorkflowInboundInterceptorBase: internal.WorkflowInboundInterceptorBase{Next: next}, env: i.env}
}

func (i *testInterceptor) InterceptActivity(_ context.Context, next internal.ActivityInboundInterceptor) internal.ActivityInboundInterceptor {
	return &testActivityInbound{ActivityInboundInterceptorBase: internal.ActivityInboundInterceptorBase{Next: next}, env: i.env}
}

type testWorkflowInbound struct {
	internal.WorkflowInboundInterceptorBase
	env *TestWorkflowEnvironment
}

func (w *testWorkflowInbound) Init(outbound internal.WorkflowOutboundInterceptor) error {
	return w.Next.Init(&testWorkflowOutbound{WorkflowOutboundInterceptorBase: internal.WorkflowOutboundInterceptorBase{Next: outbound}, env: w.env})
}

type testWorkflowOutbound struct {
	internal.WorkflowOutboundInterceptorBase
	env           *TestWorkflowEnvironment
	externalCalls int // mocked signals and cancels so far in this run
}

// mocked reports whether a workflow call should ask the mock.
func (w *testWorkflowOutbound) mocked(ctx internal.Context, method string) bool {
	return !w.Next.IsReplaying(ctx) && w.env.hasExpectation(method)
}

// GetVersion and GetVersionWithOptions ask the one mock the official test
// environment asks whichever of the two the code calls, and pass the call
// on as it came, so that the interceptors after this one see it as made.
func (w *testWorkflowOutbound) GetVersion(ctx internal.Context, changeID string, minSupported, maxSupported internal.Version) internal.Version {
	return w.getVersion(ctx, changeID, minSupported, maxSupported, func(lo, hi internal.Version) internal.Version {
		return w.Next.GetVersion(ctx, changeID, lo, hi)
	})
}

func (w *testWorkflowOutbound) GetVersionWithOptions(ctx internal.Context, changeID string, minSupported, maxSupported internal.Version, options internal.GetVersionOptions) internal.Version {
	return w.getVersion(ctx, changeID, minSupported, maxSupported, func(lo, hi internal.Version) internal.Version {
		return w.Next.GetVersionWithOptions(ctx, changeID, lo, hi, options)
	})
}

// getVersion asks the GetVersion mock, if any, and calls next with the
// range to record in: the mocked version alone, or (in replay) any.
func (w *testWorkflowOutbound) getVersion(ctx internal.Context, changeID string, minSupported, maxSupported internal.Version, next func(lo, hi internal.Version) internal.Version) internal.Version {
	if w.Next.IsReplaying(ctx) {
		if w.env.hasExpectation(mockMethodGetVersion+"_"+changeID) || w.env.hasExpectation(mockMethodGetVersion+"_"+anyMockArgument) {
			// History holds the mocked choice, whatever the code supports.
			return next(internal.DefaultVersion, math.MaxInt32)
		}
		return next(minSupported, maxSupported)
	}
	for _, method := range []string{mockMethodGetVersion + "_" + changeID, mockMethodGetVersion + "_" + anyMockArgument} {
		if !w.env.hasExpectation(method) {
			continue
		}
		ret := w.env.workflowMock.MethodCalled(method, changeID, minSupported, maxSupported)
		v := mockValue[internal.Version]("GetVersion", ret, changeID, minSupported, maxSupported)
		return next(v, v) // recorded as the run's choice
	}
	return next(minSupported, maxSupported)
}

// anyMockArgument is mock.Anything, as OnGetVersion(mock.Anything, ...)
// names the method.
const anyMockArgument = "mock.Anything"

// The side effects, with options or not, ask the same mock and pass the
// call on as it came.
func (w *testWorkflowOutbound) SideEffect(ctx internal.Context, f func(ctx internal.Context) any) converter.EncodedValue {
	return w.Next.SideEffect(ctx, w.mockedSideEffect(ctx, f))
}

func (w *testWorkflowOutbound) SideEffectWithOptions(ctx internal.Context, options internal.SideEffectOptions, f func(ctx internal.Context) any) converter.EncodedValue {
	return w.Next.SideEffectWithOptions(ctx, options, w.mockedSideEffect(ctx, f))
}

// mockedSideEffect is f, or the SideEffect mock's value when there is one.
func (w *testWorkflowOutbound) mockedSideEffect(ctx internal.Context, f func(ctx internal.Context) any) func(ctx internal.Context) any {
	if !w.mocked(ctx, mockMethodSideEffect) {
		return f
	}
	ret := w.env.workflowMock.MethodCalled(mockMethodSideEffect)
	v := mockValue[any]("SideEffect", ret)
	return func(internal.Context) any { return v }
}

func (w *testWorkflowOutbound) MutableSideEffect(ctx internal.Context, id string, f func(ctx internal.Context) any, equals func(a, b any) bool) converter.EncodedValue {
	return w.Next.MutableSideEffect(ctx, id, w.mockedMutableSideEffect(ctx, id, f), equals)
}

func (w *testWorkflowOutbound) MutableSideEffectWithOptions(ctx internal.Context, id string, options internal.MutableSideEffectOptions, f func(ctx internal.Context) any, equals func(a, b any) bool) converter.EncodedValue {
	return w.Next.MutableSideEffectWithOptions(ctx, id, options, w.mockedMutableSideEffect(ctx, id, f), equals)
}

// mockedMutableSideEffect is f, or the MutableSideEffect mock's value for
// id when there is one.
func (w *testWorkflowOutbound) mockedMutableSideEffect(ctx internal.Context, id string, f func(ctx internal.Context) any) func(ctx internal.Context) any {
	if !w.mocked(ctx, mockMethodMutableSideEffect) {
		return f
	}
	ret := w.env.workflowMock.MethodCalled(mockMethodMutableSideEffect, id)
	v := mockValue[any]("MutableSideEffect", ret, id)
	return func(internal.Context) any { return v }
}

func (w *testWorkflowOutbound) UpsertSearchAttributes(ctx internal.Context, attributes map[string]any) error {
	if w.mocked(ctx, mockMethodUpsertSearchAttributes) {
		if err := mockError(w.env.workflowMock.MethodCalled(mockMethodUpsertSearchAttributes, attributes)); err != nil {
			return err
		}
	}
	return w.Next.UpsertSearchAttributes(ctx, attributes)
}

// The upserts, with options or not, ask the same mock and pass the call
// on as it came.
func (w *testWorkflowOutbound) UpsertTypedSearchAttributes(ctx internal.Context, updates ...searchattr.SearchAttributeUpdate) error {
	if err := w.mockedUpsert(ctx, mockMethodUpsertTypedSearchAttributes, searchattr.NewSearchAttributes(updates...)); err != nil {
		return err
	}
	return w.Next.UpsertTypedSearchAttributes(ctx, updates...)
}

func (w *testWorkflowOutbound) UpsertTypedSearchAttributesWithOptions(ctx internal.Context, updates []searchattr.SearchAttributeUpdate, options internal.UpsertSearchAttributesOptions) error {
	if err := w.mockedUpsert(ctx, mockMethodUpsertTypedSearchAttributes, searchattr.NewSearchAttributes(updates...)); err != nil {
		return err
	}
	return w.Next.UpsertTypedSearchAttributesWithOptions(ctx, updates, options)
}

func (w *testWorkflowOutbound) UpsertMemo(ctx internal.Context, memo map[string]any) error {
	if err := w.mockedUpsert(ctx, mockMethodUpsertMemo, memo); err != nil {
		return err
	}
	return w.Next.UpsertMemo(ctx, memo)
}

func (w *testWorkflowOutbound) UpsertMemoWithOptions(ctx internal.Context, memo map[string]any, options internal.UpsertMemoOptions) error {
	if err := w.mockedUpsert(ctx, mockMethodUpsertMemo, memo); err != nil {
		return err
	}
	return w.Next.UpsertMemoWithOptions(ctx, memo, options)
}

// mockedUpsert is the error the upsert's mock returns (nil without one).
func (w *testWorkflowOutbound) mockedUpsert(ctx internal.Context, method string, arg any) error {
	if !w.mocked(ctx, method) {
		return nil
	}
	return mockError(w.env.workflowMock.MethodCalled(method, arg))
}

func (w *testWorkflowOutbound) GetInfo(ctx internal.Context) *internal.WorkflowInfo {
	info := w.Next.GetInfo(ctx)
	w.env.mu.Lock()
	length := w.env.historyLengthOverride
	w.env.mu.Unlock()
	if length <= 0 {
		return info
	}
	return seam.WithHistoryLength(info, length)
}

// mockValue is the one value a mock of a workflow call returned, or what
// the function it returned computes from args.
func mockValue[T any](what string, ret []any, args ...any) T {
	if len(ret) != 1 {
		panic(what + " mock: give Return exactly one value")
	}
	v := ret[0]
	if f, ok := asFunc(v); ok {
		v = f(args)
	}
	t, ok := v.(T)
	if !ok {
		var zero T
		panic(what + " mock: Return gave " + typeName(v) + ", want " + typeName(zero))
	}
	return t
}

// mockError is the error, if any, a mock of a workflow call returned.
func mockError(ret []any) error {
	for _, r := range ret {
		if err, ok := r.(error); ok {
			return err
		}
	}
	return nil
}

type testActivityInbound struct {
	internal.ActivityInboundInterceptorBase
	env *TestWorkflowEnvironment
}

func (a *testActivityInbound) Init(outbound internal.ActivityOutboundInterceptor) error {
	return a.Next.Init(&testActivityOutbound{ActivityOutboundInterceptorBase: internal.ActivityOutboundInterceptorBase{Next: outbound}, env: a.env})
}

func (a *testActivityInbound) ExecuteActivity(ctx context.Context, in *internal.ExecuteActivityInput) (any, error) {
	l := &a.env.listeners
	info := internal.GetActivityInfo(ctx)
	dc := a.env.dc
	set := l.get()
	started, completed, canceledListener := set.activityStarted, set.activityCompleted, set.activityCanceled
	if info.IsLocalActivity {
		// Local activities have listeners of their own, which receive the
		// arguments as values, as in go.temporal.io/sdk.
		if f := set.localStarted; f != nil {
			f(&info, ctx, in.Args)
		}
		started, completed, canceledListener = nil, set.localCompleted, set.localCanceled
	}
	if started != nil {
		p, _ := dc.ToPayloads(in.Args...)
		started(&info, ctx, failure.NewEncodedValues(p, dc))
	}
	if !info.IsLocalActivity {
		// An activity's outcome is heard from history, once (see
		// activity_listeners.go); a pending result at once.
		l.seenAttempt(info)
		result, err := a.Next.ExecuteActivity(ctx, in)
		if errors.Is(err, internal.ErrResultPending) {
			// Completed later by its token: the clock need not wait.
			a.env.server.AwaitAsyncCompletion(info.TaskToken)
			if completed != nil {
				completed(&info, nil, err)
			}
		}
		return result, err
	}
	result, err := a.Next.ExecuteActivity(ctx, in)
	var canceled *failure.CanceledError
	if errors.As(err, &canceled) || ctx.Err() == context.Canceled {
		if f := canceledListener; f != nil {
			f(&info)
		}
	} else if f := completed; f != nil && !errors.Is(err, internal.ErrResultPending) {
		var p *commonpb.Payloads
		if result != nil {
			p, _ = dc.ToPayloads(result)
		}
		f(&info, failure.NewEncodedValue(p, dc), err)
	}
	return result, err
}

type testActivityOutbound struct {
	internal.ActivityOutboundInterceptorBase
	env *TestWorkflowEnvironment
}

func (a *testActivityOutbound) GetWorkerStopChannel(ctx context.Context) <-chan struct{} {
	a.env.mu.Lock()
	c := a.env.workerStop
	a.env.mu.Unlock()
	if c != nil {
		return c
	}
	return a.Next.GetWorkerStopChannel(ctx)
}

// testListeners are the callbacks SetOnXxxListener set. Timer callbacks
// and those of activities' and children's outcomes follow the history the
// server writes;
// they run on a goroutine of their own, in event order, so that they may
// call the environment.
type testListeners struct {
	mu      sync.Mutex
	set     listenerSet
	queue   []listenedEvent
	wake    chan struct{} // signaled when queue grows or running ends
	running bool
	done    chan struct{}

	// For the outcomes of activities: the environment's converters and
	// identity, the activities scheduled, their latest attempts.
	dc        converter.DataConverter
	fc        converter.FailureConverter
	identity  string
	scheduled map[scheduledKey]*activityRecord
	attempts  map[attemptKey]internal.ActivityInfo
	byToken   map[string]internal.ActivityInfo // the attempts by task token
	// childRuns are the infos of children's runs by run ID, for the child
	// completed listener (child_listeners.go).
	childRuns map[string]*internal.WorkflowInfo
	// nexusScheduled are the Nexus operations scheduled and not yet ended,
	// for their listeners (nexus_listeners.go).
	nexusScheduled map[nexusOperationKey]*historypb.NexusOperationScheduledEventAttributes
}

// listenedEvent is an event the listeners' goroutine delivers.
type listenedEvent struct {
	execution *commonpb.WorkflowExecution
	ev        *historypb.HistoryEvent
}

type listenerSet struct {
	activityStarted   func(*internal.ActivityInfo, context.Context, converter.EncodedValues)
	activityCompleted func(*internal.ActivityInfo, converter.EncodedValue, error)
	activityCanceled  func(*internal.ActivityInfo)
	activityHeartbeat func(*internal.ActivityInfo, converter.EncodedValues)
	localStarted      func(*internal.ActivityInfo, context.Context, []any)
	localCompleted    func(*internal.ActivityInfo, converter.EncodedValue, error)
	localCanceled     func(*internal.ActivityInfo)
	childStarted      func(*internal.WorkflowInfo, internal.Context, converter.EncodedValues)
	childCompleted    func(*internal.WorkflowInfo, converter.EncodedValue, error)
	childCanceled     func(*internal.WorkflowInfo)
	timerScheduled    func(timerID string, duration time.Duration)
	timerFired        func(timerID string)
	timerCanceled     func(timerID string)
	nexusStarted      func(service, operation string, input converter.EncodedValue)
	nexusCompleted    func(service, operation string, result converter.EncodedValue, err error)
	nexusCanceled     func(service, operation string)
}

func (l *testListeners) get() listenerSet {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.set
}

func (l *testListeners) update(f func(*listenerSet)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f(&l.set)
}

// start runs the goroutine that delivers timer and activity events.
func (l *testListeners) start(dc converter.DataConverter, fc converter.FailureConverter, identity string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.dc, l.fc, l.identity = dc, fc, identity
	if l.running {
		return
	}
	l.running, l.wake, l.done = true, make(chan struct{}, 1), make(chan struct{})
	go l.deliver(l.wake, l.done)
}

func (l *testListeners) deliver(wake <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	for {
		l.mu.Lock()
		batch, running := l.queue, l.running
		l.queue = nil
		set := l.set
		l.mu.Unlock()
		for _, le := range batch {
			ev := le.ev
			if activityEvent(ev) {
				l.deliverActivityEvent(le.execution, ev, set)
				continue
			}
			if childEndEvent(ev) {
				l.deliverChildEnd(ev, set.childCompleted)
				continue
			}
			if nexusEvent(ev) {
				l.deliverNexusEvent(le.execution, ev, set)
				continue
			}
			switch {
			case ev.GetTimerStartedEventAttributes() != nil && set.timerScheduled != nil:
				a := ev.GetTimerStartedEventAttributes()
				set.timerScheduled(a.GetTimerId(), a.GetStartToFireTimeout().AsDuration())
			case ev.GetTimerFiredEventAttributes() != nil && set.timerFired != nil:
				set.timerFired(ev.GetTimerFiredEventAttributes().GetTimerId())
			case ev.GetTimerCanceledEventAttributes() != nil && set.timerCanceled != nil:
				set.timerCanceled(ev.GetTimerCanceledEventAttributes().GetTimerId())
			}
		}
		if len(batch) > 0 {
			continue
		}
		if !running {
			return
		}
		<-wake
	}
}

// onEvent is the server's OnEvent: it holds the server's lock, so it only
// queues the event.
func (l *testListeners) onEvent(execution *commonpb.WorkflowExecution, ev *historypb.HistoryEvent) {
	timer := ev.GetTimerStartedEventAttributes() != nil || ev.GetTimerFiredEventAttributes() != nil || ev.GetTimerCanceledEventAttributes() != nil
	activity, child, nexusOp := activityEvent(ev), childEndEvent(ev), nexusEvent(ev)
	if !timer && !activity && !child && !nexusOp {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case !l.running:
		return
	case timer && l.set.timerScheduled == nil && l.set.timerFired == nil && l.set.timerCanceled == nil:
		return
	case activity && l.set.activityCompleted == nil && l.set.activityCanceled == nil:
		return
	case child && l.set.childCompleted == nil:
		return
	case nexusOp && l.set.nexusCompleted == nil && l.set.nexusCanceled == nil:
		return
	}
	l.queue = append(l.queue, listenedEvent{execution: execution, ev: ev})
	l.signal()
}

func (l *testListeners) signal() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// drain delivers the events queued so far and ends the goroutine (start
// makes a new one).
func (l *testListeners) drain() {
	l.mu.Lock()
	if !l.running {
		l.mu.Unlock()
		return
	}
	l.running = false
	l.signal()
	done := l.done
	l.mu.Unlock()
	<-done
}

// asFunc turns a function a mock returned into one that takes the call's
// arguments.
func asFunc(v any) (func(args []any) any, bool) {
	f := reflect.ValueOf(v)
	if f.Kind() != reflect.Func || f.Type().NumOut() != 1 {
		return nil, false
	}
	return func(args []any) any {
		in := make([]reflect.Value, f.Type().NumIn())
		for i := range in {
			if i < len(args) && args[i] != nil {
				in[i] = reflect.ValueOf(args[i]).Convert(f.Type().In(i))
			} else {
				in[i] = reflect.Zero(f.Type().In(i))
			}
		}
		return f.Call(in)[0].Interface()
	}, true
}

func typeName(v any) string {
	if v == nil {
		return "nil"
	}
	return reflect.TypeOf(v).String()
}
