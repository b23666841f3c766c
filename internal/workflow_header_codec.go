package internal

import (
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/propagation"
)

// headerCodecFor returns what gives the codec of a workflow command's
// header fields (see CodecContextPropagator): the worker's data
// converter's codecs, told sc, the serialization context of the command's
// target. It is called only when a field is to be encoded.
func (r *workflowRun) headerCodecFor(sc converter.SerializationContext) func() converter.PayloadCodec {
	return func() converter.PayloadCodec {
		return propagation.HeaderCodec(converter.WithDataConverterSerializationContext(r.config.dc, sc))
	}
}

// ownHeaderCodec is headerCodecFor this run: for the headers it receives
// and the run it continues as.
func (r *workflowRun) ownHeaderCodec() func() converter.PayloadCodec {
	return r.headerCodecFor(converter.WorkflowSerializationContext{Namespace: r.info.Namespace, WorkflowID: r.info.WorkflowExecution.ID})
}

// activityHeaderCodec is headerCodecFor an activity the run schedules.
func (r *workflowRun) activityHeaderCodec(activityType, taskQueue string, local bool) func() converter.PayloadCodec {
	return r.headerCodecFor(converter.ActivitySerializationContext{
		Namespace:    r.info.Namespace,
		WorkflowID:   r.info.WorkflowExecution.ID,
		WorkflowType: r.info.WorkflowType.Name,
		ActivityType: activityType,
		TaskQueue:    taskQueue,
		IsLocal:      local,
	})
}
