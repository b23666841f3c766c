package clientimpl

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/propagation"
	"github.com/durable-go/sdk/internal/uuid"
)

// errWithStartOperation begins the errors of an unusable operation, as
// in the official SDK.
var errWithStartOperation = errors.New("invalid WithStartWorkflowOperation")

// clientWithStartOperation implements WithStartWorkflowOperation.
type clientWithStartOperation struct {
	// options and workflowType are what the operation starts; err, if
	// set, is why it cannot (UpdateWithStartWorkflow returns it).
	options      clientapi.StartWorkflowOptions
	workflowType string
	args         []any
	err          error

	// executed is set by the one call allowed to use the operation.
	executed atomic.Bool
	// done is closed once run or failed is set, for Get.
	done   chan struct{}
	run    clientapi.WorkflowRun
	failed error
}

// NewWithStartWorkflowOperation implements Client. A mistake in the
// options or arguments is reported by UpdateWithStartWorkflow.
func (c *workflowClient) NewWithStartWorkflowOperation(options clientapi.StartWorkflowOptions, workflow any, args ...any) clientapi.WithStartWorkflowOperation {
	op := &clientWithStartOperation{options: options, args: args, done: make(chan struct{})}
	if options.WorkflowIDConflictPolicy == enumspb.WORKFLOW_ID_CONFLICT_POLICY_UNSPECIFIED {
		op.err = errors.New("StartWorkflowOptions.WorkflowIDConflictPolicy must be set for update-with-start: " +
			"USE_EXISTING updates the running workflow if there is one, FAIL fails the call if there is")
		return op
	}
	if op.options.ID == "" {
		op.options.ID = uuid.New()
	}
	op.workflowType, op.err = clientCheckedWorkflowType(workflow, args)
	return op
}

// Get implements WithStartWorkflowOperation.
func (op *clientWithStartOperation) Get(ctx context.Context) (clientapi.WorkflowRun, error) {
	select {
	case <-op.done:
		return op.run, op.failed
	case <-ctx.Done():
		if !op.executed.Load() {
			return nil, fmt.Errorf("%w: operation was not executed", ctx.Err())
		}
		return nil, ctx.Err()
	}
}

// markExecuted claims the operation for one call.
func (op *clientWithStartOperation) markExecuted() error {
	if op.executed.Swap(true) {
		return fmt.Errorf("%w: it was already executed; make a new one for each UpdateWithStartWorkflow call", errWithStartOperation)
	}
	return nil
}

// settle gives Get its answer, once.
func (op *clientWithStartOperation) settle(run clientapi.WorkflowRun, err error) {
	op.run, op.failed = run, err
	close(op.done)
}

// UpdateWithStartWorkflow implements Client.
func (c *workflowClient) UpdateWithStartWorkflow(ctx context.Context, options clientapi.UpdateWithStartWorkflowOptions) (clientapi.WorkflowUpdateHandle, error) {
	op, ok := options.StartWorkflowOperation.(*clientWithStartOperation)
	if !ok {
		return nil, fmt.Errorf("UpdateWithStartWorkflow: %w: it must come from Client.NewWithStartWorkflowOperation, not %T", errWithStartOperation, options.StartWorkflowOperation)
	}
	if op.err != nil {
		return nil, fmt.Errorf("UpdateWithStartWorkflow: %w", op.err)
	}
	update := options.UpdateOptions
	if update.RunID != "" {
		return nil, errors.New("UpdateWithStartWorkflow: UpdateWorkflowOptions.RunID cannot be set, because the workflow might not be running yet")
	}
	if update.FirstExecutionRunID != "" {
		return nil, errors.New("UpdateWithStartWorkflow: UpdateWorkflowOptions.FirstExecutionRunID cannot be set, because the workflow might not be running yet")
	}
	if update.WorkflowID == "" {
		update.WorkflowID = op.options.ID
	}
	if update.WorkflowID != op.options.ID {
		return nil, fmt.Errorf("UpdateWithStartWorkflow: UpdateWorkflowOptions.WorkflowID %q differs from StartWorkflowOptions.ID %q: leave it empty or make them equal", update.WorkflowID, op.options.ID)
	}
	if err := checkUpdateOptions(&update); err != nil {
		return nil, fmt.Errorf("UpdateWithStartWorkflow: %w", err)
	}
	return c.interceptor.UpdateWithStartWorkflow(propagation.ContextWithNewHeader(ctx), &clientapi.ClientUpdateWithStartWorkflowInput{
		UpdateOptions:          &update,
		StartWorkflowOperation: op,
	})
}

// UpdateWithStartWorkflow sends the start and the update as one
// ExecuteMultiOperation request, again while the server answers that the
// update is only admitted, and then waits as UpdateWorkflow does. The
// operation learns the run from the first answer.
func (r *clientRoot) UpdateWithStartWorkflow(ctx context.Context, in *clientapi.ClientUpdateWithStartWorkflowInput) (clientapi.WorkflowUpdateHandle, error) {
	c := r.c
	op, ok := in.StartWorkflowOperation.(*clientWithStartOperation)
	if !ok {
		return nil, fmt.Errorf("UpdateWithStartWorkflow: %w: it must come from Client.NewWithStartWorkflowOperation, not %T", errWithStartOperation, in.StartWorkflowOperation)
	}
	if op.err != nil {
		return nil, fmt.Errorf("UpdateWithStartWorkflow: %w: %w", errWithStartOperation, op.err)
	}
	if err := op.markExecuted(); err != nil {
		return nil, fmt.Errorf("UpdateWithStartWorkflow: %w", err)
	}
	handle, err := c.updateWithStart(ctx, op, in.UpdateOptions)
	if err != nil {
		select {
		case <-op.done:
		default:
			op.settle(nil, err)
		}
	}
	return handle, err
}

