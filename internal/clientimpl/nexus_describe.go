package clientimpl

import (
	"context"
	"fmt"

	nexuspb "go.temporal.io/api/nexus/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/searchattr"
)

// The description, listing and counting of standalone Nexus operations
// (nexus.go starts them). List and Count do not pass through the
// interceptors, as go.temporal.io/sdk's do not.

// Describe implements NexusOperationHandle.
func (h *nexusOperationHandle) Describe(ctx context.Context, _ clientapi.DescribeNexusOperationOptions) (*clientapi.NexusOperationExecutionDescription, error) {
	if err := h.c.ensureInitialized(ctx); err != nil {
		return nil, err
	}
	out, err := h.c.interceptor.DescribeNexusOperation(ctx, &clientapi.ClientDescribeNexusOperationInput{OperationID: h.id, RunID: h.runID})
	if err != nil {
		return nil, err
	}
	return out.Description, nil
}

// DescribeNexusOperation describes the operation; its failures convert
// with the operation's serialization context.
func (r *clientRoot) DescribeNexusOperation(ctx context.Context, in *clientapi.ClientDescribeNexusOperationInput) (*clientapi.ClientDescribeNexusOperationOutput, error) {
	c := r.c
	resp, err := c.service.DescribeNexusOperationExecution(ctx, &workflowservice.DescribeNexusOperationExecutionRequest{
		Namespace:   c.namespace,
		OperationId: in.OperationID,
		RunId:       in.RunID,
	})
	if err != nil {
		return nil, wrapCallError(err, "describing Nexus operation %q (run %q)", in.OperationID, in.RunID)
	}
	info := resp.GetInfo()
	if info == nil {
		return nil, fmt.Errorf("describing Nexus operation %q (run %q): the server's answer has no description", in.OperationID, in.RunID)
	}
	attributes, err := searchattr.Decode(info.GetSearchAttributes())
	if err != nil {
		// One unreadable attribute should not hide the rest.
		c.logger.Warn("Nexus operation: search attributes cannot be decoded", "OperationID", in.OperationID, "Error", err)
	}
	metadata := clientapi.ClientNexusOperationMetadata{
		OperationID:          info.GetOperationId(),
		OperationRunID:       info.GetRunId(),
		Endpoint:             info.GetEndpoint(),
		Service:              info.GetService(),
		Operation:            info.GetOperation(),
		ScheduledTime:        info.GetScheduleTime().AsTime(),
		CloseTime:            info.GetCloseTime().AsTime(),
		Status:               info.GetStatus(),
		SearchAttributes:     attributes,
		StateTransitionCount: info.GetStateTransitionCount(),
		ExecutionDuration:    info.GetExecutionDuration().AsDuration(),
	}
	sc := converter.NexusSerializationContext{Endpoint: info.GetEndpoint(), Service: info.GetService(), Operation: info.GetOperation()}
	fc := converter.WithFailureConverterSerializationContext(c.failureConverter, sc)
	return &clientapi.ClientDescribeNexusOperationOutput{
		Description: clientapi.NewNexusOperationExecutionDescription(info, metadata, c.contextDataConverter(ctx), fc),
	}, nil
}

// ListNexusOperations implements Client. The request for each page is
// sent as Results is iterated.
func (c *workflowClient) ListNexusOperations(ctx context.Context, options clientapi.ListNexusOperationsOptions) (clientapi.ListNexusOperationsResult, error) {
	results := func(yield func(*clientapi.ClientNexusOperationMetadata, error) bool) {
		if err := c.ensureInitialized(ctx); err != nil {
			yield(nil, err)
			return
		}
		request := &workflowservice.ListNexusOperationExecutionsRequest{Namespace: c.namespace, Query: options.Query}
		for {
			resp, err := c.service.ListNexusOperationExecutions(ctx, request)
			if err != nil {
				yield(nil, wrapCallError(err, "listing Nexus operations"))
				return
			}
			for _, op := range resp.GetOperations() {
				if !yield(c.nexusOperationListed(op), nil) {
					return
				}
			}
			if len(resp.GetNextPageToken()) == 0 {
				return
			}
			request.NextPageToken = resp.GetNextPageToken()
		}
	}
	return clientapi.ListNexusOperationsResult{Results: results}, nil
}

// nexusOperationListed reads one entry of a list.
func (c *workflowClient) nexusOperationListed(op *nexuspb.NexusOperationExecutionListInfo) *clientapi.ClientNexusOperationMetadata {
	attributes, err := searchattr.Decode(op.GetSearchAttributes())
	if err != nil {
		c.logger.Warn("Nexus operation: search attributes cannot be decoded", "OperationID", op.GetOperationId(), "Error", err)
	}
	return &clientapi.ClientNexusOperationMetadata{
		RawExecutionListInfo: op,
		OperationID:          op.GetOperationId(),
		OperationRunID:       op.GetRunId(),
		Endpoint:             op.GetEndpoint(),
		Service:              op.GetService(),
		Operation:            op.GetOperation(),
		ScheduledTime:        op.GetScheduleTime().AsTime(),
		CloseTime:            op.GetCloseTime().AsTime(),
		Status:               op.GetStatus(),
		SearchAttributes:     attributes,
		StateTransitionCount: op.GetStateTransitionCount(),
		ExecutionDuration:    op.GetExecutionDuration().AsDuration(),
	}
}

// CountNexusOperations implements Client.
func (c *workflowClient) CountNexusOperations(ctx context.Context, options clientapi.CountNexusOperationsOptions) (*clientapi.CountNexusOperationsResult, error) {
	resp, err := visibilityCall(ctx, c, "counting Nexus operations",
		&workflowservice.CountNexusOperationExecutionsRequest{Namespace: c.namespace, Query: options.Query},
		c.service.CountNexusOperationExecutions)
	if err != nil {
		return nil, err
	}
	result := &clientapi.CountNexusOperationsResult{
		Count:  resp.GetCount(),
		Groups: make([]clientapi.CountNexusOperationsAggregationGroup, len(resp.GetGroups())),
	}
	dc := converter.GetDefaultDataConverter() // group values are search attribute values, which no codec touches
	for g, group := range resp.GetGroups() {
		values := make([]any, len(group.GetGroupValues()))
		for i, payload := range group.GetGroupValues() {
			if err := dc.FromPayload(payload, &values[i]); err != nil {
				// The value stays nil, as with go.temporal.io/sdk; the count is still right.
				c.logger.Warn("CountNexusOperations: a group value cannot be decoded", "Group", g, "Value", i, "Error", err)
			}
		}
		result.Groups[g] = clientapi.CountNexusOperationsAggregationGroup{GroupValues: values, Count: group.GetCount()}
	}
	return result, nil
}
