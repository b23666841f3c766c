package testenv

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"time"

	"github.com/stretchr/testify/mock"
	commandpb "go.temporal.io/api/command/v1"
	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/registry"
)

// ErrMockStartChildWorkflowFailed, returned by a child workflow's mock,
// makes the child fail to start, as if its workflow ID were taken
// (testsuite.ErrMockStartChildWorkflowFailed).
var ErrMockStartChildWorkflowFailed = fmt.Errorf("start child workflow failed: %v", enumspb.START_CHILD_WORKFLOW_EXECUTION_FAILED_CAUSE_WORKFLOW_ALREADY_EXISTS)

// childMocks holds what the mocks of mocked workflows answered. A
// child's mock is asked as the child starts (its answer may refuse the
// start), and that answer waits for the code of the child's first run;
// each later run of the child (a retry, the next cron run) asks the mock
// again as its code starts, as go.temporal.io/sdk asks for every run.
// Answers are kept by run, so that a run replayed from its history gets
// the answer it had.
type childMocks struct {
	mu       sync.Mutex
	mocked   map[string]bool        // workflow types with expectations
	starting map[string]childAnswer // by child workflow ID: for its first run
	answers  map[string]childAnswer // by run ID
	matched  *MockCallWrapper       // the expectation the last call matched
}

type childAnswer struct {
	ret   mock.Arguments
	after time.Duration
}

// OnWorkflow sets an expectation for a child workflow, given as its
// function or its type name, with matchers for its arguments: the first
// matches the child's context (use mock.Anything). Return gives the
// child's results, or a function of the workflow's signature;
// ErrMockStartChildWorkflowFailed makes the child fail to start. The mock
// is asked when the child starts; the child then runs on the worker,
// returning what the mock said (after After's delay, on the workflow
// clock), so its history is a real child's.
func (e *TestWorkflowEnvironment) OnWorkflow(workflow any, args ...any) *MockCallWrapper {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.mustNotHaveStarted("OnWorkflow")
	var name string
	switch w := workflow.(type) {
	case string:
		name = w
	default:
		if reflect.TypeOf(workflow).Kind() != reflect.Func {
			panic(fmt.Sprintf("OnWorkflow: the workflow must be a function or a name, not %T", workflow))
		}
		name = e.registry.WorkflowTypeOf(workflow)
		if !e.registry.IsRegistered("workflow", name) {
			if err := e.registry.RegisterWorkflow(workflow, "", true); err != nil {
				panic(err)
			}
		}
	}
	if e.children.mocked == nil {
		e.children.mocked = make(map[string]bool)
		e.children.starting = make(map[string]childAnswer)
		e.children.answers = make(map[string]childAnswer)
	}
	e.children.mocked[name] = true
	w := &MockCallWrapper{call: e.workflowMock.On(name, args...), env: e}
	w.call.Run(func(args mock.Arguments) {
		e.children.matched = w
		if w.runFn != nil {
			w.runFn(args)
		}
	})
	return w
}

// installWorkflowMocks replaces each mocked workflow's function in the
// registry by one of the same signature that returns what the mock
// answered when the child started.
func (e *TestWorkflowEnvironment) installWorkflowMocks() error {
	e.children.mu.Lock()
	defer e.children.mu.Unlock()
	for name := range e.children.mocked {
		fnType := reflect.TypeOf(func(internal.Context) error { return nil })
		if fn, err := e.registry.Workflow(name); err == nil && !fn.Dynamic {
			fnType = fn.Fn.Type()
		} else if t := e.returnFuncType(name); t != nil {
			fnType = t
		}
		name := name
		mocked := reflect.MakeFunc(fnType, func(in []reflect.Value) []reflect.Value {
			return e.runWorkflowMock(name, fnType, in)
		})
		if err := e.registry.RegisterWorkflow(mocked.Interface(), name, true); err != nil {
			return fmt.Errorf("mocking workflow %q: %w", name, err)
		}
	}
	return nil
}

// returnFuncType is the signature of a workflow mocked by name whose
// first expectation returns a function.
func (e *TestWorkflowEnvironment) returnFuncType(name string) reflect.Type {
	for _, c := range e.workflowMock.ExpectedCalls {
		if c.Method == name && len(c.ReturnArguments) == 1 {
			if t := reflect.TypeOf(c.ReturnArguments[0]); t != nil && t.Kind() == reflect.Func {
				return t
			}
		}
	}
	return nil
}

