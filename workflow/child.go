package workflow

import (
	"time"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/temporal"
)

// ChildWorkflowOptions configure the child workflows that a workflow
// starts with ExecuteChildWorkflow. Attach them to a Context with
// WithChildOptions (or one at a time with WithWorkflowID,
// WithWorkflowTaskQueue, ...).
//
//   - Namespace: the child's namespace. Default: the parent's.
//   - WorkflowID: the child's workflow ID. Default: the parent's run ID
//     and a sequence number, the same on every replay. Set it to give the
//     child a meaningful, unique ID.
//   - TaskQueue: the task queue of the child's workflow tasks. Default:
//     the parent's.
//   - WorkflowExecutionTimeout: the most time the child may take, all its
//     runs (retries, continue-as-new) included. Zero: unlimited.
//   - WorkflowRunTimeout: the most time one run of the child may take.
//     Zero: WorkflowExecutionTimeout.
//   - WorkflowTaskTimeout: the most time a worker may take to process one
//     workflow task of the child. Zero: 10s, the server's default.
//   - WaitForCancellation: kept for go.temporal.io/sdk compatibility:
//     canceling a child always waits until it closes.
//   - WorkflowIDReusePolicy: whether the child may reuse the ID of a
//     closed workflow. Default: allow duplicate.
//   - RetryPolicy: how the child is retried when it fails. Default (nil):
//     not retried.
//   - CronSchedule: runs the child on a cron schedule ("0 * * * *");
//     prefer client.Client.ScheduleClient for new code.
//   - Memo: fields shown with the child but not searchable.
//   - SearchAttributes: deprecated untyped search attributes; use
//     TypedSearchAttributes.
//   - TypedSearchAttributes: the child's search attributes
//     (temporal.NewSearchAttributes).
//   - ParentClosePolicy: what becomes of the child when the parent closes
//     first: terminated (the default), canceled, or abandoned to run on.
//   - VersioningIntent: for build-ID versioning, deprecated.
//   - VersioningOverride: the child's worker deployment versioning
//     behavior, whatever its type's: pinned to a version
//     (client.PinnedVersioningOverride) or auto-upgrade
//     (client.AutoUpgradeVersioningOverride). Default (nil): its type's.
//     A child the server refuses it for fails to start with a
//     ChildWorkflowExecutionError whose cause is a
//     temporal.InvalidVersioningOverrideError.
//   - StaticSummary, StaticDetails: a one-line summary and longer details
//     that the UI shows for the child.
//   - Priority: the child's priority and fairness in its task queue.
//   - EventGroups: more event groups for the child's commands, besides the
//     Context's (see WithEventGroups). Default: none.
//
// A context that WithChildOptions did not set gives children the parent's
// three timeouts (see GetChildWorkflowOptions).
type ChildWorkflowOptions = internal.ChildWorkflowOptions

// ChildWorkflowFuture is the Future of a child workflow's result, as
// ExecuteChildWorkflow returns it. Beyond Future's Get and IsReady:
//
//   - GetChildWorkflowExecution returns a Future of the child's Execution
//     (its workflow and run IDs), ready once the child started, or failed
//     to start (the error is then also the result's).
//   - SignalChildWorkflow(ctx, signalName, data) signals the child once
//     it started; the returned Future is ready when the signal was
//     delivered.
//   - SignalChildWorkflowWithOptions(ctx, signalName, data, options) is
//     SignalChildWorkflow with options.
type ChildWorkflowFuture = internal.ChildWorkflowFuture

// ExecuteChildWorkflow starts a child workflow and returns at once a
// ChildWorkflowFuture of its result. childWorkflow is the workflow
// function (not called here: a worker of the child's task queue runs it)
// or its type name; args are its arguments after its Context. The
// ChildWorkflowOptions of ctx apply (see WithChildOptions).
//
//	ctx = workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
//		WorkflowID: "invoice-" + order.ID,
//	})
//	var invoice Invoice
//	err := workflow.ExecuteChildWorkflow(ctx, InvoiceWorkflow, order).Get(ctx, &invoice)
//
// To wait only until the child started (for a child that outlives its
// parent, with ParentClosePolicy abandon), wait on
// GetChildWorkflowExecution.
//
// When the child fails, times out, is canceled or terminated, the
// Future's error is a *temporal.ChildWorkflowExecutionError whose cause
// says why. When it cannot start because its workflow ID is in use, the
// error is a *temporal.ChildWorkflowExecutionAlreadyStartedError.
// Canceling ctx cancels the child once it started (the Future then waits
// until the child closes); canceled before it started, the child is not
// started.
func ExecuteChildWorkflow(ctx Context, childWorkflow any, args ...any) ChildWorkflowFuture {
	return internal.ExecuteChildWorkflow(ctx, childWorkflow, args...)
}

// WithChildOptions returns a child of ctx whose child workflows use
// options, in place of any options ctx carried. An empty Namespace or
// TaskQueue keeps ctx's (the parent workflow's by default).
func WithChildOptions(ctx Context, options ChildWorkflowOptions) Context {
	return internal.WithChildOptions(ctx, options)
}

