package testenv

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/stretchr/testify/mock"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/failure"
)

// MockCallWrapper is one expectation set with OnActivity or another On
// call (testsuite.MockCallWrapper): what it returns, how often, after how
// long on the workflow's clock.
type MockCallWrapper struct {
	call  *mock.Call
	env   *TestWorkflowEnvironment
	runFn func(args mock.Arguments)
	after func() time.Duration
}

// wrap makes the wrapper of a new expectation; every call of it first
// waits its After delay on the virtual clock, then runs its Run function.
func (e *TestWorkflowEnvironment) wrap(call *mock.Call) *MockCallWrapper {
	w := &MockCallWrapper{call: call, env: e}
	call.Run(func(args mock.Arguments) {
		if w.after != nil {
			if d := w.after(); d > 0 {
				e.sleepInMock(args, d)
			}
		}
		if w.runFn != nil {
			w.runFn(args)
		}
	})
	return w
}

// sleepInMock waits d on the virtual clock for a mock call. An activity's
// attempt stops counting as work in flight meanwhile, so the clock can
// skip over the wait.
func (e *TestWorkflowEnvironment) sleepInMock(args mock.Arguments, d time.Duration) {
	var done <-chan struct{}
	if len(args) > 0 {
		if ctx, ok := args[0].(context.Context); ok {
			done = ctx.Done()
			if internal.IsActivity(ctx) {
				e.server.SleepAttempt(internal.GetActivityInfo(ctx).TaskToken, d, done)
				return
			}
		}
	}
	e.clock.Sleep(d, done)
}

// Once makes the expectation match once.
func (c *MockCallWrapper) Once() *MockCallWrapper { return c.Times(1) }

// Twice makes the expectation match twice.
func (c *MockCallWrapper) Twice() *MockCallWrapper { return c.Times(2) }

// Times makes the expectation match i times.
func (c *MockCallWrapper) Times(i int) *MockCallWrapper {
	c.call.Times(i)
	return c
}

// Never makes a matching call fail the test.
func (c *MockCallWrapper) Never() *MockCallWrapper {
	c.call.Maybe()
	c.call.Panic(fmt.Sprintf("unexpected call: %s(%s)", c.call.Method, c.call.Arguments.String()))
	return c
}

// Maybe makes the expectation optional for AssertExpectations.
func (c *MockCallWrapper) Maybe() *MockCallWrapper {
	c.call.Maybe()
	return c
}

// Run sets a function that runs with the call's arguments before it
// returns.
func (c *MockCallWrapper) Run(fn func(args mock.Arguments)) *MockCallWrapper {
	c.runFn = fn
	return c
}

// After makes the call take d on the workflow's clock (skipped over when
// nothing else runs).
func (c *MockCallWrapper) After(d time.Duration) *MockCallWrapper {
	c.after = func() time.Duration { return d }
	return c
}

// AfterFn is After with the delay computed at each call.
func (c *MockCallWrapper) AfterFn(fn func() time.Duration) *MockCallWrapper {
	c.after = fn
	return c
}

// Return sets what the call returns: the mocked function's results, or a
// function of the mocked function's own signature that computes them.
func (c *MockCallWrapper) Return(returnArguments ...any) *MockCallWrapper {
	c.call.Return(returnArguments...)
	return c
}

// Panic makes the call panic with msg.
func (c *MockCallWrapper) Panic(msg string) *MockCallWrapper {
	c.call.Panic(msg)
	return c
}

// NotBefore makes the expectation match only after the given ones were
// called.
func (c *MockCallWrapper) NotBefore(calls ...*MockCallWrapper) *MockCallWrapper {
	c.call.NotBefore(mockCalls(calls)...)
	return c
}

func mockCalls(ws []*MockCallWrapper) []*mock.Call {
	calls := make([]*mock.Call, len(ws))
	for i, w := range ws {
		calls[i] = w.call
	}
	return calls
}

