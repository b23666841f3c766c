package clientimpl

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	updatepb "go.temporal.io/api/update/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc/codes"

	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/propagation"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/uuid"
)

// UpdateWorkflow implements Client. The options are checked here, and the
// request sent at the end of the interceptor chain (clientRoot).
func (c *workflowClient) UpdateWorkflow(ctx context.Context, options clientapi.UpdateWorkflowOptions) (clientapi.WorkflowUpdateHandle, error) {
	if err := checkUpdateOptions(&options); err != nil {
		return nil, fmt.Errorf("UpdateWorkflow: %w", err)
	}
	return c.interceptor.UpdateWorkflow(propagation.ContextWithNewHeader(ctx), &clientapi.ClientUpdateWorkflowInput{
		UpdateID:            options.UpdateID,
		WorkflowID:          options.WorkflowID,
		UpdateName:          options.UpdateName,
		Args:                options.Args,
		RunID:               options.RunID,
		FirstExecutionRunID: options.FirstExecutionRunID,
		WaitForStage:        options.WaitForStage,
	})
}

// UpdateWorkflow sends the update, again while the server answers that it
// is only admitted (its long poll ended before a worker took the update),
// and then, for WorkflowUpdateStageCompleted, waits for the outcome.
func (r *clientRoot) UpdateWorkflow(ctx context.Context, in *clientapi.ClientUpdateWorkflowInput) (clientapi.WorkflowUpdateHandle, error) {
	c := r.c
	req, err := c.updateRequest(ctx, in)
	if err != nil {
		return nil, fmt.Errorf("UpdateWorkflow: %w", err)
	}
	if err := c.ensureInitialized(ctx); err != nil {
		return nil, err
	}
	nexusStart := clientapi.NexusStartOf(ctx)
	if nexusStart != nil {
		// An update a Nexus operation sends (temporalnexus.StartUpdateWorkflow).
		req.Request.RequestId = nexusStart.RequestID
		req.Request.CompletionCallbacks = nexusStart.Callbacks
		req.Request.Links = nexusStart.Links
		req.Request.PropagatedNexusSerializationContext = nexusStart.SerializationContext
	}
	var resp *workflowservice.UpdateWorkflowExecutionResponse
	for !updateIsDurable(resp) {
		if resp, err = c.service.UpdateWorkflowExecution(ctx, req); err != nil {
			return nil, updateCallError(ctx, err)
		}
	}
	if nexusStart != nil {
		nexusStart.Link = resp.GetLink()
		nexusStart.UpdateCompleted = resp.GetOutcome() != nil
	}
	return c.updateHandleFromResponse(ctx, in.WaitForStage, resp, req)
}

// checkUpdateOptions checks what the client can check of an update's
// options before anything is sent, and gives it an ID if it has none.
func checkUpdateOptions(options *clientapi.UpdateWorkflowOptions) error {
	switch options.WaitForStage {
	case clientapi.WorkflowUpdateStageAccepted, clientapi.WorkflowUpdateStageCompleted:
	case clientapi.WorkflowUpdateStageUnspecified:
		return errUpdateStageRequired
	case clientapi.WorkflowUpdateStageAdmitted:
		return errUpdateStageAdmitted
	default:
		return fmt.Errorf("UpdateWorkflowOptions.WaitForStage %d is not a WorkflowUpdateStage", options.WaitForStage)
	}
	if options.UpdateID == "" {
		options.UpdateID = uuid.New()
	}
	return nil
}

// errUpdateStageRequired and errUpdateStageAdmitted refuse wait stages
// the official SDK refuses too.
var (
	errUpdateStageRequired = errors.New("UpdateWorkflowOptions.WaitForStage is required: " +
		"WorkflowUpdateStageAccepted returns once the workflow has accepted the update, " +
		"WorkflowUpdateStageCompleted once the update has completed")
	errUpdateStageAdmitted = errors.New("UpdateWorkflowOptions.WaitForStage WorkflowUpdateStageAdmitted is not supported: " +
		"wait for WorkflowUpdateStageAccepted or WorkflowUpdateStageCompleted")
)

// updateIsDurable reports whether the server has written the update down:
// past ADMITTED (an old server may answer UNSPECIFIED for the same).
func updateIsDurable(resp *workflowservice.UpdateWorkflowExecutionResponse) bool {
	switch resp.GetStage() {
	case enumspb.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_UNSPECIFIED,
		enumspb.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ADMITTED:
		return false
	}
	return true
}

