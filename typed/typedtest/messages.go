package typedtest

import (
	"errors"
	"fmt"
	"sync"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/typed"
)

// SignalWorkflow sends the signal with payload v to the test's workflow,
// as env.SignalWorkflow(signal.Name(), v) does: call it from a delayed
// callback (env.RegisterDelayedCallback), or before ExecuteWorkflow to
// deliver it as the workflow starts.
func SignalWorkflow[T any](env *testsuite.TestWorkflowEnvironment, signal typed.Signal[T], v T) {
	var payload any = v
	if _, none := payload.(typed.None); none {
		payload = nil
	}
	env.SignalWorkflow(signal.Name(), payload)
}

// QueryWorkflow asks the test's workflow the query with the argument a
// and returns its answer, as env.QueryWorkflow does.
func QueryWorkflow[A, R any](env *testsuite.TestWorkflowEnvironment, query typed.Query[A, R], a A) (R, error) {
	return answer[R](env.QueryWorkflow(query.Name(), a))
}

// QueryWorkflow0 is QueryWorkflow for a query that takes no argument.
func QueryWorkflow0[R any](env *testsuite.TestWorkflowEnvironment, query typed.Query0[R]) (R, error) {
	return answer[R](env.QueryWorkflow(query.Name()))
}

func answer[R any](value converter.EncodedValue, err error) (R, error) {
	var r R
	if err != nil {
		return r, err
	}
	err = value.Get(&r)
	return r, err
}

// UpdateResult is what became of an update sent with UpdateWorkflow; read
// it once the workflow ran (after ExecuteWorkflow, or in a later delayed
// callback).
type UpdateResult[R any] struct {
	mu        sync.Mutex
	accepted  bool
	completed bool
	result    R
	err       error // the rejection, or the handler's error
}

// Accepted reports whether the update passed its validator.
func (u *UpdateResult[R]) Accepted() bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.accepted
}

// Get returns the handler's result, or the error the update was rejected
// with or the handler returned; an error saying so if the update has not
// completed yet.
func (u *UpdateResult[R]) Get() (R, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if !u.completed {
		var zero R
		return zero, errors.New("typedtest: the update has not completed: read its result after the workflow ran")
	}
	return u.result, u.err
}

// UpdateWorkflow sends the update with the argument a to the test's
// workflow, as env.UpdateWorkflow(update.Name(), updateID, callbacks, a)
// does, and returns where its outcome will be. An empty updateID gets a
// made-up one.
//
//	env.RegisterDelayedCallback(func() {
//		added = typedtest.UpdateWorkflow(env, AddItem, "add-1", item)
//	}, time.Minute)
//	env.ExecuteWorkflow(Cart, customer)
//	count, err := added.Get()
func UpdateWorkflow[A, R any](env *testsuite.TestWorkflowEnvironment, update typed.Update[A, R], updateID string, a A) *UpdateResult[R] {
	u := &UpdateResult[R]{}
	env.UpdateWorkflow(update.Name(), updateID, &testsuite.TestUpdateCallback{
		OnAccept: func() {
			u.mu.Lock()
			u.accepted = true
			u.mu.Unlock()
		},
		OnReject: func(err error) {
			u.mu.Lock()
			u.completed, u.err = true, err
			u.mu.Unlock()
		},
		OnComplete: func(success any, err error) {
			result, decodeErr := resultOf[R](success)
			if err == nil {
				err = decodeErr
			}
			u.mu.Lock()
			u.completed, u.result, u.err = true, result, err
			u.mu.Unlock()
		},
	}, a)
	return u
}

// resultOf is an update's result as the environment reports it: the
// handler's own value, or, for an update the environment heard of from
// its server, a value decoded into an interface, which goes through the
// default data converter into an R.
func resultOf[R any](success any) (R, error) {
	var r R
	if success == nil {
		return r, nil
	}
	if v, ok := success.(R); ok {
		return v, nil
	}
	dc := converter.GetDefaultDataConverter()
	p, err := dc.ToPayload(success)
	if err == nil {
		err = dc.FromPayload(p, &r)
	}
	if err != nil {
		return r, fmt.Errorf("typedtest: the update's result %T cannot be read as a %T: %w", success, r, err)
	}
	return r, nil
}
