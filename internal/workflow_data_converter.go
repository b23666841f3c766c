package internal

import "github.com/durable-go/sdk/converter"

// dataConverterKey holds the converter WithDataConverter set.
type dataConverterKey struct{}

// WithDataConverter returns a context whose workflow calls (activities,
// local activities, child workflows, external signals, continue-as-new,
// side effects) encode their arguments and decode their results with dc
// instead of the worker's data converter.
func WithDataConverter(ctx Context, dc converter.DataConverter) Context {
	if dc == nil {
		panic("workflow.WithDataConverter: the data converter is nil")
	}
	return WithValue(ctx, dataConverterKey{}, dc)
}

// dataConverter is what workflow code converts with in ctx: the converter
// WithDataConverter set, else the worker's; told the workflow context
// when it is converter.ContextAware, as go.temporal.io/sdk tells it.
func (r *workflowRun) dataConverter(ctx Context) converter.DataConverter {
	dc := r.env.dc
	if set, ok := ctx.Value(dataConverterKey{}).(converter.DataConverter); ok {
		dc = set
	}
	if aware, ok := dc.(converter.ContextAware); ok {
		dc = aware.WithWorkflowContext(ctx)
	}
	return dc
}
