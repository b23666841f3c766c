package workflow

import (
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal"
)

// ContextAware may be implemented by a DataConverter that wants to see the
// context of each conversion (a key chosen by a value of the workflow's
// context, say): the SDK converts through WithContext's or
// WithWorkflowContext's result. It is converter.ContextAware.
type ContextAware = converter.ContextAware

// WithDataConverter returns a context whose workflow calls (activities,
// local activities, child workflows, external signals, continue-as-new,
// side effects) encode their arguments and decode their results with dc
// instead of the worker's data converter.
func WithDataConverter(ctx Context, dc converter.DataConverter) Context {
	return internal.WithDataConverter(ctx, dc)
}

// DataConverterWithoutDeadlockDetection returns a converter whose
// conversions in workflow code stop the deadlock clock while they run,
// for converters that legitimately take long (a remote codec, a key
// service). Elsewhere it converts as c does.
func DataConverterWithoutDeadlockDetection(c converter.DataConverter) converter.DataConverter {
	return internal.DataConverterWithoutDeadlockDetection(c)
}
