package clientapi

import "github.com/durable-go/sdk/converter"

type (
	// CompleteActivityOptions are the arguments of
	// Client.CompleteActivityWithOptions.
	CompleteActivityOptions struct {
		// TaskToken identifies the activity attempt. Required.
		TaskToken []byte
		// Result is the activity's result when Err is nil.
		Result any
		// Err fails the activity, or cancels it when it is a CanceledError
		// or context.Canceled.
		Err error
		// Namespace is the activity's namespace; the client's when empty.
		Namespace string
		// WorkflowID, ActivityType, WorkflowType and TaskQueue only feed
		// the data converter's serialization context.
		WorkflowID   string
		ActivityType string
		WorkflowType string
		TaskQueue    string
		// NexusSerializationContext, when set, is the serialization
		// context Result and Err are encoded with instead: that of the
		// Nexus operation whose handler started the activity
		// (activity.Info.NexusSerializationContext), whose caller reads
		// them.
		NexusSerializationContext *converter.NexusSerializationContext
	}

	// CompleteActivityByIDOptions are the arguments of
	// Client.CompleteActivityByIDWithOptions.
	CompleteActivityByIDOptions struct {
		// Namespace, WorkflowID and ActivityID identify the activity.
		// Required.
		Namespace  string
		WorkflowID string
		// RunID selects the workflow run; the current run when empty.
		RunID      string
		ActivityID string
		// Result is the activity's result when Err is nil.
		Result any
		// Err fails the activity, or cancels it when it is a CanceledError
		// or context.Canceled.
		Err error
		// ActivityType, WorkflowType and TaskQueue only feed the data
		// converter's serialization context.
		ActivityType string
		WorkflowType string
		TaskQueue    string
	}

	// RecordActivityHeartbeatOptions are the arguments of
	// Client.RecordActivityHeartbeatWithOptions.
	RecordActivityHeartbeatOptions struct {
		// TaskToken identifies the activity attempt. Required.
		TaskToken []byte
		// Details are recorded with the heartbeat; the next attempt can
		// read them.
		Details []any
		// Namespace is the activity's namespace; the client's when empty.
		Namespace string
		// WorkflowID, ActivityType, WorkflowType and TaskQueue only feed
		// the data converter's serialization context.
		WorkflowID   string
		ActivityType string
		WorkflowType string
		TaskQueue    string
		// NexusSerializationContext, when set, is the serialization
		// context Details are encoded with instead: that of the Nexus
		// operation whose handler started the activity
		// (activity.Info.NexusSerializationContext).
		NexusSerializationContext *converter.NexusSerializationContext
	}

	// RecordActivityHeartbeatByIDOptions are the arguments of
	// Client.RecordActivityHeartbeatByIDWithOptions.
	RecordActivityHeartbeatByIDOptions struct {
		// Namespace is the activity's namespace; the client's when empty.
		Namespace string
		// WorkflowID and ActivityID identify the activity. Required.
		WorkflowID string
		// RunID selects the workflow run; the current run when empty.
		RunID      string
		ActivityID string
		// Details are recorded with the heartbeat; the next attempt can
		// read them.
		Details []any
		// ActivityType, WorkflowType and TaskQueue only feed the data
		// converter's serialization context.
		ActivityType string
		WorkflowType string
		TaskQueue    string
	}
)
