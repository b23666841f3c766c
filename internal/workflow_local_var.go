package internal

import "github.com/durable-go/sdk/internal/commands"

// LocalVar is a handle to a value that lives in one workflow run's memory
// (workflow.LocalVar): workflow code and workflow interceptors can share
// it without a context value. Copies of a handle reach the same value.
// The value is rebuilt by replay like any other workflow state and goes to
// no activity, child or continued run.
type LocalVar[T any] struct {
	key *localVarKey
	run *workflowRun
}

// localVarKey identifies one LocalVar; it has a size so that distinct keys
// have distinct addresses.
type localVarKey struct{ _ byte }

// NewLocalVar creates a LocalVar of ctx's run, holding T's zero value.
func NewLocalVar[T any](ctx Context) LocalVar[T] {
	return LocalVar[T]{key: &localVarKey{}, run: runOfLocalVar(ctx)}
}

// Get returns the value last set in ctx's run, or T's zero value.
func (v LocalVar[T]) Get(ctx Context) T {
	v.check(ctx)
	value, _ := v.run.localVars[v.key].(T)
	return value
}

// Set sets the value. Like any change to workflow state it must happen
// the same way on replay, and is refused in read-only code (queries,
// update validators).
func (v LocalVar[T]) Set(ctx Context, value T) {
	v.check(ctx)
	if v.run.readOnly {
		panic(&commands.ReadOnlyError{What: "a workflow.LocalVar change"})
	}
	if v.run.localVars == nil {
		v.run.localVars = map[*localVarKey]any{}
	}
	v.run.localVars[v.key] = value
}

func (v LocalVar[T]) check(ctx Context) {
	if v.key == nil {
		panic("workflow.LocalVar: the zero LocalVar has no value; make one with workflow.NewLocalVar(ctx)")
	}
	if runOfLocalVar(ctx) != v.run {
		panic("workflow.LocalVar: the context is of another workflow run than the one the LocalVar was made in")
	}
}

func runOfLocalVar(ctx Context) *workflowRun {
	if ctx == nil {
		panic("workflow.LocalVar: nil workflow context")
	}
	return runOf(ctx)
}
