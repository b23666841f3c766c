package engine

import (
	"errors"
	"fmt"

	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"

	"github.com/durable-go/sdk/internal/codecfail"
	"github.com/durable-go/sdk/internal/failure"
)

// A payload codec fails the workflow task, rather than the workflow, by
// returning a converter.WorkflowTaskFailureError, which the converter marks
// (internal/codecfail). The conversions that count either return the
// marked error from a task's processing or, in workflow code and in
// conversions that cannot return one, panic with it (codecfail.FailTask);
// either way it reaches classify, which reports it as a failed task that
// the server retries, whatever the panic policy (runWorkflow).

// codecTaskError is the failed task to report for err when a payload
// codec asked for it, else nil.
func (x *Run) codecTaskError(err error) *TaskError {
	if !codecfail.Has(err) {
		return nil
	}
	// A panic says only that the code panicked: what failed is the value.
	var p Panicked
	if errors.As(err, &p) {
		if v, ok := p.PanicValue().(error); ok && codecfail.Has(v) {
			err = v
		}
	}
	return &TaskError{
		Cause: enumspb.WORKFLOW_TASK_FAILED_CAUSE_WORKFLOW_WORKER_UNHANDLED_FAILURE,
		Err: fmt.Errorf("workflow %q (run %s, type %q): a payload codec failed the workflow task (converter.WorkflowTaskFailureError), "+
			"so the server will retry the task: %w", x.info.WorkflowID, x.info.RunID, x.info.WorkflowType, err),
	}
}

// failureInTask converts err to the failure a command carries: details a
// payload codec refuses with a WorkflowTaskFailureError fail the task.
func (x *Run) failureInTask(err error) *failurepb.Failure {
	return failure.ErrorToFailureInTask(x.fc, err)
}