// askChildMock is the server's StartChild hook: it asks the mock of a
// mocked child type as the child starts, and keeps the answer for the
// child's code. false refuses the start.
func (e *TestWorkflowEnvironment) askChildMock(a *commandpb.StartChildWorkflowExecutionCommandAttributes) bool {
	name := a.GetWorkflowType().GetName()
	e.children.mu.Lock()
	defer e.children.mu.Unlock()
	if !e.children.mocked[name] {
		return true
	}
	args := []any{nil} // the child's context does not exist yet
	if fn, err := e.registry.Workflow(name); err == nil {
		dc, _ := e.workflowConverters(a.GetWorkflowId()) // the child's input is converted with its context
		values, err := fn.DecodeArgs(dc, a.GetInput(), "child workflow")
		if err != nil {
			panic(fmt.Sprintf("OnWorkflow(%q): %v", name, err))
		}
		args = append(args, registry.Interfaces(values)...)
	}
	answer := e.askWorkflowMockLocked(name, args)
	for _, r := range answer.ret {
		if err, ok := r.(error); ok && errors.Is(err, ErrMockStartChildWorkflowFailed) {
			return false
		}
	}
	e.children.starting[a.GetWorkflowId()] = answer
	return true
}

// askWorkflowMockLocked asks the mock of a workflow type, with the
// children's lock held, and notes the delay its expectation sets.
func (e *TestWorkflowEnvironment) askWorkflowMockLocked(name string, args []any) childAnswer {
	e.children.matched = nil
	ret := e.workflowMock.MethodCalled(name, args...)
	var after time.Duration
	if w := e.children.matched; w != nil && w.after != nil {
		after = w.after()
	}
	return childAnswer{ret: ret, after: after}
}

// workflowMockAnswer is the answer a mocked workflow's run returns: the
// one it had (a replay), the one its start got (a child's first run), or
// the mock's answer now (a child's later run, or the test's own
// workflow).
func (e *TestWorkflowEnvironment) workflowMockAnswer(name string, info *internal.WorkflowInfo, in []reflect.Value) childAnswer {
	e.children.mu.Lock()
	defer e.children.mu.Unlock()
	runID := info.WorkflowExecution.RunID
	if answer, ok := e.children.answers[runID]; ok {
		return answer
	}
	answer, ok := e.children.starting[info.WorkflowExecution.ID]
	if ok {
		delete(e.children.starting, info.WorkflowExecution.ID)
	} else {
		args := make([]any, len(in))
		for i, v := range in {
			args[i] = v.Interface()
		}
		answer = e.askWorkflowMockLocked(name, args)
	}
	e.children.answers[runID] = answer
	return answer
}

// runWorkflowMock is the code of a mocked workflow: it waits the mock's
// delay and returns its answer.
func (e *TestWorkflowEnvironment) runWorkflowMock(name string, fnType reflect.Type, in []reflect.Value) []reflect.Value {
	ctx := in[0].Interface().(internal.Context)
	answer := e.workflowMockAnswer(name, internal.GetInfo(ctx), in)
	if answer.after > 0 {
		if err := internal.Sleep(ctx, answer.after); err != nil {
			out := make([]reflect.Value, fnType.NumOut())
			for i := range out {
				out[i] = reflect.Zero(fnType.Out(i))
			}
			out[len(out)-1] = reflect.ValueOf(&err).Elem()
			return out
		}
	}
	return mockResults(fmt.Sprintf("workflow %q", name), fnType, in, answer.ret)
}

// AssertWorkflowCalled asserts that a child workflow was started with the
// arguments.
func (e *TestWorkflowEnvironment) AssertWorkflowCalled(t mock.TestingT, workflowName string, arguments ...any) bool {
	return e.workflowMock.AssertCalled(t, workflowName, arguments...)
}

// AssertWorkflowNotCalled asserts that no child workflow was started with
// the arguments.
func (e *TestWorkflowEnvironment) AssertWorkflowNotCalled(t mock.TestingT, workflowName string, arguments ...any) bool {
	return e.workflowMock.AssertNotCalled(t, workflowName, arguments...)
}