// updateRequest encodes an update: its arguments with the client's data
// converter, its header from the interceptors and context propagators.
func (c *workflowClient) updateRequest(ctx context.Context, in *clientapi.ClientUpdateWorkflowInput) (*workflowservice.UpdateWorkflowExecutionRequest, error) {
	args, err := registry.EncodeArgs(c.workflowDataConverter(ctx, in.WorkflowID), in.Args)
	if err != nil {
		return nil, fmt.Errorf("update %q: %w", in.UpdateName, err)
	}
	header, err := c.outgoingHeader(ctx, in.WorkflowID)
	if err != nil {
		return nil, err
	}
	return &workflowservice.UpdateWorkflowExecutionRequest{
		Namespace:           c.namespace,
		WorkflowExecution:   &commonpb.WorkflowExecution{WorkflowId: in.WorkflowID, RunId: in.RunID},
		FirstExecutionRunId: in.FirstExecutionRunID,
		WaitPolicy:          &updatepb.WaitPolicy{LifecycleStage: updateStageToProto(in.WaitForStage)},
		Request: &updatepb.Request{
			Meta: &updatepb.Meta{UpdateId: in.UpdateID, Identity: c.identity},
			Input: &updatepb.Input{
				Header: header,
				Name:   in.UpdateName,
				Args:   args,
			},
		},
	}, nil
}

// updateStageToProto is the wire value of a wait stage.
func updateStageToProto(stage clientapi.WorkflowUpdateStage) enumspb.UpdateWorkflowExecutionLifecycleStage {
	switch stage {
	case clientapi.WorkflowUpdateStageAdmitted:
		return enumspb.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ADMITTED
	case clientapi.WorkflowUpdateStageAccepted:
		return enumspb.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ACCEPTED
	case clientapi.WorkflowUpdateStageCompleted:
		return enumspb.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_COMPLETED
	}
	return enumspb.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_UNSPECIFIED
}

// updateHandleFromResponse makes the handle of a durable update: with its
// outcome when the server sent it, after waiting for it when the caller
// asked for WorkflowUpdateStageCompleted, and otherwise one that polls on
// Get.
func (c *workflowClient) updateHandleFromResponse(ctx context.Context, stage clientapi.WorkflowUpdateStage,
	resp *workflowservice.UpdateWorkflowExecutionResponse, req *workflowservice.UpdateWorkflowExecutionRequest,
) (clientapi.WorkflowUpdateHandle, error) {
	ref := resp.GetUpdateRef()
	if ref == nil {
		// The server always names the update; should one not, the
		// request does.
		ref = &updatepb.UpdateRef{WorkflowExecution: req.GetWorkflowExecution(), UpdateId: req.GetRequest().GetMeta().GetUpdateId()}
	}
	handle := &clientUpdateHandle{client: c, ref: ref}
	if outcome := resp.GetOutcome(); outcome != nil {
		out, err := c.updateOutput(ref.GetWorkflowExecution().GetWorkflowId(), outcome)
		if err != nil {
			return nil, err
		}
		handle.outcome = out
		return handle, nil
	}
	if stage == clientapi.WorkflowUpdateStageCompleted {
		out, err := c.pollWorkflowUpdate(ctx, ref)
		if err != nil {
			return nil, err
		}
		handle.outcome = out
	}
	return handle, nil
}

// GetWorkflowUpdateHandle implements Client. Nothing is sent until the
// handle's Get.
func (c *workflowClient) GetWorkflowUpdateHandle(options clientapi.GetWorkflowUpdateHandleOptions) clientapi.WorkflowUpdateHandle {
	return &clientUpdateHandle{
		client: c,
		ref: &updatepb.UpdateRef{
			WorkflowExecution: &commonpb.WorkflowExecution{WorkflowId: options.WorkflowID, RunId: options.RunID},
			UpdateId:          options.UpdateID,
		},
	}
}

// pollWorkflowUpdate waits for an update's outcome, through the
// interceptor chain.
func (c *workflowClient) pollWorkflowUpdate(ctx context.Context, ref *updatepb.UpdateRef) (*clientapi.ClientPollWorkflowUpdateOutput, error) {
	return c.interceptor.PollWorkflowUpdate(propagation.ContextWithNewHeader(ctx), &clientapi.ClientPollWorkflowUpdateInput{UpdateRef: ref})
}

