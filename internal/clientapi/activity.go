package clientapi

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
