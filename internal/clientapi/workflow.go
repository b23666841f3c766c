package clientapi

import (
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	querypb "go.temporal.io/api/query/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/policy"
	"github.com/durable-go/sdk/internal/searchattr"
)

// WorkflowExecution identifies a workflow run (workflow.Execution).
type WorkflowExecution struct {
	ID    string
	RunID string
}

// WorkflowType names a workflow type (workflow.Type).
type WorkflowType struct {
	Name string
}

type (
	// StartWorkflowOptions configure a workflow started by
	// Client.ExecuteWorkflow or Client.SignalWithStartWorkflow.
	StartWorkflowOptions struct {
		// ID is the workflow ID, unique among the namespace's running
		// workflows; a random UUID when empty.
		ID string
		// TaskQueue is the task queue the workflow's worker polls. Required.
		TaskQueue string
		// WorkflowExecutionTimeout bounds the whole workflow, retries,
		// cron runs and continue-as-new included; unlimited when zero.
		WorkflowExecutionTimeout time.Duration
		// WorkflowRunTimeout bounds a single run; the execution timeout when
		// zero.
		WorkflowRunTimeout time.Duration
		// WorkflowTaskTimeout bounds each workflow task; 10s when zero.
		WorkflowTaskTimeout time.Duration
		// WorkflowIDConflictPolicy says what happens when a workflow with
		// this ID is running: fail (the default), use the running one,
		// or terminate it and start anew.
		WorkflowIDConflictPolicy enumspb.WorkflowIdConflictPolicy
		// WorkflowIDReusePolicy says whether this ID may be used again once
		// an earlier workflow with it has closed: allowed by default.
		WorkflowIDReusePolicy enumspb.WorkflowIdReusePolicy
		// WorkflowExecutionErrorWhenAlreadyStarted makes ExecuteWorkflow
		// return *serviceerror.WorkflowExecutionAlreadyStarted when the ID
		// is in use, rather than the run that uses it.
		WorkflowExecutionErrorWhenAlreadyStarted bool
		// RetryPolicy makes the server retry the workflow when it fails;
		// no retries when nil.
		RetryPolicy *policy.RetryPolicy
		// CronSchedule starts the workflow on a cron schedule ("*/5 * * * *"),
		// a new run each time; schedules are usually the better choice.
		CronSchedule string
		// Memo is information stored with the workflow and shown when it
		// is listed or described, not indexed.
		Memo map[string]any
		// SearchAttributes are indexed attributes by name, untyped.
		//
		// Deprecated: use TypedSearchAttributes.
		SearchAttributes map[string]any
		// TypedSearchAttributes are indexed attributes to list workflows by.
		// Only one of the two forms may be set.
		TypedSearchAttributes searchattr.SearchAttributes
		// EnableEagerStart asks the server to hand the workflow's first
		// task straight back, to a running worker made with this client
		// that polls the task queue and has a free workflow task slot,
		// saving it a poll. Without one, or from a server that does not
		// support it (system.enableEagerWorkflowStart), the workflow
		// starts as usual. Not for SignalWithStartWorkflow.
		EnableEagerStart bool
		// StartDelay postpones the first workflow task; a signal sent with
		// SignalWithStartWorkflow does not cut it short.
		StartDelay time.Duration
		// StaticSummary is a one-line summary shown in the UI.
		StaticSummary string
		// StaticDetails is a longer description shown in the UI.
		StaticDetails string
		// Priority orders the workflow's tasks relative to others.
		Priority policy.Priority
		// VersioningOverride, when set, decides which worker deployment
		// version runs the workflow, whatever its code declares.
		VersioningOverride VersioningOverride
	}

	// CancelWorkflowOptions say which workflow CancelWorkflowWithOptions
	// cancels, and why.
	CancelWorkflowOptions struct {
		// WorkflowID is required.
		WorkflowID string
		// RunID selects a run; the current run when empty.
		RunID string
		// FirstExecutionRunID, if set, makes the request fail unless the
		// run's chain started with this run.
		FirstExecutionRunID string
		// Reason is recorded in the cancel-requested event.
		Reason string
	}

	// TerminateWorkflowOptions say which workflow
	// TerminateWorkflowWithOptions terminates, and why.
	TerminateWorkflowOptions struct {
		// WorkflowID is required.
		WorkflowID string
		// RunID selects a run; the current run when empty.
		RunID string
		// FirstExecutionRunID, if set, makes the request fail unless the
		// run's chain started with this run.
		FirstExecutionRunID string
		// Reason is recorded in the terminated event.
		Reason string
		// Details are recorded in the terminated event.
		Details []any
	}

	// QueryWorkflowWithOptionsRequest is the request of
	// Client.QueryWorkflowWithOptions.
	QueryWorkflowWithOptionsRequest struct {
		// WorkflowID is required.
		WorkflowID string
		// RunID selects a run; the current run when empty.
		RunID string
		// QueryType is the query's name. Required.
		QueryType string
		// Args are the query's arguments.
		Args []any
		// QueryRejectCondition rejects the query, rather than running it,
		// when the workflow is closed (NOT_OPEN) or did not complete
		// successfully (NOT_COMPLETED_CLEANLY).
		QueryRejectCondition enumspb.QueryRejectCondition
		// Header is sent with the query, with what the client's context
		// propagators add.
		Header *commonpb.Header
	}

	// QueryWorkflowWithOptionsResponse is the answer of
	// Client.QueryWorkflowWithOptions: a result or a rejection.
	QueryWorkflowWithOptionsResponse struct {
		// QueryResult is the query handler's answer, unless rejected.
		QueryResult converter.EncodedValue
		// QueryRejected says why the query was rejected, with the
		// workflow's status.
		QueryRejected *querypb.QueryRejected
	}
)
