package internal

import (
	"errors"
	"fmt"
	"sync"

	commonpb "go.temporal.io/api/common/v1"
	failurepb "go.temporal.io/api/failure/v1"
	updatepb "go.temporal.io/api/update/v1"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"

	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/testserver"
)

// UpdateCallbacks hear what becomes of an update sent with the test
// environment's UpdateWorkflow: Accept and then Complete, or Reject.
// testsuite.TestUpdateCallback is a ready-made one.
type UpdateCallbacks interface {
	// Accept: the validator passed; the handler runs.
	Accept()
	// Reject: the validator (or the lack of a handler) refused the update.
	Reject(err error)
	// Complete: the handler returned success, or err.
	Complete(success any, err error)
}

// TestUpdateCallback is an UpdateCallbacks of three optional functions.
type TestUpdateCallback struct {
	OnAccept   func()
	OnReject   func(error)
	OnComplete func(any, error)
}

// Accept calls OnAccept, if set.
func (uc *TestUpdateCallback) Accept() {
	if uc.OnAccept != nil {
		uc.OnAccept()
	}
}

// Reject calls OnReject, if set.
func (uc *TestUpdateCallback) Reject(err error) {
	if uc.OnReject != nil {
		uc.OnReject(err)
	}
}

// Complete calls OnComplete, if set.
func (uc *TestUpdateCallback) Complete(success any, err error) {
	if uc.OnComplete != nil {
		uc.OnComplete(success, err)
	}
}

// testUpdates is the test environment's side of updates: the watchers of
// updates sent, and the handlers' and validators' own return values,
// which callbacks receive as go.temporal.io/sdk's test environment hands
// them (the Go values, not their encodings).
type testUpdates struct {
	mu       sync.Mutex
	results  map[string]updateReturn // by workflow ID and update ID
	rejected map[string]error
	stopped  bool
	stop     chan struct{}
	watchers sync.WaitGroup
}

type updateReturn struct {
	value any
	err   error
}

func updateKey(workflowID, updateID string) string { return workflowID + "\x00" + updateID }

// UpdateWorkflow sends an update to the workflow; uc hears what becomes
// of it. Sent before ExecuteWorkflow, it is delivered as the workflow
// starts. An empty updateID gets a made-up one; an ID sent before is not
// run again: uc hears what became of the first. Callbacks run on their own
// goroutine; ExecuteWorkflow returns after those of the workflow's updates
// ran.
func (e *TestWorkflowEnvironment) UpdateWorkflow(updateName, updateID string, uc UpdateCallbacks, args ...any) {
	input, err := registry.EncodeArgs(e.dc, args)
	if err != nil {
		panic(fmt.Sprintf("UpdateWorkflow(%q): the arguments cannot be encoded: %v", updateName, err))
	}
	if updateID == "" {
		updateID = newClientUUID()
	}
	e.whenStarted(func() {
		if err := e.sendUpdate(e.execution.GetWorkflowId(), updateName, updateID, input, uc); err != nil && uc != nil {
			uc.Reject(err)
		}
	})
}

// UpdateWorkflowByID sends an update to the workflow with workflowID (a
// child, say); it fails if no such workflow runs.
func (e *TestWorkflowEnvironment) UpdateWorkflowByID(workflowID, updateName, updateID string, uc UpdateCallbacks, args ...any) error {
	input, err := registry.EncodeArgs(e.dc, args)
	if err != nil {
		return fmt.Errorf("UpdateWorkflowByID(%q): the arguments cannot be encoded: %w", updateName, err)
	}
	if e.server == nil {
		return errors.New("UpdateWorkflowByID: no workflow has started (call it from a delayed callback)")
	}
	if updateID == "" {
		updateID = newClientUUID()
	}
	return e.sendUpdate(workflowID, updateName, updateID, input, uc)
}

// UpdateWorkflowNoRejection sends an update and fails t if it is
// rejected.
func (e *TestWorkflowEnvironment) UpdateWorkflowNoRejection(updateName string, updateID string, t mock.TestingT, args ...any) {
	e.UpdateWorkflow(updateName, updateID, &TestUpdateCallback{
		OnReject: func(err error) {
			require.Fail(t, "update should not be rejected", "update %q (%s): %v", updateName, updateID, err)
		},
	}, args...)
}

// sendUpdate asks the server to deliver an update and starts a watcher
// that runs uc's callbacks.
func (e *TestWorkflowEnvironment) sendUpdate(workflowID, name, id string, input *commonpb.Payloads, uc UpdateCallbacks) error {
	if uc == nil {
		uc = &TestUpdateCallback{} // nobody listens
	}
	u := &e.updates
	u.mu.Lock()
	if u.stopped {
		u.mu.Unlock()
		return fmt.Errorf("update %q (%s) was sent after the test's workflow ended", name, id)
	}
	if u.stop == nil {
		u.stop = make(chan struct{})
	}
	u.watchers.Add(1)
	u.mu.Unlock()
	w, err := e.server.UpdateWorkflow(&commonpb.WorkflowExecution{WorkflowId: workflowID}, &updatepb.Request{
		Meta:  &updatepb.Meta{UpdateId: id, Identity: e.identity},
		Input: &updatepb.Input{Name: name, Args: input, Header: e.header},
	})
	if err != nil {
		u.watchers.Done()
		return err
	}
	go e.watchUpdate(workflowID, id, w, uc)
	return nil
}

