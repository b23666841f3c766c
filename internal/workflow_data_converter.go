package internal

import (
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/wfsync"
)

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

// dataConverter is what workflow code converts its own payloads with in
// ctx (side effects, markers, continue-as-new): the converter
// WithDataConverter set, as it is, else the run's (the worker's told the
// run's serialization context); told the workflow context when it is
// converter.ContextAware, as go.temporal.io/sdk tells it.
func (r *workflowRun) dataConverter(ctx Context) converter.DataConverter {
	dc := r.dc
	if set, ok := ctx.Value(dataConverterKey{}).(converter.DataConverter); ok {
		dc = set
	}
	return withWorkflowContext(dc, ctx)
}

// withWorkflowContext tells dc the workflow context ctx when it is
// converter.ContextAware.
func withWorkflowContext(dc converter.DataConverter, ctx Context) converter.DataConverter {
	if aware, ok := dc.(converter.ContextAware); ok {
		dc = aware.WithWorkflowContext(ctx)
	}
	return dc
}

// Serialization contexts. As in go.temporal.io/sdk, every payload and
// failure is converted with the context of where it belongs: the run's own
// (input, result, signals, queries, updates, memo, markers) with its
// WorkflowSerializationContext, an activity's input and result with its
// ActivitySerializationContext, a child's with the child's
// WorkflowSerializationContext, an external signal's with its target's.
// A converter that implements none of the WithSerializationContext
// interfaces is used as it is: the checks below are type assertions, and
// no context is built for it.

// useOwnConverters gives the run, and its engine, the worker's converters
// told the run's serialization context.
func (r *workflowRun) useOwnConverters() {
	r.dc, r.fc = r.config.dc, r.config.fc
	if serializationAware(r.dc, r.fc) {
		sc := converter.WorkflowSerializationContext{Namespace: r.info.Namespace, WorkflowID: r.info.WorkflowExecution.ID}
		r.dc = converter.WithDataConverterSerializationContext(r.dc, sc)
		r.fc = converter.WithFailureConverterSerializationContext(r.fc, sc)
	}
	r.exec.UseConverters(r.dc, r.fc)
}

// serializationAware reports whether dc or fc varies with the
// serialization context.
func serializationAware(dc converter.DataConverter, fc converter.FailureConverter) bool {
	_, dcAware := dc.(converter.DataConverterWithSerializationContext)
	_, fcAware := fc.(converter.FailureConverterWithSerializationContext)
	return dcAware || fcAware
}

// rootDataConverter is the converter that payloads belonging elsewhere
// than the run are converted with, once told their context: the one
// WithDataConverter set in ctx, else the worker's.
func (r *workflowRun) rootDataConverter(ctx Context) converter.DataConverter {
	if set, ok := ctx.Value(dataConverterKey{}).(converter.DataConverter); ok {
		return set
	}
	return r.config.dc
}

// activityConverters are the converters of an activity's (or a local
// activity's) input, result and failure.
func (r *workflowRun) activityConverters(ctx Context, activityType, taskQueue string, local bool) (converter.DataConverter, converter.FailureConverter) {
	dc, fc := r.rootDataConverter(ctx), r.config.fc
	if serializationAware(dc, fc) {
		sc := converter.ActivitySerializationContext{
			Namespace:    r.info.Namespace,
			WorkflowID:   r.info.WorkflowExecution.ID,
			WorkflowType: r.info.WorkflowType.Name,
			ActivityType: activityType,
			TaskQueue:    taskQueue,
			IsLocal:      local,
		}
		dc = converter.WithDataConverterSerializationContext(dc, sc)
		fc = converter.WithFailureConverterSerializationContext(fc, sc)
	}
	return withWorkflowContext(dc, ctx), fc
}

// workflowConverters are the converters of another workflow's payloads
// and failures: a child's input and result, an external signal's input.
func (r *workflowRun) workflowConverters(ctx Context, namespace, workflowID string) (converter.DataConverter, converter.FailureConverter) {
	dc, fc := r.rootDataConverter(ctx), r.config.fc
	if serializationAware(dc, fc) {
		if namespace == "" {
			namespace = r.info.Namespace
		}
		sc := converter.WorkflowSerializationContext{Namespace: namespace, WorkflowID: workflowID}
		dc = converter.WithDataConverterSerializationContext(dc, sc)
		fc = converter.WithFailureConverterSerializationContext(fc, sc)
	}
	return withWorkflowContext(dc, ctx), fc
}

// DataConverterWithoutDeadlockDetection returns a converter whose
// conversions in workflow code stop the deadlock clock while they run,
// for converters that legitimately take long (a remote codec, a key
// service). Elsewhere it converts as dc does.
func DataConverterWithoutDeadlockDetection(dc converter.DataConverter) converter.DataConverter {
	return wfsync.WithoutDeadlockDetection(dc)
}
