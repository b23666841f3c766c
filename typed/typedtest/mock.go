package typedtest

import (
	"context"
	"time"

	"github.com/stretchr/testify/mock"

	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/typed"
	"github.com/durable-go/sdk/workflow"
)

// MockCall is an expectation of an activity call, set with OnActivity, or
// of a child workflow, set with OnWorkflow: what the call returns, typed
// by the function F, whose result is an R. It wraps the untyped
// testsuite.MockCallWrapper (Untyped), which has the rest (Run,
// NotBefore, ...).
type MockCall[F, R any] struct {
	call *testsuite.MockCallWrapper
}

// Return makes the call return result and err. For a function that
// returns only an error, result is typed.None{}. For a child workflow,
// testsuite.ErrMockStartChildWorkflowFailed as err makes the child fail
// to start.
func (m MockCall[F, R]) Return(result R, err error) MockCall[F, R] {
	if _, none := any(&result).(*typed.None); none {
		m.call.Return(err)
	} else {
		m.call.Return(result, err)
	}
	return m
}

// ReturnFunc makes the call run fn, which has the activity's or the
// workflow's own signature, with the call's arguments, and return what it
// returns.
func (m MockCall[F, R]) ReturnFunc(fn F) MockCall[F, R] {
	m.call.Return(fn)
	return m
}

// Once makes the expectation match one call only.
func (m MockCall[F, R]) Once() MockCall[F, R] { m.call.Once(); return m }

// Twice makes the expectation match two calls only.
func (m MockCall[F, R]) Twice() MockCall[F, R] { m.call.Twice(); return m }

// Times makes the expectation match n calls only.
func (m MockCall[F, R]) Times(n int) MockCall[F, R] { m.call.Times(n); return m }

// Never makes any matching call fail.
func (m MockCall[F, R]) Never() MockCall[F, R] { m.call.Never(); return m }

// Maybe makes the expectation optional for env.AssertExpectations.
func (m MockCall[F, R]) Maybe() MockCall[F, R] { m.call.Maybe(); return m }

// After makes each matching call take d on the workflow's clock.
func (m MockCall[F, R]) After(d time.Duration) MockCall[F, R] { m.call.After(d); return m }

// Untyped returns the testsuite.MockCallWrapper this expectation wraps.
func (m MockCall[F, R]) Untyped() *testsuite.MockCallWrapper { return m.call }

// OnActivity expects a call of the activity fn whose argument matches a
// (a value, or a testify matcher such as mock.Anything), as
// env.OnActivity(fn, mock.Anything, a) does: the activity's context
// matches anything. Return's types come from fn, so the compiler checks
// them, and the number of matchers is the number of fn's arguments.
//
//	typedtest.OnActivity(env, Greet, "Temporal").Return("Hi!", nil).Once()
func OnActivity[A, R any](env *testsuite.TestWorkflowEnvironment, fn func(context.Context, A) (R, error), a any) MockCall[func(context.Context, A) (R, error), R] {
	return MockCall[func(context.Context, A) (R, error), R]{call: env.OnActivity(fn, mock.Anything, a)}
}

// OnActivity0 is OnActivity for an activity that takes no argument after
// its context.
func OnActivity0[R any](env *testsuite.TestWorkflowEnvironment, fn func(context.Context) (R, error)) MockCall[func(context.Context) (R, error), R] {
	return MockCall[func(context.Context) (R, error), R]{call: env.OnActivity(fn, mock.Anything)}
}

// OnActivity2 is OnActivity for an activity of two arguments.
func OnActivity2[A1, A2, R any](env *testsuite.TestWorkflowEnvironment, fn func(context.Context, A1, A2) (R, error), a1, a2 any) MockCall[func(context.Context, A1, A2) (R, error), R] {
	return MockCall[func(context.Context, A1, A2) (R, error), R]{call: env.OnActivity(fn, mock.Anything, a1, a2)}
}

// OnActivity3 is OnActivity for an activity of three arguments.
func OnActivity3[A1, A2, A3, R any](env *testsuite.TestWorkflowEnvironment, fn func(context.Context, A1, A2, A3) (R, error), a1, a2, a3 any) MockCall[func(context.Context, A1, A2, A3) (R, error), R] {
	return MockCall[func(context.Context, A1, A2, A3) (R, error), R]{call: env.OnActivity(fn, mock.Anything, a1, a2, a3)}
}

// OnActivityNoResult is OnActivity for an activity that returns only an
// error: Return(typed.None{}, err).
func OnActivityNoResult[A any](env *testsuite.TestWorkflowEnvironment, fn func(context.Context, A) error, a any) MockCall[func(context.Context, A) error, typed.None] {
	return MockCall[func(context.Context, A) error, typed.None]{call: env.OnActivity(fn, mock.Anything, a)}
}

// OnActivityNoResult0 is OnActivityNoResult for an activity that takes no
// argument after its context.
func OnActivityNoResult0(env *testsuite.TestWorkflowEnvironment, fn func(context.Context) error) MockCall[func(context.Context) error, typed.None] {
	return MockCall[func(context.Context) error, typed.None]{call: env.OnActivity(fn, mock.Anything)}
}