// watchUpdate runs an update's callbacks as the server's notices arrive.
// Once the test's workflow ended, it delivers what arrived and leaves:
// an update of a run still open (a child left running) hears no more.
func (e *TestWorkflowEnvironment) watchUpdate(workflowID, id string, w *testserver.UpdateWatcher, uc UpdateCallbacks) {
	defer e.updates.watchers.Done()
	for {
		var n testserver.UpdateNotice
		select {
		case n = <-w.C:
		case <-e.updates.stop:
			select {
			case n = <-w.C:
			default:
				return
			}
		}
		if final := e.runUpdateCallback(workflowID, id, w, n, uc); final {
			return
		}
	}
}

// runUpdateCallback calls the callback a notice asks for; it reports
// whether the notice was the update's last.
func (e *TestWorkflowEnvironment) runUpdateCallback(workflowID, id string, w *testserver.UpdateWatcher, n testserver.UpdateNotice, uc UpdateCallbacks) bool {
	defer w.Handled()
	switch n.Stage {
	case testserver.UpdateAccepted:
		uc.Accept()
		return false
	case testserver.UpdateRejected:
		uc.Reject(e.updates.rejection(workflowID, id, e.failureError(n.Failure)))
	default:
		value, err := e.updateOutcome(workflowID, id, n.Outcome)
		uc.Complete(value, err)
	}
	return true
}

func (e *TestWorkflowEnvironment) failureError(f *failurepb.Failure) error {
	if f == nil {
		return errors.New("the update was rejected")
	}
	return e.fc.FailureToError(f)
}

// updateOutcome is what the handler returned, as Go values when the
// handler ran in this environment, else decoded from the outcome.
func (e *TestWorkflowEnvironment) updateOutcome(workflowID, id string, outcome *updatepb.Outcome) (any, error) {
	u := &e.updates
	u.mu.Lock()
	ret, ok := u.results[updateKey(workflowID, id)]
	u.mu.Unlock()
	if f := outcome.GetFailure(); f != nil {
		if ok && ret.err != nil {
			return nil, ret.err
		}
		return nil, e.fc.FailureToError(f)
	}
	if ok {
		return ret.value, nil
	}
	var value any
	if p := outcome.GetSuccess(); len(p.GetPayloads()) > 0 {
		if err := e.dc.FromPayload(p.GetPayloads()[0], &value); err != nil {
			return nil, fmt.Errorf("update %q: its result cannot be decoded: %w", id, err)
		}
	}
	return value, nil
}

// rejection is the validator's own error when it rejected the update,
// else fallback.
func (u *testUpdates) rejection(workflowID, id string, fallback error) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	key := updateKey(workflowID, id)
	if err, ok := u.rejected[key]; ok {
		delete(u.rejected, key) // the same ID may be sent again
		return err
	}
	return fallback
}

// recordResult keeps what an update handler returned.
func (u *testUpdates) recordResult(workflowID, id string, value any, err error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.results == nil {
		u.results = make(map[string]updateReturn)
	}
	u.results[updateKey(workflowID, id)] = updateReturn{value: value, err: err}
}

// recordRejection keeps the error a validator returned.
func (u *testUpdates) recordRejection(workflowID, id string, err error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.rejected == nil {
		u.rejected = make(map[string]error)
	}
	u.rejected[updateKey(workflowID, id)] = err
}

// finish lets the watchers deliver what arrived and waits for them; no
// update is sent after.
func (u *testUpdates) finish() {
	u.mu.Lock()
	u.stopped = true
	if u.stop == nil {
		u.stop = make(chan struct{})
	}
	close(u.stop)
	u.mu.Unlock()
	u.watchers.Wait()
}

// ExecuteUpdate keeps the handler's return values for the callbacks.
func (w *testWorkflowInbound) ExecuteUpdate(ctx Context, in *UpdateInput) (any, error) {
	value, err := w.Next.ExecuteUpdate(ctx, in)
	if !IsReplaying(ctx) {
		w.env.updates.recordResult(GetInfo(ctx).WorkflowExecution.ID, GetCurrentUpdateInfo(ctx).ID, value, err)
	}
	return value, err
}

// ValidateUpdate keeps a validator's error for the callbacks.
func (w *testWorkflowInbound) ValidateUpdate(ctx Context, in *UpdateInput) error {
	err := w.Next.ValidateUpdate(ctx, in)
	if err != nil {
		w.env.updates.recordRejection(GetInfo(ctx).WorkflowExecution.ID, GetCurrentUpdateInfo(ctx).ID, err)
	}
	return err
}
