// Package worker runs workflow and activity code: a Worker polls a task
// queue of a Temporal server for tasks and executes the functions
// registered with it; a WorkflowReplayer replays recorded histories against
// workflow code to catch changes that would break running workflows.
package worker

import (
	"context"

	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/log"
	"github.com/durable-go/sdk/workflow"
)

type (
	// Options configure a Worker.
	Options = internal.WorkerOptions
	// WorkflowPanicPolicy says what a panic in workflow code does.
	WorkflowPanicPolicy = internal.WorkflowPanicPolicy
	// WorkflowReplayerOptions configure a WorkflowReplayer.
	WorkflowReplayerOptions = internal.WorkflowReplayerOptions
	// ReplayWorkflowHistoryOptions configure one replay.
	ReplayWorkflowHistoryOptions = internal.ReplayWorkflowHistoryOptions
	// WorkflowReplayResult is what the workflow code did in a replay that
	// matched history: its result or error if it returned, else where it
	// is blocked and the commands it produced for a workflow task history
	// does not record as completed.
	WorkflowReplayResult = internal.WorkflowReplayResult
	// NonDeterminismError is the error (possibly wrapped: find it with
	// errors.As) of a replay whose workflow code did not do what history
	// recorded. Beside the message, its fields name the run, the history
	// event where code and history part, the command the code produced
	// there and the file:line of the code that produced it.
	NonDeterminismError = internal.NonDeterminismError
)

const (
	// BlockWorkflow fails the workflow task on a panic; the server retries
	// it until fixed code is deployed. The default.
	BlockWorkflow = internal.BlockWorkflow
	// FailWorkflow fails the workflow on a panic.
	FailWorkflow = internal.FailWorkflow
)

// WorkflowRegistry registers workflows.
type WorkflowRegistry interface {
	RegisterWorkflow(w any)
	RegisterWorkflowWithOptions(w any, options workflow.RegisterOptions)
	// RegisterDynamicWorkflow registers the workflow that runs every
	// workflow type not registered by name: a func(workflow.Context,
	// converter.EncodedValues) returning (result, error) or error.
	RegisterDynamicWorkflow(w any, options workflow.DynamicRegisterOptions)
}

// ActivityRegistry registers activities.
type ActivityRegistry interface {
	RegisterActivity(a any)
	RegisterActivityWithOptions(a any, options activity.RegisterOptions)
	// RegisterDynamicActivity registers the activity that runs every
	// activity type not registered by name: a func(context.Context,
	// converter.EncodedValues) returning (result, error) or error.
	RegisterDynamicActivity(a any, options activity.DynamicRegisterOptions)
}

// Registry registers workflows and activities.
type Registry interface {
	WorkflowRegistry
	ActivityRegistry
}

// Worker polls a task queue and runs the workflows and activities
// registered with it.
type Worker interface {
	Registry
	// Start begins polling and returns. It fails when the namespace does
	// not exist or the server cannot be reached. Functions may be
	// registered before or after it.
	Start() error
	// Run starts the worker and stops it when interruptCh delivers.
	Run(interruptCh <-chan any) error
	// Stop stops polling, lets running tasks finish within
	// Options.WorkerStopTimeout, cancels the activities still running and
	// returns, even when activity code ignores its canceled context (the
	// server then retries that activity after its timeout).
	Stop()
}

// New returns a worker for taskQueue that uses client's connection.
func New(client client.Client, taskQueue string, options Options) Worker {
	return internal.NewWorker(client, taskQueue, options)
}

// InterruptCh returns a channel that delivers on SIGINT or SIGTERM, for
// Worker.Run.
func InterruptCh() <-chan any { return internal.InterruptCh() }

// SetStickyWorkflowCacheSize sets how many workflow runs the process keeps
// in memory between tasks. Call it before starting any worker.
func SetStickyWorkflowCacheSize(cacheSize int) { internal.SetStickyWorkflowCacheSize(cacheSize) }

// SetBinaryChecksum sets the identifier of this process's binary, which its
// workers send with their workflow polls and task failures (and to servers
// without build-ID versioning, whose reset points it names, with their
// completions) and which workflow.Info.GetBinaryChecksum reports. Without
// it, the checksum is the hex MD5 of the executable (SHA-256 in FIPS 140
// mode), as go.temporal.io/sdk computes it. Call it before starting any
// worker.
//
// Deprecated: servers with build-ID versioning no longer record it; use
// worker build IDs.
func SetBinaryChecksum(checksum string) { internal.SetBinaryChecksum(checksum) }

// PurgeStickyWorkflowCache drops every cached workflow run.
func PurgeStickyWorkflowCache() { internal.PurgeStickyWorkflowCache() }

// WorkflowReplayer replays recorded histories against workflow code. A
// replay that finds the code changed returns a *NonDeterminismError (in
// the error chain). Replays run on their own state: they leave the sticky
// cache of the process's workers alone.
type WorkflowReplayer interface {
	WorkflowRegistry
	// ReplayWorkflowHistory replays one history.
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

// NewWorkflowReplayer returns a replayer with default options.
func NewWorkflowReplayer() WorkflowReplayer {
	r, _ := internal.NewWorkflowReplayer(internal.WorkflowReplayerOptions{})
	return r
}

// NewWorkflowReplayerWithOptions returns a replayer with options.
func NewWorkflowReplayerWithOptions(options WorkflowReplayerOptions) (WorkflowReplayer, error) {
	return internal.NewWorkflowReplayer(options)
}

// ErrWorkerShutdown is the cause (context.Cause) of the cancellation of
// the activities still running when a stopping worker's WorkerStopTimeout
// ends.
var ErrWorkerShutdown = internal.ErrWorkerShutdown

// EnableVerboseLogging makes every worker of the process log, at debug
// level, each long poll that expires empty and each task it receives
// (workflow, run, attempt, activity type), for finding out why a worker
// seems idle or what it is busy with.
func EnableVerboseLogging(enable bool) { internal.EnableVerboseLogging(enable) }
