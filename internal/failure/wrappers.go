package failure

import (
	"fmt"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
)

// ActivityError is what a workflow receives when an activity fails. Its
// cause is the activity's own error; unwrap it or use errors.As.
type ActivityError struct {
	origin
	scheduledEventID int64
	startedEventID   int64
	identity         string
	activityType     *commonpb.ActivityType
	activityID       string
	retryState       enumspb.RetryState
	cause            error
}

// NewActivityError returns an ActivityError for the activity scheduled and
// started by the given events, failed with cause.
func NewActivityError(
	scheduledEventID, startedEventID int64,
	identity, activityType, activityID string,
	retryState enumspb.RetryState,
	cause error,
) *ActivityError {
	return &ActivityError{
		scheduledEventID: scheduledEventID,
		startedEventID:   startedEventID,
		identity:         identity,
		activityType:     &commonpb.ActivityType{Name: activityType},
		activityID:       activityID,
		retryState:       retryState,
		cause:            cause,
	}
}

// Error describes the activity, then the cause.
func (e *ActivityError) Error() string { return describeChain(e) }

func (e *ActivityError) head() string {
	return fmt.Sprintf("activity error (type: %s, scheduledEventID: %d, startedEventID: %d, identity: %s)",
		e.activityType.GetName(), e.scheduledEventID, e.startedEventID, e.identity)
}

// ScheduledEventID returns the ID of the ActivityTaskScheduled event.
func (e *ActivityError) ScheduledEventID() int64 { return e.scheduledEventID }

// StartedEventID returns the ID of the ActivityTaskStarted event.
func (e *ActivityError) StartedEventID() int64 { return e.startedEventID }

// Identity returns the identity of the worker of the last attempt.
func (e *ActivityError) Identity() string { return e.identity }

// ActivityType returns the activity type.
func (e *ActivityError) ActivityType() *commonpb.ActivityType { return e.activityType }

// ActivityID returns the activity ID.
func (e *ActivityError) ActivityID() string { return e.activityID }

// RetryState says why the activity is not retried any more.
func (e *ActivityError) RetryState() enumspb.RetryState { return e.retryState }

// Unwrap returns the activity's error.
func (e *ActivityError) Unwrap() error { return e.cause }

// ChildWorkflowExecutionError is what a workflow receives when a child
// workflow fails. Its cause is the child's error.
type ChildWorkflowExecutionError struct {
	origin
	namespace        string
	workflowID       string
	runID            string
	workflowType     string
	initiatedEventID int64
	startedEventID   int64
	retryState       enumspb.RetryState
	cause            error
}

// NewChildWorkflowExecutionError returns a ChildWorkflowExecutionError for
// the child initiated and started by the given events, failed with cause.
func NewChildWorkflowExecutionError(
	namespace, workflowID, runID, workflowType string,
	initiatedEventID, startedEventID int64,
	retryState enumspb.RetryState,
	cause error,
) *ChildWorkflowExecutionError {
	return &ChildWorkflowExecutionError{
		namespace:        namespace,
		workflowID:       workflowID,
		runID:            runID,
		workflowType:     workflowType,
		initiatedEventID: initiatedEventID,
		startedEventID:   startedEventID,
		retryState:       retryState,
		cause:            cause,
	}
}

// Error describes the child workflow, then the cause.
func (e *ChildWorkflowExecutionError) Error() string { return describeChain(e) }

func (e *ChildWorkflowExecutionError) head() string {
	return fmt.Sprintf("child workflow execution error (type: %s, workflowID: %s, runID: %s, initiatedEventID: %d, startedEventID: %d)",
		e.workflowType, e.workflowID, e.runID, e.initiatedEventID, e.startedEventID)
}

// Namespace returns the child's namespace.
func (e *ChildWorkflowExecutionError) Namespace() string { return e.namespace }

// WorkflowID returns the child's workflow ID.
func (e *ChildWorkflowExecutionError) WorkflowID() string { return e.workflowID }

// RunID returns the child's run ID.
func (e *ChildWorkflowExecutionError) RunID() string { return e.runID }

// WorkflowType returns the child's workflow type.
func (e *ChildWorkflowExecutionError) WorkflowType() string { return e.workflowType }

// InitiatedEventID returns the ID of the StartChildWorkflowExecutionInitiated event.
func (e *ChildWorkflowExecutionError) InitiatedEventID() int64 { return e.initiatedEventID }

// StartedEventID returns the ID of the ChildWorkflowExecutionStarted event.
func (e *ChildWorkflowExecutionError) StartedEventID() int64 { return e.startedEventID }

// RetryState says why the child is not retried any more.
func (e *ChildWorkflowExecutionError) RetryState() enumspb.RetryState { return e.retryState }

// Unwrap returns the child's error.
func (e *ChildWorkflowExecutionError) Unwrap() error { return e.cause }

// WorkflowExecutionError is what a client receives when a workflow it waits
// for fails. Its cause is the workflow's error.
type WorkflowExecutionError struct {
	workflowID   string
	runID        string
	workflowType string
	cause        error
}

// NewWorkflowExecutionError returns a WorkflowExecutionError for the given
// run, failed with cause.
func NewWorkflowExecutionError(workflowID, runID, workflowType string, cause error) *WorkflowExecutionError {
	return &WorkflowExecutionError{workflowID: workflowID, runID: runID, workflowType: workflowType, cause: cause}
}

// Error describes the workflow run, then the cause.
func (e *WorkflowExecutionError) Error() string { return describeChain(e) }

func (e *WorkflowExecutionError) head() string {
	return fmt.Sprintf("workflow execution error (type: %s, workflowID: %s, runID: %s)",
		e.workflowType, e.workflowID, e.runID)
}

// Unwrap returns the workflow's error.
func (e *WorkflowExecutionError) Unwrap() error { return e.cause }
