package testenv

import (
	"context"
	"errors"
	"fmt"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	querypb "go.temporal.io/api/query/v1"
	"go.temporal.io/api/serviceerror"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/clientimpl"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/testserver"
)

// What the test sends the workflows of a running environment (signals,
// cancellations, queries, completions of asynchronous activities), and
// how it reaches them in turn.

// whenStarted runs f now if the workflow started, else right after it
// starts.
func (e *TestWorkflowEnvironment) whenStarted(f func()) {
	e.mu.Lock()
	if e.server == nil {
		e.preStart = append(e.preStart, f)
		e.mu.Unlock()
		return
	}
	e.mu.Unlock()
	f()
}

// SignalWorkflow sends a signal to the workflow. Sent before
// ExecuteWorkflow, it is delivered as the workflow starts. Sent from a
// callback, it arrives once the callback returned, and the workflow
// handles it before what is sent after it arrives (as in
// go.temporal.io/sdk: each signal is a workflow task of its own).
func (e *TestWorkflowEnvironment) SignalWorkflow(name string, input any) {
	e.signal(name, input, false)
}

// SignalWorkflowSkippingWorkflowTask sends a signal without running the
// workflow for it: the workflow sees it with its next task.
func (e *TestWorkflowEnvironment) SignalWorkflowSkippingWorkflowTask(name string, input any) {
	e.signal(name, input, true)
}

func (e *TestWorkflowEnvironment) signal(name string, input any, skipTask bool) {
	dc, _ := e.workflowConverters(e.testWorkflowID())
	p, err := dc.ToPayloads(input)
	if err != nil {
		panic(fmt.Sprintf("SignalWorkflow(%q): the input (%T) cannot be encoded: %v", name, input, err))
	}
	e.sendInTurn(func() *commonpb.WorkflowExecution {
		if err := e.server.Signal(e.execution, name, p, e.header, e.identity, skipTask); err != nil {
			e.suite.logger.Warn("SignalWorkflow: the signal was not delivered", "Signal", name, "Error", err)
			return nil
		}
		if skipTask {
			return nil
		}
		return e.execution
	})
}

// SignalWorkflowByID sends a signal to the workflow with workflowID.
func (e *TestWorkflowEnvironment) SignalWorkflowByID(workflowID, signalName string, input any) error {
	dc, _ := e.workflowConverters(workflowID)
	p, err := dc.ToPayloads(input)
	if err != nil {
		return fmt.Errorf("SignalWorkflowByID(%q): the input (%T) cannot be encoded: %w", signalName, input, err)
	}
	if e.server == nil {
		return errors.New("SignalWorkflowByID: no workflow has started (call it from a delayed callback)")
	}
	target := &commonpb.WorkflowExecution{WorkflowId: workflowID}
	closed, _, err := e.server.Closed(target)
	if err != nil {
		return err
	}
	select {
	case <-closed:
		return serviceerror.NewNotFound(fmt.Sprintf("SignalWorkflowByID(%q): workflow %q already completed", signalName, workflowID))
	default:
	}
	e.sendInTurn(func() *commonpb.WorkflowExecution {
		if err := e.server.Signal(target, signalName, p, e.header, e.identity, false); err != nil {
			e.suite.logger.Warn("SignalWorkflowByID: the signal was not delivered", "Signal", signalName, "WorkflowID", workflowID, "Error", err)
			return nil
		}
		return target
	})
	return nil
}

// CancelWorkflow requests the workflow's cancellation.
func (e *TestWorkflowEnvironment) CancelWorkflow() {
	e.sendInTurn(func() *commonpb.WorkflowExecution {
		if err := e.server.RequestCancel(e.execution, e.identity, ""); err != nil {
			e.suite.logger.Warn("CancelWorkflow: the cancellation was not delivered", "Error", err)
			return nil
		}
		return e.execution
	})
}

// CancelWorkflowByID requests the cancellation of a workflow.
func (e *TestWorkflowEnvironment) CancelWorkflowByID(workflowID string, runID string) {
	e.sendInTurn(func() *commonpb.WorkflowExecution {
		target := &commonpb.WorkflowExecution{WorkflowId: workflowID, RunId: runID}
		if err := e.server.RequestCancel(target, e.identity, ""); err != nil {
			e.suite.logger.Warn("CancelWorkflowByID: the cancellation was not delivered", "WorkflowID", workflowID, "Error", err)
			return nil
		}
		return target
	})
}

