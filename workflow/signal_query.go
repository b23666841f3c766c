package workflow

import "github.com/durable-go/sdk/internal"

// SignalChannelOptions configure GetSignalChannelWithOptions.
//
//   - Description: what the signal does, published in the workflow's
//     metadata (the __temporal_workflow_metadata query, shown by the UI).
//
// NOTE: Experimental
type SignalChannelOptions = internal.SignalChannelOptions

// QueryHandlerOptions configure SetQueryHandlerWithOptions.
//
//   - Description: what the query returns, published in the workflow's
//     metadata (the __temporal_workflow_metadata query, shown by the UI).
//
// NOTE: Experimental
type QueryHandlerOptions = internal.QueryHandlerOptions

// GetSignalChannel returns the channel on which the workflow receives the
// signals named signalName, sent with client.Client.SignalWorkflow, by
// another workflow (SignalExternalWorkflow), or with SignalWithStart.
// Signals that arrive before the code asks for the channel wait in it, in
// the order they arrived, so none is lost between two receives.
//
// Receive each signal's argument into a value of the type the sender sent:
//
//	var approval Approval
//	signals := workflow.GetSignalChannel(ctx, "approve")
//	signals.Receive(ctx, &approval)
//
// A signal whose payload does not decode into that value is dropped with
// a logged error, and Receive waits for the next one, so that one bad
// sender cannot wedge the workflow. Signals still in the channel when the
// workflow completes or continues as new are lost (with a warning in the
// log): drain them with ReceiveAsync first (see NewContinueAsNewError).
// Add the channel to a Selector to wait for signals and other events
// together.
func GetSignalChannel(ctx Context, signalName string) ReceiveChannel {
	return internal.GetSignalChannel(ctx, signalName)
}

// GetSignalChannelWithOptions is GetSignalChannel with options: a
// Description of the signal for the workflow's metadata.
//
// NOTE: Experimental
func GetSignalChannelWithOptions(ctx Context, signalName string, options SignalChannelOptions) ReceiveChannel {
	return internal.GetSignalChannelWithOptions(ctx, signalName, options)
}

// GetUnhandledSignalNames returns, sorted, the names of the signals that
// arrived and that the code has not received yet. Check it before
// completing or continuing as new to avoid losing signals.
func GetUnhandledSignalNames(ctx Context) []string { return internal.GetUnhandledSignalNames(ctx) }

// SetQueryHandler registers handler to answer the queries of type
// queryType, sent with client.Client.QueryWorkflow. The handler is a
// function whose parameters take the query's arguments and which returns
// a result and an error; the caller gets the result, or the error. It
// answers from the workflow's current state: it must not change that
// state, and it must not block (no activities, timers, Await or channel
// receives).
//
//	err := workflow.SetQueryHandler(ctx, "progress", func() (int, error) {
//		return done, nil
//	})
//
// Register query handlers early in the workflow function, before it
// blocks, so that queries find them. Registering a queryType again
// replaces its handler. It returns an error when handler is not such a
// function, or when queryType starts with "__" (names the SDK reserves for
// its own queries, such as __stack_trace).
func SetQueryHandler(ctx Context, queryType string, handler any) error {
	return internal.SetQueryHandler(ctx, queryType, handler)
}

// SetQueryHandlerWithOptions is SetQueryHandler with options: a
// Description of the query for the workflow's metadata.
//
// NOTE: Experimental
func SetQueryHandlerWithOptions(ctx Context, queryType string, handler any, options QueryHandlerOptions) error {
	return internal.SetQueryHandlerWithOptions(ctx, queryType, handler, options)
}
