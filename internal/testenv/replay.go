package testenv

import (
	"fmt"
	"os"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/internal/clientapi"
)

// The replay check. Once ExecuteWorkflow's run ended, every run of the
// test (the workflow, its children and their reruns) is replayed from the
// history the test wrote, on a fresh engine with the environment's
// registrations, interceptors and converters, as a worker replays a run
// after a restart or an eviction from its cache. Code that decides
// differently the second time (it ranges over a map, reads time.Now or
// a package variable, starts a goroutine, draws a random number) makes a
// mismatch that one run hides: the check turns it into the test's
// workflow error, in the test that introduced it, instead of a stuck
// workflow in production.

// replayCheckDefault is the replay check's default, when neither the
// environment, its suite nor replayCheckEnv says otherwise.
const replayCheckDefault = false

// replayCheckEnv names the environment variable that sets the replay
// check's default for a whole test run ("on" or "off"), e.g. for a CI job;
// SetReplayCheck overrides it.
const replayCheckEnv = "DURABLE_REPLAY_CHECK"

// replayCheckFor is whether an environment of a suite that said nothing
// (set nil) replays its runs.
func replayCheckFor(set *bool) bool {
	if set != nil {
		return *set
	}
	switch os.Getenv(replayCheckEnv) {
	case "on", "1", "true":
		return true
	case "off", "0", "false":
		return false
	}
	return replayCheckDefault
}

// SetReplayCheck says whether the environments the suite makes after it
// replay each run of their test once it ended, and report a run that does
// not replay as the workflow's error (see
// TestWorkflowEnvironment.SetReplayCheck).
func (s *WorkflowTestSuite) SetReplayCheck(enabled bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replayCheck = &enabled
}

// SetReplayCheck says whether ExecuteWorkflow, once the run ended,
// replays every run of the test (the workflow, its children) from the
// history the test wrote, as a worker replays a run it no longer holds in
// its cache, with the environment's registrations, interceptors and
// converters. A run that does not replay makes GetWorkflowError (and
// GetWorkflowResult) return the replay's error, which holds a
// *NonDeterminismError (worker.NonDeterminismError): the workflow's code
// decided differently the second time, as it may on any worker. Workflow
// code runs once more for it: code that changes the test's own variables
// changes them again (guard that with workflow.IsReplaying).
func (e *TestWorkflowEnvironment) SetReplayCheck(enabled bool) *TestWorkflowEnvironment {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.mustNotHaveStarted("SetReplayCheck")
	e.replayCheck = enabled
	return e
}

// checkReplay runs the replay check when it is on and the test's run
// closed (a test ended early by a failed workflow task or its timeout has
// its error already, and histories that stop short).
func (e *TestWorkflowEnvironment) checkReplay() {
	e.mu.Lock()
	on := e.replayCheck && e.server != nil
	e.mu.Unlock()
	if !on {
		return
	}
	closed, _, err := e.server.Closed(e.execution)
	if err != nil {
		return
	}
	select {
	case <-closed:
	default:
		return
	}
	if err := e.replayRuns(); err != nil {
		e.mu.Lock()
		e.err, e.result = err, nil
		e.mu.Unlock()
	}
}

// replayRuns replays each run of the test that completed a workflow task;
// it returns the first that does not replay.
func (e *TestWorkflowEnvironment) replayRuns() error {
	wiring := e.wiring()
	for _, run := range e.server.Runs() {
		if !completedATask(run.Events) {
			continue
		}
		original := clientapi.WorkflowExecution{ID: run.Execution.GetWorkflowId(), RunID: run.Execution.GetRunId()}
		err := seam.Replay(e.registry, wiring.replayOptions(e.workerOptions), run.Events, original)
		if err == nil {
			continue
		}
		typeName := run.Events[0].GetWorkflowExecutionStartedEventAttributes().GetWorkflowType().GetName()
		return &replayCheckError{workflowType: typeName, execution: run.Execution, err: err}
	}
	return nil
}

// completedATask reports whether a history records a completed workflow
// task: before one, the code made no decision to check.
func completedATask(events []*historypb.HistoryEvent) bool {
	for _, ev := range events {
		if ev.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED {
			return true
		}
	}
	return false
}

// replayCheckError is the workflow error of a test whose run did not
// replay. It wraps the replay's error, a *NonDeterminismError when the
// code decided differently.
type replayCheckError struct {
	workflowType string
	execution    *commonpb.WorkflowExecution
	err          error
}

func (e *replayCheckError) Error() string {
	return fmt.Sprintf("replay check: the test's run of workflow %q (workflow ID %s, run ID %s) does not replay from the history it wrote: %v. "+
		"A worker that replays it (after a restart, or once the run left its cache) would be stuck: make the workflow code deterministic "+
		"(iterate over sorted map keys; use workflow.Now, workflow.Go, workflow.SideEffect instead of time.Now, go, math/rand), "+
		"or turn the check off with SetReplayCheck(false)",
		e.workflowType, e.execution.GetWorkflowId(), e.execution.GetRunId(), e.err)
}

// Unwrap returns the replay's error.
func (e *replayCheckError) Unwrap() error { return e.err }
