package typedtest

import (
	"errors"

	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/typed"
	"github.com/durable-go/sdk/workflow"
)

// This file runs workflows in the test environment. Each call has one
// form per shape of workflow function, as typed.ExecuteWorkflow does: no
// suffix for a workflow of one argument after its context, 0, 2 or 3 for
// that many, and NoResult for one that returns only an error.

// result is how the environment's run ended, typed: what
// env.GetWorkflowResult decodes, or the workflow's error.
func result[R any](env *testsuite.TestWorkflowEnvironment) (R, error) {
	var r R
	if !env.IsWorkflowCompleted() {
		return r, errors.New("typedtest: the workflow did not complete")
	}
	var target any = &r
	if _, none := target.(*typed.None); none {
		target = nil
	}
	err := env.GetWorkflowResult(target)
	return r, err
}

// ExecuteWorkflow runs the workflow fn with the argument a in env until
// it ends, as env.ExecuteWorkflow(fn, a) does, and returns its result or
// its error, as env.GetWorkflowResult does. The compiler checks a and the
// result type against fn.
//
//	greeting, err := typedtest.ExecuteWorkflow(env, Greeting, "Temporal")
func ExecuteWorkflow[A, R any](env *testsuite.TestWorkflowEnvironment, fn func(workflow.Context, A) (R, error), a A) (R, error) {
	env.ExecuteWorkflow(fn, a)
	return result[R](env)
}

// ExecuteWorkflow0 is ExecuteWorkflow for a workflow that takes no
// argument after its context.
func ExecuteWorkflow0[R any](env *testsuite.TestWorkflowEnvironment, fn func(workflow.Context) (R, error)) (R, error) {
	env.ExecuteWorkflow(fn)
	return result[R](env)
}

// ExecuteWorkflow2 is ExecuteWorkflow for a workflow of two arguments.
func ExecuteWorkflow2[A1, A2, R any](env *testsuite.TestWorkflowEnvironment, fn func(workflow.Context, A1, A2) (R, error), a1 A1, a2 A2) (R, error) {
	env.ExecuteWorkflow(fn, a1, a2)
	return result[R](env)
}

// ExecuteWorkflow3 is ExecuteWorkflow for a workflow of three arguments.
func ExecuteWorkflow3[A1, A2, A3, R any](env *testsuite.TestWorkflowEnvironment, fn func(workflow.Context, A1, A2, A3) (R, error), a1 A1, a2 A2, a3 A3) (R, error) {
	env.ExecuteWorkflow(fn, a1, a2, a3)
	return result[R](env)
}

// ExecuteWorkflowNoResult is ExecuteWorkflow for a workflow that returns
// only an error; it returns that error.
func ExecuteWorkflowNoResult[A any](env *testsuite.TestWorkflowEnvironment, fn func(workflow.Context, A) error, a A) error {
	env.ExecuteWorkflow(fn, a)
	_, err := result[typed.None](env)
	return err
}

// ExecuteWorkflowNoResult0 is ExecuteWorkflowNoResult for a workflow that
// takes no argument after its context.
func ExecuteWorkflowNoResult0(env *testsuite.TestWorkflowEnvironment, fn func(workflow.Context) error) error {
	env.ExecuteWorkflow(fn)
	_, err := result[typed.None](env)
	return err
}

// ExecuteWorkflowNoResult2 is ExecuteWorkflowNoResult for a workflow of
// two arguments.
func ExecuteWorkflowNoResult2[A1, A2 any](env *testsuite.TestWorkflowEnvironment, fn func(workflow.Context, A1, A2) error, a1 A1, a2 A2) error {
	env.ExecuteWorkflow(fn, a1, a2)
	_, err := result[typed.None](env)
	return err
}

// ExecuteWorkflowNoResult3 is ExecuteWorkflowNoResult for a workflow of
// three arguments.
func ExecuteWorkflowNoResult3[A1, A2, A3 any](env *testsuite.TestWorkflowEnvironment, fn func(workflow.Context, A1, A2, A3) error, a1 A1, a2 A2, a3 A3) error {
	env.ExecuteWorkflow(fn, a1, a2, a3)
	_, err := result[typed.None](env)
	return err
}

// GetWorkflowResultByID returns the result of the workflow workflowID of
// the test (the test's workflow or one of its children), as
// env.GetWorkflowResultByID does, decoded into an R.
func GetWorkflowResultByID[R any](env *testsuite.TestWorkflowEnvironment, workflowID string) (R, error) {
	var r R
	var target any = &r
	if _, none := target.(*typed.None); none {
		target = nil
	}
	err := env.GetWorkflowResultByID(workflowID, target)
	return r, err
}
