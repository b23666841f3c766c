//lint:file-ignore SA1019 the deprecated namespace, control and inherit_build_id fields are what go.temporal.io/sdk sends and histories record.

package engine

import (
	"errors"
	"fmt"
	"strconv"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	sdkpb "go.temporal.io/api/sdk/v1"

	"github.com/durable-go/sdk/internal/codecfail"
	"github.com/durable-go/sdk/internal/commands"
	"github.com/durable-go/sdk/internal/failure"
)

// DefaultChildWorkflowID is the ID of a child started without one, as
// go.temporal.io/sdk makes it: the run's current run ID (see
// Info.CurrentRunID) and the command's sequence number.
func (x *Run) DefaultChildWorkflowID() string {
	return x.info.CurrentRunID + "_" + strconv.FormatInt(x.book.NextSeq(), 10)
}

// StartChildWorkflow starts a child workflow. started runs once, when the
// child started (with its run) or could not (with a
// ChildWorkflowExecutionError); done runs once, with the child's result or
// its error (a ChildWorkflowExecutionError whose cause says why), the
// child's failure decoded with fc (the run's when nil).
//
// A child whose workflow ID is that of a child this run started and that
// has not closed does not start, as in go.temporal.io/sdk: there is no
// command (so histories agree), and the error is a bare
// *ChildWorkflowExecutionAlreadyStartedError; started and done never run.
func (x *Run) StartChildWorkflow(attrs *commandpb.StartChildWorkflowExecutionCommandAttributes, summary, details string, fc FailureConverter,
	started func(execution *commonpb.WorkflowExecution, err error), done func(*commonpb.Payloads, error),
) (*commands.ChildWorkflow, error) {
	if x.book.ChildOpen(attrs.GetWorkflowId()) {
		return nil, &failure.ChildWorkflowExecutionAlreadyStartedError{}
	}
	metadata, err := x.userMetadata(summary)
	if err != nil {
		return nil, err
	}
	if details != "" {
		p, err := x.dc.ToPayload(details)
		if err != nil {
			err = fmt.Errorf("encoding the details %q: %w", details, err)
			codecfail.FailTask(err)
			return nil, err
		}
		if metadata == nil {
			metadata = &sdkpb.UserMetadata{}
		}
		metadata.Details = p
	}
	var startErr error
	var child *commands.ChildWorkflow
	calls := commands.ChildCallbacks{
		Started: func(runID string, cause enumspb.StartChildWorkflowExecutionFailedCause) {
			if runID == "" {
				startErr = failure.NewChildWorkflowExecutionError(attrs.GetNamespace(), attrs.GetWorkflowId(), "",
					attrs.GetWorkflowType().GetName(), x.childInitiatedID(child), 0, enumspb.RETRY_STATE_NON_RETRYABLE_FAILURE, startFailure(cause))
				started(nil, startErr)
				return
			}
			started(&commonpb.WorkflowExecution{WorkflowId: attrs.GetWorkflowId(), RunId: runID}, nil)
		},
		Done: func(o commands.Outcome) {
			if startErr != nil {
				done(nil, startErr)
				return
			}
			x.outcomeHandler(fc, done)(o)
		},
	}
	child = x.book.StartChildWorkflow(attrs, metadata, calls)
	return child, nil
}

func (x *Run) childInitiatedID(c *commands.ChildWorkflow) int64 {
	if c == nil {
		return 0
	}
	return c.InitiatedEventID()
}

// startFailure is the cause of a child workflow that did not start, as
// go.temporal.io/sdk reports it.
func startFailure(cause enumspb.StartChildWorkflowExecutionFailedCause) error {
	switch cause {
	case enumspb.START_CHILD_WORKFLOW_EXECUTION_FAILED_CAUSE_WORKFLOW_ALREADY_EXISTS:
		return &failure.ChildWorkflowExecutionAlreadyStartedError{}
	case enumspb.START_CHILD_WORKFLOW_EXECUTION_FAILED_CAUSE_NAMESPACE_NOT_FOUND:
		return &failure.NamespaceNotFoundError{}
	case enumspb.START_CHILD_WORKFLOW_EXECUTION_FAILED_CAUSE_INVALID_VERSIONING_OVERRIDE:
		return &failure.InvalidVersioningOverrideError{}
	}
	return fmt.Errorf("unable to start child workflow for unknown cause: %v", cause)
}

// SignalExternalWorkflow signals another workflow (or, with
// attrs.ChildWorkflowOnly, a child). done runs once: with nil when the
// signal was delivered, else with why not.
func (x *Run) SignalExternalWorkflow(attrs *commandpb.SignalExternalWorkflowExecutionCommandAttributes, done func(error)) {
	x.book.SignalExternal(attrs, func(o commands.ExternalOutcome) { done(externalError("signal", o)) })
}

// RequestCancelExternalWorkflow asks another workflow to cancel itself.
// done runs once: with nil when the request was delivered, else with why
// not.
func (x *Run) RequestCancelExternalWorkflow(attrs *commandpb.RequestCancelExternalWorkflowExecutionCommandAttributes, done func(error)) {
	x.book.CancelExternal(attrs, func(o commands.ExternalOutcome) { done(externalError("cancel", o)) })
}

// externalError is the error of a signal or cancel request that failed, as
// go.temporal.io/sdk reports it.
func externalError(what string, o commands.ExternalOutcome) error {
	switch {
	case !o.Failed:
		return nil
	case o.NotFound:
		return &failure.UnknownExternalWorkflowExecutionError{}
	case o.NamespaceNotFound:
		return &failure.NamespaceNotFoundError{}
	}
	return errors.New("unable to " + what + " external workflow for unknown cause: " + o.Cause)
}
