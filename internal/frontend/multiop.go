package frontend

import (
	"context"
	"fmt"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
)

// ExecuteMultiOperation serves update-with-start: a start (whose conflict
// policy decides whether an open run takes the update instead) and an
// update of the run it resolves to, which rides on that run's next
// workflow task, the first of a run it started. Either failing fails
// both, as a MultiOperationExecution error that says which.
func (f *Frontend) ExecuteMultiOperation(ctx context.Context, req *workflowservice.ExecuteMultiOperationRequest) (*workflowservice.ExecuteMultiOperationResponse, error) {
	if _, err := f.serverOf(req.GetNamespace()); err != nil {
		return nil, err
	}
	ops := req.GetOperations()
	if len(ops) != 2 || ops[0].GetStartWorkflow() == nil || ops[1].GetUpdateWorkflow() == nil {
		return nil, serviceerror.NewInvalidArgument("the embedded server serves ExecuteMultiOperation for update-with-start only: a start, then an update")
	}
	start, update := ops[0].GetStartWorkflow(), ops[1].GetUpdateWorkflow()
	if wid := update.GetWorkflowExecution().GetWorkflowId(); wid != "" && wid != start.GetWorkflowId() {
		return nil, serviceerror.NewInvalidArgument(fmt.Sprintf("update-with-start: the update names workflow %q, the start %q", wid, start.GetWorkflowId()))
	}
	started, err := f.StartWorkflowExecution(ctx, start)
	if err != nil {
		return nil, serviceerror.NewMultiOperationExecution("update-with-start: the start failed",
			[]error{err, serviceerror.NewMultiOperationAborted("the start failed")})
	}
	update.Namespace = req.GetNamespace()
	update.WorkflowExecution = &commonpb.WorkflowExecution{WorkflowId: start.GetWorkflowId(), RunId: started.GetRunId()}
	updated, err := f.UpdateWorkflowExecution(ctx, update)
	if err != nil {
		return nil, serviceerror.NewMultiOperationExecution("update-with-start: the update failed",
			[]error{serviceerror.NewMultiOperationAborted("the update failed"), err})
	}
	return &workflowservice.ExecuteMultiOperationResponse{Responses: []*workflowservice.ExecuteMultiOperationResponse_Response{
		{Response: &workflowservice.ExecuteMultiOperationResponse_Response_StartWorkflow{StartWorkflow: started}},
		{Response: &workflowservice.ExecuteMultiOperationResponse_Response_UpdateWorkflow{UpdateWorkflow: updated}},
	}}, nil
}