// QueryWorkflow asks the workflow a query and waits for the answer; after
// the workflow ended, its final state answers.
func (e *TestWorkflowEnvironment) QueryWorkflow(queryType string, args ...any) (converter.EncodedValue, error) {
	if e.execution == nil {
		return nil, errors.New("QueryWorkflow: the workflow has not started (call ExecuteWorkflow first, or query from a delayed callback)")
	}
	return e.QueryWorkflowByID(e.execution.GetWorkflowId(), queryType, args...)
}

// QueryWorkflowByID queries the workflow with workflowID.
func (e *TestWorkflowEnvironment) QueryWorkflowByID(workflowID, queryType string, args ...any) (converter.EncodedValue, error) {
	dc, _ := e.workflowConverters(workflowID)
	input, err := registry.EncodeArgs(dc, args)
	if err != nil {
		return nil, fmt.Errorf("query %q: %w", queryType, err)
	}
	if e.server == nil {
		return nil, errors.New("QueryWorkflowByID: no workflow has started")
	}
	e.mu.Lock()
	running := e.running != nil
	e.mu.Unlock()
	if !running {
		// The run ended: a worker rebuilds its state from history to
		// answer, as a worker of a real server would.
		w, err := e.startWorker()
		if err != nil {
			return nil, err
		}
		defer e.stopWorker(w)
	}
	ctx, cancel := context.WithTimeout(context.Background(), queryTimeout)
	defer cancel()
	p, err := e.server.Query(ctx, &commonpb.WorkflowExecution{WorkflowId: workflowID},
		&querypb.WorkflowQuery{QueryType: queryType, QueryArgs: input, Header: e.header})
	if err != nil {
		return nil, err
	}
	return failure.NewEncodedValue(p, dc), nil
}

// queryTimeout bounds, in wall time, how long a query waits for the
// worker: a query never waits for the workflow's own progress.
const queryTimeout = 10 * time.Second

// CompleteActivity completes an activity that returned
// activity.ErrResultPending, by its task token. Once the activity
// returned, the clock no longer waits for it: a delayed callback
// (registered before, or by the activity) completes it at its time; it
// times out at its timeouts otherwise.
func (e *TestWorkflowEnvironment) CompleteActivity(taskToken []byte, result any, err error) error {
	if e.server == nil {
		return errors.New("CompleteActivity: no workflow has started")
	}
	return clientimpl.CompleteActivityByToken(context.Background(), testserver.Local{S: e.server}, testNamespace, e.identity, e.dc, e.fc, taskToken, result, err)
}

// sendInTurn sends what the test sends a workflow (a signal, a
// cancellation, an update) as go.temporal.io/sdk's test environment does:
// before the start, as the workflow starts; while the test runs, on the
// test's goroutine once the callback that sent it returned, in the order
// sent, each after the workflow handled the one before; after the end, at
// once (the server refuses it). send returns the run that must handle
// what it sent before the next thing goes, nil when none must.
func (e *TestWorkflowEnvironment) sendInTurn(send func() *commonpb.WorkflowExecution) {
	e.mu.Lock()
	if e.server == nil {
		e.preStart = append(e.preStart, func() { send() })
		e.mu.Unlock()
		return
	}
	e.mu.Unlock()
	if e.callbacks.post(func() {
		if target := send(); target != nil {
			e.waitUntilHandled(target)
		}
	}) {
		return
	}
	send()
}

// waitUntilHandled waits until the workflow task that what the test sent
// to target caused is done (or the run closed, or the test ends), running
// meanwhile the callbacks the workflow waits for.
func (e *TestWorkflowEnvironment) waitUntilHandled(target *commonpb.WorkflowExecution) {
	settled, err := e.server.Settled(target)
	if err != nil {
		return
	}
	for {
		select {
		case <-settled:
			return
		case <-e.ended:
			return
		case <-e.callbacks.urgentReady:
			e.callbacks.runUrgent()
		}
	}
}