// InOrderMockCalls makes the expectations match only in the given order.
func (e *TestWorkflowEnvironment) InOrderMockCalls(calls ...*MockCallWrapper) {
	mock.InOrder(mockCalls(calls)...)
}

// OnActivity sets an expectation for an activity, given as its function
// or its name, with matchers for its arguments: the first one matches the
// activity's context when the function takes one (use mock.Anything).
// Return gives the results, or a function of the activity's signature.
//
// Unlike go.temporal.io/sdk, an activity mocked by name needs no
// registered function: its signature then comes from the first
// expectation (a Return function's signature; else a context, then the
// types of the argument values given, `any` for matchers, and the types of
// the Return values), and arguments are decoded into those types.
func (e *TestWorkflowEnvironment) OnActivity(activity any, args ...any) *MockCallWrapper {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.mustNotHaveStarted("OnActivity")
	var name string
	switch a := activity.(type) {
	case string:
		name = a
	default:
		if reflect.TypeOf(activity).Kind() != reflect.Func {
			panic(fmt.Sprintf("OnActivity: the activity must be a function or a name, not %T", activity))
		}
		name = e.registry.ActivityTypeOf(activity)
		if !e.registry.IsRegistered("activity", name) {
			if err := e.registry.RegisterActivity(activity, "", true, false); err != nil {
				panic(err)
			}
		}
	}
	e.mockedNames[name] = true
	return e.wrap(e.activityMock.On(name, args...))
}

// installActivityMocks replaces each mocked activity's function in the
// registry by one of the same signature that asks the mock: the worker
// then runs the mock where it would run the activity, inside the
// activity's interceptors, with its real context.
func (e *TestWorkflowEnvironment) installActivityMocks() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	for name := range e.mockedNames {
		fnType := e.synthesizedActivityType(name)
		if fn, err := e.registry.Activity(name); err == nil && !fn.Dynamic {
			fnType = fn.Fn.Type()
		}
		dispatch := reflect.MakeFunc(fnType, func(in []reflect.Value) []reflect.Value {
			return e.callActivityMock(name, fnType, in)
		})
		if err := e.registry.RegisterActivity(dispatch.Interface(), name, true, false); err != nil {
			return fmt.Errorf("mocking activity %q: %w", name, err)
		}
	}
	e.mockedNames = map[string]bool{} // installed; a second worker (for a query) keeps them
	return nil
}

// callActivityMock asks the mock for a call of a mocked activity and turns
// its answer into the function's results. A call that no expectation
// matches (or one marked Never) fails the activity without retries, naming
// the call: retrying could not make it match.
func (e *TestWorkflowEnvironment) callActivityMock(name string, fnType reflect.Type, in []reflect.Value) (out []reflect.Value) {
	args := make([]any, len(in))
	for i, v := range in {
		args[i] = v.Interface()
	}
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		msg := fmt.Sprint(p)
		if !strings.HasPrefix(msg, "mock: ") && !strings.HasPrefix(msg, "unexpected call: ") {
			panic(p)
		}
		out = make([]reflect.Value, fnType.NumOut())
		for i := range out {
			out[i] = reflect.Zero(fnType.Out(i))
		}
		err := failure.NewApplicationErrorWithOptions(fmt.Sprintf("activity %q: %s", name, msg), "UnexpectedMockCall", failure.ApplicationErrorOptions{NonRetryable: true})
		out[len(out)-1] = reflect.ValueOf(&err).Elem()
	}()
	ret := e.activityMock.MethodCalled(name, args...)
	return mockResults(fmt.Sprintf("activity %q", name), fnType, in, ret)
}

