package interceptor

import (
	"context"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/propagation"
)

// tracingClientOutbound traces the calls a client sends: each gets a
// span, under the span of the caller's context, written to the call's
// header for the worker to continue.
type tracingClientOutbound struct {
	clientapi.ClientOutboundInterceptorBase
	root *tracingInterceptor
}

// ExecuteWorkflow traces the start as StartWorkflow:<workflow type>.
func (c *tracingClientOutbound) ExecuteWorkflow(ctx context.Context, in *clientapi.ClientExecuteWorkflowInput) (clientapi.WorkflowRun, error) {
	span, ctx, err := c.root.startInContext(ctx, spanOp{
		operation: "StartWorkflow", name: in.WorkflowType,
		tags:   map[string]string{tracingTagWorkflowID: in.Options.ID},
		header: propagation.Header(ctx), headerCtx: ctx, toHeader: true,
	})
	if err != nil {
		return nil, err
	}
	run, err := c.Next.ExecuteWorkflow(ctx, in)
	finishSpan(span, err)
	return run, err
}

// SignalWorkflow traces the signal as SignalWorkflow:<signal name>.
func (c *tracingClientOutbound) SignalWorkflow(ctx context.Context, in *clientapi.ClientSignalWorkflowInput) error {
	if c.root.options.DisableSignalTracing {
		return c.Next.SignalWorkflow(ctx, in)
	}
	span, ctx, err := c.root.startInContext(ctx, spanOp{
		operation: "SignalWorkflow", name: in.SignalName,
		tags:   map[string]string{tracingTagWorkflowID: in.WorkflowID},
		header: propagation.Header(ctx), headerCtx: ctx, toHeader: true,
	})
	if err != nil {
		return err
	}
	err = c.Next.SignalWorkflow(ctx, in)
	finishSpan(span, err)
	return err
}

// SignalWithStartWorkflow traces the call as
// SignalWithStartWorkflow:<workflow type>.
func (c *tracingClientOutbound) SignalWithStartWorkflow(ctx context.Context, in *clientapi.ClientSignalWithStartWorkflowInput) (clientapi.WorkflowRun, error) {
	span, ctx, err := c.root.startInContext(ctx, spanOp{
		operation: "SignalWithStartWorkflow", name: in.WorkflowType,
		tags:   map[string]string{tracingTagWorkflowID: in.Options.ID},
		header: propagation.Header(ctx), headerCtx: ctx, toHeader: true,
	})
	if err != nil {
		return nil, err
	}
	run, err := c.Next.SignalWithStartWorkflow(ctx, in)
	finishSpan(span, err)
	return run, err
}

// QueryWorkflow traces the query as QueryWorkflow:<query type>.
func (c *tracingClientOutbound) QueryWorkflow(ctx context.Context, in *clientapi.ClientQueryWorkflowInput) (converter.EncodedValue, error) {
	if c.root.options.DisableQueryTracing {
		return c.Next.QueryWorkflow(ctx, in)
	}
	span, ctx, err := c.root.startInContext(ctx, spanOp{
		operation: "QueryWorkflow", name: in.QueryType,
		tags:   map[string]string{tracingTagWorkflowID: in.WorkflowID},
		header: propagation.Header(ctx), headerCtx: ctx, toHeader: true,
	})
	if err != nil {
		return nil, err
	}
	value, err := c.Next.QueryWorkflow(ctx, in)
	finishSpan(span, err)
	return value, err
}

// tracingTagUpdateID is the span tag of an update's ID, as other SDKs
// name it.
const tracingTagUpdateID = "temporalUpdateID"

// UpdateWorkflow traces the update as UpdateWorkflow:<update name>.
func (c *tracingClientOutbound) UpdateWorkflow(ctx context.Context, in *clientapi.ClientUpdateWorkflowInput) (clientapi.WorkflowUpdateHandle, error) {
	if c.root.options.DisableUpdateTracing {
		return c.Next.UpdateWorkflow(ctx, in)
	}
	span, ctx, err := c.root.startInContext(ctx, spanOp{
		operation: "UpdateWorkflow", name: in.UpdateName,
		tags:   map[string]string{tracingTagWorkflowID: in.WorkflowID, tracingTagUpdateID: in.UpdateID},
		header: propagation.Header(ctx), headerCtx: ctx, toHeader: true,
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
func (c *tracingClientOutbound) UpdateWithStartWorkflow(ctx context.Context, in *clientapi.ClientUpdateWithStartWorkflowInput) (clientapi.WorkflowUpdateHandle, error) {
	if c.root.options.DisableUpdateTracing {
		return c.Next.UpdateWithStartWorkflow(ctx, in)
	}
	span, ctx, err := c.root.startInContext(ctx, spanOp{
		operation: "UpdateWithStartWorkflow", name: in.UpdateOptions.UpdateName,
		tags:   map[string]string{tracingTagWorkflowID: in.UpdateOptions.WorkflowID, tracingTagUpdateID: in.UpdateOptions.UpdateID},
		header: propagation.Header(ctx), headerCtx: ctx, toHeader: true,
	})
	if err != nil {
		return nil, err
	}
	handle, err := c.Next.UpdateWithStartWorkflow(ctx, in)
	finishSpan(span, err)
	return handle, err
}
