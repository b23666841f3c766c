package testenv

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	commonpb "go.temporal.io/api/common/v1"
	failurepb "go.temporal.io/api/failure/v1"
	updatepb "go.temporal.io/api/update/v1"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/testserver"
	"github.com/durable-go/sdk/internal/uuid"
)

// TestUpdateCallback is an internal.UpdateCallbacks of three optional functions.
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

// testUpdates is the test environment's side of updates: what it knows
// of each update sent with UpdateWorkflow (by workflow ID and update ID)
// and the watchers of the server's notices.
//
// The callbacks hear an update's fate as go.temporal.io/sdk's test
// environment tells it: synchronously, on the test's goroutine, while the
// workflow waits, in the order things happen; Accept when the validator
// passed, Reject with the validator's own error, Complete with the
// handler's own return values as they were when it returned (the Go
// values, not their encodings). The environment's workflow interceptor
// reports those as the handler's coroutine runs; the server's notices
// report the rest (an update rejected for want of a handler, or because
// its workflow closed).
type testUpdates struct {
	mu       sync.Mutex
	records  map[string]*updateRecord
	stopped  bool
	stop     chan struct{}
	watchers sync.WaitGroup
}

// updateRecord is an update the test sent, and who listens to it.
type updateRecord struct {
	first internal.UpdateCallbacks // of the UpdateWorkflow call that sent it
	// later are those of calls with the same update ID while it ran: they
	// hear Accept and Complete once it completed.
	later    []internal.UpdateCallbacks
	accepted bool
	done     bool // completed or rejected
	value    any
	err      error
}

func updateKey(workflowID, updateID string) string { return workflowID + "\x00" + updateID }

// UpdateWorkflow sends an update to the workflow; uc hears what becomes
// of it. Sent before ExecuteWorkflow, it is delivered as the workflow
// starts. An empty updateID gets a made-up one; an ID sent before is not
// run again: uc hears what became of the first. Callbacks run on the
// test's goroutine (see testUpdates).
func (e *TestWorkflowEnvironment) UpdateWorkflow(updateName, updateID string, uc internal.UpdateCallbacks, args ...any) {
	dc, _ := e.workflowConverters(e.testWorkflowID())
	input, err := registry.EncodeArgs(dc, args)
	if err != nil {
		panic(fmt.Sprintf("UpdateWorkflow(%q): the arguments cannot be encoded: %v", updateName, err))
	}
	if updateID == "" {
		updateID = uuid.New()
	}
	e.whenStarted(func() {
		if err := e.sendUpdate(e.execution.GetWorkflowId(), updateName, updateID, input, uc); err != nil && uc != nil {
			uc.Reject(err)
		}
	})
}