// AssertWorkflowNumberOfCalls asserts how often a child workflow was
// started.
func (e *TestWorkflowEnvironment) AssertWorkflowNumberOfCalls(t mock.TestingT, workflowName string, expectedCalls int) bool {
	return e.workflowMock.AssertNumberOfCalls(t, workflowName, expectedCalls)
}

// SetDetachedChildWait says whether ExecuteWorkflow, once the workflow
// ended, waits for the children it left running under the abandon or
// request-cancel parent close policies (true, the default).
func (e *TestWorkflowEnvironment) SetDetachedChildWait(detachedChildWait bool) *TestWorkflowEnvironment {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.noDetachedChildWait = !detachedChildWait
	return e
}

// SetOnChildWorkflowStartedListener sets a function called as each child
// workflow starts, with its info, context and arguments.
func (e *TestWorkflowEnvironment) SetOnChildWorkflowStartedListener(listener func(workflowInfo *internal.WorkflowInfo, ctx internal.Context, args converter.EncodedValues)) *TestWorkflowEnvironment {
	e.listeners.update(func(s *listenerSet) { s.childStarted = listener })
	return e
}

// SetOnChildWorkflowCompletedListener sets a function called once for each
// child workflow, when its parent gets its outcome: at the end of its
// chain of runs (after its retries, continue-as-new and cron runs; a cron
// child that runs until its parent ends is never heard of), with the info
// of its last run and the result, or the error the parent gets (a
// *ChildWorkflowExecutionError wrapping the cause, a cancellation
// included), as in go.temporal.io/sdk.
func (e *TestWorkflowEnvironment) SetOnChildWorkflowCompletedListener(listener func(workflowInfo *internal.WorkflowInfo, result converter.EncodedValue, err error)) *TestWorkflowEnvironment {
	e.listeners.update(func(s *listenerSet) { s.childCompleted = listener })
	return e
}

// SetOnChildWorkflowCanceledListener sets a function called when a child
// workflow ends canceled.
func (e *TestWorkflowEnvironment) SetOnChildWorkflowCanceledListener(listener func(workflowInfo *internal.WorkflowInfo)) *TestWorkflowEnvironment {
	e.listeners.update(func(s *listenerSet) { s.childCanceled = listener })
	return e
}

// OnSignalExternalWorkflow sets an expectation for a signal the workflow
// sends to another workflow; a mocked signal is not sent, and its future
// gets the mock's error.
func (e *TestWorkflowEnvironment) OnSignalExternalWorkflow(namespace, workflowID, runID, signalName, arg any) *MockCallWrapper {
	return e.wrap(e.workflowMock.On(mockMethodSignalExternalWorkflow, namespace, workflowID, runID, signalName, arg))
}

// OnRequestCancelExternalWorkflow sets an expectation for a cancel request
// the workflow sends to another workflow; a mocked request is not sent,
// and its future gets the mock's error.
func (e *TestWorkflowEnvironment) OnRequestCancelExternalWorkflow(namespace, workflowID, runID string) *MockCallWrapper {
	return e.wrap(e.workflowMock.On(mockMethodRequestCancelExternalWorkflow, namespace, workflowID, runID))
}

// The mock method names of signals and cancels to other workflows, as
// go.temporal.io/sdk names them.
const (
	mockMethodSignalExternalWorkflow        = "workflow.SignalExternalWorkflow"
	mockMethodRequestCancelExternalWorkflow = "workflow.RequestCancelExternalWorkflow"
)

// externalCalls remembers, per run, what the mocks of its signals and
// cancel requests answered: mocked calls send no command, so a replay of
// the run must give each call its recorded answer rather than ask again.
type externalCalls struct {
	mu      sync.Mutex
	answers map[string][]error // by run ID, in call order
}

func (x *externalCalls) record(runID string, err error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.answers == nil {
		x.answers = make(map[string][]error)
	}
	x.answers[runID] = append(x.answers[runID], err)
}

func (x *externalCalls) recorded(runID string, i int) (error, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if i < len(x.answers[runID]) {
		return x.answers[runID][i], true
	}
	return nil, false
}