// mockResults turns what a mock returned into the results of a function
// of fnType: either the results themselves, or a function of fnType that
// is called with the arguments.
func mockResults(what string, fnType reflect.Type, in []reflect.Value, ret mock.Arguments) []reflect.Value {
	if len(ret) == 1 {
		if f := reflect.ValueOf(ret[0]); f.Kind() == reflect.Func {
			if f.Type() != fnType {
				panic(fmt.Sprintf("the mock of %s returns a function of type %v, but the mocked function is %v", what, f.Type(), fnType))
			}
			return f.Call(in)
		}
	}
	if len(ret) != fnType.NumOut() {
		panic(fmt.Sprintf("the mock of %s returns %d value(s), but the mocked function has %d results %v: give Return one value per result, or a function of the same signature",
			what, len(ret), fnType.NumOut(), resultTypes(fnType)))
	}
	out := make([]reflect.Value, len(ret))
	for i, r := range ret {
		t := fnType.Out(i)
		if r == nil {
			out[i] = reflect.Zero(t)
			continue
		}
		v := reflect.ValueOf(r)
		if !v.Type().AssignableTo(t) {
			panic(fmt.Sprintf("the mock of %s returns %T as result %d, but the mocked function returns %v there", what, r, i+1, t))
		}
		out[i] = reflect.New(t).Elem()
		out[i].Set(v)
	}
	return out
}

func resultTypes(t reflect.Type) []string {
	var s []string
	for i := range t.NumOut() {
		s = append(s, t.Out(i).String())
	}
	return s
}

// synthesizedActivityType is the signature of an activity mocked by name
// that has no registered function (see OnActivity).
func (e *TestWorkflowEnvironment) synthesizedActivityType(name string) reflect.Type {
	var first *mock.Call
	for _, c := range e.activityMock.ExpectedCalls {
		if c.Method == name {
			first = c
			break
		}
	}
	anyType, errType := reflect.TypeFor[any](), reflect.TypeFor[error]()
	if first != nil && len(first.ReturnArguments) == 1 {
		if t := reflect.TypeOf(first.ReturnArguments[0]); t != nil && t.Kind() == reflect.Func {
			return t
		}
	}
	params := []reflect.Type{reflect.TypeFor[context.Context]()}
	results := []reflect.Type{errType}
	if first != nil {
		for _, a := range first.Arguments[min(1, len(first.Arguments)):] {
			if t := reflect.TypeOf(a); t != nil && !isMockMatcher(a) {
				params = append(params, t)
			} else {
				params = append(params, anyType)
			}
		}
		if n := len(first.ReturnArguments); n > 1 {
			results = nil
			for _, r := range first.ReturnArguments[:n-1] {
				if t := reflect.TypeOf(r); t != nil {
					results = append(results, t)
				} else {
					results = append(results, anyType)
				}
			}
			results = append(results, errType)
		}
	}
	return reflect.FuncOf(params, results, false)
}

// isMockMatcher reports testify's argument matchers, which say nothing of
// the argument's type.
func isMockMatcher(a any) bool {
	if s, ok := a.(string); ok && s == mock.Anything {
		return true
	}
	return strings.HasPrefix(reflect.TypeOf(a).String(), "mock.") || strings.HasPrefix(reflect.TypeOf(a).String(), "*mock.")
}

// OnGetVersion sets the version workflow.GetVersion returns for changeID
// (mock.Anything for every change), recorded in history as the workflow's
// choice.
func (e *TestWorkflowEnvironment) OnGetVersion(changeID string, minSupported, maxSupported internal.Version) *MockCallWrapper {
	return e.wrap(e.workflowMock.On(mockMethodGetVersion+"_"+changeID, changeID, minSupported, maxSupported))
}

// OnSideEffect sets the value workflow.SideEffect returns, in the order
// side effects run.
func (e *TestWorkflowEnvironment) OnSideEffect() *MockCallWrapper {
	return e.wrap(e.workflowMock.On(mockMethodSideEffect))
}

// OnMutableSideEffect sets the value workflow.MutableSideEffect returns for
// id (mock.Anything for any).
func (e *TestWorkflowEnvironment) OnMutableSideEffect(id string) *MockCallWrapper {
	return e.wrap(e.workflowMock.On(mockMethodMutableSideEffect, id))
}

// OnUpsertSearchAttributes sets an expectation for
// workflow.UpsertSearchAttributes; once set, every call must match one.
func (e *TestWorkflowEnvironment) OnUpsertSearchAttributes(attributes any) *MockCallWrapper {
	return e.wrap(e.workflowMock.On(mockMethodUpsertSearchAttributes, attributes))
}

