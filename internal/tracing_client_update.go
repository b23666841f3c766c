package internal

import "context"

// tracingTagUpdateID is the span tag of an update's ID, as other SDKs
// name it.
const tracingTagUpdateID = "temporalUpdateID"

// UpdateWorkflow traces the update as UpdateWorkflow:<update name>.
func (c *tracingClientOutbound) UpdateWorkflow(ctx context.Context, in *ClientUpdateWorkflowInput) (WorkflowUpdateHandle, error) {
	if c.root.options.DisableUpdateTracing {
		return c.Next.UpdateWorkflow(ctx, in)
	}
	span, ctx, err := c.root.startInContext(ctx, spanOp{
		operation: "UpdateWorkflow", name: in.UpdateName,
		tags:   map[string]string{tracingTagWorkflowID: in.WorkflowID, tracingTagUpdateID: in.UpdateID},
		header: Header(ctx), toHeader: true,
	})
	if err != nil {
		return nil, err
	}
	handle, err := c.Next.UpdateWorkflow(ctx, in)
	finishSpan(span, err)
	return handle, err
}

// UpdateWithStartWorkflow traces the call as
// UpdateWithStartWorkflow:<update name>; the start and the update carry
// the same span.
func (c *tracingClientOutbound) UpdateWithStartWorkflow(ctx context.Context, in *ClientUpdateWithStartWorkflowInput) (WorkflowUpdateHandle, error) {
	if c.root.options.DisableUpdateTracing {
		return c.Next.UpdateWithStartWorkflow(ctx, in)
	}
	span, ctx, err := c.root.startInContext(ctx, spanOp{
		operation: "UpdateWithStartWorkflow", name: in.UpdateOptions.UpdateName,
		tags:   map[string]string{tracingTagWorkflowID: in.UpdateOptions.WorkflowID, tracingTagUpdateID: in.UpdateOptions.UpdateID},
		header: Header(ctx), toHeader: true,
	})
	if err != nil {
		return nil, err
	}
	handle, err := c.Next.UpdateWithStartWorkflow(ctx, in)
	finishSpan(span, err)
	return handle, err
}
