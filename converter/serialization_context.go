package converter

// SerializationContext says where payloads being converted belong. Its
// concrete type is one of WorkflowSerializationContext,
// ActivitySerializationContext or NexusSerializationContext.
type SerializationContext interface {
	isSerializationContext()
}

// WorkflowSerializationContext is the context of workflow-level payloads:
// workflow and child workflow input and result, signals, queries, updates,
// memo and continue-as-new arguments. For a child workflow or an external
// signal, WorkflowID is the target workflow's.
type WorkflowSerializationContext struct {
	// Namespace is the namespace of the workflow.
	Namespace string
	// WorkflowID is the ID of the workflow the payloads belong to.
	WorkflowID string
}

func (WorkflowSerializationContext) isSerializationContext() {}

// ActivitySerializationContext is the context of activity-level payloads:
// activity input and result, heartbeat details and activity failure details.
type ActivitySerializationContext struct {
	// Namespace is the namespace of the activity.
	Namespace string
	// WorkflowID is the ID of the workflow that scheduled the activity;
	// empty for a standalone activity.
	WorkflowID string
	// WorkflowType is that workflow's type; empty for a standalone
	// activity.
	WorkflowType string
	// ActivityType is the activity's type name.
	ActivityType string
	// TaskQueue is the task queue the activity is scheduled on.
	TaskQueue string
	// IsLocal is true for a local activity.
	IsLocal bool
}

func (ActivitySerializationContext) isSerializationContext() {}

// NexusSerializationContext is the context of Nexus operation payloads.
type NexusSerializationContext struct {
	// Endpoint is the Nexus endpoint name.
	Endpoint string
	// Service is the Nexus service name.
	Service string
	// Operation is the resolved operation name.
	Operation string
}

func (NexusSerializationContext) isSerializationContext() {}

// DataConverterWithSerializationContext may be implemented by a
// DataConverter that varies with the serialization context (for example,
// using the workflow ID as associated data for encryption). The method is
// called often and should be cheap; the converter must also work when it is
// never called.
type DataConverterWithSerializationContext interface {
	// WithSerializationContext returns the converter to use for payloads
	// of that context; never nil.
	WithSerializationContext(SerializationContext) DataConverter
}

// PayloadCodecWithSerializationContext is the same for a PayloadCodec.
type PayloadCodecWithSerializationContext interface {
	// WithSerializationContext returns the codec to use for payloads of
	// that context; never nil.
	WithSerializationContext(SerializationContext) PayloadCodec
}

// FailureConverterWithSerializationContext is the same for a FailureConverter.
type FailureConverterWithSerializationContext interface {
	// WithSerializationContext returns the converter to use for failures
	// of that context; never nil.
	WithSerializationContext(SerializationContext) FailureConverter
}

// WithDataConverterSerializationContext returns dc specialised for ctx when
// dc implements DataConverterWithSerializationContext, and dc otherwise. It
// panics if the implementation returns nil, which breaks its contract.
func WithDataConverterSerializationContext(dc DataConverter, ctx SerializationContext) DataConverter {
	aware, ok := dc.(DataConverterWithSerializationContext)
	if !ok {
		return dc
	}
	result := aware.WithSerializationContext(ctx)
	if result == nil {
		panic("converter: WithSerializationContext of data converter returned nil")
	}
	return result
}

// WithFailureConverterSerializationContext returns fc specialised for ctx
// when fc implements FailureConverterWithSerializationContext, and fc
// otherwise. It panics if the implementation returns nil.
func WithFailureConverterSerializationContext(fc FailureConverter, ctx SerializationContext) FailureConverter {
	aware, ok := fc.(FailureConverterWithSerializationContext)
	if !ok {
		return fc
	}
	result := aware.WithSerializationContext(ctx)
	if result == nil {
		panic("converter: WithSerializationContext of failure converter returned nil")
	}
	return result
}