// OnUpsertTypedSearchAttributes sets an expectation for
// workflow.UpsertTypedSearchAttributes, called with the
// temporal.SearchAttributes the updates make.
func (e *TestWorkflowEnvironment) OnUpsertTypedSearchAttributes(attributes any) *MockCallWrapper {
	return e.wrap(e.workflowMock.On(mockMethodUpsertTypedSearchAttributes, attributes))
}

// OnUpsertMemo sets an expectation for workflow.UpsertMemo.
func (e *TestWorkflowEnvironment) OnUpsertMemo(attributes any) *MockCallWrapper {
	return e.wrap(e.workflowMock.On(mockMethodUpsertMemo, attributes))
}

// The mock method names of workflow calls, as go.temporal.io/sdk names
// them, so that AssertCalled works with the same names.
const (
	mockMethodGetVersion                  = "workflow.GetVersion"
	mockMethodSideEffect                  = "workflow.SideEffect"
	mockMethodMutableSideEffect           = "workflow.MutableSideEffect"
	mockMethodUpsertSearchAttributes      = "workflow.UpsertSearchAttributes"
	mockMethodUpsertTypedSearchAttributes = "workflow.UpsertTypedSearchAttributes"
	mockMethodUpsertMemo                  = "workflow.UpsertMemo"
)

// hasExpectation reports whether a workflow call has expectations.
func (e *TestWorkflowEnvironment) hasExpectation(method string) bool {
	for _, c := range e.workflowMock.ExpectedCalls {
		if c.Method == method {
			return true
		}
	}
	return false
}

// AssertExpectations asserts that every expectation was met.
func (e *TestWorkflowEnvironment) AssertExpectations(t mock.TestingT) bool {
	return e.activityMock.AssertExpectations(t) && e.workflowMock.AssertExpectations(t) && e.nexusMock.AssertExpectations(t)
}

// AssertCalled asserts that a mocked method (an activity type, or a
// workflow call's mock name) was called with the arguments.
func (e *TestWorkflowEnvironment) AssertCalled(t mock.TestingT, methodName string, arguments ...any) bool {
	return e.mockOf(methodName).AssertCalled(t, methodName, arguments...)
}

// AssertNotCalled asserts that a mocked method was not called with the
// arguments.
func (e *TestWorkflowEnvironment) AssertNotCalled(t mock.TestingT, methodName string, arguments ...any) bool {
	return e.mockOf(methodName).AssertNotCalled(t, methodName, arguments...)
}

// AssertNumberOfCalls asserts how often a mocked method was called.
func (e *TestWorkflowEnvironment) AssertNumberOfCalls(t mock.TestingT, methodName string, expectedCalls int) bool {
	return e.mockOf(methodName).AssertNumberOfCalls(t, methodName, expectedCalls)
}

// AssertActivityCalled asserts that an activity was called with the
// arguments.
func (e *TestWorkflowEnvironment) AssertActivityCalled(t mock.TestingT, activityName string, arguments ...any) bool {
	return e.activityMock.AssertCalled(t, activityName, arguments...)
}

// AssertActivityNotCalled asserts that an activity was not called with
// the arguments.
func (e *TestWorkflowEnvironment) AssertActivityNotCalled(t mock.TestingT, activityName string, arguments ...any) bool {
	return e.activityMock.AssertNotCalled(t, activityName, arguments...)
}

// AssertActivityNumberOfCalls asserts how often an activity was called.
func (e *TestWorkflowEnvironment) AssertActivityNumberOfCalls(t mock.TestingT, activityName string, expectedCalls int) bool {
	return e.activityMock.AssertNumberOfCalls(t, activityName, expectedCalls)
}

func (e *TestWorkflowEnvironment) mockOf(method string) *mock.Mock {
	if strings.HasPrefix(method, "workflow.") {
		return &e.workflowMock
	}
	return &e.activityMock
}
