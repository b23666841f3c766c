package workflow

import "github.com/durable-go/sdk/internal"

// SignalWithStartWorkflowOptions configure SignalWithStartWorkflow: how the
// workflow starts when it is not running.
//
//   - TaskQueue: the workflow's task queue. Default: the calling
//     workflow's.
//   - WorkflowExecutionTimeout, WorkflowRunTimeout, WorkflowTaskTimeout:
//     the workflow's timeouts. Zero: the server's defaults.
//   - WorkflowIDReusePolicy: whether a closed workflow's ID may be used
//     again. Default: allow-duplicate.
//   - WorkflowIDConflictPolicy: what happens when a workflow of the ID
//     runs. Default: use-existing (the signal goes to it).
//   - RetryPolicy, CronSchedule, Memo, TypedSearchAttributes, Priority,
//     VersioningOverride, StartDelay: as in client.StartWorkflowOptions.
//   - StaticSummary, StaticDetails: what the UI and the CLI show for the
//     workflow.
type SignalWithStartWorkflowOptions = internal.SignalWithStartWorkflowOptions

// SignalWithStartWorkflow signals the workflow workflowID with signal and
// signalArg, starting it first (workflow, a workflow function or a type
// name, with args) when it is not running. The server does the work, as a
// Nexus operation of its built-in "__temporal_system" endpoint, which it
// runs when its dynamic config sets history.enableSignalWithStartFromWorkflow.
// The future's value is the signaled run's Execution; when the server
// refuses or fails the request, its error is a *temporal.NexusOperationError
// whose cause says why. It panics when workflow is neither a function nor
// a name.
func SignalWithStartWorkflow(ctx Context, options SignalWithStartWorkflowOptions, workflowID string, signal string, signalArg any, workflow any, args ...any) Future {
	return internal.SignalWithStartWorkflow(ctx, options, workflowID, signal, signalArg, workflow, args...)
}