// PollWorkflowUpdate waits for the update's outcome, asking again each
// time the server's long poll ends without one, until the context ends.
// The request has no header: the service does not take one.
func (r *clientRoot) PollWorkflowUpdate(ctx context.Context, in *clientapi.ClientPollWorkflowUpdateInput) (*clientapi.ClientPollWorkflowUpdateOutput, error) {
	c := r.c
	if err := c.ensureInitialized(ctx); err != nil {
		return nil, err
	}
	req := &workflowservice.PollWorkflowExecutionUpdateRequest{
		Namespace:  c.namespace,
		UpdateRef:  in.UpdateRef,
		Identity:   c.identity,
		WaitPolicy: &updatepb.WaitPolicy{LifecycleStage: enumspb.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_COMPLETED},
	}
	for {
		resp, err := c.service.PollWorkflowExecutionUpdate(ctx, req)
		if err != nil {
			return nil, updateCallError(ctx, err)
		}
		if outcome := resp.GetOutcome(); outcome != nil {
			return c.updateOutput(in.UpdateRef.GetWorkflowExecution().GetWorkflowId(), outcome)
		}
	}
}

// updateOutput decodes an update's outcome: its result, or its failure
// converted to an error.
func (c *workflowClient) updateOutput(workflowID string, outcome *updatepb.Outcome) (*clientapi.ClientPollWorkflowUpdateOutput, error) {
	switch v := outcome.GetValue().(type) {
	case *updatepb.Outcome_Success:
		return &clientapi.ClientPollWorkflowUpdateOutput{Result: newClientEncodedValue(v.Success, c.converterFor(workflowID))}, nil
	case *updatepb.Outcome_Failure:
		return &clientapi.ClientPollWorkflowUpdateOutput{Error: c.workflowFailureConverter(workflowID).FailureToError(v.Failure)}, nil
	}
	return nil, fmt.Errorf("the server sent an update outcome of unknown type %T", outcome.GetValue())
}

// updateCallError is the error of a failed update call: a timeout or
// cancellation of the call becomes a
// WorkflowUpdateServiceTimeoutOrCanceledError, anything else stays what it
// is (a *serviceerror.NotFound for a missing workflow, say), as the
// official SDK returns them.
func updateCallError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return clientapi.NewWorkflowUpdateServiceTimeoutOrCanceledError(err)
	}
	if code := serviceerror.ToStatus(err).Code(); code == codes.Canceled || code == codes.DeadlineExceeded {
		return clientapi.NewWorkflowUpdateServiceTimeoutOrCanceledError(err)
	}
	return err
}

// clientUpdateHandle implements WorkflowUpdateHandle. outcome is set when
// the update's outcome is known; otherwise Get asks the server.
type clientUpdateHandle struct {
	client  *workflowClient
	ref     *updatepb.UpdateRef
	outcome *clientapi.ClientPollWorkflowUpdateOutput
}

// WorkflowID implements WorkflowUpdateHandle.
func (h *clientUpdateHandle) WorkflowID() string { return h.ref.GetWorkflowExecution().GetWorkflowId() }

// RunID implements WorkflowUpdateHandle.
func (h *clientUpdateHandle) RunID() string { return h.ref.GetWorkflowExecution().GetRunId() }

// UpdateID implements WorkflowUpdateHandle.
func (h *clientUpdateHandle) UpdateID() string { return h.ref.GetUpdateId() }

// Get implements WorkflowUpdateHandle. A handle whose outcome is not known
// polls each time: handles are cheap values, as in the official SDK.
func (h *clientUpdateHandle) Get(ctx context.Context, valuePtr any) error {
	if valuePtr != nil && reflect.TypeOf(valuePtr).Kind() != reflect.Pointer {
		return fmt.Errorf("WorkflowUpdateHandle.Get: valuePtr must be a pointer, not %T", valuePtr)
	}
	out := h.outcome
	if out == nil {
		var err error
		if out, err = h.client.pollWorkflowUpdate(ctx, h.ref); err != nil {
			return err
		}
	}
	switch {
	case out.Error != nil || valuePtr == nil:
		return out.Error
	case out.Result == nil:
		return failure.ErrNoData
	}
	return out.Result.Get(valuePtr)
}
