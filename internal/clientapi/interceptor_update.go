package clientapi

import (
	"context"

	updatepb "go.temporal.io/api/update/v1"

	"github.com/durable-go/sdk/converter"
)

// ClientUpdateWorkflowInput is the input of
// ClientOutboundInterceptor.UpdateWorkflow.
type ClientUpdateWorkflowInput struct {
	// UpdateID is the update's ID; already set when the caller left it
	// empty.
	UpdateID            string
	WorkflowID          string
	UpdateName          string
	Args                []any
	RunID               string
	FirstExecutionRunID string
	WaitForStage        WorkflowUpdateStage
}

// ClientUpdateWithStartWorkflowInput is the input of
// ClientOutboundInterceptor.UpdateWithStartWorkflow.
type ClientUpdateWithStartWorkflowInput struct {
	// UpdateOptions describe the update; its UpdateID is already set when
	// the caller left it empty.
	UpdateOptions *UpdateWorkflowOptions
	// StartWorkflowOperation is the workflow to start, from
	// Client.NewWithStartWorkflowOperation.
	StartWorkflowOperation WithStartWorkflowOperation
}

// ClientPollWorkflowUpdateInput is the input of
// ClientOutboundInterceptor.PollWorkflowUpdate.
type ClientPollWorkflowUpdateInput struct {
	// UpdateRef names the update: workflow, run (empty for the current
	// one) and update ID.
	UpdateRef *updatepb.UpdateRef
}

// ClientPollWorkflowUpdateOutput is the result of
// ClientOutboundInterceptor.PollWorkflowUpdate: the update's outcome.
type ClientPollWorkflowUpdateOutput struct {
	// Result is the result of an update that completed successfully.
	Result converter.EncodedValue
	// Error is why the update failed: rejected by its validator, or
	// returned by its handler.
	Error error
}

// UpdateWorkflow calls Next.UpdateWorkflow.
func (c *ClientOutboundInterceptorBase) UpdateWorkflow(ctx context.Context, in *ClientUpdateWorkflowInput) (WorkflowUpdateHandle, error) {
	return c.Next.UpdateWorkflow(ctx, in)
}

// UpdateWithStartWorkflow calls Next.UpdateWithStartWorkflow.
func (c *ClientOutboundInterceptorBase) UpdateWithStartWorkflow(ctx context.Context, in *ClientUpdateWithStartWorkflowInput) (WorkflowUpdateHandle, error) {
	return c.Next.UpdateWithStartWorkflow(ctx, in)
}

// PollWorkflowUpdate calls Next.PollWorkflowUpdate.
func (c *ClientOutboundInterceptorBase) PollWorkflowUpdate(ctx context.Context, in *ClientPollWorkflowUpdateInput) (*ClientPollWorkflowUpdateOutput, error) {
	return c.Next.PollWorkflowUpdate(ctx, in)
}