// updateWithStart encodes and sends the operation's start and the update,
// and makes the update's handle.
func (c *workflowClient) updateWithStart(ctx context.Context, op *clientWithStartOperation, options *clientapi.UpdateWorkflowOptions) (clientapi.WorkflowUpdateHandle, error) {
	p, err := c.newWorkflowStartParams(ctx, op.options, op.workflowType, op.args)
	if err != nil {
		return nil, fmt.Errorf("UpdateWithStartWorkflow: %w", err)
	}
	update := &clientapi.ClientUpdateWorkflowInput{
		UpdateID:     options.UpdateID,
		WorkflowID:   options.WorkflowID,
		UpdateName:   options.UpdateName,
		Args:         options.Args,
		WaitForStage: options.WaitForStage,
	}
	if update.WorkflowID == "" {
		// An interceptor may have cleared it; the update goes to the
		// workflow started.
		update.WorkflowID = op.options.ID
	}
	updateReq, err := c.updateRequest(ctx, update)
	if err != nil {
		return nil, fmt.Errorf("UpdateWithStartWorkflow: %w", err)
	}
	if err := c.ensureInitialized(ctx); err != nil {
		return nil, err
	}
	req := &workflowservice.ExecuteMultiOperationRequest{
		Namespace: c.namespace,
		Operations: []*workflowservice.ExecuteMultiOperationRequest_Operation{
			{Operation: &workflowservice.ExecuteMultiOperationRequest_Operation_StartWorkflow{StartWorkflow: c.startRequest(p)}},
			{Operation: &workflowservice.ExecuteMultiOperationRequest_Operation_UpdateWorkflow{UpdateWorkflow: updateReq}},
		},
		// Routes the request to the workflow's shard, as the official
		// SDK's requests do.
		ResourceId: "workflow:" + op.options.ID,
	}
	var updateResp *workflowservice.UpdateWorkflowExecutionResponse
	for !updateIsDurable(updateResp) {
		resp, err := c.service.ExecuteMultiOperation(ctx, req)
		if err != nil {
			return nil, multiOperationError(ctx, err)
		}
		var startResp *workflowservice.StartWorkflowExecutionResponse
		if startResp, updateResp, err = multiOperationResponses(resp); err != nil {
			return nil, err
		}
		select {
		case <-op.done:
		default:
			op.settle(c.runHandle(op.options.ID, op.workflowType, startResp.GetRunId(), startResp.GetFirstExecutionRunId()), nil)
		}
	}
	return c.updateHandleFromResponse(ctx, update.WaitForStage, updateResp, updateReq)
}

// errInvalidServerResponse begins the errors of answers no server should
// give.
var errInvalidServerResponse = errors.New("invalid server response")

// multiOperationResponses takes the start's and the update's answers
// from an ExecuteMultiOperation response.
func multiOperationResponses(resp *workflowservice.ExecuteMultiOperationResponse) (*workflowservice.StartWorkflowExecutionResponse, *workflowservice.UpdateWorkflowExecutionResponse, error) {
	responses := resp.GetResponses()
	if len(responses) != 2 {
		return nil, nil, fmt.Errorf("%w: %d instead of 2 operation results", errInvalidServerResponse, len(responses))
	}
	start, ok := responses[0].GetResponse().(*workflowservice.ExecuteMultiOperationResponse_Response_StartWorkflow)
	if !ok {
		return nil, nil, fmt.Errorf("%w: StartWorkflow response has the wrong type %T", errInvalidServerResponse, responses[0].GetResponse())
	}
	update, ok := responses[1].GetResponse().(*workflowservice.ExecuteMultiOperationResponse_Response_UpdateWorkflow)
	if !ok {
		return nil, nil, fmt.Errorf("%w: UpdateWorkflow response has the wrong type %T", errInvalidServerResponse, responses[1].GetResponse())
	}
	return start.StartWorkflow, update.UpdateWorkflow, nil
}

// multiOperationError is the error of a failed ExecuteMultiOperation: the
// error of the operation that failed (not of the one aborted because of
// it), prefixed as the official SDK does ("failed workflow start: ...",
// "failed workflow update: ..."), and wrapping the server's error.
func multiOperationError(ctx context.Context, err error) error {
	var multi *serviceerror.MultiOperationExecution
	if !errors.As(err, &multi) {
		return updateCallError(ctx, err)
	}
	opErrs := multi.OperationErrors()
	if len(opErrs) != 2 {
		return fmt.Errorf("%w: %d instead of 2 operation errors", errInvalidServerResponse, len(opErrs))
	}
	var aborted *serviceerror.MultiOperationAborted
	for i, prefix := range []string{"failed workflow start", "failed workflow update"} {
		if opErrs[i] != nil && !errors.As(opErrs[i], &aborted) {
			return fmt.Errorf("%s: %w", prefix, opErrs[i])
		}
	}
	return errors.New(multi.Error())
}
