package clientimpl

import (
	"cmp"
	"context"
	"fmt"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/propagation"
	"github.com/durable-go/sdk/internal/registry"
	"github.com/durable-go/sdk/internal/uuid"
)

// SignalWorkflow implements Client.
func (c *workflowClient) SignalWorkflow(ctx context.Context, workflowID string, runID string, signalName string, arg any) error {
	return c.interceptor.SignalWorkflow(propagation.ContextWithNewHeader(ctx), &clientapi.ClientSignalWorkflowInput{
		WorkflowID: workflowID,
		RunID:      runID,
		SignalName: signalName,
		Arg:        arg,
	})
}

// SignalWorkflow sends the signal.
func (r *clientRoot) SignalWorkflow(ctx context.Context, in *clientapi.ClientSignalWorkflowInput) error {
	c := r.c
	input, err := c.workflowDataConverter(ctx, in.WorkflowID).ToPayloads(in.Arg)
	if err != nil {
		return fmt.Errorf("SignalWorkflow: signal %q argument (%T) cannot be encoded: %w", in.SignalName, in.Arg, err)
	}
	header, err := c.outgoingHeader(ctx, in.WorkflowID)
	if err != nil {
		return err
	}
	if err := c.ensureInitialized(ctx); err != nil {
		return err
	}
	req := &workflowservice.SignalWorkflowExecutionRequest{
		Namespace:         c.namespace,
		WorkflowExecution: &commonpb.WorkflowExecution{WorkflowId: in.WorkflowID, RunId: in.RunID},
		SignalName:        in.SignalName,
		Input:             input,
		Identity:          c.identity,
		RequestId:         cmp.Or(clientapi.NexusSignalRequestIDOf(ctx), uuid.New()),
		Header:            header,
	}
	nexusHandler := clientapi.NexusHandlerCallsOf(ctx)
	if nexusHandler != nil {
		req.Links = nexusHandler.RequestLinks()
	}
	resp, err := c.service.SignalWorkflowExecution(ctx, req)
	if err == nil && nexusHandler != nil {
		nexusHandler.AddResponseLink(resp.GetLink())
	}
	return wrapCallError(err, "signaling workflow %q (run %q) with %q", in.WorkflowID, in.RunID, in.SignalName)
}

// CancelWorkflow implements Client.
func (c *workflowClient) CancelWorkflow(ctx context.Context, workflowID string, runID string) error {
	return c.CancelWorkflowWithOptions(ctx, clientapi.CancelWorkflowOptions{WorkflowID: workflowID, RunID: runID})
}

// CancelWorkflowWithOptions implements Client.
func (c *workflowClient) CancelWorkflowWithOptions(ctx context.Context, options clientapi.CancelWorkflowOptions) error {
	return c.interceptor.CancelWorkflow(ctx, &clientapi.ClientCancelWorkflowInput{
		WorkflowID:          options.WorkflowID,
		RunID:               options.RunID,
		FirstExecutionRunID: options.FirstExecutionRunID,
		Reason:              options.Reason,
	})
}

// CancelWorkflow requests the workflow's cancellation.
func (r *clientRoot) CancelWorkflow(ctx context.Context, in *clientapi.ClientCancelWorkflowInput) error {
	c := r.c
	if err := c.ensureInitialized(ctx); err != nil {
		return err
	}
	_, err := c.service.RequestCancelWorkflowExecution(ctx, &workflowservice.RequestCancelWorkflowExecutionRequest{
		Namespace:           c.namespace,
		WorkflowExecution:   &commonpb.WorkflowExecution{WorkflowId: in.WorkflowID, RunId: in.RunID},
		Identity:            c.identity,
		RequestId:           uuid.New(),
		FirstExecutionRunId: in.FirstExecutionRunID,
		Reason:              in.Reason,
	})
	return wrapCallError(err, "canceling workflow %q (run %q)", in.WorkflowID, in.RunID)
}

// TerminateWorkflow implements Client.
func (c *workflowClient) TerminateWorkflow(ctx context.Context, workflowID string, runID string, reason string, details ...any) error {
	return c.TerminateWorkflowWithOptions(ctx, clientapi.TerminateWorkflowOptions{
		WorkflowID: workflowID,
		RunID:      runID,
		Reason:     reason,
		Details:    details,
	})
}

// TerminateWorkflowWithOptions implements Client.
func (c *workflowClient) TerminateWorkflowWithOptions(ctx context.Context, options clientapi.TerminateWorkflowOptions) error {
	return c.interceptor.TerminateWorkflow(ctx, &clientapi.ClientTerminateWorkflowInput{
		WorkflowID:          options.WorkflowID,
		RunID:               options.RunID,
		FirstExecutionRunID: options.FirstExecutionRunID,
		Reason:              options.Reason,
		Details:             options.Details,
	})
}

// TerminateWorkflow terminates the workflow.
func (r *clientRoot) TerminateWorkflow(ctx context.Context, in *clientapi.ClientTerminateWorkflowInput) error {
	c := r.c
	details, err := registry.EncodeArgs(c.workflowDataConverter(ctx, in.WorkflowID), in.Details)
	if err != nil {
		return fmt.Errorf("TerminateWorkflow: details: %w", err)
	}
	if err := c.ensureInitialized(ctx); err != nil {
		return err
	}
	_, err = c.service.TerminateWorkflowExecution(ctx, &workflowservice.TerminateWorkflowExecutionRequest{
		Namespace:           c.namespace,
		WorkflowExecution:   &commonpb.WorkflowExecution{WorkflowId: in.WorkflowID, RunId: in.RunID},
		Reason:              in.Reason,
		Details:             details,
		Identity:            c.identity,
		FirstExecutionRunId: in.FirstExecutionRunID,
	})
	return wrapCallError(err, "terminating workflow %q (run %q)", in.WorkflowID, in.RunID)
}

// ResetWorkflowExecution implements Client.
func (c *workflowClient) ResetWorkflowExecution(ctx context.Context, request *workflowservice.ResetWorkflowExecutionRequest) (*workflowservice.ResetWorkflowExecutionResponse, error) {
	if err := c.ensureInitialized(ctx); err != nil {
		return nil, err
	}
	if request.GetNamespace() == "" {
		request.Namespace = c.namespace
	}
	if request.GetRequestId() == "" {
		request.RequestId = uuid.New()
	}
	resp, err := c.service.ResetWorkflowExecution(ctx, request)
	if err != nil {
		return nil, wrapCallError(err, "resetting workflow %q (run %q)",
			request.GetWorkflowExecution().GetWorkflowId(), request.GetWorkflowExecution().GetRunId())
	}
	return resp, nil
}