// GetChildWorkflowOptions returns the child workflow options that ctx
// carries: by default the workflow's own namespace, task queue and
// timeouts.
func GetChildWorkflowOptions(ctx Context) ChildWorkflowOptions {
	return internal.GetChildWorkflowOptions(ctx)
}

// WithWorkflowNamespace returns a child of ctx whose child workflows run
// in the namespace name.
func WithWorkflowNamespace(ctx Context, name string) Context {
	return internal.WithWorkflowNamespace(ctx, name)
}

// WithWorkflowID returns a child of ctx whose child workflows get the
// workflow ID workflowID. Since IDs of open workflows are unique, start
// one child per such context.
func WithWorkflowID(ctx Context, workflowID string) Context {
	return internal.WithWorkflowID(ctx, workflowID)
}

// WithWorkflowTaskQueue returns a child of ctx whose child workflows, and
// whose continue-as-new (NewContinueAsNewError), use the task queue name.
func WithWorkflowTaskQueue(ctx Context, name string) Context {
	return internal.WithWorkflowTaskQueue(ctx, name)
}

// WithWorkflowRunTimeout returns a child of ctx whose child workflows, and
// whose continue-as-new, have the run timeout d.
func WithWorkflowRunTimeout(ctx Context, d time.Duration) Context {
	return internal.WithWorkflowRunTimeout(ctx, d)
}

// WithWorkflowTaskTimeout returns a child of ctx whose child workflows,
// and whose continue-as-new, have the workflow task timeout d.
func WithWorkflowTaskTimeout(ctx Context, d time.Duration) Context {
	return internal.WithWorkflowTaskTimeout(ctx, d)
}

// WithWorkflowVersioningIntent returns a child of ctx whose child
// workflows have the versioning intent intent (build-ID versioning,
// deprecated).
//
//lint:ignore SA1019 the official API takes the deprecated type.
func WithWorkflowVersioningIntent(ctx Context, intent temporal.VersioningIntent) Context {
	return internal.WithWorkflowVersioningIntent(ctx, intent)
}

// WithWorkflowPriority returns a child of ctx whose child workflows have
// priority.
func WithWorkflowPriority(ctx Context, priority temporal.Priority) Context {
	return internal.WithWorkflowPriority(ctx, priority)
}

// SignalExternalWorkflow sends the signal signalName with arg to another
// workflow: the run runID of workflowID, or its current run when runID is
// empty. The Future is ready once the server delivered the signal; its
// error is a *temporal.UnknownExternalWorkflowExecutionError when there
// is no such open workflow.
func SignalExternalWorkflow(ctx Context, workflowID, runID, signalName string, arg any) Future {
	return internal.SignalExternalWorkflow(ctx, workflowID, runID, signalName, arg)
}

// RequestCancelExternalWorkflow asks another workflow (the run runID of
// workflowID, or its current run when runID is empty) to cancel: its root
// Context is canceled, and the workflow decides how to end. The Future is
// ready once the server delivered the request, not when the workflow
// ended; its error says when there is no such open workflow.
func RequestCancelExternalWorkflow(ctx Context, workflowID, runID string) Future {
	return internal.RequestCancelExternalWorkflow(ctx, workflowID, runID)
}

// SignalChildWorkflowOptions configure
// ChildWorkflowFuture.SignalChildWorkflowWithOptions.
//
//   - EventGroups: more event groups for the signal's command, besides the
//     Context's (see WithEventGroups). Default: none.
type SignalChildWorkflowOptions = internal.SignalChildWorkflowOptions

// SignalExternalWorkflowOptions configure SignalExternalWorkflowWithOptions.
//
//   - EventGroups: more event groups for the signal's command, besides the
//     Context's (see WithEventGroups). Default: none.
type SignalExternalWorkflowOptions = internal.SignalExternalWorkflowOptions

// SignalExternalWorkflowWithOptions is SignalExternalWorkflow with options.
func SignalExternalWorkflowWithOptions(ctx Context, workflowID, runID, signalName string, arg any, options SignalExternalWorkflowOptions) Future {
	return internal.SignalExternalWorkflowWithOptions(ctx, workflowID, runID, signalName, arg, options)
}

// CancelExternalWorkflowOptions configure
// RequestCancelExternalWorkflowWithOptions.
//
//   - EventGroups: more event groups for the cancel request's command,
//     besides the Context's (see WithEventGroups). Default: none.
type CancelExternalWorkflowOptions = internal.CancelExternalWorkflowOptions

// RequestCancelExternalWorkflowWithOptions is RequestCancelExternalWorkflow
// with options.
func RequestCancelExternalWorkflowWithOptions(ctx Context, workflowID, runID string, options CancelExternalWorkflowOptions) Future {
	return internal.RequestCancelExternalWorkflowWithOptions(ctx, workflowID, runID, options)
}