// OnActivityNoResult2 is OnActivityNoResult for an activity of two
// arguments.
func OnActivityNoResult2[A1, A2 any](env *testsuite.TestWorkflowEnvironment, fn func(context.Context, A1, A2) error, a1, a2 any) MockCall[func(context.Context, A1, A2) error, typed.None] {
	return MockCall[func(context.Context, A1, A2) error, typed.None]{call: env.OnActivity(fn, mock.Anything, a1, a2)}
}

// OnActivityNoResult3 is OnActivityNoResult for an activity of three
// arguments.
func OnActivityNoResult3[A1, A2, A3 any](env *testsuite.TestWorkflowEnvironment, fn func(context.Context, A1, A2, A3) error, a1, a2, a3 any) MockCall[func(context.Context, A1, A2, A3) error, typed.None] {
	return MockCall[func(context.Context, A1, A2, A3) error, typed.None]{call: env.OnActivity(fn, mock.Anything, a1, a2, a3)}
}

// OnWorkflow expects a child workflow fn to be started with an argument
// that matches a (a value, or a testify matcher such as mock.Anything),
// as env.OnWorkflow(fn, mock.Anything, a) does: the child's context
// matches anything. Return's types come from fn, so the compiler checks
// them. The child then runs as a real child that returns what the mock
// said, so the parent's history is that of a real child.
//
//	typedtest.OnWorkflow(env, ShipParcel, "books").Return("T-1", nil) // Return(42, nil) would not compile
func OnWorkflow[A, R any](env *testsuite.TestWorkflowEnvironment, fn func(workflow.Context, A) (R, error), a any) MockCall[func(workflow.Context, A) (R, error), R] {
	return MockCall[func(workflow.Context, A) (R, error), R]{call: env.OnWorkflow(fn, mock.Anything, a)}
}

// OnWorkflow0 is OnWorkflow for a workflow that takes no argument after
// its context.
func OnWorkflow0[R any](env *testsuite.TestWorkflowEnvironment, fn func(workflow.Context) (R, error)) MockCall[func(workflow.Context) (R, error), R] {
	return MockCall[func(workflow.Context) (R, error), R]{call: env.OnWorkflow(fn, mock.Anything)}
}

// OnWorkflow2 is OnWorkflow for a workflow of two arguments.
func OnWorkflow2[A1, A2, R any](env *testsuite.TestWorkflowEnvironment, fn func(workflow.Context, A1, A2) (R, error), a1, a2 any) MockCall[func(workflow.Context, A1, A2) (R, error), R] {
	return MockCall[func(workflow.Context, A1, A2) (R, error), R]{call: env.OnWorkflow(fn, mock.Anything, a1, a2)}
}

// OnWorkflow3 is OnWorkflow for a workflow of three arguments.
func OnWorkflow3[A1, A2, A3, R any](env *testsuite.TestWorkflowEnvironment, fn func(workflow.Context, A1, A2, A3) (R, error), a1, a2, a3 any) MockCall[func(workflow.Context, A1, A2, A3) (R, error), R] {
	return MockCall[func(workflow.Context, A1, A2, A3) (R, error), R]{call: env.OnWorkflow(fn, mock.Anything, a1, a2, a3)}
}

// OnWorkflowNoResult is OnWorkflow for a workflow that returns only an
// error: Return(typed.None{}, err).
func OnWorkflowNoResult[A any](env *testsuite.TestWorkflowEnvironment, fn func(workflow.Context, A) error, a any) MockCall[func(workflow.Context, A) error, typed.None] {
	return MockCall[func(workflow.Context, A) error, typed.None]{call: env.OnWorkflow(fn, mock.Anything, a)}
}

// OnWorkflowNoResult0 is OnWorkflowNoResult for a workflow that takes no
// argument after its context.
func OnWorkflowNoResult0(env *testsuite.TestWorkflowEnvironment, fn func(workflow.Context) error) MockCall[func(workflow.Context) error, typed.None] {
	return MockCall[func(workflow.Context) error, typed.None]{call: env.OnWorkflow(fn, mock.Anything)}
}

// OnWorkflowNoResult2 is OnWorkflowNoResult for a workflow of two
// arguments.
func OnWorkflowNoResult2[A1, A2 any](env *testsuite.TestWorkflowEnvironment, fn func(workflow.Context, A1, A2) error, a1, a2 any) MockCall[func(workflow.Context, A1, A2) error, typed.None] {
	return MockCall[func(workflow.Context, A1, A2) error, typed.None]{call: env.OnWorkflow(fn, mock.Anything, a1, a2)}
}

// OnWorkflowNoResult3 is OnWorkflowNoResult for a workflow of three
// arguments.
func OnWorkflowNoResult3[A1, A2, A3 any](env *testsuite.TestWorkflowEnvironment, fn func(workflow.Context, A1, A2, A3) error, a1, a2, a3 any) MockCall[func(workflow.Context, A1, A2, A3) error, typed.None] {
	return MockCall[func(workflow.Context, A1, A2, A3) error, typed.None]{call: env.OnWorkflow(fn, mock.Anything, a1, a2, a3)}
}
