package testenv

import (
	"errors"
	"fmt"

	commonpb "go.temporal.io/api/common/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/internal/clientimpl"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/workerrt"
)

// How the test's run ended, as the environment reports it: the result,
// the error, the history.

// finish records how the run ended.
func (e *TestWorkflowEnvironment) finish(w *workerrt.Worker, early error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.completed = true
	if early != nil {
		e.err = failure.NewWorkflowExecutionError(e.executionID(), e.runID(), e.workflowType, early)
		return
	}
	h, err := e.server.History(e.execution)
	if err != nil || len(h.GetEvents()) == 0 {
		e.err = fmt.Errorf("reading the workflow's history: %w", err)
		return
	}
	last := h.GetEvents()[len(h.GetEvents())-1]
	dc, fc := e.workflowConverters(e.executionID())
	result, runErr, err := clientimpl.RunOutcome(last, dc, fc)
	runErr = withInitialVersioningBehavior(runErr, last)
	switch {
	case err != nil:
		e.err = err
	case runErr != nil:
		e.err = failure.NewWorkflowExecutionError(e.executionID(), e.runID(), e.workflowType, runErr)
	default:
		e.result = result
	}
}

func (e *TestWorkflowEnvironment) executionID() string { return e.execution.GetWorkflowId() }
func (e *TestWorkflowEnvironment) runID() string       { return e.execution.GetRunId() }

// IsWorkflowCompleted reports whether the workflow ended.
func (e *TestWorkflowEnvironment) IsWorkflowCompleted() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.completed
}

// GetWorkflowResult decodes the workflow's result into valuePtr, or
// returns the workflow's error.
func (e *TestWorkflowEnvironment) GetWorkflowResult(valuePtr any) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.completed {
		panic("GetWorkflowResult: the workflow has not completed (call ExecuteWorkflow first)")
	}
	if e.err != nil || e.result == nil || valuePtr == nil {
		return e.err
	}
	dc, _ := e.workflowConverters(e.executionID())
	return dc.FromPayloads(e.result, valuePtr)
}

// GetWorkflowResultByID is GetWorkflowResult for the workflow with
// workflowID: the test's workflow, or one of its children.
func (e *TestWorkflowEnvironment) GetWorkflowResultByID(workflowID string, valuePtr any) error {
	if e.execution != nil && workflowID == e.execution.GetWorkflowId() {
		return e.GetWorkflowResult(valuePtr)
	}
	result, err := e.outcomeOf(workflowID)
	if err != nil || result == nil || valuePtr == nil {
		return err
	}
	dc, _ := e.workflowConverters(workflowID)
	return dc.FromPayloads(result, valuePtr)
}

// outcomeOf reads how another workflow of the test (a child) ended.
func (e *TestWorkflowEnvironment) outcomeOf(workflowID string) (*commonpb.Payloads, error) {
	if e.server == nil {
		return nil, fmt.Errorf("workflow %q not found: no workflow has started", workflowID)
	}
	h, err := e.server.History(&commonpb.WorkflowExecution{WorkflowId: workflowID})
	if err != nil {
		return nil, err
	}
	events := h.GetEvents()
	last := events[len(events)-1]
	dc, fc := e.workflowConverters(workflowID)
	result, runErr, err := clientimpl.RunOutcome(last, dc, fc)
	if err != nil {
		return nil, fmt.Errorf("workflow %q has not completed", workflowID)
	}
	runID := events[0].GetWorkflowExecutionStartedEventAttributes().GetOriginalExecutionRunId()
	typ := events[0].GetWorkflowExecutionStartedEventAttributes().GetWorkflowType().GetName()
	if runErr != nil {
		return nil, failure.NewWorkflowExecutionError(workflowID, runID, typ, runErr)
	}
	return result, nil
}

// GetWorkflowError returns the workflow's error: a *WorkflowExecutionError
// whose cause is what the workflow returned (or a PanicError, a
// CanceledError, a TimeoutError, a ContinueAsNewError).
func (e *TestWorkflowEnvironment) GetWorkflowError() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.err
}

// GetWorkflowErrorByID is GetWorkflowError for the workflow with
// workflowID: the test's workflow, or one of its children.
func (e *TestWorkflowEnvironment) GetWorkflowErrorByID(workflowID string) error {
	if e.execution != nil && workflowID == e.execution.GetWorkflowId() {
		return e.GetWorkflowError()
	}
	_, err := e.outcomeOf(workflowID)
	return err
}

// GetHistory returns the history the run wrote, event for event what a
// server would have written: a test can inspect it, or replay it with
// worker.NewWorkflowReplayer.
func (e *TestWorkflowEnvironment) GetHistory() (*historypb.History, error) {
	if e.server == nil {
		return nil, errors.New("GetHistory: the workflow has not started (call ExecuteWorkflow first)")
	}
	return e.server.History(e.execution)
}
