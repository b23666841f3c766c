package frontend

import (
	"context"

	enumspb "go.temporal.io/api/enums/v1"
	updatepb "go.temporal.io/api/update/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal/testserver"
)

// UpdateWorkflowExecution sends an update to a run and waits for the
// stage its wait policy names, or for the call's deadline (then it
// answers with the stage reached, and the client polls on).
func (f *Frontend) UpdateWorkflowExecution(ctx context.Context, req *workflowservice.UpdateWorkflowExecutionRequest) (*workflowservice.UpdateWorkflowExecutionResponse, error) {
	srv, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	info, err := srv.Describe(req.GetWorkflowExecution())
	if err != nil {
		return nil, err
	}
	watcher, err := srv.UpdateWorkflow(info.Execution, req.GetRequest())
	if err != nil {
		return nil, err
	}
	ref := &updatepb.UpdateRef{WorkflowExecution: info.Execution, UpdateId: req.GetRequest().GetMeta().GetUpdateId()}
	stage, outcome := f.awaitUpdate(ctx, watcher, req.GetWaitPolicy().GetLifecycleStage())
	return &workflowservice.UpdateWorkflowExecutionResponse{UpdateRef: ref, Outcome: outcome, Stage: stage}, nil
}

// PollWorkflowExecutionUpdate waits for an update the run knows to reach
// the stage the wait policy names, or for the call's deadline.
func (f *Frontend) PollWorkflowExecutionUpdate(ctx context.Context, req *workflowservice.PollWorkflowExecutionUpdateRequest) (*workflowservice.PollWorkflowExecutionUpdateResponse, error) {
	srv, err := f.serverOf(req.GetNamespace())
	if err != nil {
		return nil, err
	}
	ref := req.GetUpdateRef()
	info, err := srv.Describe(ref.GetWorkflowExecution())
	if err != nil {
		return nil, err
	}
	watcher, err := srv.WatchUpdate(info.Execution, ref.GetUpdateId())
	if err != nil {
		return nil, err
	}
	stage, outcome := f.awaitUpdate(ctx, watcher, req.GetWaitPolicy().GetLifecycleStage())
	return &workflowservice.PollWorkflowExecutionUpdateResponse{
		UpdateRef: &updatepb.UpdateRef{WorkflowExecution: info.Execution, UpdateId: ref.GetUpdateId()},
		Outcome:   outcome, Stage: stage,
	}, nil
}

// awaitUpdate reads a watcher's notices until the update reaches want
// (completed when unspecified), is rejected (completed, its outcome the
// rejection) or the long poll ends. Notices it does not wait for are
// read and handled in the background, so that they do not hold the
// clock.
func (f *Frontend) awaitUpdate(ctx context.Context, w *testserver.UpdateWatcher, want enumspb.UpdateWorkflowExecutionLifecycleStage) (enumspb.UpdateWorkflowExecutionLifecycleStage, *updatepb.Outcome) {
	if want == enumspb.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_UNSPECIFIED {
		want = enumspb.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_COMPLETED
	}
	wait := longPollContext(ctx)
	defer wait.cancel()
	stage := enumspb.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ADMITTED
	for stage < want {
		select {
		case n := <-w.C:
			w.Handled()
			switch n.Stage {
			case testserver.UpdateAccepted:
				stage = enumspb.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ACCEPTED
			case testserver.UpdateRejected:
				return enumspb.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_COMPLETED,
					&updatepb.Outcome{Value: &updatepb.Outcome_Failure{Failure: n.Failure}}
			case testserver.UpdateCompleted:
				return enumspb.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_COMPLETED, n.Outcome
			}
		case <-wait.ctx.Done():
			go drainUpdate(w)
			return stage, nil
		}
	}
	go drainUpdate(w)
	return stage, nil
}

// drainUpdate handles the notices a caller no longer waits for, until
// the update's last.
func drainUpdate(w *testserver.UpdateWatcher) {
	for n := range w.C {
		w.Handled()
		if n.Stage != testserver.UpdateAccepted {
			return
		}
	}
}