// UpdateWorkflowByID sends an update to the workflow with workflowID (a
// child, say); it fails if no such workflow runs.
func (e *TestWorkflowEnvironment) UpdateWorkflowByID(workflowID, updateName, updateID string, uc internal.UpdateCallbacks, args ...any) error {
	dc, _ := e.workflowConverters(workflowID)
	input, err := registry.EncodeArgs(dc, args)
	if err != nil {
		return fmt.Errorf("UpdateWorkflowByID(%q): the arguments cannot be encoded: %w", updateName, err)
	}
	if e.server == nil {
		return errors.New("UpdateWorkflowByID: no workflow has started (call it from a delayed callback)")
	}
	if updateID == "" {
		updateID = uuid.New()
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

// sendUpdate asks the server to deliver an update, unless one of the
// same ID was sent already: uc then hears what became of that one.
func (e *TestWorkflowEnvironment) sendUpdate(workflowID, name, id string, input *commonpb.Payloads, uc internal.UpdateCallbacks) error {
	if uc == nil {
		uc = &TestUpdateCallback{} // nobody listens
	}
	u := &e.updates
	key := updateKey(workflowID, id)
	u.mu.Lock()
	if u.stopped {
		u.mu.Unlock()
		return fmt.Errorf("update %q (%s) was sent after the test's workflow ended", name, id)
	}
	if rec := u.records[key]; rec != nil {
		if rec.done {
			value, err := rec.value, rec.err
			e.callbacks.post(func() {
				uc.Accept()
				uc.Complete(value, err)
			})
		} else {
			rec.later = append(rec.later, uc)
		}
		u.mu.Unlock()
		return nil
	}
	if u.records == nil {
		u.records = make(map[string]*updateRecord)
	}
	if u.stop == nil {
		u.stop = make(chan struct{})
	}
	u.records[key] = &updateRecord{first: uc}
	u.watchers.Add(1)
	u.mu.Unlock()
	execution := &commonpb.WorkflowExecution{WorkflowId: workflowID}
	send := func() error {
		w, err := e.server.UpdateWorkflow(execution, &updatepb.Request{
			Meta:  &updatepb.Meta{UpdateId: id, Identity: e.identity},
			Input: &updatepb.Input{Name: name, Args: input, Header: e.header},
		})
		if err != nil {
			u.mu.Lock()
			delete(u.records, key)
			u.mu.Unlock()
			u.watchers.Done()
			return err
		}
		go e.watchUpdate(key, w)
		return nil
	}
	if !e.callbacks.inCallback() {
		return send()
	}
	// Sent from a callback (a delayed one, say), the update reaches the
	// workflow once the callback returned, and what is sent next once the
	// workflow handled it, as in go.temporal.io/sdk: a query the callback
	// makes next sees the state before the update, and does not wait for
	// a handler whose callbacks wait for this one.
	if _, _, err := e.server.Closed(execution); err != nil {
		u.mu.Lock()
		delete(u.records, key)
		u.mu.Unlock()
		u.watchers.Done()
		return err
	}
	if !e.callbacks.post(func() {
		if err := send(); err != nil {
			uc.Reject(err)
			return
		}
		e.waitUntilHandled(execution)
	}) {
		u.watchers.Done()
		return fmt.Errorf("update %q (%s) was sent after the test's workflow ended", name, id)
	}
	return nil
}

// watchUpdate hears the server's notices of an update and tells the
// callbacks what the workflow interceptor did not. Once the test's
// workflow ended, it delivers what arrived and leaves: an update of a run
// still open (a child left running) hears no more.
func (e *TestWorkflowEnvironment) watchUpdate(key string, w *testserver.UpdateWatcher) {
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
		final := n.Stage != testserver.UpdateAccepted
		notice := n
		// The notice counts as work in flight until its callback ran, so
		// that the clock does not move on before.
		if !e.callbacks.post(func() {
			defer w.Handled()
			e.heardFromServer(key, notice)
		}) {
			w.Handled()
		}
		if final {
			return
		}
	}
}

// heardFromServer runs, on the test's goroutine, the callbacks a notice
// calls for, unless the workflow interceptor ran them already.
func (e *TestWorkflowEnvironment) heardFromServer(key string, n testserver.UpdateNotice) {
	workflowID, _, _ := strings.Cut(key, "\x00") // see updateKey
	dc, fc := e.workflowConverters(workflowID)
	switch n.Stage {
	case testserver.UpdateAccepted:
		if first := e.updates.accept(key); first != nil {
			first.Accept()
		}
	case testserver.UpdateRejected:
		e.rejectUpdate(key, failureError(fc, n.Failure))
	default:
		value, err := decodeOutcome(dc, fc, n.Outcome)
		e.completeUpdate(key, value, err)
	}
}

func failureError(fc converter.FailureConverter, f *failurepb.Failure) error {
	if f == nil {
		return errors.New("the update was rejected")
	}
	return fc.FailureToError(f)
}

// decodeOutcome is an update's outcome as the server holds it, for an
// update whose handler the interceptor did not see return.
func decodeOutcome(dc converter.DataConverter, fc converter.FailureConverter, outcome *updatepb.Outcome) (any, error) {
	if f := outcome.GetFailure(); f != nil {
		return nil, fc.FailureToError(f)
	}
	var value any
	if p := outcome.GetSuccess(); len(p.GetPayloads()) > 0 {
		if err := dc.FromPayload(p.GetPayloads()[0], &value); err != nil {
			return nil, fmt.Errorf("the result of the update cannot be decoded: %w", err)
		}
	}
	return value, nil
}

// accept marks an update accepted; it returns the callbacks to tell,
// nil when they heard it already (or the update is not the test's).
func (u *testUpdates) accept(key string) internal.UpdateCallbacks {
	u.mu.Lock()
	defer u.mu.Unlock()
	rec := u.records[key]
	if rec == nil || rec.accepted || rec.done {
		return nil
	}
	rec.accepted = true
	return rec.first
}

// rejectUpdate tells every listener of an update that it was rejected,
// once; the ID may then be sent again.
func (e *TestWorkflowEnvironment) rejectUpdate(key string, err error) {
	u := &e.updates
	u.mu.Lock()
	rec := u.records[key]
	if rec == nil || rec.done {
		u.mu.Unlock()
		return
	}
	delete(u.records, key)
	u.mu.Unlock()
	rec.first.Reject(err)
	for _, uc := range rec.later {
		uc.Reject(err)
	}
}

// completeUpdate tells the listeners of an update its outcome, once: the
// first at once, the others after (they also hear Accept first).
func (e *TestWorkflowEnvironment) completeUpdate(key string, value any, err error) {
	u := &e.updates
	u.mu.Lock()
	rec := u.records[key]
	if rec == nil || rec.done {
		u.mu.Unlock()
		return
	}
	rec.done, rec.value, rec.err = true, value, err
	later := rec.later
	rec.later = nil
	u.mu.Unlock()
	rec.first.Complete(value, err)
	for _, uc := range later {
		e.callbacks.post(func() {
			uc.Accept()
			uc.Complete(value, err)
		})
	}
}

// finish lets the watchers pass on what arrived and waits for them; no
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

// ValidateUpdate tells the callbacks of a validated update, on the test's
// goroutine and while the workflow waits, that it was accepted or
// rejected (with the validator's own error).
func (w *testWorkflowInbound) ValidateUpdate(ctx internal.Context, in *internal.UpdateInput) error {
	err := w.Next.ValidateUpdate(ctx, in)
	key := updateKey(internal.GetInfo(ctx).WorkflowExecution.ID, internal.GetCurrentUpdateInfo(ctx).ID)
	e := w.env
	if err != nil {
		e.callbacks.call(func() { e.rejectUpdate(key, err) }, false)
		return err
	}
	if first := e.updates.accept(key); first != nil {
		e.callbacks.call(first.Accept, false)
	}
	return nil
}

// ExecuteUpdate tells the callbacks what the handler returned, on the
// test's goroutine and while the workflow waits: a value that points into
// the workflow's state is seen as it was when the handler returned.
func (w *testWorkflowInbound) ExecuteUpdate(ctx internal.Context, in *internal.UpdateInput) (any, error) {
	value, err := w.Next.ExecuteUpdate(ctx, in)
	if !internal.IsReplaying(ctx) {
		key := updateKey(internal.GetInfo(ctx).WorkflowExecution.ID, internal.GetCurrentUpdateInfo(ctx).ID)
		e := w.env
		e.callbacks.call(func() { e.completeUpdate(key, value, err) }, false)
	}
	return value, err
}
