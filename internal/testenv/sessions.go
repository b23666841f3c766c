package testenv

import (
	"context"
	"fmt"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/internal/session"
	"github.com/durable-go/sdk/internal/workerrt"
)

// testResourceID names the test environment's session worker, as in
// go.temporal.io/sdk's test environment.
const testResourceID = "testResourceID"

// withSessions wraps the environment worker's activities with the session
// protocol when the worker options enable sessions. Every activity of the
// environment goes to its one worker, so the session queues need no
// routing of their own. The host is brief (see session.HostOptions): a
// creation activity that ran as long as its session would keep the clock
// from skipping ahead. It lives as long as the environment, so that a
// worker started again (to answer a query) sees the same sessions.
func (e *TestWorkflowEnvironment) withSessions(activities workerrt.ActivityExecutor) (workerrt.ActivityExecutor, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.workerOptions.EnableSessionWorker {
		return activities, nil
	}
	if e.sessions == nil {
		host, err := session.NewHost(session.HostOptions{
			ResourceID:            testResourceID,
			MaxConcurrentSessions: e.workerOptions.MaxConcurrentSessionExecutionSize,
			DataConverter:         e.dc,
			Signal:                e.signalFromActivity,
			Logger:                e.suite.logger,
			Brief:                 true,
		})
		if err != nil {
			return nil, err
		}
		e.sessions = host
	}
	return e.sessions.Executor(e.workerTaskQueue(), activities), nil
}

// signalFromActivity is how the creation activity tells a workflow of
// the environment that its session was created.
func (e *TestWorkflowEnvironment) signalFromActivity(_ context.Context, workflowID, runID, name string, arg any) error {
	dc, _ := e.workflowConverters(workflowID) // as a client signals
	p, err := dc.ToPayloads(arg)
	if err != nil {
		return fmt.Errorf("signal %q: %w", name, err)
	}
	return e.server.Signal(&commonpb.WorkflowExecution{WorkflowId: workflowID, RunId: runID}, name, p, nil, e.identity, false)
}