// mockedExternal answers a mocked signal or cancel request: in replay what
// it answered the first time, else the mock's error.
func (w *testWorkflowOutbound) mockedExternal(ctx internal.Context, method string, args ...any) (internal.Future, bool) {
	if !w.env.hasExpectation(method) {
		return nil, false
	}
	runID := w.Next.GetInfo(ctx).WorkflowExecution.RunID
	i := w.externalCalls
	w.externalCalls++
	if w.Next.IsReplaying(ctx) {
		if err, ok := w.env.external.recorded(runID, i); ok {
			return settledFuture(ctx, err), true
		}
	}
	err := mockError(w.env.workflowMock.MethodCalled(method, args...))
	w.env.external.record(runID, err)
	return settledFuture(ctx, err), true
}

// settledFuture is a future already settled with err (nil: done).
func settledFuture(ctx internal.Context, err error) internal.Future {
	f, settable := internal.NewFuture(ctx)
	settable.Set(nil, err)
	return f
}

// SignalExternalWorkflow and RequestCancelExternalWorkflow, with options
// or not, ask the same mock, as in the official test environment, and
// pass the call on as it came.
func (w *testWorkflowOutbound) SignalExternalWorkflow(ctx internal.Context, workflowID, runID, signalName string, arg any) internal.Future {
	ns := internal.GetChildWorkflowOptions(ctx).Namespace
	if f, ok := w.mockedExternal(ctx, mockMethodSignalExternalWorkflow, ns, workflowID, runID, signalName, arg); ok {
		return f
	}
	return w.Next.SignalExternalWorkflow(ctx, workflowID, runID, signalName, arg)
}

func (w *testWorkflowOutbound) SignalExternalWorkflowWithOptions(ctx internal.Context, workflowID, runID, signalName string, arg any, options internal.SignalExternalWorkflowOptions) internal.Future {
	ns := internal.GetChildWorkflowOptions(ctx).Namespace
	if f, ok := w.mockedExternal(ctx, mockMethodSignalExternalWorkflow, ns, workflowID, runID, signalName, arg); ok {
		return f
	}
	return w.Next.SignalExternalWorkflowWithOptions(ctx, workflowID, runID, signalName, arg, options)
}

func (w *testWorkflowOutbound) RequestCancelExternalWorkflow(ctx internal.Context, workflowID, runID string) internal.Future {
	ns := internal.GetChildWorkflowOptions(ctx).Namespace
	if f, ok := w.mockedExternal(ctx, mockMethodRequestCancelExternalWorkflow, ns, workflowID, runID); ok {
		return f
	}
	return w.Next.RequestCancelExternalWorkflow(ctx, workflowID, runID)
}

func (w *testWorkflowOutbound) RequestCancelExternalWorkflowWithOptions(ctx internal.Context, workflowID, runID string, options internal.CancelExternalWorkflowOptions) internal.Future {
	ns := internal.GetChildWorkflowOptions(ctx).Namespace
	if f, ok := w.mockedExternal(ctx, mockMethodRequestCancelExternalWorkflow, ns, workflowID, runID); ok {
		return f
	}
	return w.Next.RequestCancelExternalWorkflowWithOptions(ctx, workflowID, runID, options)
}

// ExecuteWorkflow tells the child listeners about children.
func (w *testWorkflowInbound) ExecuteWorkflow(ctx internal.Context, in *internal.ExecuteWorkflowInput) (any, error) {
	info := internal.GetInfo(ctx)
	isChild := info.ParentWorkflowExecution != nil
	set := w.env.listeners.get()
	if isChild && set.childStarted != nil && !internal.IsReplaying(ctx) {
		p, _ := w.env.dc.ToPayloads(in.Args...)
		set.childStarted(info, ctx, failure.NewEncodedValues(p, w.env.dc))
	}
	if isChild && !internal.IsReplaying(ctx) {
		w.env.listeners.seenChildRun(info) // for the completed listener, which its parent's history drives
	}
	result, err := w.Next.ExecuteWorkflow(ctx, in)
	var canceled *failure.CanceledError
	if isChild && !internal.IsReplaying(ctx) && set.childCanceled != nil && errors.As(err, &canceled) {
		set.childCanceled(info)
	}
	return result, err
}
