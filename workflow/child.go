package workflow

import (
	"time"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/temporal"
)

type (
	// ChildWorkflowOptions configure the child workflows a workflow starts.
	ChildWorkflowOptions = internal.ChildWorkflowOptions
	// ChildWorkflowFuture is the future of a child workflow's result, with
	// the future of its start and a way to signal it.
	ChildWorkflowFuture = internal.ChildWorkflowFuture
)

// ExecuteChildWorkflow starts a child workflow (a function or its type
// name) with args and returns the future of its result. If the child
// fails, times out, is canceled or terminated, or cannot start, the
// future's error is a *temporal.ChildWorkflowExecutionError whose cause
// says why. Canceling ctx cancels the child once it started; the future
// then waits for the child to close.
func ExecuteChildWorkflow(ctx Context, childWorkflow any, args ...any) ChildWorkflowFuture {
	return internal.ExecuteChildWorkflow(ctx, childWorkflow, args...)
}

// WithChildOptions returns a context whose child workflows use options.
// An empty namespace or task queue keeps the context's.
func WithChildOptions(ctx Context, options ChildWorkflowOptions) Context {
	return internal.WithChildOptions(ctx, options)
}

// GetChildWorkflowOptions returns the child workflow options of ctx: by
// default the workflow's own namespace, task queue and timeouts.
func GetChildWorkflowOptions(ctx Context) ChildWorkflowOptions {
	return internal.GetChildWorkflowOptions(ctx)
}

// WithWorkflowNamespace sets the namespace of ctx's child workflows.
func WithWorkflowNamespace(ctx Context, name string) Context {
	return internal.WithWorkflowNamespace(ctx, name)
}

// WithWorkflowID sets the workflow ID of ctx's next child workflow.
func WithWorkflowID(ctx Context, workflowID string) Context {
	return internal.WithWorkflowID(ctx, workflowID)
}

// WithWorkflowTaskQueue sets the task queue of ctx's child workflows and
// of continue-as-new.
func WithWorkflowTaskQueue(ctx Context, name string) Context {
	return internal.WithWorkflowTaskQueue(ctx, name)
}

// WithWorkflowRunTimeout sets the run timeout of ctx's child workflows and
// of continue-as-new.
func WithWorkflowRunTimeout(ctx Context, d time.Duration) Context {
	return internal.WithWorkflowRunTimeout(ctx, d)
}

// WithWorkflowTaskTimeout sets the workflow task timeout of ctx's child
// workflows and of continue-as-new.
func WithWorkflowTaskTimeout(ctx Context, d time.Duration) Context {
	return internal.WithWorkflowTaskTimeout(ctx, d)
}

// WithWorkflowVersioningIntent sets the versioning intent of ctx's child
// workflows.
//
//lint:ignore SA1019 the official API takes the deprecated type.
func WithWorkflowVersioningIntent(ctx Context, intent temporal.VersioningIntent) Context {
	return internal.WithWorkflowVersioningIntent(ctx, intent)
}

// WithWorkflowPriority sets the priority of ctx's child workflows.
func WithWorkflowPriority(ctx Context, priority temporal.Priority) Context {
	return internal.WithWorkflowPriority(ctx, priority)
}

// SignalExternalWorkflow signals a workflow run (the current run of
// workflowID when runID is empty). The future is ready once the signal was
// delivered; its error is a *temporal.UnknownExternalWorkflowExecutionError
// when there is no such workflow.
func SignalExternalWorkflow(ctx Context, workflowID, runID, signalName string, arg any) Future {
	return internal.SignalExternalWorkflow(ctx, workflowID, runID, signalName, arg)
}

// RequestCancelExternalWorkflow asks a workflow run (the current run of
// workflowID when runID is empty) to cancel itself. The future is ready
// once the request was delivered.
func RequestCancelExternalWorkflow(ctx Context, workflowID, runID string) Future {
	return internal.RequestCancelExternalWorkflow(ctx, workflowID, runID)
}
