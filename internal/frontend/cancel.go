package frontend

import (
	"errors"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal/testserver"
)

// requestCancel asks a run to cancel itself as a server's
// RequestCancelWorkflowExecution does: with a first execution run ID, the
// workflow's open run, if its chain began with that run; a run that has
// closed takes the request as done.
func requestCancel(s *testserver.Server, req *workflowservice.RequestCancelWorkflowExecutionRequest) error {
	execution := req.GetWorkflowExecution()
	if first := req.GetFirstExecutionRunId(); first != "" {
		execution = &commonpb.WorkflowExecution{WorkflowId: execution.GetWorkflowId()}
		info, err := s.Describe(execution)
		if err != nil {
			return err
		}
		if info.Status == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING && info.Started.GetFirstExecutionRunId() != first {
			return serviceerror.NewNotFoundf("workflow %q has no open run whose chain began with run %s", execution.GetWorkflowId(), first)
		}
	}
	err := s.RequestCancel(execution, req.GetIdentity(), req.GetReason())
	var notFound *serviceerror.NotFound
	if errors.As(err, &notFound) {
		if info, describeErr := s.Describe(execution); describeErr == nil && info.Status != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
			return nil
		}
	}
	return err
}
