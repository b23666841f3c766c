package internal

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/engine"
	"github.com/durable-go/sdk/internal/history"
	"github.com/durable-go/sdk/internal/logging"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/log"
)

// WorkflowReplayerOptions configure a replayer (worker.WorkflowReplayerOptions).
type WorkflowReplayerOptions struct {
	// DataConverter and FailureConverter must match the ones the recorded
	// run used; the defaults by default.
	DataConverter    converter.DataConverter
	FailureConverter converter.FailureConverter
	// EnableLoggingInReplay lets workflow loggers talk during replay.
	EnableLoggingInReplay bool
	// DisableDeadlockDetection lets workflow code run without yielding,
	// e.g. under a debugger.
	DisableDeadlockDetection bool
	// ContextPropagators read the headers of the recorded start, signals
	// and queries into workflow contexts, as the worker's did.
	ContextPropagators []ContextPropagator
	// Interceptors wrap the replayed workflows, the first outermost, as
	// a worker's would. A replay that finds a mismatch runs the code a
	// second time, to find the line that made it: interceptors (and
	// breakpoints) see that run too.
	Interceptors []WorkerInterceptor
	// Plugins configure the replayer and wrap each replay, in order (see
	// WorkerPlugin).
	Plugins []WorkerPlugin
	// DisableRegistrationAliasing must match the worker's option of the
	// same name (see WorkerOptions).
	DisableRegistrationAliasing bool
	// ExternalStorage retrieves the payloads the history holds in
	// external storage: the drivers the recording worker stored with.
	ExternalStorage converter.ExternalStorage
}

// ReplayWorkflowHistoryOptions configure one replay.
type ReplayWorkflowHistoryOptions struct {
	// OriginalExecution is the ID of the recorded run, for workflow code
	// that reads it; "ReplayId" and the start event's run ID by default.
	OriginalExecution clientapi.WorkflowExecution
	// LastEventID, when not 0, replays history only up to and including
	// this event, to look at a run as it was at that point. Cut at the end
	// of a workflow task (its last command's event): a cut between a
	// WorkflowTaskCompleted and the events of its commands reads as
	// commands that history lacks.
	LastEventID int64
	// RunPendingWorkflowTask runs the workflow code for the workflow task
	// that history scheduled last but does not record as completed (it is
	// still to run, or its attempts failed or timed out: a stuck run), as
	// a worker would run it now. Without it, replay stops at the last
	// completed task, unless history ends with the pending task's
	// WorkflowTaskStarted. WorkflowReplayResult says what the code did:
	// the commands it would send, or where it is blocked.
	RunPendingWorkflowTask bool
}

// ReplayHistory replays src with reg's functions as a replayer with
// options replays it (internal/replayer's WorkflowReplayer, whose
// registry reg is), its runs logging to logger (the default logger when
// nil); on a mismatch it explains it with a *NonDeterminismError. The
// result is built only when wanted. Only the root can: the replayed runs
// are its workflowRun.
func ReplayHistory(ctx context.Context, reg *registry.Registry, options WorkflowReplayerOptions, logger log.Logger, src history.Source, wantResult bool) (*WorkflowReplayResult, error) {
	return replayHistory(ctx, reg, replayerRunOptions(options, logger), src, wantResult)
}

// replayerRunOptions are what the runs of a replayer's replays see: its
// options, logger (the default one when nil), and the namespace
// go.temporal.io/sdk gives replays.
func replayerRunOptions(options WorkflowReplayerOptions, logger log.Logger) RunOptions {
	if logger == nil {
		logger = logging.NewDefaultLogger()
	}
	var deadlock time.Duration // zero: the dispatcher's default
	if options.DisableDeadlockDetection {
		deadlock = -1
	}
	return RunOptions{
		DataConverter:    options.DataConverter,
		FailureConverter: options.FailureConverter,
		// A logger that panics fails no replay, as it fails no task of a
		// worker.
		Logger:          logging.NewPanicSafeLogger(logger),
		Namespace:       history.ReplayNamespace,
		DeadlockTimeout: deadlock,
		LogDuringReplay: options.EnableLoggingInReplay,
		Interceptors:    options.Interceptors,
		Propagators:     options.ContextPropagators,
		Replayer:        true,
	}
}

// replayHistory replays src with reg's functions, its runs seeing env (a
// replayer's, or the test environment's, whose replay check replays as
// its worker ran), and, on a mismatch, explains it with a
// *NonDeterminismError. The result is built only when wanted.
func replayHistory(ctx context.Context, reg *registry.Registry, env RunOptions, src history.Source, wantResult bool) (*WorkflowReplayResult, error) {
	res, err := replayOnce(ctx, reg, env, src, wantResult, nil)
	if err == nil {
		return res, nil
	}
	workflowType, run := src.Identity()
	nd := newNonDeterminismError(err, workflowType, run)
	if nd == nil {
		return nil, err
	}
	if nd.CodeLocation == "" {
		// Replay is deterministic: run it again, this time walking the
		// stack at each command, to find the code behind the mismatch.
		// Only failing replays pay for it.
		quiet := env
		quiet.Logger = logging.NewTextLogger(io.Discard, slog.LevelError)
		if _, again := replayOnce(ctx, reg, quiet, src, false, workflowCodeLocation); again != nil {
			if located := newNonDeterminismError(again, workflowType, run); located != nil && located.Reason == nd.Reason {
				nd.CodeLocation = located.CodeLocation
			}
		}
	}
	return nil, nd
}

// replayOnce runs src through a new engine.Run. locate, when set, makes the
// engine record where the workflow code made each command.
func replayOnce(ctx context.Context, reg *registry.Registry, env RunOptions, src history.Source, wantResult bool, locate func() string) (*WorkflowReplayResult, error) {
	events := src.Events
	if len(events) == 0 || events[0].GetEventType() != enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED {
		return nil, errors.New("replay: the history must begin with its WorkflowExecutionStarted event")
	}
	config := newRunConfig(reg, env)
	opts := config.engineOptions()
	opts.LocateCode = locate
	var runs *runRecorder // the code the replay runs, for its result
	if wantResult {
		runs = &runRecorder{config: config}
		opts.NewWorkflow = runs.newWorkflow
	}
	x := engine.NewRun(opts)
	defer x.Close()
	_, run := src.Identity()
	x.SetRun(run.ID, run.RunID)
	task, err := x.ProcessTask(engine.Task{Events: engine.NewEventSource(ctx, events, src.Token, src.Fetch)})
	if err != nil || !wantResult {
		return nil, err
	}
	return newReplayResult(x, task, runs.run, config.dc), nil
}

// runRecorder is a workflow factory that keeps the run it makes.
type runRecorder struct {
	config *runConfig
	run    *workflowRun
}

func (r *runRecorder) newWorkflow(workflowType string) (engine.Workflow, error) {
	wf, err := r.config.newWorkflow(workflowType)
	r.run, _ = wf.(*workflowRun)
	return wf, err
}
