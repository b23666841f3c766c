package interceptor

import (
	"context"

	"github.com/durable-go/sdk/internal/clientapi"
	"github.com/durable-go/sdk/internal/propagation"
)

// ExecuteActivity traces a standalone activity's start as
// StartActivity:<activity type>, tagged with its ID, in the start's
// header for the worker's RunActivity span to continue.
func (c *tracingClientOutbound) ExecuteActivity(ctx context.Context, in *clientapi.ClientExecuteActivityInput) (clientapi.ActivityHandle, error) {
	span, ctx, err := c.root.startInContext(ctx, spanOp{
		operation: "StartActivity", name: in.ActivityType,
		tags:   map[string]string{tracingTagActivityID: in.Options.ID},
		header: propagation.Header(ctx), headerCtx: ctx, toHeader: true,
	})
	if err != nil {
		return nil, err
	}
	handle, err := c.Next.ExecuteActivity(ctx, in)
	finishSpan(span, err)
	return handle, err
}
