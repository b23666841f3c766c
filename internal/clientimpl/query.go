package clientimpl

import (
	"context"
	"errors"
	"fmt"

	commonpb "go.temporal.io/api/common/v1"
	querypb "go.temporal.io/api/query/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/propagation"
	"github.com/durable-go/sdk/internal/registry"
)

// QueryWorkflow implements Client.
func (c *workflowClient) QueryWorkflow(ctx context.Context, workflowID string, runID string, queryType string, args ...any) (converter.EncodedValue, error) {
	return c.interceptor.QueryWorkflow(propagation.ContextWithNewHeader(ctx), &clientapi.ClientQueryWorkflowInput{
		WorkflowID: workflowID,
		RunID:      runID,
		QueryType:  queryType,
		Args:       args,
	})
}

// QueryWorkflowWithOptions implements Client. The request's header starts
// the query's header, which interceptors may add to.
func (c *workflowClient) QueryWorkflowWithOptions(ctx context.Context, request *clientapi.QueryWorkflowWithOptionsRequest) (*clientapi.QueryWorkflowWithOptionsResponse, error) {
	result, err := c.interceptor.QueryWorkflow(propagation.ContextWithHeader(ctx, request.Header), &clientapi.ClientQueryWorkflowInput{
		WorkflowID:           request.WorkflowID,
		RunID:                request.RunID,
		QueryType:            request.QueryType,
		Args:                 request.Args,
		QueryRejectCondition: request.QueryRejectCondition,
	})
	var rejected *failure.QueryRejectedError
	switch {
	case errors.As(err, &rejected):
		return &clientapi.QueryWorkflowWithOptionsResponse{QueryRejected: rejected.QueryRejected()}, nil
	case err != nil:
		return nil, err
	}
	return &clientapi.QueryWorkflowWithOptionsResponse{QueryResult: result}, nil
}

// QueryWorkflow sends the query; a rejection is a *QueryRejectedError.
func (r *clientRoot) QueryWorkflow(ctx context.Context, in *clientapi.ClientQueryWorkflowInput) (converter.EncodedValue, error) {
	c := r.c
	dc := c.workflowDataConverter(ctx, in.WorkflowID)
	args, err := registry.EncodeArgs(dc, in.Args)
	if err != nil {
		return nil, fmt.Errorf("query %q: %w", in.QueryType, err)
	}
	header, err := c.outgoingHeader(ctx, in.WorkflowID)
	if err != nil {
		return nil, err
	}
	if err := c.ensureInitialized(ctx); err != nil {
		return nil, err
	}
	resp, err := c.service.QueryWorkflow(ctx, &workflowservice.QueryWorkflowRequest{
		Namespace: c.namespace,
		Execution: &commonpb.WorkflowExecution{WorkflowId: in.WorkflowID, RunId: in.RunID},
		Query: &querypb.WorkflowQuery{
			QueryType: in.QueryType,
			QueryArgs: args,
			Header:    header,
		},
		QueryRejectCondition: in.QueryRejectCondition,
	})
	if err != nil {
		return nil, wrapCallError(err, "querying workflow %q (run %q) with %q", in.WorkflowID, in.RunID, in.QueryType)
	}
	if resp.GetQueryRejected() != nil {
		return nil, failure.NewQueryRejectedError(resp.GetQueryRejected())
	}
	return newClientEncodedValue(resp.GetQueryResult(), dc), nil
}
