package worker

import (
	"context"

	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/replayer"
	"github.com/durable-go/sdk/log"
	"github.com/durable-go/sdk/workflow"
)

// WorkflowReplayerOptions configure NewWorkflowReplayerWithOptions; they
// must match the workers that recorded the histories.
//
//   - DataConverter, FailureConverter: the converters the recorded runs
//     used. Default: the SDK's defaults.
//   - EnableLoggingInReplay: let workflow loggers write during the
//     replay. Default: false.
//   - DisableDeadlockDetection: let workflow code run without blocking for
//     as long as it likes, as under a debugger.
//   - ContextPropagators: read the headers of the recorded start, signals
//     and queries into workflow contexts, as the worker's did.
//   - Interceptors: wrap the replayed workflows, as the worker's did. A
//     replay that finds a mismatch runs the code a second time to find
//     the line that made it, and interceptors see that run too.
//   - Plugins: configure the replayer and wrap each replay (see Plugin).
//   - DisableRegistrationAliasing: as the worker's Options.
//   - ExternalStorage: the external storage the recording client used
//     (its drivers, by name), to retrieve the payloads the history holds
//     as references. Experimental.
type WorkflowReplayerOptions = internal.WorkflowReplayerOptions

// ReplayWorkflowHistoryOptions configure one replay
// (WorkflowReplayer.ReplayWorkflowHistoryWithOptions, ...).
//
//   - OriginalExecution: the workflow and run IDs of the recorded run, for
//     workflow code that reads them. Default: "ReplayId" and the start
//     event's run ID.
//   - LastEventID: when not 0, replay only up to and including this event,
//     to see the run as it was then. Cut at the end of a workflow task.
//   - RunPendingWorkflowTask: also run the code of the workflow task that
//     history scheduled last but does not record as completed (a stuck
//     run's), as a worker would now; WorkflowReplayResult then says what
//     the code did.
type ReplayWorkflowHistoryOptions = internal.ReplayWorkflowHistoryOptions

// WorkflowReplayResult is what the workflow code did in a replay that
// matched history (WorkflowReplayer.ReplayWorkflowHistoryWithResult).
//
//   - LastEventID: the last history event replayed.
//   - PendingCommands: the commands the code produced for a workflow task
//     that history does not record as completed, in order: what a worker
//     would send now. Nil when the replay ended at a completed task.
//   - StackTrace: where each coroutine of the workflow is blocked at the
//     end, as the __stack_trace query shows; empty when the code
//     returned.
//
// Its methods: IsWorkflowCompleted reports whether the workflow function
// returned; GetWorkflowResult decodes its result (or returns its error);
// GetWorkflowError returns the error it returned, or nil.
type WorkflowReplayResult = internal.WorkflowReplayResult

// NonDeterminismError is the error (possibly wrapped: find it with
// errors.As) of a replay whose workflow code did not do what history
// recorded. Its message says it in plain words, and its fields say where:
//
//   - WorkflowType, WorkflowID, RunID: the replayed run.
//   - EventID, EventType: the history event where code and history part;
//     0 and unspecified when history ended first, or when the code made a
//     call history has no event for.
//   - Command: the command the code produced there, or nil.
//   - CodeLocation: the file:line of the workflow code that produced the
//     command or made the call, or "".
//   - Reason: what differs, without the run's names.
//
// Unwrap returns the engine's underlying error.
type NonDeterminismError = internal.NonDeterminismError

// WorkflowReplayer replays recorded histories against workflow code, to
// check in a test or in CI that a change of the code does not break the
// runs it would have to continue. A replay that finds the code changed
// returns a *NonDeterminismError (in the error chain) that names the
// event, the command and the line of code where they part. Replays run on
// their own state: they leave the sticky cache of the process's workers
// alone, and they run no activities.
//
//	func TestReplayOrderHistories(t *testing.T) {
//		replayer := worker.NewWorkflowReplayer()
//		replayer.RegisterWorkflow(OrderWorkflow)
//		if err := replayer.ReplayWorkflowHistoryFromJSONFile(nil, "testdata/order.json"); err != nil {
//			t.Fatal(err)
//		}
//	}
//
// Record histories with `temporal workflow show --output json`.
type WorkflowReplayer interface {
	// WorkflowRegistry registers the workflows to replay, as on the
	// worker that ran them.
	WorkflowRegistry
	// ReplayWorkflowHistory replays one history; a nil logger takes a
	// default one. A call of the logger that panics is dropped (the first
	// reported on stderr), as a worker drops it, here and in the methods
	// below.
	ReplayWorkflowHistory(logger log.Logger, history *historypb.History) error
	// ReplayWorkflowHistoryWithOptions replays one history with options.
	ReplayWorkflowHistoryWithOptions(logger log.Logger, history *historypb.History, options ReplayWorkflowHistoryOptions) error
	// ReplayWorkflowHistoryWithResult replays one history with options and
	// returns what the workflow code did: its result or error if it
	// returned, else where it is blocked.
	ReplayWorkflowHistoryWithResult(logger log.Logger, history *historypb.History, options ReplayWorkflowHistoryOptions) (*WorkflowReplayResult, error)
	// ReplayWorkflowHistoryFromJSONFile replays the history in a JSON file
	// written by `temporal workflow show --output json`.
	ReplayWorkflowHistoryFromJSONFile(logger log.Logger, jsonfileName string) error
	// ReplayWorkflowHistoryFromJSONFileWithOptions replays the history in a
	// JSON file with options.
	ReplayWorkflowHistoryFromJSONFileWithOptions(logger log.Logger, jsonfileName string, options ReplayWorkflowHistoryOptions) error
	// ReplayPartialWorkflowHistoryFromJSONFile replays a JSON file's history
	// up to lastEventID.
	ReplayPartialWorkflowHistoryFromJSONFile(logger log.Logger, jsonfileName string, lastEventID int64) error
	// ReplayWorkflowExecution fetches a run's history and replays it.
	ReplayWorkflowExecution(ctx context.Context, service workflowservice.WorkflowServiceClient, logger log.Logger, namespace string, execution workflow.Execution) error
	// ReplayWorkflowHistories replays many histories, returning one error
	// per history (nil where it replays).
	ReplayWorkflowHistories(logger log.Logger, histories ...*historypb.History) []error
}

// NewWorkflowReplayer returns a replayer with default options (the
// default converters, no interceptors).
func NewWorkflowReplayer() WorkflowReplayer {
	r, _ := replayer.New(internal.WorkflowReplayerOptions{})
	return r
}

// NewWorkflowReplayerWithOptions returns a replayer with options, or an
// error when a plugin fails to configure it.
func NewWorkflowReplayerWithOptions(options WorkflowReplayerOptions) (WorkflowReplayer, error) {
	return replayer.New(options)
}
